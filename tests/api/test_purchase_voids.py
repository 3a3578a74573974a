"""Voiding a chip purchase keyed in by mistake: a new posting now, never an edit.

Hand-worked figures at oak's table (ann, bob, cat, dan: 20 chips each bought on the spot, a
chip worth 10; the deals of tests/api/conftest.py: after DEAL1..DEAL3 ann holds 34, bob 18,
cat 14, dan 14, the pool 0)."""
from __future__ import annotations

from typing import Any

import pytest

from games.models import ChipPurchase, GameSession, LedgerEntry, PurchaseVoid
from games.services.ledger import ledger_balances, ledger_check

from .conftest import DEAL1, DEALS, problem, rec, session_url

pytestmark = pytest.mark.django_db


def void_url(session: GameSession, purchase: int) -> str:
    return session_url(session, f"purchases/{purchase}/void")


def buy(client: Any, session: GameSession, player: str, chips: int, paid: bool = True) -> int:
    response = client.post(session_url(session, "purchases/"),
                           {"player": player, "chips": chips, "paid": paid}, format="json")
    assert response.status_code == 201, response.content
    return response.json()["id"]


def void(client: Any, session: GameSession, purchase: int, reason: str = "keyed twice",
         **headers: Any) -> Any:
    return client.post(void_url(session, purchase), {"reason": reason}, format="json",
                       headers=headers or None)


def buy_in(session: GameSession, player: str) -> int:
    return ChipPurchase.objects.get(session=session, player=player, memo="buy-in").pk


def totals(client: Any, session: GameSession) -> dict[str, Any]:
    ledger = client.get(session_url(session, "ledger")).json()
    assert ledger["ok"], ledger["problems"]
    return ledger["totals"]


def close(client: Any, session: GameSession) -> dict[str, Any]:
    response = client.post(session_url(session, "close"), {"reason": "done"}, format="json")
    assert response.status_code == 200, response.content
    return client.get(session_url(session, "report")).json()


def pass_out(dealer: str, others: list[str]) -> dict[str, Any]:
    """Everybody before the dealer passes: the dealer takes the pool and his ante."""
    return {"format": "loo-deal/1", "dealer": dealer, "turnup": "2S",
            "actions": [{"player": p, "action": "pass"} for p in others]}


# --- successes ------------------------------------------------------------------------------


def test_a_void_of_an_owed_purchase_takes_the_chips_back_and_the_debt_with_them(
        oak_session, scorer_client):
    bought = buy(scorer_client, oak_session, "bob", 15, paid=False)
    assert totals(scorer_client, oak_session)["owed"]["bob"] == 150
    response = void(scorer_client, oak_session, bought, reason="  bob never bought these  ")
    assert response.status_code == 201, response.content
    data = response.json()
    assert (data["id"], data["player"], data["chips"], data["paid"]) == (bought, "bob", 15, False)
    assert data["void"]["reason"] == "bob never bought these"  # stripped, as stored
    assert data["void"]["by"] == "sam" and data["void"]["at"]
    posting = data["void"]["posting"]
    entries = LedgerEntry.objects.filter(session=oak_session, posting=posting)
    assert sorted((e.account, e.chips, e.kind, e.purchase_id) for e in entries) == [
        ("bank", 15, "void", bought), ("bob", -15, "void", bought)]
    t = totals(scorer_client, oak_session)
    assert t["balances"] == {"ann": 20, "bob": 20, "cat": 20, "dan": 20}
    assert (t["pool"], t["issued"]) == (0, 80)
    assert t["purchased"]["bob"] == 20 and t["money"]["bob"] == 200 and t["owed"]["bob"] == 0
    rows = scorer_client.get(session_url(oak_session, "ledger")).json()["rows"]
    assert [(r["kind"], r["changes"]) for r in rows[-2:]] == [
        ("purchase", {"bank": -15, "bob": 15}), ("void", {"bank": 15, "bob": -15})]
    listed = scorer_client.get(session_url(oak_session, "purchases/")).json()["results"]
    assert [p["void"] is None for p in listed] == [True] * 4 + [False]
    assert listed[-1]["void"] == data["void"]
    assert ledger_check(oak_session) == []


