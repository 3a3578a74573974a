"""Recording deals over REST: verdicts, ledger postings, lists, detail, and every refusal."""
from __future__ import annotations

import pytest

from games.models import Deal, DealRevision, GameSession, LedgerEntry
from games.services.ledger import ledger_balances

from .conftest import DEAL1, DEAL2, DEAL3, DELTAS, POOL_AFTER, deals_url, example, problem, rec

pytestmark = pytest.mark.django_db


def test_record_deal_answers_201_with_the_verdict(oak_session, post_deal):
    response = post_deal(oak_session, 1, DEAL1)
    assert response.status_code == 201, response.content
    data = response.json()
    assert data["number"] == 1 and data["revision"] == 1 and data["dealer"] == "cat"
    assert data["verdict"]["settlement"]["deltas"] == DELTAS[0]
    assert data["pool_before"] == 0 and data["pool_after"] == 6
    assert data["record"]["seats"] == ["ann", "bob", "cat", "dan"]  # completed by the server
    assert data["recorded_by"] == "sam"
    assert response["Location"].endswith("/deals/1/")
    assert ledger_balances(oak_session) == {"ann": 22, "bob": 21, "cat": 14, "dan": 17, "pool": 6, "bank": -80}


def test_three_deals_carry_pool_and_dealer(played, viewer_client):
    data = viewer_client.get(deals_url(played)).json()
    assert data["count"] == 3
    assert [d["dealer"] for d in data["results"]] == ["cat", "dan", "ann"]
    assert [d["pool_after"] for d in data["results"]] == POOL_AFTER
    assert [d["verdict"]["settlement"]["deltas"] for d in data["results"]] == DELTAS
    session = viewer_client.get(f"/api/v1/clubs/oak/sessions/{played.pk}/").json()
    assert session["next"] == {"number": 4, "dealer": "bob", "pool": 0, "first_of_series": False}
    assert session["deal_count"] == 3
    assert ledger_balances(played) == {"ann": 34, "bob": 18, "cat": 14, "dan": 14, "pool": 0, "bank": -80}


def test_ledger_entries_break_down_antes_loos_and_payouts(oak_session, post_deal):
    post_deal(oak_session, 1, DEAL1)
    deal = Deal.objects.get(session=oak_session, number=1)
    lines = sorted((e.kind, e.account, e.chips) for e in LedgerEntry.objects.filter(deal=deal))
    assert lines == sorted([
        ("ante", "cat", -3), ("ante", "pool", 3),
        ("loo", "cat", -3), ("loo", "dan", -3), ("loo", "pool", 6),
        ("payout", "ann", 2), ("payout", "bob", 1), ("payout", "pool", -3),
    ])


def test_deal_list_filters_by_status_and_violation(played, viewer_client):
    def numbers(query):
        response = viewer_client.get(deals_url(played) + query)
        assert response.status_code == 200, response.content
        return [d["number"] for d in response.json()["results"]]

    assert numbers("?status=irregular") == [2]
    assert numbers("?violation=revoke") == [2]
    assert numbers("?violation=failed-to-head") == []
    # a rule the engine does not have would find nothing, read as "nobody broke it": a 400
    refused = problem(viewer_client.get(deals_url(played) + "?violation=revokes"), 400)
    assert refused["errors"][0]["field"] == "violation"
    assert refused["errors"][0]["message"].startswith("violation must be one of declared-out-of-turn, ")
    assert refused["errors"][0]["message"].endswith(", threw-up-after-lead, not 'revokes'.")
    assert numbers("?dealer=ann") == [3]
    assert 1 in numbers("?status=unverified")  # a result-only record


def test_deal_detail_with_revisions(played, viewer_client):
    data = viewer_client.get(deals_url(played) + "2/").json()
    assert data["number"] == 2 and data["status"] == "irregular"
    violation = data["verdict"]["violations"][0]
    assert (violation["player"], violation["rule"], violation["trick"]) == ("bob", "revoke", 2)
    assert [r["revision"] for r in data["revisions"]] == [1]
    assert data["revisions"][0]["cause"] == "recorded" and data["revisions"][0]["created_by"] == "sam"
    problem(viewer_client.get(deals_url(played) + "9/"), 404)


def test_number_must_be_the_next_one(played, post_deal):
    taken = problem(post_deal(played, 3, DEAL3), 409)
    assert taken["code"] == "deal-number-conflict"
    assert taken["current_number"] == 3 and taken["next_number"] == 4
    assert "next is deal 4" in taken["detail"]
    ahead = problem(post_deal(played, 6, DEAL3), 409)
    assert ahead["next_number"] == 4
    assert Deal.objects.filter(session=played).count() == 3


