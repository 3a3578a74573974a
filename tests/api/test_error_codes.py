"""Every item of a refusal's ``errors`` carries a machine-readable ``code``: a non-empty string a
client switches on, never the message's words. Many items had none (a service's own checks,
the engine's record errors, a query parameter, an unknown field), while DRF's carried theirs.

One function gives each its code (``loo_ledger.problems.error_code``): DRF's own where DRF
refused (``required``, ``null``, ``max_length``, ``invalid_choice``, ``unique``...), ``unknown``
for a field or query parameter the endpoint does not take, the engine's ``invalid`` (a field of
the record it cannot read) or ``impossible`` (an action that cannot have happened),
``mismatch`` for a record disagreeing with the session, ``insufficient-chips``, and ``invalid``
for the services' other checks. This walks representative refusals of every endpoint family.
"""
from __future__ import annotations

import json
from typing import Any

import pytest
from rest_framework.test import APIClient

from loo_ledger.problems import Problem, error_code

from .conftest import DEAL1, DEAL3, TABLE, deals_url, problem, rec, session_url

pytestmark = pytest.mark.django_db

SESSION = {"date": "2026-11-28", "seats": TABLE, "first_dealer": "cat",
           "rules": {"preset": "three-card"}}


def codes(response: Any, status: int = 400) -> dict[str | None, list[str]]:
    """Each ``errors`` item's code by its field (``#i`` for the engine's action ``i``), after
    checking that every item has one, a non-empty string."""
    body = problem(response, status)
    assert body["errors"], body
    out: dict[str | None, list[str]] = {}
    for item in body["errors"]:
        assert isinstance(item.get("code"), str) and item["code"], item
        key = item.get("field") if item.get("index") is None else f"#{item['index']}"
        out.setdefault(key, []).append(item["code"])
    return out


def oak(tail: str) -> str:
    return f"/api/v1/clubs/oak/{tail}"


# --- sessions, deals, corrections ------------------------------------------------------------

def test_a_session_body(scorer_client):
    def post(body: dict[str, Any]) -> Any:
        return scorer_client.post(oak("sessions/"), body, format="json")

    assert codes(post({})) == {"date": ["required"], "seats": ["required"],
                               "first_dealer": ["required"], "rules": ["required"]}
    assert codes(post({**SESSION, "chipvalue": 2})) == {"chipvalue": ["unknown"]}
    # the service's own checks (a seat who is no member, a dealer not seated)
    assert codes(post({**SESSION, "seats": ["ann", "zed"]})) == {
        "seats[1]": ["invalid"], "first_dealer": ["invalid"]}
    assert codes(post({**SESSION, "name": "n" * 121, "chip_value": "20", "currency": None})) == {
        "name": ["max_length"], "chip_value": ["invalid"], "currency": ["null"]}
    assert codes(post({**SESSION, "rules": {"preset": "three-card", "loo": "huge"}})) == {
        "rules": ["invalid"]}  # the engine's RuleError, naming the option


def test_a_deal_body_and_what_the_session_refuses(make_session, post_deal, scorer_client):
    session = make_session()
    sent = scorer_client.post(deals_url(session), {"number": 1, "record": DEAL1, "numbr": 1},
                              format="json")
    assert codes(sent) == {"numbr": ["unknown"]}
    assert codes(scorer_client.post(deals_url(session), {"record": None}, format="json")) == {
        "number": ["required"], "record": ["null"]}
    assert codes(post_deal(session, 1, rec(DEAL1, dealer="bob"))) == {
        "record.dealer": ["mismatch"]}
    short = make_session(buy_ins={"ann": 20, "bob": 20, "cat": 2, "dan": 20})
    body = problem(post_deal(short, 1, DEAL1), 400)
    assert body["code"] == "insufficient-chips"
    assert [(e["player"], e["code"]) for e in body["errors"]] == [("cat", "insufficient-chips")]


def test_a_deal_the_engine_refuses(oak_session, post_deal):
    """The engine's items: a card it cannot read names its field (``invalid``); an action that
    cannot have happened names its index alone (``impossible``)."""
    assert codes(post_deal(oak_session, 1, rec(DEAL1, turnup="ZZ"))) == {"turnup": ["invalid"]}
    # deal 1 is a simple pool (the pool is empty): a pass cannot have been made
    passes = rec(DEAL3, dealer="cat", actions=[{"player": "dan", "action": "pass"}])
    body = problem(post_deal(oak_session, 1, passes), 400)
    assert body["code"] == "record-error"
    first = body["errors"][0]
    assert (first["index"], first["player"], first["code"]) == (0, "dan", "impossible"), body
    assert first["message"].startswith("dan: pass is not allowed, every player must play here")
    assert all(e["code"] in ("impossible", "invalid") for e in body["errors"])


