"""Server-side SVG charts."""
import re
import xml.etree.ElementTree as ET

from games.reports.charts import _ticks, chips_chart, pool_chart

SVG = "{http://www.w3.org/2000/svg}"


def test_chips_chart_plots_every_value():
    svg = chips_chart({"ann": [20, 23, 17, 40], "bob": [20, 14, 11, -3]})
    root = ET.fromstring(svg)  # well-formed XML
    lines = {p.get("data-series"): p for p in root.iter(f"{SVG}polyline")}
    assert lines["ann"].get("data-values") == "20,23,17,40"
    assert lines["bob"].get("data-values") == "20,14,11,-3"
    ann = [tuple(map(int, p.split(","))) for p in lines["ann"].get("points").split()]
    assert [px for px, _ in ann] == [56, 307, 558, 810]  # evenly spaced across 754 px
    # ticks run -10..40 over 284 px: 40 is the top (36), 20 is 2/5 of the way down.
    assert ann[3][1] == 36 and ann[0][1] == 36 + 20 * 284 // 50
    assert "bob (-3)" in svg  # legend carries the final count


def test_pool_chart_and_escaping():
    svg = pool_chart([0, 3, 9, 6])
    assert 'data-series="pool" data-values="0,3,9,6"' in svg
    evil = chips_chart({"<b>&": [1, 2]})
    ET.fromstring(evil)
    assert "<b>&" not in evil and "&lt;b&gt;&amp;" in evil


def test_ticks_are_round_numbers():
    assert _ticks(0, 9) == [0, 2, 4, 6, 8, 10]
    assert _ticks(-10, 40) == [-10, 0, 10, 20, 30, 40]
    assert _ticks(0, 0) == [0, 1]
    assert not re.search(r"\d\.\d", chips_chart({"a": [0, 7, 3]}))  # integer coordinates only


def test_a_closing_point_is_labelled_close():
    svg = chips_chart({"ann": [20, 23, 17, 18]}, closing=True)
    root = ET.fromstring(svg)
    assert root.get("data-last-point") == "close"
    labels = [t.text for t in root.iter(f"{SVG}text")]
    assert labels[-1] == "ann (18)" and "close" in labels and "3" not in labels
    marker = root.find(f"{SVG}line[@class='close']")
    assert marker is not None and marker.get("x1") == "810"  # the last point's x
    assert "at the close" in root.find(f"{SVG}title").text
    assert 'data-values="0,3,9,0"' in pool_chart([0, 3, 9, 0], closing=True)


def test_the_close_label_keeps_clear_of_the_deal_numbers():
    # the start, 51 deals and the close: a deal number every 5th; 50 is too near the close
    root = ET.fromstring(pool_chart([7] * 53, closing=True))
    labels = [t.text for t in root.iter(f"{SVG}text")]
    assert "45" in labels and "50" not in labels and labels.count("close") == 1
    root = ET.fromstring(pool_chart([7] * 54, closing=True))  # 52 deals: 50 is far enough
    assert "50" in [t.text for t in root.iter(f"{SVG}text")]


def test_an_open_chart_has_no_close():
    svg = chips_chart({"ann": [20, 23, 17, 40]})
    assert "close" not in svg and ET.fromstring(svg).get("data-last-point") is None
