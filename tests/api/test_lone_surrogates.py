"""A lone UTF-16 surrogate (``"\\ud800"`` in JSON) is no text any database can store: every body
holding one is refused as malformed, so nothing is stored that a later read could not answer.

json.loads accepts such an escape and gives a str no UTF-8 can encode: PostgreSQL refuses it at
the insert (a 500), SQLite stores it and every later read of the row fails (a 500 for good).
"""
from __future__ import annotations

import json

import pytest

from games.models import Deal, DealRevision, GameSession, LedgerEntry

from .conftest import DEAL1, deals_url, problem, session_url

pytestmark = pytest.mark.django_db

LONE = ["\\ud800", "\\udfff", "x\\udbffy"]  # a high, a low, a high one inside other text


def raw(client, url: str, text: str):
    """POST ``text`` as it is: the test client's own JSON encoder cannot write a lone surrogate."""
    return client.generic("POST", url, text, content_type="application/json")


def deal_body(escape: str) -> str:
    return json.dumps({"number": 1, "record": {**DEAL1, "memo": "@"}}).replace("@", escape)


def assert_refused(response) -> dict:
    body = problem(response, 400)
    assert body["code"] == "malformed-request" and "surrogate" in body["detail"], body
    return body


@pytest.mark.parametrize("escape", LONE)
def test_a_deal_with_a_lone_surrogate_is_refused_and_not_stored(oak_session, scorer_client,
                                                               viewer_client, escape):
    entries = LedgerEntry.objects.count()
    body = assert_refused(raw(scorer_client, deals_url(oak_session), deal_body(escape)))
    assert "\\u" in body["detail"]  # names the code point found
    assert not Deal.objects.exists() and LedgerEntry.objects.count() == entries
    assert viewer_client.get(deals_url(oak_session)).status_code == 200


def test_a_lone_surrogate_in_a_key_is_refused(oak_session, scorer_client):
    text = json.dumps({"number": 1, "record": {**DEAL1, "@": 1}}).replace("@", "\\udc00")
    assert_refused(raw(scorer_client, deals_url(oak_session), text))
    assert not Deal.objects.exists()


def test_a_surrogate_pair_is_one_character_and_accepted(oak_session, scorer_client, viewer_client):
    response = raw(scorer_client, deals_url(oak_session), deal_body("\\ud83c\\udccf"))  # a joker
    assert response.status_code == 201, response.content
    listed = viewer_client.get(deals_url(oak_session)).json()["results"][0]
    assert listed["record"]["memo"] == "\U0001f0cf"


def test_a_correction_with_a_lone_surrogate_is_refused(played, scorer_client, viewer_client):
    text = json.dumps({"record": {**DEAL1, "memo": "@"}, "reason": "slip"}).replace("@", "\\ud800")
    assert_refused(raw(scorer_client, f"{deals_url(played)}1/corrections", text))
    assert DealRevision.objects.filter(deal__session=played, deal__number=1).count() == 1
    assert viewer_client.get(f"{deals_url(played)}1/").status_code == 200


def test_a_lone_surrogate_in_a_close_reason_is_refused(played, scorer_client):
    assert_refused(raw(scorer_client, session_url(played, "close"), '{"reason": "home\\ud800"}'))
    played.refresh_from_db()
    assert played.status != GameSession.Status.CLOSED


def test_a_lone_surrogate_in_a_rules_key_is_refused(club, scorer_client):
    text = json.dumps({"date": "2026-11-28", "seats": ["ann", "bob", "cat"], "first_dealer": "cat",
                       "rules": {"preset": "three-card", "@": True}}).replace("@", "\\ud800")
    assert_refused(raw(scorer_client, "/api/v1/clubs/oak/sessions/", text))
    assert not GameSession.objects.exists()


def test_a_dry_run_with_a_lone_surrogate_is_refused(scorer_client):
    text = json.dumps({"rules": {"preset": "three-card"}, "record": {
        **DEAL1, "seats": ["ann", "bob", "cat"], "memo": "@"}}).replace("@", "\\ud800")
    assert_refused(raw(scorer_client, "/api/v1/replay", text))


# --- a form post (the browsable API's form, ``curl -d``) carries the record as JSON text ------
# The field parses that text itself, past the JSON body parser's check: each of these was
# stored (SQLite: a NUL kept, a lone surrogate a 500 at the size check) or a 500 (PostgreSQL:
# "unsupported Unicode escape sequence"; any database: a RecursionError for deep nesting).

