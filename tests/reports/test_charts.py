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