def test_record_error_names_action_index_player_and_card(oak_session, post_deal):
    post_deal(oak_session, 1, DEAL1)
    before = LedgerEntry.objects.count()
    data = problem(post_deal(oak_session, 2, example("e4_card_played_twice.json")), 400)
    assert data["code"] == "record-error"
    assert [(e["index"], e["player"], e["card"]) for e in data["errors"]] == [(9, "bob", "AD")]
    assert LedgerEntry.objects.count() == before
    assert not Deal.objects.filter(session=oak_session, number=2).exists()


def test_an_irregularity_kind_that_is_a_list_is_a_400_naming_the_action(oak_session, post_deal):
    # the engine raised TypeError (unhashable) on a list kind: a 500, now the record's error
    from .test_replay_endpoint import LIST_KIND, with_irregularity

    post_deal(oak_session, 1, DEAL1)
    before = LedgerEntry.objects.count()
    data = problem(post_deal(oak_session, 2, with_irregularity(["misdeal"])), 400)
    assert data["code"] == "record-error"
    assert data["errors"] == [LIST_KIND]
    assert LedgerEntry.objects.count() == before
    assert not Deal.objects.filter(session=oak_session, number=2).exists()


def test_wrong_dealer_says_whose_deal_it_is(oak_session, post_deal):
    data = problem(post_deal(oak_session, 1, rec(DEAL1, dealer="dan")), 400)
    assert data["code"] == "record-mismatch"
    assert data["errors"][0]["field"] == "record.dealer"
    assert "Deal 1 is cat's deal, not dan's" in data["detail"]


@pytest.mark.parametrize(("dealer", "written"), [(["dan"], '["dan"]'), (3, "3"), (None, "null")])
def test_a_dealer_that_is_not_a_name_is_said_so_and_no_player_is_named(oak_session, post_deal,
                                                                      dealer, written):
    data = problem(post_deal(oak_session, 1, rec(DEAL1, dealer=dealer)), 400)
    assert data["code"] == "record-mismatch"
    [error] = data["errors"]
    assert error["field"] == "record.dealer" and error["player"] is None  # a string or null
    # the value as the client wrote it in JSON, not as Python prints it (['dan'], None)
    assert error["message"] == f"Deal 1 is cat's deal; the record's dealer {written} is not a " \
                               "seat's name."


def test_wrong_pool_says_what_the_ledger_holds(oak_session, post_deal):
    post_deal(oak_session, 1, DEAL1)
    data = problem(post_deal(oak_session, 2, rec(DEAL2, pool=9)), 400)
    assert data["errors"][0]["field"] == "record.pool"
    assert "holds 6 in the pool before deal 2; the record says 9" in data["detail"]
    # text, a decimal or true is no pool, even where it reads as the 6 the ledger holds
    # (tests/api/test_whole_numbers.py has every look-alike); refused with the rest
    for look_alike in ("6", 6.0):
        text = problem(post_deal(oak_session, 2, rec(DEAL2, pool=look_alike, seats=["x"])), 400)
        assert text["code"] == "validation-error"
        assert [e["field"] for e in text["errors"]] == ["record.pool", "record.seats"]
        assert text["errors"][0]["message"].startswith("record.pool must be a whole number")


def test_wrong_seats_and_rules_refused(oak_session, post_deal):
    data = problem(post_deal(oak_session, 1, rec(DEAL1, seats=["ann", "bob", "cat"],
                                                 rules={"preset": "three-card", "loo": "unlimited"})), 400)
    assert {e["field"] for e in data["errors"]} == {"record.seats", "record.rules"}


def test_record_must_be_an_object(oak_session, post_deal):
    data = problem(post_deal(oak_session, 1, ["not", "a", "record"]), 400)
    assert data["errors"][0]["field"] == "record"


def test_deal_below_zero_chips_refused_until_purchase(make_session, post_deal, scorer_client):
    session = make_session(buy_ins={"ann": 20, "bob": 20, "cat": 20, "dan": 2})
    data = problem(post_deal(session, 1, DEAL1), 400)
    assert data["code"] == "insufficient-chips"
    assert data["detail"] == "dan holds 2 and owes 3: record a purchase first"
    assert data["errors"][0]["player"] == "dan"
    assert not Deal.objects.exists()
    bought = scorer_client.post(f"/api/v1/clubs/oak/sessions/{session.pk}/purchases/",
                                {"player": "dan", "chips": 10}, format="json")
    assert bought.status_code == 201
    assert post_deal(session, 1, DEAL1).status_code == 201
    assert ledger_balances(session)["dan"] == 9


