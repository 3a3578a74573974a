"""The report page in headless Chromium (Playwright driving Debian's /usr/bin/chromium)."""
from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from django.conf import settings as django_settings

from tests.browser import CHROMIUM, needs_chromium
from tests.reports import sessionkit as kit

SCREENSHOTS = django_settings.VAR_DIR / "screenshots"  # LOO_VAR_DIR, as the README says

pytestmark = [
    pytest.mark.browser,
    needs_chromium,
]


@contextmanager
def logged_in_page(live_server, settings, user, **context: Any) -> Iterator[Any]:
    """A Chromium page logged in as ``user`` (None: a visitor who has not logged in;
    ``context``: Playwright's viewport and such)."""
    from django.test import Client
    from playwright.sync_api import sync_playwright

    cookies = []
    if user is not None:
        browser_client = Client()
        browser_client.force_login(user)
        cookies = [{"name": settings.SESSION_COOKIE_NAME, "url": live_server.url,
                    "value": browser_client.cookies[settings.SESSION_COOKIE_NAME].value}]
    os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")  # Playwright's loop in this thread
    with sync_playwright() as pw:
        browser = pw.chromium.launch(
            executable_path=CHROMIUM, headless=True,
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"])
        try:
            ctx = browser.new_context(**context)
            ctx.add_cookies(cookies)
            yield ctx.new_page()
        finally:
            browser.close()


def test_report_page_shows_numbers_and_charts(live_server, closed_report, member_for, settings):
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    with logged_in_page(live_server, settings, member_for("viewer").user,
                        viewport={"width": 1280, "height": 900}) as page:
        response = page.goto(live_server.url + closed_report)
        assert response is not None and response.status == 200
        for seat in kit.SEATS:
            cell = page.locator(f'tr[data-player="{seat}"] td.result')
            assert cell.get_attribute("data-result") == str(kit.EXPECTED["result_money"][seat])
        assert page.locator('tr[data-player="ann"] td.result').inner_text() == "-30.25"
        assert page.locator("#transfers tbody tr").count() == 3
        assert page.locator("#deals tbody tr").count() == 53
        chips = page.locator("#chips-chart polyline")
        assert chips.count() == 4
        # the last deal, then the close (the pool split): the chart ends where the table does
        bob = page.locator('#chips-chart polyline[data-series="bob"]').get_attribute(
            "data-values").split(",")
        assert bob[-2:] == [str(20 + kit.EXPECTED["won"]["bob"]),
                            str(kit.EXPECTED["returned"]["bob"])]
        assert page.locator("#chips-chart").get_attribute("data-last-point") == "close"
        assert f'Bob ({kit.EXPECTED["returned"]["bob"]})' in page.locator(
            "#chips-chart").inner_html()
        assert page.locator("#pool-chart polyline").count() == 1
        assert page.locator("#pool-chart polyline").get_attribute(
            "data-values").split(",")[-1] == "0"
        box = page.locator("#chips-chart").bounding_box()
        assert box is not None and box["width"] > 300 and box["height"] > 100  # drawn
        page.screenshot(path=str(SCREENSHOTS / "session-report.png"), full_page=True)
    assert (SCREENSHOTS / "session-report.png").stat().st_size > 10_000


@pytest.mark.parametrize("path", ["report", "/clubs/oak/results/", "/", "/clubs/oak/"])
def test_a_phone_scrolls_a_wide_table_in_its_box_not_the_whole_page(
        path, live_server, closed_report, member_for, settings):
    url = live_server.url + (closed_report if path == "report" else path)
    with logged_in_page(live_server, settings, member_for("viewer").user,
                        viewport={"width": 390, "height": 844}, is_mobile=True,
                        has_touch=True) as page:
        assert page.goto(url).status == 200
        # without a viewport the page was laid out 980 wide and shrunk; with one, the players
        # table pushed the page to 830-1,000 px: the notes and headings ran off the screen
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        boxes = page.locator(".scroll")
        assert boxes.count() >= 1
        if path == "report":
            players = page.locator("#players").locator("xpath=..")
            assert players.evaluate("e => e.scrollWidth > e.clientWidth")  # it scrolls, inside
            page.screenshot(path=str(SCREENSHOTS / "session-report-phone.png"), full_page=True)


def test_the_printed_page_leaves_out_the_links_and_keeps_every_column(
        live_server, closed_report, member_for, settings):
    with logged_in_page(live_server, settings, member_for("viewer").user,
                        viewport={"width": 800, "height": 900}) as page:
        page.goto(live_server.url + closed_report)
        assert page.locator("nav").is_visible()
        page.emulate_media(media="print")
        assert not page.locator("nav").is_visible()
        # a scrolling box would clip a wide table on paper
        assert page.locator("#deals").locator("xpath=..").evaluate(
            "e => getComputedStyle(e).overflowX") == "visible"
