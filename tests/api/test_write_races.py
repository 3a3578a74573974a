"""Two writers on one session at once, each pair of writes the ledger's hardest paths meet
(real threads, real transactions; PostgreSQL only, as tests/api/test_concurrency.py): a deal
beside a correction, two corrections, a correction beside a close or a void, a void beside a
deal or a payment, two payments, and the same ``Idempotency-Key`` sent at once to writes that
are not idempotent of themselves (a purchase, a payment, a void, a close).

Whichever write takes the session's lock first, the other sees what it did: after the race the
ledger checks out, the stored verdicts are what the current records replay to from scratch
(the pool, dealer and series carried), nobody is below zero without credit, and nothing is
stored twice. Hand-worked figures: tests/api/conftest.py (DEAL1-3 at ann, bob, cat, dan, each
holding 20 chips; cat deals first).
"""
from __future__ import annotations

from typing import Any

import pytest
from django.conf import settings

from games.models import ChipPayment, ChipPurchase, Deal, DealRevision, LedgerEntry, PurchaseVoid
from games.rules import replay
from games.selectors import NextDeal
from games.services.deals import stored_record
from games.services.ledger import ledger_balances, ledger_check, ledger_timeline, money_owed

from .conftest import DEAL1, DEAL2, DEAL3, deals_url, rec, session_url
from .test_concurrency import race

pytestmark = [
    pytest.mark.skipif(settings.DATABASES["default"]["ENGINE"] != "django.db.backends.postgresql",
                       reason="needs PostgreSQL (row locks between real connections)"),
    pytest.mark.django_db(transaction=True),
]

#: DEAL1 corrected so that ann takes all three tricks: she takes the pool (cat's ante, 3),
#: bob, cat and dan are looed 3 each (cat -6 with his ante); the pool left is 9, not 6, so
#: deal 2 is re-settled (ann takes 9 + dan's ante 3 = 12; bob's loo leaves 3, as before).
ALL_TO_ANN = rec(DEAL1, result={"tricks": {"ann": 3}})
#: DEAL1 corrected to ann 1, bob 2 tricks: the pool left is the same (6), only deal 1 changes
SWAPPED = rec(DEAL1, result={"tricks": {"ann": 1, "bob": 2}})


def from_scratch(session: Any) -> None:
    """The current records replayed from deal 1, the pool, dealer, series and redeal carried,
    give the stored verdicts, and each revision was judged with what the one before left."""
    session.refresh_from_db()
    carry = NextDeal(1, session.first_dealer, 0, True)
    for deal in Deal.objects.filter(session=session).select_related("current").order_by("number"):
        cur = deal.current
        record = stored_record(cur.record)
        record["pool"] = carry.pool
        if carry.sits_out is not None:
            record.update(redeal=True, sits_out=list(carry.sits_out))
        verdict = replay(record, session.resolved_rules, pool=carry.pool,
                         first_of_series=carry.first_of_series)
        assert (deal.number, cur.dealer, cur.pool_before, cur.first_of_series) == (
            carry.number, carry.dealer, carry.pool, carry.first_of_series)
        assert cur.verdict == verdict, f"deal {deal.number}"
        carry = NextDeal.after(verdict, deal.number)


def settled(session: Any) -> None:
    """Everything a race must leave: the ledger checks out, the verdicts replay from scratch,
    the pool is the last deal's (open) and nobody is below zero at any step (no credit)."""
    assert ledger_check(session) == []
    from_scratch(session)
    session.refresh_from_db()
    if session.status == "open":
        last = Deal.objects.filter(session=session).order_by("-number").select_related("current").first()
        assert ledger_balances(session)["pool"] == (last.current.pool_after if last else 0)
    if not session.allow_credit:
        for row in ledger_timeline(session):
            assert all(row.balances[s] >= 0 for s in session.seats), (row.position, row.balances)


def post(client: Any, url: str, body: dict[str, Any], key: str | None = None) -> Any:
    return client.post(url, body, format="json", headers={"Idempotency-Key": key} if key else None)