def test_money_paid_later_toward_a_voided_purchase_is_refunded_in_parts(oak_session,
                                                                        scorer_client):
    """bob pays 150 toward 15 chips owed, and the purchase is voided: he has paid 150 for
    nothing, so a refund of any part of it is taken (and no payment more)."""
    bought = buy(scorer_client, oak_session, "bob", 15, paid=False)
    payments = session_url(oak_session, "payments/")
    assert scorer_client.post(payments, {"player": "bob", "money": 150},
                              format="json").status_code == 201
    assert void(scorer_client, oak_session, bought).status_code == 201
    refund = scorer_client.post(payments, {"player": "bob", "money": -100}, format="json")
    assert refund.status_code == 201, refund.content
    more = scorer_client.post(payments, {"player": "bob", "money": 10}, format="json")
    assert problem(more, 400)["errors"][0]["message"] == "bob owes 0 for chips and cannot pay 10."
    too_much = scorer_client.post(payments, {"player": "bob", "money": -60}, format="json")
    assert problem(too_much, 400)["errors"][0]["message"] == (
        "bob has paid 50 later and cannot be refunded 60.")
    assert scorer_client.post(payments, {"player": "bob", "money": -50},
                              format="json").status_code == 201
    assert totals(scorer_client, oak_session)["owed"]["bob"] == 0


def test_a_void_of_a_purchase_paid_on_the_spot_hands_the_money_back(oak_session, scorer_client):
    bought = buy(scorer_client, oak_session, "ann", 10)
    assert totals(scorer_client, oak_session)["money"]["ann"] == 300
    assert void(scorer_client, oak_session, bought).status_code == 201
    t = totals(scorer_client, oak_session)
    assert (t["balances"]["ann"], t["purchased"]["ann"], t["money"]["ann"], t["owed"]["ann"]) == (
        20, 20, 200, 0)


def test_a_void_between_deals_leaves_them_standing_and_the_close_counts_it_nowhere(
        played, scorer_client, post_deal):
    """dan rebuys 10 on credit after deal 3 (24), the rebuy is voided (14): the report counts
    20 bought by dan, nothing owed, and every result is (returned - bought) x 10."""
    bought = buy(scorer_client, played, "dan", 10, paid=False)
    assert void(scorer_client, played, bought, reason="wrong player").status_code == 201
    report = close(scorer_client, played)
    players = {p["name"]: p for p in report["players"]}
    assert {n: p["bought_chips"] for n, p in players.items()} == dict.fromkeys(
        ["ann", "bob", "cat", "dan"], 20)
    assert {n: p["returned_chips"] for n, p in players.items()} == {
        "ann": 34, "bob": 18, "cat": 14, "dan": 14}
    assert {n: p["result_money"] for n, p in players.items()} == {
        "ann": 140, "bob": -20, "cat": -60, "dan": -60}
    assert sum(p["result_money"] for p in players.values()) == 0
    assert players["dan"]["bought_money"] == 200 and players["dan"]["owed_money"] == 0
    assert players["dan"]["owed_to_banker"] == 0
    assert report["totals"]["chips_bought"] == 80 and report["totals"]["money_owed"] == 0
    voided = [p for p in report["purchases"] if p["void"] is not None]
    assert voided == [{"player": "dan", "chips": 10, "money": 100, "paid": False,
                       "after_deal": 3, "void": {"reason": "wrong player", "after_deal": 3}}]
    assert len(report["purchases"]) == 5  # shown, not hidden
    # the deals stand as they were settled: revision 1 each
    deals = scorer_client.get(session_url(played, "deals/")).json()["results"]
    assert [d["revision"] for d in deals] == [1, 1, 1]


def test_a_void_in_a_credit_session_may_take_a_player_below_zero(make_session, scorer_client,
                                                                  post_deal):
    """cat bought 4, lost 6 at deal 1 on credit (-2), then her 4 are voided: -6. At the close
    she returns -6 chips and bought none: -60, and the results still sum to zero."""
    session = make_session(allow_credit=True, buy_ins={"ann": 20, "bob": 20, "cat": 4, "dan": 20})
    for n, deal in enumerate(DEALS, start=1):
        assert post_deal(session, n, deal).status_code == 201
    assert ledger_balances(session)["cat"] == -2
    assert void(scorer_client, session, buy_in(session, "cat")).status_code == 201
    assert ledger_balances(session)["cat"] == -6
    report = close(scorer_client, session)
    players = {p["name"]: p for p in report["players"]}
    assert (players["cat"]["bought_chips"], players["cat"]["returned_chips"]) == (0, -6)
    assert {n: p["result_money"] for n, p in players.items()} == {
        "ann": 140, "bob": -20, "cat": -60, "dan": -60}
    assert ledger_check(session) == []


