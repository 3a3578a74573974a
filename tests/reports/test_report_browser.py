"""The report page in headless Chromium (Playwright driving Debian's /usr/bin/chromium)."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.reports import sessionkit as kit

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
SCREENSHOTS = Path(__file__).resolve().parents[2] / "var" / "screenshots"

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not Path(CHROMIUM).exists(), reason=f"no chromium binary at {CHROMIUM}"),
]


def test_report_page_shows_numbers_and_charts(live_server, club, member_for, settings):
    from django.test import Client
    from playwright.sync_api import sync_playwright

    from games.services.closing import session_close
    from tests.reports.conftest import record_hand_session

    session = record_hand_session(club, member_for("scorer").user)
    session_close(session=session, user=member_for("scorer").user)
    browser_client = Client()
    browser_client.force_login(member_for("viewer").user)
    cookie = browser_client.cookies[settings.SESSION_COOKIE_NAME].value

    os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")  # Playwright's loop in this thread
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as pw:
        browser = pw.chromium.launch(
            executable_path=CHROMIUM, headless=True,
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"])
        try:
            context = browser.new_context(viewport={"width": 1280, "height": 900})
            context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": cookie,
                                  "url": live_server.url}])
            page = context.new_page()
            response = page.goto(f"{live_server.url}/clubs/oak/sessions/{session.pk}/report/")
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
        finally:
            browser.close()
    assert (SCREENSHOTS / "session-report.png").stat().st_size > 10_000
