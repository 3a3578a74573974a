"""Two scorers racing (real threads, real transactions; PostgreSQL only: SQLite serialises
writers for the whole database, so there is no race to lose there)."""
from __future__ import annotations

import threading
from collections.abc import Callable
from itertools import pairwise
from typing import Any

import pytest
from django.conf import settings
from django.db import connection

from games.models import ChipPurchase, Deal, LedgerEntry
from games.services.ledger import ledger_balances, ledger_check

from .conftest import DEAL1, DEAL2, DEAL3, deals_url, rec, session_url

pytestmark = [
    pytest.mark.skipif(settings.DATABASES["default"]["ENGINE"] != "django.db.backends.postgresql",
                       reason="needs PostgreSQL (row locks between real connections)"),
    pytest.mark.django_db(transaction=True),
]


def race(*calls: Callable[[], Any]) -> list[Any]:
    """Run the calls at once in threads (released together by a barrier); their results."""
    barrier = threading.Barrier(len(calls))
    results: list[Any] = [None] * len(calls)

    def run(i: int, call: Callable[[], Any]) -> None:
        try:
            barrier.wait()
            results[i] = call()
        except Exception as exc:  # noqa: BLE001 - surfaced by the assertions below
            results[i] = exc
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return results


def test_two_scorers_race_for_the_same_number(oak_session, api_client_for):
    scorer, owner = api_client_for("scorer"), api_client_for("owner")
    url = deals_url(oak_session)
    body = {"number": 1, "record": DEAL1}
    results = race(lambda: scorer.post(url, body, format="json"), lambda: owner.post(url, body, format="json"))
    assert sorted(r.status_code for r in results) == [201, 409], results
    loser = next(r for r in results if r.status_code == 409).json()
    assert loser["code"] == "deal-number-conflict" and loser["current_number"] == 1
    assert Deal.objects.filter(session=oak_session).count() == 1
    assert ledger_check(oak_session) == []


def test_concurrent_purchases_keep_the_ledger_chain(oak_session, api_client_for):
    scorer, owner = api_client_for("scorer"), api_client_for("owner")
    url = session_url(oak_session, "purchases/")
    results = race(*[
        (lambda c=c, p=p: c.post(url, {"player": p, "chips": 5}, format="json"))
        for c, p in [(scorer, "ann"), (owner, "bob"), (scorer, "cat"), (owner, "dan")]
    ])
    assert [r.status_code for r in results] == [201] * 4, results
    assert ChipPurchase.objects.filter(session=oak_session).count() == 8
    seqs = list(LedgerEntry.objects.filter(session=oak_session).order_by("seq").values_list("seq", flat=True))
    assert seqs == list(range(1, 17))
    assert ledger_check(oak_session) == []


def test_two_scorers_race_to_void_the_same_purchase(oak_session, api_client_for):
    """The session's lock puts one void after the other: the second finds the purchase voided."""
    scorer, owner = api_client_for("scorer"), api_client_for("owner")
    purchase = ChipPurchase.objects.filter(session=oak_session).first()
    url = session_url(oak_session, f"purchases/{purchase.pk}/void")
    results = race(*[(lambda c=c: c.post(url, {"reason": "keyed twice"}, format="json"))
                     for c in (scorer, owner)])
    assert sorted(r.status_code for r in results) == [201, 409], results
    loser = next(r for r in results if r.status_code == 409).json()
    assert (loser["code"], loser["purchase"]) == ("purchase-voided", purchase.pk)
    assert LedgerEntry.objects.filter(session=oak_session, kind="void").count() == 2
    assert ledger_check(oak_session) == []