@pytest.fixture
def clients(api_client_for):
    return api_client_for("scorer"), api_client_for("owner")


@pytest.fixture
def two_deals(oak_session, clients):
    """oak_session with DEAL1 and DEAL2 recorded (pool 3 after them)."""
    scorer, _ = clients
    for n, deal in ((1, DEAL1), (2, DEAL2)):
        assert post(scorer, deals_url(oak_session), {"number": n, "record": deal}).status_code == 201
    return oak_session


def test_a_deal_recorded_while_an_earlier_deal_is_corrected(two_deals, clients):
    """Deal 3 beside a correction of deal 1 that changes the pool carried into deal 2 (6 ->
    9): both answer 201 in either order, deal 2 is re-settled (ann +12) and deal 3 is judged
    with the pool deal 2 leaves (3, as before: bob's loo)."""
    scorer, owner = clients
    s = two_deals
    results = race(
        lambda: post(scorer, deals_url(s), {"number": 3, "record": DEAL3}),
        lambda: post(owner, session_url(s, "deals/1/corrections"), {"record": ALL_TO_ANN, "reason": "x"}),
    )
    assert [r.status_code for r in results] == [201, 201], results
    settled(s)
    d2 = Deal.objects.select_related("current").get(session=s, number=2).current
    assert (d2.pool_before, d2.deltas["ann"], d2.pool_after) == (9, 12, 3)
    d3 = Deal.objects.select_related("current").get(session=s, number=3).current
    assert (d3.pool_before, d3.deltas["ann"], d3.pool_after) == (3, 3, 0)


def test_a_deal_recorded_while_a_correction_makes_it_impossible(two_deals, clients):
    """Deal 2 corrected so that everybody passes to dan (he takes the pool: 0 left) beside
    deal 3, in which everybody passes to ann: at a simple pool (0) everybody plays, so deal 3
    cannot follow the corrected deal 2. Whichever comes second is refused (the deal a 400,
    the correction a 409 naming deal 3), and nothing of it is stored."""
    scorer, owner = clients
    s = two_deals
    passes = {"format": "loo-deal/1", "turnup": "7D", "actions": [
        {"player": p, "action": "pass"} for p in ("ann", "bob", "cat")]}
    results = race(
        lambda: post(scorer, deals_url(s), {"number": 3, "record": DEAL3}),
        lambda: post(owner, session_url(s, "deals/2/corrections"), {"record": passes, "reason": "x"}),
    )
    recorded, corrected = results
    assert sorted(r.status_code for r in results) in ([201, 400], [201, 409]), results
    if recorded.status_code == 201:
        assert corrected.json()["code"] == "correction-refused" and corrected.json()["deal"] == 3
        assert DealRevision.objects.filter(deal__session=s).count() == 3
    else:
        assert Deal.objects.filter(session=s).count() == 2
        assert Deal.objects.select_related("current").get(session=s, number=2).current.pool_after == 0
    settled(s)


@pytest.mark.parametrize("second, corrected", [(2, 2), (1, 1)], ids=["deal 2", "deal 1 again"])
def test_two_corrections_at_once(two_deals, clients, second, corrected):
    """Deal 1 corrected (pool changes, deal 2 re-settled) beside a second correction: of deal 2,
    sent as if deal 1 still stood (queued behind the first, it is judged with the pool the first
    left: its record states no pool), or of deal 1 again. Both are stored, in turn, and the deal
    corrected twice over has three revisions."""
    scorer, owner = clients
    s = two_deals
    if second == 2:
        record = {k: v for k, v in DEAL2.items() if k != "pool"}
        record["note"] = "checked again"
    else:
        record = SWAPPED
    results = race(
        lambda: post(owner, session_url(s, "deals/1/corrections"), {"record": ALL_TO_ANN, "reason": "a"}),
        lambda: post(scorer, session_url(s, f"deals/{second}/corrections"),
                     {"record": record, "reason": "b"}),
    )
    assert [r.status_code for r in results] == [201, 201], results
    settled(s)
    assert DealRevision.objects.filter(deal__session=s, deal__number=corrected).count() == 3


