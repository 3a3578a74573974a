"""What the report page and the PDF look like to the treasurer who hands them round: headers a
screen reader can follow, numbers grouped, names as the tables give them, empty sessions said
to be empty, a PDF whose every page says whose it is. (No database: hand-made facts.)"""
from __future__ import annotations

import io
import json
import re
from html.parser import HTMLParser

import pytest

from games.reports.model import DealFacts, Purchase, build_report
from games.reports.render import group_digits, report_csv, report_html, report_json, report_pdf
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
    # every wide table sits in a box that scrolls on a narrow screen, named for the keyboard
    assert html.count('<div class="scroll" role="region"') == 4
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


def test_the_banker_and_each_handle_are_named_as_the_players_table_names_them():
    html = report_html(build_report(facts(display_names={"ann": "Ann Smith", "bob": "Bob"})))
    assert "Banker: <b><bdi>Ann Smith</bdi></b>" in html
    # the deals table says "ann": the players table says who that is; "Bob" needs no telling
    assert '<bdi>Ann Smith</bdi> <span class="handle" title="as the deals table names this player">ann</span>' in html
    assert '<bdi>Bob</bdi> <span class="handle"' not in html


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