FORM = "application/x-www-form-urlencoded"


def form_record(escape: str, **extra: str) -> str:
    from urllib.parse import urlencode

    return urlencode({**extra, "record": json.dumps({**DEAL1, "memo": "@"}).replace("@", escape)})


@pytest.mark.parametrize("escape", ["\\u0000", *LONE])
def test_a_form_deal_whose_record_holds_unstorable_text_is_refused_naming_record(
        oak_session, scorer_client, viewer_client, escape):
    entries = LedgerEntry.objects.count()
    response = scorer_client.post(deals_url(oak_session), form_record(escape, number="1"),
                                  content_type=FORM)
    body = problem(response, 400)
    assert body["code"] == "validation-error", body
    assert [e["field"] for e in body["errors"]] == ["record"]
    assert ("NUL" if escape == "\\u0000" else "surrogate") in body["detail"]
    assert not Deal.objects.exists() and LedgerEntry.objects.count() == entries
    assert viewer_client.get(session_url(oak_session, "file")).status_code == 200


def test_a_form_correction_whose_record_holds_a_lone_surrogate_is_refused(played, scorer_client):
    response = scorer_client.post(f"{deals_url(played)}1/corrections",
                                  form_record("\\ud800", reason="slip"), content_type=FORM)
    assert problem(response, 400)["errors"][0]["field"] == "record"
    assert DealRevision.objects.filter(deal__session=played, deal__number=1).count() == 1


def test_a_form_dry_run_whose_record_holds_a_nul_is_refused(scorer_client):
    from urllib.parse import urlencode

    record = json.dumps({**DEAL1, "seats": ["ann", "bob", "cat"], "rules": {"preset": "three-card"},
                         "memo": "@"}).replace("@", "\\u0000")
    response = scorer_client.post("/api/v1/replay", urlencode({"record": record}), content_type=FORM)
    assert problem(response, 400)["errors"][0]["field"] == "record"


@pytest.mark.parametrize("depth", [40, 100_000])
def test_a_form_record_nested_too_deep_is_refused_as_a_json_body_is(oak_session, scorer_client, depth):
    from urllib.parse import urlencode

    text = '{"memo": ' + "[" * depth + "]" * depth + "}"
    response = scorer_client.post(deals_url(oak_session), urlencode({"number": "1", "record": text}),
                                  content_type=FORM)
    body = problem(response, 400)
    assert body["errors"][0]["field"] == "record" and "deeper than 32" in body["detail"], body


# --- a form post's close or reopen reason, and an import's file name, are read from the body
# as they come, past any serializer: a NUL character (``%00``) in one was stored (SQLite: in the
# closings log and the session file's close line, which the import then refuses) or a 500
# (PostgreSQL: "text fields cannot contain NUL")


@pytest.mark.parametrize("action, role, closed_first, stays", [
    ("close", "scorer", False, GameSession.Status.OPEN),
    ("reopen", "owner", True, GameSession.Status.CLOSED),
])
def test_a_form_close_or_reopen_whose_reason_holds_a_nul_is_refused_naming_reason(
        played, api_client_for, action, role, closed_first, stays):
    client = api_client_for(role)
    if closed_first:
        assert client.post(session_url(played, "close"), {}, format="json").status_code == 200
    response = client.post(session_url(played, action), "reason=x%00now", content_type=FORM)
    body = problem(response, 400)
    assert [e["field"] for e in body["errors"]] == ["reason"] and "NUL" in body["detail"], body
    played.refresh_from_db()
    assert played.status == stays


def test_a_form_import_whose_file_name_holds_a_nul_is_refused_naming_it(club, scorer_client):
    from urllib.parse import urlencode

    from games.imports.models import ImportJob

    header = {"format": "loo-session/1", "seats": ["ann", "bob"], "first_dealer": "ann",
              "rules": {"preset": "three-card"}, "date": "2026-11-28"}
    body = urlencode({"source": json.dumps(header) + "\n", "filename": "night\x00.jsonl"})
    body = problem(scorer_client.post("/api/v1/clubs/oak/imports/", body, content_type=FORM), 400)
    assert [e["field"] for e in body["errors"]] == ["filename"] and "NUL" in body["detail"], body
    assert not ImportJob.objects.exists()