def test_a_correction_beside_a_close(two_deals, clients):
    """Closed first: the correction is a 409 session-closed and changes nothing; corrected
    first: the close buys back what the correction left ann (20 + 3 + 12 = 35, not 20 + 2 +
    9 = 31). The pool split is 3 either way (bob's loo at deal 2)."""
    from games.models import SessionClosing

    scorer, owner = clients
    s = two_deals
    before = LedgerEntry.objects.filter(session=s).count()
    results = race(
        lambda: post(owner, session_url(s, "deals/1/corrections"), {"record": ALL_TO_ANN, "reason": "a"}),
        lambda: post(scorer, session_url(s, "close"), {}),
    )
    corrected, closed = results
    assert closed.status_code == 200, closed.content
    assert corrected.status_code in (201, 409), corrected.content
    settled(s)
    body = closed.json()
    if corrected.status_code == 409:
        assert corrected.json()["code"] == "session-closed"
        assert DealRevision.objects.filter(deal__session=s).count() == 2
    else:
        assert LedgerEntry.objects.filter(session=s).count() > before
    assert body["end_pool"]["pool"] == 3
    closing = SessionClosing.objects.get(session=s)
    assert closing.returned["ann"] == (31 if corrected.status_code == 409 else 35)
    assert ledger_balances(s)["pool"] == 0
    assert sum(v for k, v in ledger_balances(s).items() if k != "bank") == 0


def test_a_void_beside_a_deal_that_needs_the_same_chips(make_session, clients):
    """No credit, dan holds 3 after buying 3 (by mistake: his void would take them all back):
    deal 1 (dan looed -3) and the void of that purchase each fit alone, not both. One is
    refused whichever comes second; dan never goes below zero."""
    scorer, owner = clients
    s = make_session(buy_ins={"ann": 20, "bob": 20, "cat": 20})
    buy = post(scorer, session_url(s, "purchases/"), {"player": "dan", "chips": 3})
    assert buy.status_code == 201
    results = race(
        lambda: post(scorer, deals_url(s), {"number": 1, "record": DEAL1}),
        lambda: post(owner, session_url(s, f"purchases/{buy.json()['id']}/void"), {"reason": "wrong"}),
    )
    assert sorted(r.status_code for r in results) in ([201, 400], [201, 409]), results
    settled(s)
    assert ledger_balances(s)["dan"] >= 0


def test_a_correction_beside_a_void_that_needs_the_same_chips(make_session, clients):
    """No credit: dan buys 20 and loses 3 at deal 1 (17 left), then buys 3 more by mistake.
    Voiding those 3 fits (20 -> 17); a correction of deal 1 in which ann takes all three
    tricks (dan looed -3, then deal 2 re-settled from pool 9: dan antes -3) fits alone too,
    but dan could not then give back 3 after... the two together would take dan below zero
    only if he held too few: here each is checked under the lock against what the other did."""
    scorer, owner = clients
    s = make_session(buy_ins={"ann": 20, "bob": 20, "cat": 20, "dan": 6})
    for n, deal in ((1, DEAL1), (2, DEAL2)):
        assert post(scorer, deals_url(s), {"number": n, "record": deal}).status_code == 201
    # dan: 6 - 3 (deal 1) - 3 (deal 2) = 0; he buys 3 by mistake
    buy = post(scorer, session_url(s, "purchases/"), {"player": "dan", "chips": 3})
    assert buy.status_code == 201
    results = race(
        lambda: post(owner, session_url(s, "deals/1/corrections"), {"record": SWAPPED, "reason": "a"}),
        lambda: post(scorer, session_url(s, f"purchases/{buy.json()['id']}/void"), {"reason": "wrong"}),
    )
    assert all(r.status_code < 500 for r in results), results
    settled(s)