def test_a_correction(played, scorer_client):
    url = session_url(played, "deals/1/corrections")
    assert codes(scorer_client.post(url, {"record": DEAL1}, format="json")) == {
        "reason": ["required"]}
    assert codes(scorer_client.post(url, {"record": rec(DEAL1, dealer="dan"), "reason": "x"},
                                    format="json")) == {"record.dealer": ["mismatch"]}


# --- purchases, voids, payments, closing ----------------------------------------------------

def test_purchases_voids_and_payments(oak_session, scorer_client):
    def post(tail: str, body: dict[str, Any]) -> Any:
        return scorer_client.post(session_url(oak_session, tail), body, format="json")

    assert codes(post("purchases/", {"player": "zed", "chips": 5, "piad": True})) == {
        "piad": ["unknown"]}
    assert codes(post("purchases/", {"player": "zed", "chips": 5})) == {"player": ["invalid"]}
    assert codes(post("purchases/", {"player": "ann"})) == {"chips": ["required"]}
    assert codes(post("purchases/1/void", {})) == {"reason": ["required"]}
    assert codes(post("payments/", {"player": "ann", "money": 0})) == {"money": ["invalid"]}


def test_closing_and_reopening(oak_session, owner_client):
    def post(tail: str, body: Any) -> Any:
        return owner_client.post(session_url(oak_session, tail), body, format="json")

    assert codes(post("close", {"reason": 5})) == {"reason": ["invalid"]}
    assert codes(post("close", {"reasn": "late"})) == {"reasn": ["unknown"]}
    assert codes(post("close", [])) == {None: ["invalid"]}


# --- imports: the request, and a job's errors by line ----------------------------------------

def test_an_import_request(scorer_client):
    assert codes(scorer_client.post(oak("imports/"), {}, format="json")) == {
        "source": ["required"]}
    assert codes(scorer_client.post(oak("imports/"), {"source": ""}, format="json")) == {
        "source": ["invalid"]}
    assert codes(scorer_client.post(oak("imports/"), {"source": "x", "filenme": "a"},
                                    format="json")) == {"filenme": ["unknown"]}


def test_an_import_jobs_errors_by_line(scorer_client, django_capture_on_commit_callbacks,
                                      eager_celery):
    """A job's ``errors`` name lines, each with its code as a 400's would carry it: the
    session's (``mismatch``: cat deals first, not ann), the engine's (``invalid``: a turn-up
    that is no card, in a deal stating where it starts), the file's own checks (``invalid``)."""
    header = {"format": "loo-session/1", "date": "2026-11-28", "seats": TABLE,
              "first_dealer": "cat", "rules": {"preset": "three-card"},
              "buy_ins": {p: 20 for p in TABLE}}
    lines = [header, rec(DEAL1, dealer="ann"), rec(DEAL1, dealer="dan", pool=6, turnup="ZZ"),
             {"purchase": {"player": "zed", "chips": 5}}]
    with django_capture_on_commit_callbacks(execute=True):
        sent = scorer_client.post(oak("imports/"), "\n".join(json.dumps(x) for x in lines),
                                  content_type="application/x-ndjson")
    assert sent.status_code == 202, sent.content
    job = scorer_client.get(sent.json()["url"]).json()
    assert job["status"] == "failed"
    assert [(e["line"], e.get("field"), e["code"]) for e in job["errors"]] == [
        (2, "record.dealer", "mismatch"), (3, "turnup", "invalid"), (4, "player", "invalid")], job


# --- members, clubs, logins -----------------------------------------------------------------

def test_members_and_clubs(owner_client):
    assert codes(owner_client.post(oak("members/"), {"name": ""}, format="json")) == {
        "name": ["blank"]}
    assert codes(owner_client.patch(oak("members/ann/"), {"role": "boss"}, format="json")) == {
        "role": ["invalid_choice"]}
    assert codes(owner_client.post("/api/v1/clubs/", {"slug": "oak", "name": "Oak"},
                                   format="json")) == {"slug": ["unique"]}


