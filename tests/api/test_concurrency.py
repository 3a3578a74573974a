"""Two scorers racing (real threads, real transactions; PostgreSQL only: SQLite serialises
writers for the whole database, so there is no race to lose there)."""
from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest
from django.conf import settings
from django.db import connection

from games.models import ChipPurchase, Deal, LedgerEntry
from games.services.ledger import ledger_check

from .conftest import DEAL1, deals_url, session_url

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


def test_same_idempotency_key_at_once_stores_once(oak_session, api_client_for):
    scorer = api_client_for("scorer")
    url = deals_url(oak_session)
    body = {"number": 1, "record": DEAL1}
    results = race(*[(lambda: scorer.post(url, body, format="json", headers={"Idempotency-Key": "race-1"}))] * 2)
    statuses = sorted(r.status_code for r in results)
    # either the second waited and got the replay (201, 201) or saw the first in flight (201, 409)
    assert statuses in ([201, 201], [201, 409]), results
    assert Deal.objects.filter(session=oak_session).count() == 1