def test_voiding_a_wrong_amount_and_buying_the_right_one_ends_as_if_it_was_keyed_right(
        make_session, scorer_client, post_deal):
    results = []
    for wrong in (True, False):
        session = make_session()
        assert post_deal(session, 1, DEAL1).status_code == 201
        if wrong:
            slip = buy(scorer_client, session, "cat", 100)
            assert void(scorer_client, session, slip, reason="100 for 10").status_code == 201
        buy(scorer_client, session, "cat", 10)
        for n, deal in enumerate(DEALS[1:], start=2):
            assert post_deal(session, n, deal).status_code == 201
        report = close(scorer_client, session)
        results.append({p["name"]: (p["bought_chips"], p["bought_money"], p["returned_chips"],
                                     p["result_money"]) for p in report["players"]})
        results.append(report["transfers"])
    assert results[0] == results[2] and results[1] == results[3]
    assert results[0]["cat"] == (30, 300, 24, -60)


def test_a_correction_of_an_earlier_deal_re_settles_past_a_void(oak_session, scorer_client,
                                                                  post_deal):
    """Deal 1 first as cat winning every trick (cat 0, the pool 9), cat rebuys 10 (30), her
    buy-in of 20 is voided (10), dan takes the pool at deal 2 (+9). Deal 1 corrected to DEAL1
    (cat -6, the pool 6): cat 14, 24, then the void leaves her 4; deal 2 is re-settled past
    the void (dan +6)."""
    assert post_deal(oak_session, 1, rec(DEAL1, result={"tricks": {"cat": 3}})).status_code == 201
    buy(scorer_client, oak_session, "cat", 10)
    assert void(scorer_client, oak_session, buy_in(oak_session, "cat")).status_code == 201
    assert post_deal(oak_session, 2, pass_out("dan", ["ann", "bob", "cat"])).status_code == 201
    assert ledger_balances(oak_session)["cat"] == 10
    response = scorer_client.post(session_url(oak_session, "deals/1/corrections"),
                                  {"record": DEAL1, "reason": "cat took no trick"}, format="json")
    assert response.status_code == 201, response.content
    assert [(c["number"], c["cause"]) for c in response.json()["changes"]] == [
        (1, "corrected"), (2, "resettled")]
    assert ledger_balances(oak_session) == {"ann": 22, "bob": 21, "cat": 4, "dan": 23,
                                            "pool": 0, "bank": -70}
    assert ledger_check(oak_session) == []


def test_a_correction_that_would_leave_too_few_chips_for_a_later_void_is_refused(
        oak_session, scorer_client, post_deal):
    """As above with a rebuy of 5: after the correction cat would hold 14 + 5 = 19 when the
    void takes back 20."""
    assert post_deal(oak_session, 1, rec(DEAL1, result={"tricks": {"cat": 3}})).status_code == 201
    buy(scorer_client, oak_session, "cat", 5)
    voided = buy_in(oak_session, "cat")
    assert void(scorer_client, oak_session, voided).status_code == 201
    entries = LedgerEntry.objects.count()
    data = problem(scorer_client.post(session_url(oak_session, "deals/1/corrections"),
                                      {"record": DEAL1, "reason": "cat took no trick"},
                                      format="json"), 409)
    assert (data["code"], data["purchase"]) == ("correction-refused", voided)
    assert data["detail"].startswith(f"Correcting deal 1 would make the void of purchase {voided} "
                                     "impossible: cat holds 19 and owes 20")
    assert LedgerEntry.objects.count() == entries


