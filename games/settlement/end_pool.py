"""`end_pool: "split"`: what is left in the pool goes back to the players in equal shares; and
whose turn at the deal each deal was, for the end-of-session check that all dealt equally."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.rules import end_pool_split as split_pool  # the service's name for it

__all__ = ["eldest_after", "split_pool", "turns_dealt"]


def eldest_after(seats: Sequence[str], dealer: str) -> str:
    """The eldest hand for `dealer`: the first player to the dealer's left (next in seat order)."""
    return seats[(list(seats).index(dealer) + 1) % len(seats)]


def turns_dealt(seats: Sequence[str], verdicts: Sequence[Mapping[str, Any]]) -> dict[str, int]:
    """How many turns at the deal each player had: deals after which the deal passed on.

    A deal the same dealer deals again (a misdeal, a three-trumps redeal, a poker-Loo deal all
    folded or thrown in after a revoke: the verdict's ``next.dealer`` is its own dealer) is one
    turn with the deal that follows it, so a misdeal does not make its dealer look as if he
    dealt more often than the others. A verdict without ``next`` counts as a turn.
    """
    turns = {s: 0 for s in seats}
    for v in verdicts:
        dealer = v.get("dealer")
        if dealer in turns and (v.get("next") or {}).get("dealer", object()) != dealer:
            turns[dealer] += 1
    return turns
