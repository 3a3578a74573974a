"""Chip purchases: buy-ins and rebuys from the banker, paid or owed, each with its posting."""
from __future__ import annotations

import pytest

from games.models import ChipPurchase, GameSession, LedgerEntry
from games.services.ledger import ledger_balances

from .conftest import problem, session_url

pytestmark = pytest.mark.django_db


def test_rebuy_owed_is_posted_bank_to_player(oak_session, scorer_client):
    response = scorer_client.post(session_url(oak_session, "purchases/"),
                                  {"player": "bob", "chips": 15, "paid": False, "memo": "rebuy"}, format="json")
    assert response.status_code == 201, response.content
    data = response.json()
    assert (data["player"], data["chips"], data["money"], data["paid"]) == ("bob", 15, 150, False)
    purchase = ChipPurchase.objects.get(pk=data["id"])
    assert sorted((e.account, e.chips, e.kind) for e in LedgerEntry.objects.filter(purchase=purchase)) == [
        ("bank", -15, "purchase"), ("bob", 15, "purchase")]
    assert ledger_balances(oak_session)["bob"] == 35
    ledger = scorer_client.get(session_url(oak_session, "ledger")).json()
    assert ledger["totals"]["owed"]["bob"] == 150 and ledger["totals"]["issued"] == 95


def test_explicit_money_must_be_the_chips_value(oak_session, scorer_client):
    # chip value 10: 10 chips cost 100; the money keyed in is a check on that price
    response = scorer_client.post(session_url(oak_session, "purchases/"),
                                  {"player": "ann", "chips": 10, "money": 100}, format="json")
    assert response.status_code == 201 and response.json()["money"] == 100
    before = LedgerEntry.objects.count()
    data = problem(scorer_client.post(session_url(oak_session, "purchases/"),
                                      {"player": "bob", "chips": 10, "money": 500}, format="json"), 400)
    assert data["errors"] == [{"field": "money", "player": "bob", "message":
                               "money must be the chips' value at the session's chip value: "
                               "10 x 10 = 100, not 500 (leave money out to use it).",
                               "code": "invalid"}]
    assert LedgerEntry.objects.count() == before
    assert not ChipPurchase.objects.filter(player="bob", chips=10).exists()


def test_a_price_past_the_money_limit_is_refused(oak_session, scorer_client):
    # 10**9 chips at 10 a chip would cost 10**10: fine; the cap is checked on the price itself
    GameSession.objects.filter(pk=oak_session.pk).update(chip_value=10**7)
    data = problem(scorer_client.post(session_url(oak_session, "purchases/"),
                                      {"player": "ann", "chips": 10**9}, format="json"), 400)
    assert data["errors"][0]["field"] == "money" and "cost more than" in data["errors"][0]["message"]


def test_purchases_listed_in_order(oak_session, viewer_client):
    data = viewer_client.get(session_url(oak_session, "purchases/")).json()
    assert [(p["player"], p["chips"], p["paid"]) for p in data["results"]] == [
        ("ann", 20, True), ("bob", 20, True), ("cat", 20, True), ("dan", 20, True)]


@pytest.mark.parametrize("payload, field", [
    ({"player": "zed", "chips": 5}, "player"),
    ({"player": "ann", "chips": 0}, "chips"),
    ({"player": "ann", "chips": -4}, "chips"),
    ({"player": "ann", "chips": 5, "money": -1}, "money"),
    ({"player": "ann", "chips": 10**12}, "chips"),
    ({"player": "ann", "chips": 5, "money": 10**20}, "money"),
    ({"chips": 5}, "player"),
])
def test_bad_purchase_refused(oak_session, scorer_client, payload, field):
    before = LedgerEntry.objects.count()
    data = problem(scorer_client.post(session_url(oak_session, "purchases/"), payload, format="json"), 400)
    assert field in {e["field"] for e in data["errors"]}
    assert LedgerEntry.objects.count() == before