def test_allow_credit_lets_a_player_go_below_zero(make_session, post_deal):
    session = make_session(buy_ins={}, allow_credit=True)
    assert post_deal(session, 1, DEAL1).status_code == 201
    assert ledger_balances(session) == {"ann": 2, "bob": 1, "cat": -6, "dan": -3, "pool": 6, "bank": 0}


def test_closed_session_refuses_deals(oak_session, post_deal):
    GameSession.objects.filter(pk=oak_session.pk).update(status="closed")
    data = problem(post_deal(oak_session, 1, DEAL1), 409)
    assert data["code"] == "session-closed"


@pytest.mark.parametrize("role, status", [("anon", 401), ("viewer", 403), ("player", 403), ("outsider", 404)])
def test_recording_refused(api_client_for, oak_session, post_deal, role, status):
    problem(post_deal(oak_session, 1, DEAL1, client=api_client_for(role)), status)
    assert not Deal.objects.exists()


@pytest.mark.parametrize("role, status", [("anon", 401), ("outsider", 404)])
def test_reading_deals_refused(api_client_for, played, role, status):
    client = api_client_for(role)
    problem(client.get(deals_url(played)), status)
    problem(client.get(deals_url(played) + "1/"), status)


def test_owner_records_too(oak_session, post_deal, owner_client):
    assert post_deal(oak_session, 1, DEAL1, client=owner_client).status_code == 201


def test_unknown_session_is_404(scorer_client, club):
    problem(scorer_client.post("/api/v1/clubs/oak/sessions/999/deals/", {"number": 1, "record": DEAL1},
                               format="json"), 404)


def test_revisions_are_stored_whole(played):
    rev = DealRevision.objects.get(deal__session=played, deal__number=2)
    assert rev.record["pool"] == 6 and rev.record["dealer"] == "dan" and rev.record["number"] == 2
    assert rev.verdict["settlement"]["pool_after"] == 3
    assert [(v.player, v.rule, v.trick) for v in rev.violations.all()] == [("bob", "revoke", 2)]


def test_a_record_may_not_claim_a_redeal(oak_session, post_deal):
    data = problem(post_deal(oak_session, 1, rec(DEAL1, redeal=True, sits_out=["bob"])), 400)
    assert data["errors"][0]["field"] == "record.redeal"
    assert "Deal 1 is not a redeal" in data["detail"]


def test_a_record_that_is_no_redeal_may_not_seat_a_player_out(oak_session, post_deal):
    # the service checks sits_out against the ledger only for a redeal: the engine dealt bob
    # out of this three-card deal, and now refuses it
    data = problem(post_deal(oak_session, 1, rec(DEAL1, sits_out=["bob"])), 400)
    assert [(e["field"], e["message"]) for e in data["errors"]] == [
        ("sits_out", 'sits_out: only a poker-Loo redeal ("redeal": true) is sat out')]


@pytest.mark.parametrize("record", [rec(DEAL1, note="x\u0000y"), rec(DEAL1, **{"n\u0000te": 1})])
def test_a_json_string_holding_a_nul_character_is_refused_whole(oak_session, post_deal, record):
    # PostgreSQL's jsonb cannot hold \u0000: refused as a malformed body, nothing stored
    entries = LedgerEntry.objects.count()  # the buy-ins
    body = problem(post_deal(oak_session, 1, record), 400)
    assert body["code"] == "malformed-request" and "NUL" in body["detail"]
    assert not Deal.objects.exists() and LedgerEntry.objects.count() == entries


def test_a_session_holds_at_most_max_deals(oak_session, post_deal, monkeypatch):
    from games.models import Deal
    from games.services import limits

    from .conftest import DEALS

    monkeypatch.setattr(limits, "MAX_DEALS", 2)  # (1,000 in service)
    for n in (1, 2):
        assert post_deal(oak_session, n, DEALS[n - 1]).status_code == 201
    data = problem(post_deal(oak_session, 3, DEALS[2]), 409)
    assert (data["code"], data["max_deals"]) == ("session-full", 2)
    assert "close this one and open another" in data["detail"]
    assert Deal.objects.filter(session=oak_session).count() == 2


def test_a_session_whose_stored_rules_a_later_engine_refuses_answers_400(oak_session, post_deal):
    # Engine 1.2.0 refuses a capped unlimited loo (it was played as "mixed"); a session stored
    # before then with those rules gets a 400 naming the options, not a 500, and nothing stored.
    GameSession.objects.filter(pk=oak_session.pk).update(
        resolved_rules={**oak_session.resolved_rules, "loo": "unlimited", "loo_cap": 30})
    oak_session.refresh_from_db()
    data = problem(post_deal(oak_session, 1, DEAL1), 400)
    assert data["code"] == "rule-error" and "loo_cap" in data["detail"], data
    assert not Deal.objects.filter(session=oak_session).exists()
