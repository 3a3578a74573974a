"""One-glance summary of a verdict, so a hand-worked test states its whole outcome in one dict.

Used by the five-card, poker-Loo and CLI tests: every settled test compares
``outcome(play(record))`` with the outcome worked out by hand (``play`` already checks
that chips are conserved and that ``deltas`` names every seat).
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tests.engine.dealkit import (
    assert_conserved,
    check_deck,
    nonzero,
    play,
    record,
    violations,
    winners,
)

FIVE: Mapping[str, Any] = {"game": "five-card"}


def outcome(verdict: Mapping[str, Any]) -> dict[str, Any]:
    """Trick winners, violations, payouts, loos, penalties, pool after, deltas, next dealer.

    Zero entries are dropped from the money maps; every violation must carry evidence.
    """
    for v in verdict["violations"]:
        assert isinstance(v["evidence"], str) and v["evidence"], v
    s = verdict["settlement"]
    return {
        "winners": winners(verdict),
        "violations": violations(verdict),
        "payouts": nonzero(s["payouts"]),
        "loos": nonzero(s["loo_payments"]),
        "penalties": nonzero(s["penalties"]),
        "pool_after": s["pool_after"],
        "deltas": nonzero(s["deltas"]),
        "next_dealer": verdict["next"]["dealer"],
    }


def clean(winners: list[str], payouts: dict[str, int], pool_after: int,
          deltas: dict[str, int], *, loos: dict[str, int] | None = None,
          next_dealer: str = "ann") -> dict[str, Any]:
    """The expected outcome of a deal without offence."""
    return {"winners": winners, "violations": [], "payouts": payouts, "loos": loos or {},
            "penalties": {}, "pool_after": pool_after, "deltas": deltas,
            "next_dealer": next_dealer}


def offended(winners: list[str], violation: tuple[Any, ...], payouts: dict[str, int],
             pool_after: int, deltas: dict[str, int], *, penalty: int = 5,
             more: tuple[tuple[Any, ...], ...] = (), next_dealer: str = "ann") -> dict[str, Any]:
    """The expected outcome of a deal with an offence (player, rule, trick, card, penalty),
    plus any ``more`` by the same offender, who is looed once: ``penalty`` in loo_payments
    (the full loo replaces the ordinary loo, as bob's revoke in deal-record.md's example).
    """
    return {**clean(winners, payouts, pool_after, deltas, loos={violation[0]: penalty},
                    next_dealer=next_dealer),
            "violations": [violation, *more]}


def replayed(actions: str, rules: Mapping[str, Any] = FIVE, *, pool: int = 5, turnup: str = "4S",
             seats: str = "ann bob cat dan", dealer: str = "dan", **fields: Any) -> dict[str, Any]:
    """Outcome of a hand-worked deal (default table: ann bob cat dan, dan deals, spades trumps)."""
    return outcome(play(record(seats, dealer, rules=rules, pool=pool, turnup=turnup,
                               actions=actions, **fields)))


def play_own_turnup(rec: Mapping[str, Any]) -> dict[str, Any]:
    """``dealkit.play`` for a deal whose standing dealer takes (and plays) the turn-up.

    dealkit's deck check treats the turn-up as nobody's card; here it is checked without it.
    """
    from games.rules import replay

    check_deck({**rec, "turnup": None})
    verdict = replay(rec, rec["rules"])
    assert_conserved(verdict, rec["seats"])
    return verdict
