"""`end_pool: "split"`: what is left in the pool goes back to the players in equal shares; and
whose turn at the deal each deal was, for the end-of-session check that all dealt equally."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.rules import end_pool_split as split_pool  # the service's name for it
from games.rules import marked_final

__all__ = ["eldest_after", "split_pool", "turns_dealt"]


def eldest_after(seats: Sequence[str], dealer: str) -> str:
    """The eldest hand for `dealer`: the first player to the dealer's left (next in seat order)."""
    return seats[(list(seats).index(dealer) + 1) % len(seats)]


def turns_dealt(seats: Sequence[str],
                deals: Sequence[tuple[Mapping[str, Any], Mapping[str, Any]]]) -> dict[str, int]:
    """How many turns at the deal each player had, from the deals' ``(record, verdict)`` in order.

    A turn at the deal is the deal coming to a player: every deal the rules make him deal again
    (a misdeal, a three-trumps redeal, a poker-Loo deal all folded or thrown in after a revoke:
    the verdict's ``next.dealer`` is its own dealer, and the next deal is his) is the same turn,
    which ends when the deal passes on or the session ends. So each turn counts once, however
    it ended: played, all passed, or void by a misdeal that was never dealt again (the session
    closed on it: the deal had come to him). A verdict without ``next`` passes the deal on.
    The turn whose last deal is the final deal of ``end_pool: "final-deal"`` (``marked_final``,
    played or misdealt) is no turn: it plays the pool off after the rounds.
    """
    turns = {s: 0 for s in seats}
    for i, (record, verdict) in enumerate(deals):
        dealer = verdict.get("dealer")
        dealt_again = (verdict.get("next") or {}).get("dealer") == dealer
        if dealt_again and i + 1 < len(deals) and deals[i + 1][1].get("dealer") == dealer:
            continue  # his turn goes on with the next deal
        if dealer in turns and not marked_final(record):
            turns[dealer] += 1
    return turns
