"""Dividing the pool: trick shares, loos, and the books of one deal (integers only).

Conservation is the invariant every verdict is checked against before it leaves the engine:
``sum(deltas) + pool_after - pool_before == 0``.
"""
from __future__ import annotations

from collections.abc import Sequence

from .options import RuleSet


def trick_shares(rules: RuleSet, pool: int, n_tricks: int) -> list[int]:
    """What each trick (in play order) is worth out of ``pool``.

    ``remainder: carry`` pays ``floor(P / n)`` a trick and leaves the odd units in the pool;
    ``early-tricks`` (Peel) hands the odd units to the first tricks (13 pays 5/4/4).
    """
    base, odd = divmod(pool, n_tricks)
    if rules.remainder == "early-tricks":
        return [base + (1 if i < odd else 0) for i in range(n_tricks)]
    return [base] * n_tricks


class Books:
    """The money of one deal: antes, pre-play penalties, payouts, loos and direct transfers."""

    __slots__ = ("antes", "loos", "payouts", "penalties", "pool_before", "seats", "transfers")

    def __init__(self, seats: Sequence[str], pool_before: int):
        self.seats = seats
        self.pool_before = pool_before
        self.antes: dict[str, int] = {}
        self.penalties: dict[str, int] = {}
        self.payouts: dict[str, int] = {}
        self.loos: dict[str, int] = {}
        self.transfers: dict[str, int] = {}

    @property
    def pool(self) -> int:
        """P: the pool played for (carried pool, this deal's antes, pre-play penalties)."""
        pool = self.pool_before + sum(self.antes.values())
        if self.penalties:  # rarely any
            pool += sum(self.penalties.values())
        return pool

    def unsettle(self) -> None:
        """Forget a settlement already worked out (payouts, loos, transfers), keeping what was
        booked before it (antes, penalties): a flush shown after a verdict was asked for."""
        self.payouts, self.loos, self.transfers = {}, {}, {}

    def add(self, book: dict[str, int], seat: str, units: int) -> None:
        if units:
            book[seat] = book.get(seat, 0) + units

    def settlement(self, pool: int | None = None) -> dict:
        """The verdict's ``settlement`` block; refuses (AssertionError) to make or lose chips.

        ``pool`` is P when the caller already knows it (it cannot change while settling).
        """
        if pool is None:
            pool = self.pool
        payouts, transfers, loos = self.payouts, self.transfers, self.loos
        pool_after = pool  # less the payouts, plus the loos
        deltas = {seat: 0 for seat in self.seats}
        for seat, units in payouts.items():
            deltas[seat] += units
            pool_after -= units
        for seat, units in self.antes.items():
            deltas[seat] -= units
        for seat, units in loos.items():
            deltas[seat] -= units
            pool_after += units
        if transfers or self.penalties:  # rarely any: most deals skip these two books
            for seat, units in transfers.items():
                deltas[seat] += units
            for seat, units in self.penalties.items():
                deltas[seat] -= units
        if sum(deltas.values()) + pool_after - self.pool_before != 0 or pool_after < 0:
            raise AssertionError(f"settlement does not conserve chips: {deltas}, {pool_after}")
        out = {"pool_before": self.pool_before, "antes": self.antes, "pool": pool,
               "payouts": payouts, "loo_payments": loos,
               "penalties": self.penalties, "pool_after": pool_after, "deltas": deltas}
        if transfers:
            out["transfers"] = transfers
        return out


def end_pool_split(pool: int, seats: Sequence[str], eldest: str) -> dict[str, int]:
    """``end_pool: split``: the pool left at the end shared equally, odd units one each by seat
    order from ``eldest`` (the player left of the dealer who would deal next), so 11 among four
    from bob is bob 3, cat 3, dan 3, ann 2. Shares are given in seat order; the service's
    closing shares a pool out with this very function."""
    if pool < 0:
        raise ValueError(f"a pool cannot hold {pool} units")
    if eldest not in seats:
        raise ValueError(f"{eldest} is not seated")
    n = len(seats)
    start = list(seats).index(eldest)
    base, odd = divmod(pool, n)
    lucky = {seats[(start + i) % n] for i in range(odd)}
    return {seat: base + (1 if seat in lucky else 0) for seat in seats}
