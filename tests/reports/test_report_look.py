"""What the report page and the PDF look like to the treasurer who hands them round: headers a
screen reader can follow, numbers grouped, names as the tables give them, empty sessions said
to be empty, a PDF whose every page says whose it is. (No database: hand-made facts.)"""
from __future__ import annotations

import io
import json
import re
from html.parser import HTMLParser

import pytest

from games.reports.model import ClosingEvent, DealFacts, Purchase, build_report
from games.reports.render import (
    group_digits,
    history_line,
    report_csv,
    report_html,
    report_json,
    report_pdf,
)
from tests.reports.test_report_model import D1, D2, facts


class Cells(HTMLParser):
    """Every <th> with its attributes and the table it sits in; the <html> and <meta> tags."""

    def __init__(self) -> None:
        super().__init__()
        self.ths: list[tuple[str, dict[str, str | None]]] = []
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.table = ""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        self.tags.append((tag, a))
        if tag == "table":
            self.table = a.get("id") or ""
        elif tag == "th":
            self.ths.append((self.table, a))


def parsed(html: str) -> Cells:
    cells = Cells()
    cells.feed(html)
    return cells


def test_every_header_cell_says_what_it_heads_and_the_page_fits_a_phone():
    html = report_html(build_report(facts(display_names={"ann": "Ann Smith"})))
    cells = parsed(html)
    tables = {table for table, _ in cells.ths}
    assert {"players", "through-banker", "transfers", "deals"} <= tables
    assert [a for _, a in cells.ths if a.get("scope") not in ("col", "row")] == []
    # a player's row is headed by the name, so a screen reader says whose figure it reads
    assert re.search(r'<tr data-player="ann">\s*<th scope="row"><bdi>Ann Smith</bdi>', html)
    assert re.search(r'<tr data-deal="2"><th scope="row" class="num">2 ', html)
    tags = dict(cells.tags)
    assert tags["html"].get("lang") == "en"
    assert ("meta", {"name": "viewport", "content": "width=device-width, initial-scale=1"}) in cells.tags
    # every table (players, banker, transfers, the charts' figures, deals, purchases) and chart
    # sits in a box that scrolls on a narrow screen, named and reachable for the keyboard
    boxes = re.findall(r'<div class="scroll[^"]*" role="region" aria-label(?:ledby)?="[^"]+" '
                       r'tabindex="0">\n?<(table|figure)', html)
    assert (boxes.count("table"), boxes.count("figure")) == (html.count("<table"), 2) == (6, 2)
    for svg in re.findall(r"<svg [^>]*>", html):
        assert 'role="img"' in svg and 'aria-label="' in svg
    assert html.count("<desc>At the end: ") == 2


def test_money_and_counts_are_grouped_on_the_page_but_not_in_the_csv_or_json():
    value = 500000  # 5,000.00 a chip
    purchases = [Purchase(p.player, p.chips, p.chips * value, p.paid, p.after_deal)
                 for p in facts().purchases]
    r = build_report(facts(chip_value=value, currency="IRR", purchases=purchases))
    html = report_html(r)
    assert "chip value 5,000.00 IRR" in html
    assert 'data-result="-2500000">-25,000.00</td>' in html  # ann: 5 chips down
    assert "bought 150,000.00 (100,000.00 paid, 50,000.00 owed)" in html  # the explanation too
    assert "banker pays" in html and not re.search(r"\d{4,}\.\d\d", html.split("<svg")[0])
    assert "-25000.00" in report_csv(r, "players") and "-25,000.00" not in report_csv(r, "players")
    assert json.loads(report_json(r))["players"][0]["result"] == "-25000.00"


@pytest.mark.parametrize("text, shown", [
    ("-65000.00", "-65,000.00"), ("1234567", "1,234,567"), ("999.99", "999.99"),
    ("0.0005", "0.0005"),  # a fraction is not grouped
    ("p12345 ann:1234", "p12345 ann:1,234"),  # nor a handle's digits
    ("2026-11-28", "2026-11-28"), ("1,234.50", "1,234.50"),  # nor a date, nor twice
    ("ann owes 270000, bob is owed 300000; settles", "ann owes 270,000, bob is owed 300,000; settles"),
])
def test_group_digits(text, shown):
    assert group_digits(text) == shown


def test_a_handle_of_digits_is_not_grouped_as_a_number_in_the_explanations():
    """A member's handle may be all digits ("2024"): the banker lines' and the transfers' "Why"
    said "the banker pays 2,024 ..." and "2,024 is owed ...", a name the club has no member of."""
    r = build_report(facts(
        seats=["2024", "bob"], banker="club", deals=[], end_pool_shares={}, chip_value=1000,
        purchases=[Purchase("2024", 2000, 2000000, True), Purchase("bob", 2000, 2000000, False)],
        returned={"2024": 2500, "bob": 1500}))
    html = report_html(r)
    assert "the banker pays 2024 25,000.00" in html
    assert "bob owes 5,000.00, 2024 is owed 5,000.00" in html
    assert "2,024" not in html