def test_a_void_beside_a_payment_toward_it(make_session, clients):
    """dan bought 5 chips on credit (50): a payment of 50 and the void of that purchase at
    once. Paid first, the void leaves him 50 paid beyond what his chips cost; voided first,
    he owes nothing and the payment is a 400. Never both refused, never a debt below what was
    paid in."""
    scorer, owner = clients
    s = make_session()
    buy = post(scorer, session_url(s, "purchases/"), {"player": "dan", "chips": 5, "paid": False})
    assert buy.status_code == 201
    results = race(
        lambda: post(scorer, session_url(s, "payments/"), {"player": "dan", "money": 50}),
        lambda: post(owner, session_url(s, f"purchases/{buy.json()['id']}/void"), {"reason": "wrong"}),
    )
    paid, voided = results
    assert voided.status_code == 201, voided.content
    assert paid.status_code in (201, 400), paid.content
    owed = money_owed(s)["dan"]
    assert owed == (-50 if paid.status_code == 201 else 0)
    settled(s)


def test_two_payments_of_the_whole_debt_at_once(make_session, clients):
    scorer, _ = clients
    s = make_session()
    assert post(scorer, session_url(s, "purchases/"), {"player": "dan", "chips": 5, "paid": False}).status_code == 201
    results = race(*[(lambda c=c: post(c, session_url(s, "payments/"), {"player": "dan", "money": 50}))
                     for c in clients])
    assert sorted(r.status_code for r in results) == [201, 400], results
    assert money_owed(s)["dan"] == 0
    assert ChipPayment.objects.filter(session=s).count() == 1


@pytest.mark.parametrize("write", ["purchase", "payment", "void", "close", "correction"])
def test_the_same_key_sent_four_times_at_once_stores_once(write, two_deals, api_client_for):
    """Writes that a second copy would store again (a purchase, a payment) or refuse (a void,
    a close, a correction: 409s a replay must not give): the same key four times at once
    stores one, and every answer is the first answer (201/200, replayed) or 409 in flight."""
    scorer = api_client_for("scorer")
    s = two_deals
    owed = post(scorer, session_url(s, "purchases/"), {"player": "dan", "chips": 5, "paid": False})
    url, body, ok = {
        "purchase": (session_url(s, "purchases/"), {"player": "ann", "chips": 5}, 201),
        "payment": (session_url(s, "payments/"), {"player": "dan", "money": 10}, 201),
        "void": (session_url(s, f"purchases/{owed.json()['id']}/void"), {"reason": "wrong"}, 201),
        "close": (session_url(s, "close"), {}, 200),
        "correction": (session_url(s, "deals/1/corrections"), {"record": ALL_TO_ANN, "reason": "x"}, 201),
    }[write]
    before = (ChipPurchase.objects.filter(session=s).count(), ChipPayment.objects.filter(session=s).count(),
              PurchaseVoid.objects.filter(purchase__session=s).count(),
              DealRevision.objects.filter(deal__session=s).count())
    results = race(*[(lambda: post(scorer, url, body, key=f"same-{write}"))] * 4)
    codes = [r.status_code for r in results]
    assert ok in codes and set(codes) <= {ok, 409}, [(r.status_code, r.content) for r in results]
    for r in results:
        if r.status_code == 409:
            assert r.json()["code"] == "conflict", r.content
    after = (ChipPurchase.objects.filter(session=s).count(), ChipPayment.objects.filter(session=s).count(),
             PurchaseVoid.objects.filter(purchase__session=s).count(),
             DealRevision.objects.filter(deal__session=s).count())
    grew = {"purchase": (1, 0, 0, 0), "payment": (0, 1, 0, 0), "void": (0, 0, 1, 0), "close": (0, 0, 0, 0),
            "correction": (0, 0, 0, 2)}[write]
    assert tuple(a - b for a, b in zip(after, before, strict=True)) == grew
    replayed = post(scorer, url, body, key=f"same-{write}")
    assert replayed.status_code == ok and replayed["Idempotent-Replayed"] == "true"
    settled(s)
