"""`end_pool: "split"`: what is left in the pool goes back to the players in equal shares."""
from __future__ import annotations

from collections.abc import Sequence


def eldest_after(seats: Sequence[str], dealer: str) -> str:
    """The eldest hand for `dealer`: the first player to the dealer's left (next in seat order)."""
    return seats[(list(seats).index(dealer) + 1) % len(seats)]


def split_pool(pool: int, seats: Sequence[str], eldest: str) -> dict[str, int]:
    """Equal shares of `pool` units; the odd units one each by seat order from `eldest`.

    The white-chip rule keeps everything in whole units, so 11 among 4 from bob is
    bob 3, cat 3, dan 3, ann 2.
    """
    if pool < 0:
        raise ValueError(f"a pool cannot hold {pool} units")
    if eldest not in seats:
        raise ValueError(f"{eldest} is not seated")
    share, odd = divmod(pool, len(seats))
    start = list(seats).index(eldest)
    order = [seats[(start + k) % len(seats)] for k in range(len(seats))]
    lucky = set(order[:odd])
    return {seat: share + (1 if seat in lucky else 0) for seat in seats}
