"""The browsable API's forms offer what a write takes: the HTML form and the raw data form of a
list whose POST reads another body than its answers show (a deal's number and record, a
session's table and rules) were drawn from the answer's serializer, so they offered the
answer's fields (a deal's revision, status, verdict, ... and no number) and could not be sent."""
from __future__ import annotations

import html
import json
import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from games.api.serializers import DealCreateSerializer, SessionCreateSerializer
from tests.api.conftest import DEAL1, deals_url

pytestmark = pytest.mark.django_db


@pytest.fixture
def browser(club) -> Client:
    """sam, the scorer, logged in to the browsable API (CSRF checked, as in a browser)."""
    client = Client(enforce_csrf_checks=True)
    client.force_login(get_user_model().objects.get(username="sam"))
    return client


def forms_of(client: Client, url: str) -> tuple[set[str], dict, str]:
    """The fields of the page's HTML form, the keys of its raw data form's JSON, and the CSRF
    token both send."""
    page = client.get(url, HTTP_ACCEPT="text/html")
    assert page.status_code == 200, page.content[:300]
    text = page.content.decode()
    start = text.index('method="POST" enctype="multipart/form-data"')
    form = text[start:text.index("</form>", start)]
    fields = set(re.findall(r'<(?:input|textarea|select)[^>]*name="([^"]+)"', form))
    raw = re.search(r'<textarea[^>]*name="_content"[^>]*>(.*?)</textarea>', text, re.DOTALL)
    assert raw, text[:500]
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', text)
    assert token
    return fields - {"csrfmiddlewaretoken"}, json.loads(html.unescape(raw.group(1))), token.group(1)


def test_the_deal_form_asks_for_the_number_and_the_record_and_records_the_deal(
        oak_session, browser):
    fields, raw, token = forms_of(browser, deals_url(oak_session))
    assert fields == set(raw) == set(DealCreateSerializer().fields) == {"number", "record"}
    made = browser.post(deals_url(oak_session), {"number": "1", "record": json.dumps(DEAL1),
                                                 "csrfmiddlewaretoken": token},
                        HTTP_ACCEPT="text/html")
    assert made.status_code == 201, made.content[:500]
    assert oak_session.deals.count() == 1


def test_the_session_form_asks_for_what_a_session_is_opened_with(club, browser):
    fields, raw, _ = forms_of(browser, "/api/v1/clubs/oak/sessions/")
    takes = set(SessionCreateSerializer().fields)
    assert set(raw) == takes
    # (DRF draws no HTML input for a list or a dict: seats and buy_ins go by the raw data form)
    assert {"date", "first_dealer", "rules", "banker", "chip_value"} <= fields <= takes