def test_a_seated_banker_buys_his_own_chips_paid_not_owed(make_session, scorer_client):
    # a debt to himself no payment could settle (the payments service refuses the banker's)
    session = make_session(banker="ann")
    before = LedgerEntry.objects.count()
    data = problem(scorer_client.post(session_url(session, "purchases/"),
                                      {"player": "ann", "chips": 10, "paid": False}, format="json"), 400)
    assert data["errors"] == [{"field": "paid", "player": "ann", "message": (
        "ann is the banker: the banker's own chips are owed to nobody, so his purchase is paid "
        "(paid: true)."), "code": "invalid"}]
    assert LedgerEntry.objects.count() == before
    # paid, he buys; and the others may still buy from him on credit
    for player, paid in (("ann", True), ("bob", False)):
        response = scorer_client.post(session_url(session, "purchases/"),
                                      {"player": player, "chips": 10, "paid": paid}, format="json")
        assert response.status_code == 201, response.content


def test_closed_session_refuses_purchases(oak_session, scorer_client):
    GameSession.objects.filter(pk=oak_session.pk).update(status="closed")
    data = problem(scorer_client.post(session_url(oak_session, "purchases/"), {"player": "ann", "chips": 5},
                                      format="json"), 409)
    assert data["code"] == "session-closed"


def test_a_session_holds_at_most_max_purchases_buy_ins_included(oak_session, scorer_client,
                                                                 monkeypatch):
    from games.services import limits

    monkeypatch.setattr(limits, "MAX_PURCHASES", 5)  # (2,000 in service): 4 buy-ins, a rebuy
    url = session_url(oak_session, "purchases/")
    assert scorer_client.post(url, {"player": "ann", "chips": 5}, format="json").status_code == 201
    entries = LedgerEntry.objects.count()
    data = problem(scorer_client.post(url, {"player": "bob", "chips": 5}, format="json"), 409)
    assert (data["code"], data["max_purchases"], data["type"]) == (
        "session-full", 5, "/problems/session-full")
    assert data["detail"] == ("A session holds at most 5 purchases: close this one and open "
                              "another for the play that follows.")
    assert ChipPurchase.objects.count() == 5 and LedgerEntry.objects.count() == entries


def test_a_memo_over_its_bound_is_refused_whole_not_cut(oak_session, scorer_client):
    from games.services import limits
    from games.services.sessions import purchase_record
    from loo_ledger.problems import Problem

    most = limits.MAX_MEMO_CHARS
    entries = LedgerEntry.objects.count()
    # any caller of the service (the import among them), not only the API's serializer
    with pytest.raises(Problem) as refused:
        purchase_record(session=oak_session, player="bob", chips=5, memo="m" * (most + 1))
    assert refused.value.status_code == 400
    assert refused.value.errors == [{"field": "memo", "message": (
        "The memo is 201 characters long; it may be at most 200."), "code": "invalid"}]
    data = problem(scorer_client.post(session_url(oak_session, "purchases/"),
                                      {"player": "bob", "chips": 5, "memo": "m" * (most + 1)},
                                      format="json"), 400)
    assert data["errors"][0]["field"] == "memo" and "200" in data["errors"][0]["message"]
    assert ChipPurchase.objects.count() == 4 and LedgerEntry.objects.count() == entries
    kept = purchase_record(session=oak_session, player="bob", chips=5, memo="\u00e9" * most)
    assert ChipPurchase.objects.get(pk=kept.pk).memo == "\u00e9" * most


@pytest.mark.parametrize("role, status", [("anon", 401), ("viewer", 403), ("player", 403), ("outsider", 404)])
def test_purchase_refused_by_role(api_client_for, oak_session, role, status):
    problem(api_client_for(role).post(session_url(oak_session, "purchases/"), {"player": "ann", "chips": 5},
                                      format="json"), status)
    assert ChipPurchase.objects.count() == 4


@pytest.mark.parametrize("role, status", [("anon", 401), ("outsider", 404)])
def test_purchase_list_refused(api_client_for, oak_session, role, status):
    problem(api_client_for(role).get(session_url(oak_session, "purchases/")), status)