def test_a_login_and_a_password_change(club, scorer_client):
    assert codes(APIClient().post("/api/v1/auth/token/", {"username": "sam", "password": "no"},
                                  format="json")) == {None: ["authorization"]}
    url = "/api/v1/auth/password/"
    assert codes(scorer_client.post(url, {"old_password": "no", "new_password": "x9!kq2Lr#v"},
                                    format="json")) == {"old_password": ["invalid"]}
    weak = codes(scorer_client.post(url, {"old_password": "no"}, format="json"))
    assert weak == {"new_password": ["required"]}


def test_a_weak_new_password_carries_the_validators_codes(scorer_client):
    from tests.conftest import TEST_PASSWORD

    body = problem(scorer_client.post("/api/v1/auth/password/", {
        "old_password": TEST_PASSWORD, "new_password": "12345678901"}, format="json"), 400)
    assert "password_entirely_numeric" in [e["code"] for e in body["errors"]], body


# --- the dry run, the query string, the reports ---------------------------------------------

def test_the_dry_run(scorer_client):
    url = "/api/v1/replay"
    assert codes(scorer_client.post(url, {}, format="json")) == {"record": ["required"]}
    assert codes(scorer_client.post(url, {"record": DEAL1}, format="json")) == {
        "rules": ["required"]}
    seated = rec(DEAL1, seats=TABLE, turnup="ZZ")
    assert codes(scorer_client.post(url, {"record": seated, "rules": {"preset": "three-card"}},
                                    format="json")) == {"turnup": ["invalid"]}


def test_the_query_string(played, viewer_client, scorer_client):
    deals = deals_url(played)
    assert codes(viewer_client.get(deals, {"delaer": "ann"})) == {"delaer": ["unknown"]}
    assert codes(viewer_client.get(deals, {"dealer": "a\x00b"})) == {"dealer": ["invalid"]}
    assert codes(viewer_client.get(deals, {"page": "0"})) == {"page": ["invalid"]}
    assert codes(viewer_client.get(oak("sessions/"), {"date_from": "31-11-2026"})) == {
        "date_from": ["invalid"]}
    assert codes(viewer_client.get(session_url(played, "report"), {"format": "csv",
                                                                   "table": "nope"})) == {
        "table": ["invalid"]}
    assert codes(scorer_client.post(deals + "?bogus=1", {}, format="json")) == {
        "bogus": ["unknown"]}


def test_an_idempotency_key(oak_session, scorer_client):
    sent = scorer_client.post(session_url(oak_session, "purchases/"),
                              {"player": "ann", "chips": 5}, format="json",
                              headers={"Idempotency-Key": "k" * 256})
    assert codes(sent) == {"Idempotency-Key": ["invalid"]}


# --- the one function ------------------------------------------------------------------------

@pytest.mark.parametrize("item, problem_code, expected", [
    ({"message": "m", "code": "max_length"}, "validation-error", "max_length"),  # given: kept
    ({"message": "m", "code": None}, "validation-error", "invalid"),
    ({"message": "m", "code": ""}, "record-mismatch", "mismatch"),
    ({"index": 3, "field": None, "message": "m"}, "record-error", "impossible"),
    ({"index": 3, "field": "card", "message": "m"}, "record-error", "invalid"),
    ({"index": None, "field": "hands", "message": "m"}, "record-error", "invalid"),
    ({"index": None, "field": None, "message": "record: a JSON object"}, "record-error", "invalid"),
    ({"field": "rules", "message": "m"}, "rule-error", "invalid"),
    ({"deal": 2, "message": "m"}, "correction-refused", "impossible"),
    ({"field": "file", "message": "m"}, "payload-too-large", "payload-too-large"),
])
def test_error_code(item, problem_code, expected):
    assert error_code(item, problem_code) == expected
    assert Problem(400, code=problem_code, errors=[item]).errors == [{**item, "code": expected}]


def test_the_schema_says_every_item_has_a_code(schema):
    item = schema["components"]["schemas"]["ProblemErrorItem"]
    assert set(item["required"]) == {"message", "code"}
    assert item["properties"]["code"]["type"] == "string"
    assert not item["properties"]["code"].get("nullable")
    line_error = schema["components"]["schemas"]["ImportErrorSchema"]
    assert "code" in line_error["required"] and line_error["properties"]["code"]["type"] == "string"