def test_the_banker_and_each_handle_are_named_as_the_players_table_names_them():
    html = report_html(build_report(facts(display_names={"ann": "Ann Smith", "bob": "Bob"})))
    assert "Banker: <b><bdi>Ann Smith</bdi></b>" in html
    # the deals table says "ann": the players table says who that is; "Bob" needs no telling
    assert '<bdi>Ann Smith</bdi> <span class="handle" title="as the deals table names this player">ann</span>' in html
    assert '<bdi>Bob</bdi> <span class="handle"' not in html


def test_a_banker_who_does_not_sit_is_named_by_display_name_and_the_club_as_before():
    # sam banks without a seat: the report knew only the seats' names and showed "sam"
    r = build_report(facts(banker="sam", display_names={"ann": "Ann Smith", "sam": "Sam Banks"}))
    assert r.banker == "sam" and r.banker_display_name == "Sam Banks"
    data = json.loads(report_json(r))
    assert (data["banker"], data["banker_display_name"]) == ("sam", "Sam Banks")
    assert "Banker: <b><bdi>Sam Banks</bdi></b>" in report_html(r)
    # nobody sits as the banker: no player row says "banker"
    assert '<span class="badge">banker</span>' not in report_html(r)
    club = build_report(facts(banker="club"))
    assert club.banker_display_name == "club" and "Banker: <b><bdi>club</bdi></b>" in report_html(club)


@pytest.mark.parametrize("game, name", [("poker-loo", "poker-Loo"), ("irish", "Irish Loo"),
                                        ("three-card", "three-card Loo")])
def test_the_page_names_the_game_as_the_laws_do_and_the_json_keeps_its_key(game, name):
    r = build_report(facts(rules={"game": game}))
    html = report_html(r)
    assert f'game <span id="game" data-game="{game}">{name}</span> ·' in html
    assert f"game {game} " not in html
    data = json.loads(report_json(r))
    assert data["rules"]["game"] == game and data["game_name"] == name


CLOSED_TWICE = [  # closed, reopened, closed again
    ClosingEvent("close", "2026-11-28T23:40:10.123456Z", "sam", "end of the evening"),
    ClosingEvent("reopen", "2026-11-29T10:05:00Z", "olga", "deal 40 miscounted " + "x" * 100),
    ClosingEvent("close", "2026-11-29T10:20:00Z", None, ""),
]


def test_a_reopened_session_says_how_often_it_was_closed_and_reopened():
    r = build_report(facts(history=CLOSED_TWICE))
    assert r.reopenings == 1 and [e.action for e in r.history] == ["close", "reopen", "close"]
    data = json.loads(report_json(r))
    assert data["reopenings"] == 1
    assert data["history"][1] == {"action": "reopen", "at": "2026-11-29T10:05:00Z", "by": "olga",
                                  "reason": "deal 40 miscounted " + "x" * 100}  # whole
    line = history_line(r)
    assert line.startswith("Closed twice, reopened once; last reopened 29 Nov 2026 10:05 UTC "
                           "by olga (deal 40 miscounted xxx")
    assert line.endswith("…); last closed 29 Nov 2026 10:20 UTC.")  # the login is gone: no "by"
    assert f'<span id="history">{line}</span>' in report_html(r)
    # reopened and open now: the last close came before the reopening
    still_open = build_report(facts(status="open", returned=None, end_pool_shares={},
                                    history=CLOSED_TWICE[:2]))
    assert history_line(still_open).startswith(
        "Closed once, reopened once; last closed 28 Nov 2026 23:40 UTC by sam (end of the "
        "evening); last reopened 29 Nov 2026 10:05 UTC by olga")
    # closed once and never reopened: the status badge says it all
    once = build_report(facts(history=CLOSED_TWICE[:1]))
    assert once.reopenings == 0 and history_line(once) == ""
    assert 'id="history"' not in report_html(once)
    assert json.loads(report_json(build_report(facts())))["history"] == []


def test_the_pdf_says_the_reopenings_the_game_and_the_banker_by_name():
    from pypdf import PdfReader

    r = build_report(facts(history=CLOSED_TWICE, rules={"game": "irish"}, banker="sam",
                           display_names={"sam": "Sam Banks"}))
    text = " ".join(p.extract_text() for p in PdfReader(io.BytesIO(report_pdf(r))).pages)
    text = re.sub(r"\s+", " ", text)
    assert "Closed twice, reopened once; last reopened 29 Nov 2026 10:05 UTC by olga" in text
    assert "Banker: Sam Banks" in text and "game Irish Loo" in text