def test_an_idempotent_retry_stores_nothing_twice(oak_session, scorer_client):
    bought = buy(scorer_client, oak_session, "bob", 5)
    first = void(scorer_client, oak_session, bought, **{"Idempotency-Key": "void-1"})
    again = void(scorer_client, oak_session, bought, **{"Idempotency-Key": "void-1"})
    assert (first.status_code, again.status_code) == (201, 201)
    assert again.json() == first.json() and again["Idempotent-Replayed"] == "true"
    assert PurchaseVoid.objects.count() == 1
    assert LedgerEntry.objects.filter(kind="void").count() == 2


# --- refusals -------------------------------------------------------------------------------


def test_a_closed_session_refuses_a_void(oak_session, scorer_client):
    GameSession.objects.filter(pk=oak_session.pk).update(status="closed")
    data = problem(void(scorer_client, oak_session, buy_in(oak_session, "ann")), 409)
    assert data["code"] == "session-closed"
    assert not PurchaseVoid.objects.exists()


def test_an_unknown_purchase_or_another_sessions_is_not_found(oak_session, make_session,
                                                              scorer_client):
    other = make_session()
    for purchase in (10**6, buy_in(other, "ann")):
        data = problem(void(scorer_client, oak_session, purchase), 404)
        assert data["code"] == "not-found" and str(purchase) in data["detail"]
    assert not PurchaseVoid.objects.exists()


def test_another_clubs_purchase_is_not_found(oak_session, other_club, scorer_client,
                                             outsider_client):
    from games.services.sessions import session_create

    elm = session_create(club=other_club, date="2026-11-28", seats=["ann", "bob"],
                         first_dealer="ann", rules={"preset": "three-card"},
                         buy_ins={"ann": 20, "bob": 20})
    theirs = buy_in(elm, "ann")
    problem(void(scorer_client, elm, theirs), 404)  # their session, from oak: not found
    problem(void(scorer_client, oak_session, theirs), 404)  # their purchase in oak's session
    problem(void(outsider_client, oak_session, buy_in(oak_session, "ann")), 404)
    assert not PurchaseVoid.objects.exists()


@pytest.mark.parametrize("role, status", [("anon", 401), ("viewer", 403), ("player", 403)])
def test_a_void_refused_by_role(api_client_for, oak_session, role, status):
    problem(void(api_client_for(role), oak_session, buy_in(oak_session, "ann")), status)
    assert not PurchaseVoid.objects.exists()


def test_an_owner_may_void(oak_session, owner_client):
    assert void(owner_client, oak_session, buy_in(oak_session, "ann")).status_code == 201


def test_a_purchase_is_voided_once(oak_session, scorer_client):
    bought = buy(scorer_client, oak_session, "bob", 5)
    assert void(scorer_client, oak_session, bought).status_code == 201
    entries = LedgerEntry.objects.count()
    data = problem(void(scorer_client, oak_session, bought, reason="again"), 409)
    assert (data["code"], data["purchase"]) == ("purchase-voided", bought)
    assert f"Purchase {bought} (bob, 5 chips) was voided already" in data["detail"]
    assert LedgerEntry.objects.count() == entries and PurchaseVoid.objects.count() == 1


def test_without_credit_a_void_may_not_take_a_player_below_zero(played, scorer_client):
    entries = LedgerEntry.objects.count()
    data = problem(void(scorer_client, played, buy_in(played, "cat")), 409)
    assert data["code"] == "insufficient-chips"
    assert data["errors"] == [{
        "field": "purchase", "player": "cat", "holds": 14, "takes": 20,
        "message": "cat holds 14 chips and the void takes back 20: without credit a void may "
                   "not take a player below zero.", "code": "insufficient-chips"}]
    assert LedgerEntry.objects.count() == entries and not PurchaseVoid.objects.exists()


@pytest.mark.parametrize("body, says", [
    ({}, "required"),
    ({"reason": ""}, "A reason is required"),
    ({"reason": "   "}, "A reason is required"),
    ({"reason": "x" * 201}, "at most 200"),
])
def test_a_void_needs_a_reason(oak_session, scorer_client, body, says):
    data = problem(scorer_client.post(void_url(oak_session, buy_in(oak_session, "ann")), body,
                                      format="json"), 400)
    [error] = data["errors"]
    assert error["field"] == "reason" and says in error["message"], error
    assert not PurchaseVoid.objects.exists()