def test_same_idempotency_key_at_once_stores_once(oak_session, api_client_for):
    scorer = api_client_for("scorer")
    url = deals_url(oak_session)
    body = {"number": 1, "record": DEAL1}
    results = race(*[(lambda: scorer.post(url, body, format="json", headers={"Idempotency-Key": "race-1"}))] * 2)
    statuses = sorted(r.status_code for r in results)
    # either the second waited and got the replay (201, 201) or saw the first in flight (201, 409)
    assert statuses in ([201, 201], [201, 409]), results
    assert Deal.objects.filter(session=oak_session).count() == 1


def settled_pool(session) -> int:
    """The pool the ledger should hold now: the last deal's pool after, 0 once closed."""
    session.refresh_from_db()
    if session.status == "closed":
        return 0
    last = Deal.objects.filter(session=session).order_by("-number").select_related("current").first()
    return last.current.pool_after


def test_a_deal_a_correction_a_close_a_purchase_and_a_payment_at_once(oak_session, api_client_for):
    """Five writes to one session at once, each under the session's lock in some order: every
    one answers (no 500), and whichever won, the ledger balances and holds the pool the last
    deal left (or 0, closed). DEAL1 corrected to ann 1, bob 2 tricks keeps its pool (6)."""
    scorer, owner = api_client_for("scorer"), api_client_for("owner")
    s = oak_session
    for n, deal in ((1, DEAL1), (2, DEAL2)):
        assert scorer.post(deals_url(s), {"number": n, "record": deal}, format="json").status_code == 201
    assert owner.post(session_url(s, "purchases/"), {"player": "dan", "chips": 5, "paid": False},
                      format="json").status_code == 201
    corrected = rec(DEAL1, result={"tricks": {"ann": 1, "bob": 2}})
    results = race(
        lambda: scorer.post(deals_url(s), {"number": 3, "record": DEAL3}, format="json"),
        lambda: owner.post(session_url(s, "deals/1/corrections"), {"record": corrected, "reason": "x"},
                           format="json"),
        lambda: scorer.post(session_url(s, "close"), {}, format="json"),
        lambda: owner.post(session_url(s, "purchases/"), {"player": "ann", "chips": 5}, format="json"),
        lambda: scorer.post(session_url(s, "payments/"), {"player": "dan", "money": 10}, format="json"),
    )
    assert all(r.status_code < 500 for r in results), results
    closed = results[2]
    assert closed.status_code == 200, closed.content  # nothing else can stop the close
    for late in results[:2] + results[3:4]:  # refused only because the close came first
        assert late.status_code in (201, 409), late.content
        if late.status_code == 409:
            assert late.json()["code"] == "session-closed"
    assert ledger_check(s) == []
    assert ledger_balances(s)["pool"] == settled_pool(s) == 0


def test_two_reopenings_a_close_and_a_deal_at_once(oak_session, api_client_for):
    """An owner's double-clicked reopen beside a close and a deal: one reopening reverses the
    closing, the other finds the session open (409) or, after the close, reverses that one;
    closes and reopens alternate, and no chip is bought back twice or left bought back."""
    from games.models import SessionClosing

    scorer, owner = api_client_for("scorer"), api_client_for("owner")
    s = oak_session
    assert scorer.post(deals_url(s), {"number": 1, "record": DEAL1}, format="json").status_code == 201
    assert scorer.post(session_url(s, "close"), {}, format="json").status_code == 200
    results = race(
        lambda: owner.post(session_url(s, "reopen"), {"reason": "a"}, format="json"),
        lambda: owner.post(session_url(s, "reopen"), {"reason": "b"}, format="json"),
        lambda: scorer.post(session_url(s, "close"), {}, format="json"),
        lambda: scorer.post(deals_url(s), {"number": 2, "record": rec(DEAL2)}, format="json"),
    )
    assert all(r.status_code < 500 for r in results), results
    actions = list(SessionClosing.objects.filter(session=s).order_by("id").values_list("action", flat=True))
    assert all(a != b for a, b in pairwise(actions)), actions
    assert ledger_check(s) == []
    assert ledger_balances(s)["pool"] == settled_pool(s)