def chart_table(html: str) -> list[tuple[str, list[str]]]:
    """The rows of the table that stands in for the charts: what each row is after, its cells."""
    table = html[html.index('<table id="chart-table">'):]
    table = table[:table.index("</table>")]
    return [(after, re.findall(r'<td class="num">([^<]*)</td>', cells))
            for after, cells in re.findall(r'<tr><th scope="row">([^<]+)</th>(.*?)</tr>', table)]


def test_the_charts_figures_stand_beside_them_as_a_table_a_screen_reader_can_follow():
    """A screen reader cannot follow a line: the chips and the pool the charts draw (the model's
    hand-worked series) are a table below them, headed by the players' names; not in the PDF,
    which prints the charts."""
    html = report_html(build_report(facts(display_names={"ann": "Ann Smith"})))
    assert chart_table(html) == [  # ann, bob, cat, the pool
        ("the buy-ins", ["20", "20", "20", "0"]), ("deal 1", ["24", "23", "17", "6"]),
        ("deal 2", ["24", "17", "26", "3"]), ("the close", ["25", "18", "27", "0"])]
    assert re.search(r'<th scope="col">After</th><th scope="col" class="num"><bdi>Ann Smith</bdi>'
                     r'</th><th scope="col" class="num"><bdi>bob</bdi></th>', html)
    assert 'aria-label="Chips chart"' in html and 'aria-label="Pool chart"' in html
    opened = report_html(build_report(facts(status="open", returned=None)))
    assert chart_table(opened)[-1] == ("deal 2", ["24", "17", "26", "3"])  # no close yet
    assert 'id="chart-table"' not in report_html(build_report(facts()), for_pdf=True)


@pytest.mark.parametrize("status", ["open", "closed"])
def test_a_session_without_deals_says_so_instead_of_drawing_empty_charts(status):
    closed = status == "closed"
    html = report_html(build_report(facts(
        deals=[], status=status, purchases=facts().purchases[:3],
        end_pool_shares={}, returned={"ann": 20, "bob": 20, "cat": 20} if closed else None)))
    assert "<svg" not in html and "<table id=\"deals\"" not in html
    assert f'<p class="empty" id="no-deals">No deals recorded{"" if closed else " yet"}.</p>' in html


def long_report():
    """A closed session of 160 deals: the deals table runs over several pages."""
    deals = [DealFacts(n, D1 if n % 2 else D2) for n in range(1, 161)]
    return build_report(facts(deals=deals, title="Long night at the Oak"))


def test_every_page_of_the_pdf_says_whose_it_is_and_repeats_the_deals_header():
    from pypdf import PdfReader

    reader = PdfReader(io.BytesIO(report_pdf(long_report())))
    pages = [p.extract_text(extraction_mode="layout") for p in reader.pages]
    pages = [p for p in pages if p.strip()]
    assert len(pages) >= 4
    for n, page in enumerate(pages, start=1):
        assert f"page {n} of {len(pages)}" in page
        if n > 1:  # the first page has the title itself
            assert "Long night at the Oak" in page and "Club oak · 28 November 2026" in page
    with_deals = [p for p in pages if re.search(r"^\s+1[0-5]\d\s+(ann|bob)\s", p, re.MULTILINE)]
    assert with_deals and all(re.search(r"#\s+Dealer\s+Pool\s+Before", p) for p in with_deals)
    # the heading is not left at the foot of a page without its table
    deals_head = next(p for p in pages if re.search(r"^\s*Deals\s*$", p, re.MULTILINE))
    assert re.search(r"#\s+Dealer\s+Pool\s+Before", deals_head)


def drawn_past_the_right_edge(pdf: bytes) -> list[tuple[int, str]]:
    """Each text run of ``pdf`` that starts beyond its page's right edge: cut off on paper."""
    from pypdf import PdfReader

    off: list[tuple[int, str]] = []
    for n, page in enumerate(PdfReader(io.BytesIO(pdf)).pages, start=1):
        width = float(page.mediabox.width)

        def visit(text, cm, tm, font, size, n=n, width=width):
            x = tm[4] * cm[0] + tm[5] * cm[2] + cm[4]
            if text.strip() and x > width:
                off.append((n, text.strip()))

        page.extract_text(visitor_text=visit)
    return off


def test_a_long_unbroken_name_or_reason_pushes_no_figure_off_the_pdf_page():
    """A display name, title or void reason of one long word (up to its 120 or 200 characters)
    widened its table past the A4 page: the results and the money columns were cut off."""
    from pypdf import PdfReader

    from games.reports.model import Purchase, Void

    r = build_report(facts(
        title="T" * 120, club_name="C" * 120,
        display_names={"ann": "W" * 120, "bob": "Bob " + "Y" * 100},
        purchases=[*facts().purchases, Purchase("cat", 1, 10, True, 2, Void("Z" * 200, 2))]))
    pdf = report_pdf(r)
    assert drawn_past_the_right_edge(pdf) == []
    text = re.sub(r"\s+", " ", " ".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf)).pages))
    assert "-0.50" in text and "0.70" in text  # the results are there, on the page
