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
    assert [px for px, _ in ann] == [56, 290, 525, 760]  # evenly spaced across 704 px
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
    assert marker is not None and marker.get("x1") == "760"  # the last point's x
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


def test_the_legend_names_players_as_the_tables_do_and_fits_the_chart():
    long = "Bartholomew-Maximilian Fitzwilliam-Ponsonby of Great Snoring"
    svg = chips_chart({"ann": [20, 25], "longa": [20, 15], "dar": [20, 20]},
                      names={"ann": "Ann", "longa": long, "dar": "داریوش"})
    root = ET.fromstring(svg)
    legend = [t.text for g in root.iter(f"{SVG}g") for t in g.iter(f"{SVG}text")]
    # a handle ("longa") could not be told apart in the players table; a 60-character name ran
    # off the chart's right edge: cut, with the whole name as the entry's tooltip
    assert legend[0] == "Ann (25)" and legend[1] == "Bartholomew-Max\u2026 (15)"
    assert [g.find(f"{SVG}title").text for g in root.iter(f"{SVG}g")][1] == f"{long} (15)"
    # a right-to-left name is isolated, so its count is not drawn before it
    assert legend[2] == "\u2068داریوش\u2069 (20)"
    # the series are still keyed by the seat, for the data attributes
    assert [p.get("data-series") for p in root.iter(f"{SVG}polyline")] == ["ann", "longa", "dar"]
    assert "At the end: Ann 25, " in root.find(f"{SVG}desc").text


def test_a_long_evening_has_round_deal_numbers_thin_lines_and_grouped_ticks():
    root = ET.fromstring(chips_chart({"ann": list(range(0, 3510, 10)), "bob": [5] * 351},
                                     closing=True))
    labels = [t.text for t in root.iter(f"{SVG}text")]
    x_axis = [t.text for t in root.iter(f"{SVG}text") if t.get("y") == "336"]
    # 350 deals: every 50th, not every 30th
    assert x_axis == ["0", "50", "100", "150", "200", "250", "300", "close"]
    assert "3,000" in labels  # the y axis groups its thousands
    assert {p.get("stroke-width") for p in root.iter(f"{SVG}polyline")} == {"1"}
    short = ET.fromstring(chips_chart({"ann": [20, 23, 17]}))
    assert {p.get("stroke-width") for p in short.iter(f"{SVG}polyline")} == {"2"}


def test_every_line_of_a_full_table_can_be_told_from_the_others():
    """Irish Loo seats 16: the palette has 10 colours, so the 11th player's line and legend were
    the 1st's, and no reader could tell whose line was whose. Each line (and its legend key) is
    drawn in a look of its own: a colour, and past the palette a dash pattern too."""
    seats = [f"p{k:02d}" for k in range(16)]
    root = ET.fromstring(chips_chart({s: [20, 20 + k] for k, s in enumerate(seats)}))
    looks = {p.get("data-series"): (p.get("stroke"), p.get("stroke-dasharray"))
             for p in root.iter(f"{SVG}polyline")}
    assert len(set(looks.values())) == len(seats)
    keys = [(g.find(f"{SVG}line").get("stroke"), g.find(f"{SVG}line").get("stroke-dasharray"))
            for g in root.iter(f"{SVG}g") if g.get("class") == "legend"]
    assert keys == [looks[s] for s in seats]  # each legend key drawn as its line is
