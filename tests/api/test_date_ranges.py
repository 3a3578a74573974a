"""A date range reads alike wherever the API takes one: the sessions list and the club results.

Both take ``date_from`` and ``date_to`` (the results also ``from`` and ``to``, the names they
took first) and refuse a range that ends before it starts with one 400, where the sessions list
answered 200 with nothing in it.
"""
from __future__ import annotations

import json

import pytest
from rest_framework.test import APIClient

from .conftest import TABLE, problem

pytestmark = pytest.mark.django_db

SESSIONS = "/api/v1/clubs/oak/sessions/"
RESULTS = "/api/v1/clubs/oak/results"
BACKWARDS = {"date_from": "2026-11-30", "date_to": "2026-11-01"}


@pytest.fixture
def two_closed(make_session, member_for):
    """Two closed sessions of oak, on 1 and 28 November 2026."""
    from games.services.closing import session_close

    made = []
    for day in ("2026-11-01", "2026-11-28"):
        session = make_session(date=day, seats=TABLE[:2], first_dealer="ann",
                               buy_ins={"ann": 10, "bob": 10})
        session_close(session=session, user=member_for("scorer").user)
        made.append(session)
    return made


@pytest.mark.parametrize("url", [SESSIONS, RESULTS])
def test_a_range_that_ends_before_it_starts_is_the_same_400_on_both(url, viewer_client):
    body = problem(viewer_client.get(url, BACKWARDS), 400)
    assert body["code"] == "validation-error"
    assert body["detail"] == "date_from (2026-11-30) is after date_to (2026-11-01)."
    assert body["errors"] == [{"field": "date_to", "message": "Must not be before date_from.",
                               "code": "invalid"}]


def test_the_sessions_list_still_takes_a_one_day_range(viewer_client, make_session):
    made = make_session(date="2026-11-28")
    listed = viewer_client.get(SESSIONS, {"date_from": "2026-11-28", "date_to": "2026-11-28"})
    assert [s["id"] for s in listed.json()["results"]] == [made.pk]


def test_the_results_take_date_from_and_date_to(viewer_client, two_closed):
    def sessions_counted(query: dict[str, str]) -> int:
        response = viewer_client.get(RESULTS, query)
        assert response.status_code == 200, response.content
        return max((r["sessions"] for r in response.json()["players"]), default=0)

    assert sessions_counted({}) == 2
    assert sessions_counted({"date_from": "2026-11-02"}) == 1
    assert sessions_counted({"date_to": "2026-11-02"}) == 1
    assert sessions_counted({"date_from": "2026-11-02", "date_to": "2026-11-27"}) == 0
    # the names it took first are aliases, alone or beside the others
    assert sessions_counted({"from": "2026-11-02"}) == 1
    assert sessions_counted({"from": "2026-11-02", "date_to": "2026-11-27"}) == 0
    assert sessions_counted({"from": "2026-11-02", "date_from": "2026-11-02"}) == 1
    answer = viewer_client.get(RESULTS, {"date_from": "2026-11-02"}).json()
    assert (answer["from"], answer["to"]) == ("2026-11-02", None)  # the answer's keys as before


def test_the_results_name_the_aliases_a_client_sent(viewer_client):
    body = problem(viewer_client.get(RESULTS, {"from": "2026-11-30", "to": "2026-11-01"}), 400)
    assert body["detail"] == "from (2026-11-30) is after to (2026-11-01)."
    assert body["errors"] == [{"field": "to", "message": "Must not be before from.", "code": "invalid"}]


@pytest.mark.parametrize("query, field", [
    ({"from": "2026-11-01", "date_from": "2026-11-02"}, "date_from"),
    ({"to": "2026-11-30", "date_to": "2026-11-29"}, "date_to"),
])
def test_an_alias_beside_its_name_with_another_date_is_a_400(viewer_client, query, field):
    body = problem(viewer_client.get(RESULTS, query), 400)
    assert body["code"] == "validation-error"
    alias = {"date_from": "from", "date_to": "to"}[field]
    assert [e["field"] for e in body["errors"]] == [field]
    assert f"{field} and {alias}" in body["detail"] and query[alias] in body["detail"]


def test_a_bad_date_under_either_name_is_named(viewer_client):
    for name in ("date_from", "from"):
        body = problem(viewer_client.get(RESULTS, {name: "28/11/2026"}), 400)
        assert body["errors"][0]["field"] == name


def test_both_endpoints_document_the_range(viewer_client):
    schema = json.loads(APIClient().get("/api/v1/schema/",
                                        HTTP_ACCEPT="application/vnd.oai.openapi+json").content)

    def params(path: str) -> dict[str, dict]:
        return {p["name"]: p for p in schema["paths"][path]["get"]["parameters"]
                if p["in"] == "query"}

    sessions = params("/api/v1/clubs/{club}/sessions/")
    results = params("/api/v1/clubs/{club}/results")
    for name in ("date_from", "date_to"):
        assert sessions[name]["schema"] == results[name]["schema"] == {"type": "string",
                                                                        "format": "date"}
        assert sessions[name]["description"] == results[name]["description"]
        assert "400" in results[name]["description"]
    for alias, name in (("from", "date_from"), ("to", "date_to")):
        assert results[alias]["schema"] == {"type": "string", "format": "date"}
        assert f"`{name}`" in results[alias]["description"]


@pytest.mark.parametrize("field, day", [("date_from", "31-11-2026"), ("date_to", "2026-11-31"),
                                        ("date_from", "11/30/2026"), ("date_to", "20261130")])
def test_a_day_that_is_none_is_the_same_400_on_both(viewer_client, field, day):
    # one function reads the range on both (filters.date_range): the sessions list no longer
    # says django-filter's "Enter a valid date.", which names no format
    answers = [problem(viewer_client.get(url, {field: day}), 400) for url in (SESSIONS, RESULTS)]
    for answer in answers:
        answer.pop("instance")  # (the request's own path)
    assert answers[0] == answers[1]
    assert answers[0]["code"] == "validation-error"
    assert answers[0]["detail"] == f"{field} must be a date like 2026-11-30, not {json.dumps(day)}"
    assert answers[0]["errors"] == [{"field": field, "message": "Expected YYYY-MM-DD.",
                                     "code": "invalid"}]
