"""Gaps found by the service mutation audit (docs/engine-tests.md, "Service mutation audit"):
each test fails on the mutant it names and passes on the real code (M18 is caught otherwise only
by the slow session state machine of tests/services), with hand-worked figures
at oak's table (see conftest: ann, bob, cat, dan, 20 chips each at 10, DEAL1..DEAL3)."""
from __future__ import annotations

import pytest

from games.models import Deal, LedgerEntry
from games.services.ledger import ledger_balances, ledger_check, ledger_post, next_posting

from .conftest import DEALS
from .test_corrections import FIXED, correct

pytestmark = pytest.mark.django_db


def test_the_check_finds_a_pool_one_chip_below_zero(played, ledger_may_break):
    """Mutant M08 (``pool < -1``): after DEAL3 the pool holds 0; a posting paying dan one chip
    out of it leaves the pool at -1, which the check names with its position."""
    position = next_posting(played)
    ledger_post(session=played, kind="payout", lines=[("pool", -1), ("dan", 1)])
    assert ledger_check(played) == [f"pool below zero (-1) at position {position}"]


def test_a_correction_reaches_only_its_own_sessions_deal(make_session, post_deal, scorer_client):
    """Mutant M18 (the deal to correct looked up by number alone): two sessions of oak with
    DEAL1..DEAL3. Correcting deal 1 of the first to ann, bob and cat one trick each (see
    test_corrections: ann +1, bob +1, cat -2, dan -3; deal 2 then ann +6) leaves ann 30,
    bob 18, cat 18, dan 14 there, and the second session as it was: ann 34, bob 18, cat 14,
    dan 14."""
    first, second = make_session(), make_session()
    for session in (first, second):
        for n, deal in enumerate(DEALS, start=1):
            assert post_deal(session, n, deal).status_code == 201
    assert correct(scorer_client, first, 1, FIXED).status_code == 201
    assert ledger_balances(first) == {"ann": 30, "bob": 18, "cat": 18, "dan": 14, "pool": 0,
                                      "bank": -80}
    assert ledger_balances(second) == {"ann": 34, "bob": 18, "cat": 14, "dan": 14, "pool": 0,
                                       "bank": -80}
    revisions = Deal.objects.filter(number=1).values_list("session_id", "current__revision")
    assert sorted(revisions) == [(first.pk, 2), (second.pk, 1)]


def test_each_reversal_of_a_correction_is_a_posting_of_its_own(played, scorer_client):
    """Mutant M46 (every reversal of one correction booked under one posting number): the
    balances come out the same, but the ledger's rows no longer say which reversal is which.
    Correcting deal 1 re-settles deal 2 (see test_corrections), so two reversals are stored,
    each its own posting after the last one used (DEAL3's), deal 1's first."""
    last = next_posting(played) - 1
    assert correct(scorer_client, played, 1, FIXED).status_code == 201
    reversals = (LedgerEntry.objects.filter(session=played, kind="reversal")
                 .values_list("posting", "deal__number").distinct().order_by("posting"))
    assert list(reversals) == [(last + 1, 1), (last + 2, 2)]
