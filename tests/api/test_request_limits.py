"""Bodies no client should send get a problem, never a 500: too large (413), nested too deep
(400), option amounts beyond any table (400 rule-error), a pool the ledger cannot hold (400; a
correction that would make a later deal's pool so large, 409), a deal record larger than its
session-file line may be (400)."""
from __future__ import annotations

import json

import pytest

from games.models import Deal, LedgerEntry
from games.services import limits

from .conftest import DEAL1, TABLE, deals_url, padded, problem

pytestmark = pytest.mark.django_db

RECORD = {"format": "loo-deal/1", "seats": ["ann", "bob", "cat"], "dealer": "cat",
          "turnup": "9C", "result": {"tricks": {"ann": 3}}}


def test_a_body_over_the_upload_limit_is_a_413(scorer_client, settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 10_000
    body = json.dumps({"record": dict(RECORD, note="x" * 20_000), "rules": {"preset": "three-card"}})
    data = problem(scorer_client.post("/api/v1/replay", body, content_type="application/json"), 413)
    assert data["code"] == "payload-too-large" and "10,000 bytes" in data["detail"]


@pytest.mark.parametrize("depth", [40, 100_000])
def test_json_nested_too_deep_is_a_400(scorer_client, depth):
    body = '{"record": ' + "[" * depth + "]" * depth + ', "rules": {"preset": "three-card"}}'
    data = problem(scorer_client.post("/api/v1/replay", body, content_type="application/json"), 400)
    assert data["code"] == "malformed-request" and "nested deeper than 32" in data["detail"]


def test_ordinary_nesting_is_read(scorer_client):
    response = scorer_client.post("/api/v1/replay", {"record": RECORD, "rules": {"preset": "three-card"}},
                                  format="json")
    assert response.status_code == 200, response.content


@pytest.mark.parametrize("option", [{"loo_amount": 10**30}, {"single_loo": 10**9 + 1},
                                    {"ante": {"dealer": 10**12, "each": 0}}])
def test_an_option_amount_beyond_any_table_is_a_rule_error(scorer_client, option):
    data = problem(scorer_client.post("/api/v1/replay", {"record": RECORD,
                                                         "rules": {"preset": "three-card", **option}},
                                      format="json"), 400)
    assert data["code"] == "rule-error" and "1,000,000,000" in data["detail"]


def test_a_pool_the_ledger_cannot_hold_is_refused(make_session, post_deal):
    session = make_session(rules={"preset": "three-card", "ante": {"dealer": 10**9, "each": 0},
                                  "loo_amount": 10**9}, allow_credit=True)
    # P = 1e9: ann 2 tricks, bob 1 (333,333,333 a trick, 1 left), cat and dan looed 1e9 each
    first = post_deal(session, 1, {"format": "loo-deal/1", "dealer": "cat", "turnup": "9C",
                                   "result": {"tricks": {"ann": 2, "bob": 1}}})
    assert first.status_code == 201, first.content
    assert first.json()["verdict"]["settlement"]["pool_after"] == 2_000_000_001
    # deal 2 adds dan's ante: P = 3,000,000,001, beyond the ledger's 2,147,483,647
    data = problem(post_deal(session, 2, {"format": "loo-deal/1", "dealer": "dan", "turnup": "9C",
                                          "result": {"tricks": {"ann": 3}}}), 400)
    assert "3,000,000,001" in data["detail"] and "2,147,483,647" in data["detail"]
    assert Deal.objects.filter(session=session).count() == 1


def test_a_correction_that_grows_a_later_pool_beyond_the_ledger_is_refused(
        make_session, post_deal, scorer_client):
    """The bound holds for a deal re-settled by a correction too: refused whole (409, naming
    the later deal), where it was stored (SQLite) or a 500 (PostgreSQL's integer column)."""
    from games.models import DealRevision, LedgerEntry

    session = make_session(rules={"preset": "three-card", "loo": "unlimited",
                                  "ante": {"dealer": 3 * 10**8, "each": 0}}, allow_credit=True)
    stand = [{"player": p, "action": "stand"} for p in ("ann", "bob", "cat", "dan")]
    # deal 1 (cat, P = 3e8): ann 2 tricks, bob 1; cat and dan looed P each: pool after 6e8.
    # deal 2 (dan, P = 9e8): everybody stands, ann 2, bob 1; cat and dan looed 9e8: 1.8e9
    first = {"format": "loo-deal/1", "dealer": "cat", "turnup": "9C",
             "result": {"tricks": {"ann": 2, "bob": 1}}}
    assert post_deal(session, 1, first).status_code == 201
    second = post_deal(session, 2, {"format": "loo-deal/1", "dealer": "dan", "turnup": "9C",
                                    "actions": stand, "result": {"tricks": {"ann": 2, "bob": 1}}})
    assert second.json()["verdict"]["settlement"]["pool_after"] == 1_800_000_000
    entries = LedgerEntry.objects.filter(session=session).count()
    # ann took all three of deal 1: bob looed too, pool after 9e8; deal 2 then leaves 2.4e9
    response = scorer_client.post(f"/api/v1/clubs/oak/sessions/{session.pk}/deals/1/corrections",
                                  {"record": {**first, "result": {"tricks": {"ann": 3}}},
                                   "reason": "ann took all three"}, format="json")
    data = problem(response, 409)
    assert data["code"] == "correction-refused" and data["deal"] == 2
    assert [(e["deal"], e["field"]) for e in data["errors"]] == [(2, "record.pool")]
    assert "2,400,000,000" in data["detail"] and "2,147,483,647" in data["detail"]
    assert DealRevision.objects.filter(deal__session=session).count() == 2
    assert LedgerEntry.objects.filter(session=session).count() == entries


def test_unstorable_text_is_found_at_any_depth():
    from loo_ledger.parsers import unstorable

    nul, lone = "\x00", "\ud800"
    for _ in range(100):
        nul, lone = [nul], {"k": lone}
    assert "NUL" in unstorable(nul) and "surrogate (\\ud800)" in unstorable(lone)
    assert "surrogate (\\udfff)" in unstorable({"a": {"b\udfff": 1}})
    assert "NUL" in unstorable({"a": {"b\x00": 1}})
    assert unstorable([[["x", "\U0001f0cf"]]] * 3) is None  # a pair is one character, stored
    assert unstorable([[[]]], max_depth=2) == "nested deeper than 2 levels"


#: what the session adds to deal 1 of ``oak_session``, measured with the record (and its pool)
AT_DEAL_1 = {"seats": TABLE, "number": 1, "dealer": "cat"}


def test_a_deal_record_over_its_size_bound_is_a_400_naming_it(oak_session, scorer_client,
                                                              post_deal, settings):
    most = limits.MAX_RECORD_BYTES
    over = padded(DEAL1, most + 1, "\u00e9", **AT_DEAL_1)
    # sent with every "é" as a six-byte ASCII escape: measured as the session file writes it
    # (two bytes each), and still far below the body limit, so the answer is this 400, no 413
    body = json.dumps({"number": 1, "record": over})
    assert 2 * most < len(body) < settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    data = problem(scorer_client.generic("POST", deals_url(oak_session), body,
                                         content_type="application/json"), 400)
    assert (data["code"], data["title"]) == ("validation-error", "Record too large")
    assert (data["record_bytes"], data["max_record_bytes"]) == (most + 1, most) == (16_385, 16_384)
    assert data["detail"] == ("Deal 1's record is 16,385 bytes as a session file writes it (its "
                              "pool at the widest); a deal record may be at most 16,384 bytes. "
                              "Leave out what the engine does not read (notes, client fields).")
    assert data["errors"] == [{"field": "record", "message": data["detail"], "code": "invalid"}]
    assert not Deal.objects.filter(session=oak_session).exists()
    assert not LedgerEntry.objects.filter(session=oak_session, deal__isnull=False).exists()
    # at the bound it is stored whole, note and all
    at_most = padded(DEAL1, most, "\u00e9", **AT_DEAL_1)
    stored = post_deal(oak_session, 1, at_most)
    assert stored.status_code == 201, stored.content
    assert stored.json()["record"]["note"] == at_most["note"]


def test_a_correction_over_the_size_bound_is_a_400_and_changes_nothing(played, scorer_client):
    from games.models import DealRevision

    before = list(LedgerEntry.objects.filter(session=played).values_list("seq", "chips"))
    over = padded(DEAL1, limits.MAX_RECORD_BYTES + 1, **AT_DEAL_1)
    data = problem(scorer_client.post(f"{deals_url(played)}1/corrections",
                                      {"record": over, "reason": "with the notes"},
                                      format="json"), 400)
    assert (data["record_bytes"], data["max_record_bytes"]) == (16_385, 16_384)
    assert data["errors"][0]["field"] == "record"
    assert not DealRevision.objects.filter(deal__session=played, revision__gt=1).exists()
    assert list(LedgerEntry.objects.filter(session=played).values_list("seq", "chips")) == before


def test_a_multipart_form_in_a_charset_that_cannot_replace_a_bad_byte_is_a_400(club, owner_client):
    """A multipart form's text is read with bad bytes replaced; the text codec ``idna`` refuses
    to replace, so its ``UnicodeError`` escaped the parser as a 500. (A urlencoded form in it
    was a 400 already.)"""
    from accounts.models import Member

    body = b'--BB\r\nContent-Disposition: form-data; name="name"\r\n\r\nz\xc3\xa9d\r\n--BB--\r\n'
    response = owner_client.post("/api/v1/clubs/oak/members/", body,
                                 content_type="multipart/form-data; boundary=BB; charset=idna")
    body = problem(response, 400)
    assert body["code"] == "malformed-request" and "idna" in body["detail"], body
    assert not Member.objects.filter(club=club, name__startswith="z").exists()