def test_a_reason_of_the_most_characters_is_taken(oak_session, scorer_client):
    response = void(scorer_client, oak_session, buy_in(oak_session, "ann"), reason="r" * 200)
    assert response.status_code == 201 and len(response.json()["void"]["reason"]) == 200


def test_a_void_is_append_only(oak_session, scorer_client):
    from django.db import IntegrityError, transaction

    assert void(scorer_client, oak_session, buy_in(oak_session, "ann")).status_code == 201
    row = PurchaseVoid.objects.get()
    for change in (lambda: PurchaseVoid.objects.filter(pk=row.pk).update(reason="edited"),
                   lambda: PurchaseVoid.objects.filter(pk=row.pk).delete()):
        with pytest.raises(IntegrityError), transaction.atomic():
            change()
    assert PurchaseVoid.objects.get().reason == "keyed twice"


def test_the_report_page_lists_the_voided_purchase_with_its_reason(played, scorer_client):
    from django.template.loader import render_to_string

    from games.reports.gather import session_report
    from games.reports.render import report_context

    bought = buy(scorer_client, played, "dan", 10, paid=False)
    assert void(scorer_client, played, bought, reason="wrong player").status_code == 201
    context = report_context(session_report(GameSession.objects.get(pk=played.pk)))
    rows = [(r["player"], r["p"].chips, r["p"].void and r["p"].void.reason)
            for r in context["purchases"]]
    assert rows[-1] == ("Dan", 10, "wrong player") and len(rows) == 5  # named as the players table does

    page = render_to_string("reports/session.html", context)
    assert 'data-voided="true"' in page and 'after deal 3: <span class="reason">wrong player</span>' in page


def test_the_reports_purchases_table_as_csv_shows_the_void(played, scorer_client):
    import csv
    import io

    bought = buy(scorer_client, played, "dan", 10, paid=False)
    assert void(scorer_client, played, bought, reason="=wrong player").status_code == 201
    response = scorer_client.get(session_url(played, "report") + "?format=csv&table=purchases")
    assert response.status_code == 200, response.content
    rows = list(csv.DictReader(io.StringIO(response.content.decode())))
    assert [(r["after_deal"], r["player"], r["chips"], r["money"], r["paid"], r["voided"])
            for r in rows] == [("0", p, "20", "2.00", "yes", "no") for p in ("ann", "bob", "cat", "dan")
                               ] + [("3", "dan", "10", "1.00", "no", "yes")]
    # (a reason a spreadsheet would take for a formula is written as text)
    assert (rows[-1]["void_after_deal"], rows[-1]["void_reason"]) == ("3", "'=wrong player")
    assert rows[0]["void_reason"] == rows[0]["void_after_deal"] == ""


def test_the_admin_shows_voids_read_only(oak_session, scorer_client, django_user_model, client):
    bought = buy(scorer_client, oak_session, "bob", 5)
    assert void(scorer_client, oak_session, bought, reason="bob's twice").status_code == 201
    row = PurchaseVoid.objects.get()
    client.force_login(django_user_model.objects.create_superuser("root", "r@example.org", "pw-1234567"))
    for url in ["/admin/games/purchasevoid/", f"/admin/games/purchasevoid/{row.pk}/change/",
                "/admin/games/chippurchase/", "/admin/games/chippurchase/?void__isempty=0",
                f"/admin/games/gamesession/{oak_session.pk}/change/"]:
        response = client.get(url)
        assert response.status_code == 200, url
        assert "twice" in response.content.decode() or "chippurchase" in url, url
    assert client.get("/admin/games/purchasevoid/add/").status_code == 403
    assert client.post(f"/admin/games/purchasevoid/{row.pk}/delete/", {"post": "yes"}).status_code == 403


def test_the_clubs_results_count_a_voided_purchase_nowhere(played, scorer_client):
    from games.reports.club import club_results

    bought = buy(scorer_client, played, "dan", 10, paid=False)
    assert void(scorer_client, played, bought).status_code == 201
    close(scorer_client, played)
    rows = {r.player: (r.chips_bought, r.money_bought, r.result)
            for r in club_results(played.club, None, None)}
    assert rows == {"ann": (20, 200, 140), "bob": (20, 200, -20), "cat": (20, 200, -60),
                    "dan": (20, 200, -60)}
