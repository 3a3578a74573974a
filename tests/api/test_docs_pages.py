"""The API's docs pages (Swagger UI, ReDoc) load nothing from another host: their scripts and
styles are drf-spectacular-sidecar's, and ReDoc's "API docs by Redocly" logo, which its script
would fetch from cdn.redoc.ly, is kept out by the page's Content-Security-Policy."""
from __future__ import annotations

import os
from urllib.parse import urlsplit

import pytest
from rest_framework.test import APIClient

from tests.browser import CHROMIUM, needs_chromium

pytestmark = pytest.mark.django_db

PAGES = {"/api/v1/docs/": ".opblock", "/api/v1/redoc/": "[role=menu]"}


def test_the_redoc_page_allows_images_from_its_own_host_only():
    page = APIClient().get("/api/v1/redoc/").content.decode()
    assert '<meta http-equiv="Content-Security-Policy" content="img-src \'self\' data:">' in page


@pytest.mark.browser
@needs_chromium
@pytest.mark.parametrize("url", sorted(PAGES))
def test_a_docs_page_asks_no_other_host_for_anything(live_server, url):
    from playwright.sync_api import sync_playwright

    os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")  # Playwright's loop in this thread
    here = urlsplit(live_server.url).netloc
    asked: list[str] = []
    elsewhere: list[str] = []  # what went out to another host (and was stopped here)

    def stop(route) -> None:
        elsewhere.append(route.request.url)
        route.abort()

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True,
                                     args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"])
        try:
            page = browser.new_page()
            page.on("request", lambda request: asked.append(request.url))
            page.route(lambda u: urlsplit(u).scheme in ("http", "https") and urlsplit(u).netloc != here,
                       stop)
            assert page.goto(f"{live_server.url}{url}").status == 200
            page.wait_for_selector(PAGES[url], timeout=30_000)
            page.wait_for_load_state("networkidle")
        finally:
            browser.close()
    assert any(a.endswith("/api/v1/schema/") for a in asked)  # the page did load the schema
    assert elsewhere == []


@pytest.mark.parametrize("url", [*sorted(PAGES), "/api/v1/clubs/"])
def test_the_docs_and_the_browsable_api_name_their_language(url, api_client_for):
    """Their templates' <html> names none (loo_ledger/browsable.py); a screen reader would guess."""
    page = api_client_for("owner").get(url, HTTP_ACCEPT="text/html").content.decode()
    assert page.lstrip().startswith('<!DOCTYPE html>\n<html lang="en-gb">\n'), page[:80]
