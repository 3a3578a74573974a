"""``?page=`` on the API's lists: a page that is not a whole number from 1 is a 400 naming
``page``, one past the last a 404 saying which is the last (DRF answered both with a 404
"Invalid page.", as if the list did not exist); the club's web page reads it by the same rule."""
from __future__ import annotations

import json

import pytest

from tests.api.conftest import problem, session_url

LISTS = ["sessions/", "sessions/{id}/deals/", "sessions/{id}/purchases/",
         "sessions/{id}/payments/", "members/"]


def list_url(session, tail: str) -> str:
    return f"/api/v1/clubs/oak/{tail.format(id=session.pk)}"


@pytest.mark.parametrize("tail", LISTS)
@pytest.mark.parametrize("page", ["0", "-1", "two", "1.5", "１"])
def test_a_page_that_is_not_a_number_from_1_is_a_400_naming_page(oak_session, viewer_client, tail, page):
    body = problem(viewer_client.get(list_url(oak_session, tail), {"page": page}), 400)
    assert body["code"] == "validation-error"
    [error] = body["errors"]
    assert error["field"] == "page"
    assert error["message"] == f"page must be a whole number from 1, not {json.dumps(page, ensure_ascii=False)}."


@pytest.mark.parametrize("tail", LISTS)
def test_a_page_past_the_last_is_a_404_naming_the_last(oak_session, viewer_client, tail):
    body = problem(viewer_client.get(list_url(oak_session, tail), {"page": str(10**30)}), 404)
    assert body["code"] == "not-found"
    assert body["detail"] == f"There is no page {10**30}: the last is page 1."


@pytest.mark.parametrize("tail", LISTS)
def test_a_page_of_thousands_of_digits_is_past_the_last_not_a_server_error(
        oak_session, viewer_client, tail):
    """Python turns no text of more than 4,300 digits into a number (a ValueError): such a
    page was a 500 on every list and on the club's page. It is past the last like any other."""
    huge = "9" * 5000
    body = problem(viewer_client.get(list_url(oak_session, tail), {"page": huge}), 404)
    assert body["detail"] == f"There is no page {huge}: the last is page 1."
    # leading zeros name the page they lead (as int() read them), however many
    answer = viewer_client.get(list_url(oak_session, tail), {"page": "0" * 5000 + "1"})
    assert answer.status_code == 200
    body = problem(viewer_client.get(list_url(oak_session, tail), {"page": "0" * 5000}), 400)
    assert body["errors"][0]["field"] == "page"


def test_the_club_page_answers_a_page_of_thousands_of_digits_as_past_the_last(
        oak_session, client, member_for):
    client.force_login(member_for("viewer").user)
    response = client.get("/clubs/oak/", {"page": "9" * 5000})
    html = response.content.decode()
    assert response.status_code == 404
    assert f"There is no page {'9' * 5000}: the last is page 1." in html


def test_pages_that_exist_still_answer(oak_session, viewer_client):
    for page in ("1", "last", ""):
        answer = viewer_client.get(session_url(oak_session, "purchases/"), {"page": page})
        assert answer.status_code == 200 and answer.json()["count"] == 4
