"""The fewest direct payments between players that settle every balance.

With n players whose balances are not zero, any settlement needs at least n - g payments,
where g is the largest number of groups the players can be split into so that every group's
balances sum to zero (each group settles on its own with size - 1 payments, and a payment
never joins two groups that could have stayed apart). So the search is over zero-sum subset
partitions: a DP over subsets finds g exactly (2^n states; tables have at most 8 players, and
the search stays fast well beyond that).

Ties (several partitions with g groups) are broken by seat order: the group holding the first
seated player with a balance is the one whose members, listed in seat order, come first
lexicographically; then the same for the players left. Inside a group, debtors in seat order
pay creditors in seat order, each payment as large as the pair allows.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache

from games.settlement.money import SettlementError, format_money

MAX_EXACT_PLAYERS = 16


@dataclass(frozen=True)
class Transfer:
    """`payer` pays `payee` `amount` minor units; `explanation` says which balances it settles."""

    payer: str
    payee: str
    amount: int
    group: int
    explanation: str


def zero_sum_groups(seats: Sequence[str], balances: Mapping[str, int]) -> list[list[str]]:
    """The players with a balance, split into the most zero-sum groups (seat-order tie-break)."""
    players = [s for s in seats if balances.get(s, 0) != 0]
    extra = set(balances) - set(seats)
    if extra:
        raise SettlementError(f"not seated: {', '.join(sorted(extra))}")
    if sum(balances.values()) != 0:
        raise SettlementError(f"balances sum to {sum(balances.values())}, not zero")
    n = len(players)
    if n > MAX_EXACT_PLAYERS:
        raise SettlementError(f"exact search is limited to {MAX_EXACT_PLAYERS} players with a balance")
    values = [balances[p] for p in players]
    full = (1 << n) - 1

    # Sum of every subset, built from the subset without its lowest bit.
    total = [0] * (1 << n)
    for mask in range(1, 1 << n):
        low = mask & -mask
        total[mask] = total[mask ^ low] + values[low.bit_length() - 1]

    @cache
    def most_groups(mask: int) -> int:
        """Most zero-sum groups partitioning `mask` (a zero-sum set of players)."""
        if mask == 0:
            return 0
        first = mask & -mask
        best = 1  # the whole of `mask` is one group
        rest = mask ^ first
        sub = rest
        while True:  # every proper subset holding `first`
            group = sub | first
            if group != mask and total[group] == 0:
                best = max(best, 1 + most_groups(mask ^ group))
            if sub == 0:
                break
            sub = (sub - 1) & rest
        return best

    groups: list[list[str]] = []
    mask = full
    while mask:
        target = most_groups(mask)
        first = mask & -mask
        rest = mask ^ first
        candidates = []
        sub = rest
        while True:
            group = sub | first
            done = group == mask and target == 1
            if total[group] == 0 and (done or (group != mask and 1 + most_groups(mask ^ group) == target)):
                candidates.append(group)
            if sub == 0:
                break
            sub = (sub - 1) & rest
        # Seat order tie-break: the member list (seat indices) that sorts first.
        chosen = min(candidates, key=lambda g: [i for i in range(n) if g >> i & 1])
        groups.append([players[i] for i in range(n) if chosen >> i & 1])
        mask ^= chosen
    return groups


def minimal_transfers(
    seats: Sequence[str], balances: Mapping[str, int], currency: str | None = None
) -> list[Transfer]:
    """The fewest payments settling `balances` (positive: is owed money; negative: owes).

    Exactly (players with a balance) - (zero-sum groups) payments, each explained from the
    balances it settles, listed group by group in seat order.
    """
    transfers: list[Transfer] = []

    def m(units: int) -> str:
        return format_money(units, currency)

    for number, group in enumerate(zero_sum_groups(seats, balances), start=1):
        left = {p: balances[p] for p in group}
        debtors = [p for p in group if left[p] < 0]
        creditors = [p for p in group if left[p] > 0]
        d = c = 0
        while d < len(debtors) and c < len(creditors):
            payer, payee = debtors[d], creditors[c]
            amount = min(-left[payer], left[payee])
            before_payer, before_payee = left[payer], left[payee]
            left[payer] += amount
            left[payee] -= amount
            why = [
                f"{payer} owes {m(-before_payer)}"
                + (f" of a {m(-balances[payer])} loss" if before_payer != balances[payer] else ""),
                f"{payee} is owed {m(before_payee)}"
                + (f" of a {m(balances[payee])} win" if before_payee != balances[payee] else ""),
            ]
            settled = [p for p in (payer, payee) if left[p] == 0]
            after = "; settles " + " and ".join(settled) if settled else ""
            still = [f"{p} {'still owes' if left[p] < 0 else 'is still owed'} {m(abs(left[p]))}"
                     for p in (payer, payee) if left[p] != 0]
            explanation = ", ".join(why) + after + ("; " + ", ".join(still) if still else "")
            transfers.append(Transfer(payer, payee, amount, number, explanation))
            if left[payer] == 0:
                d += 1
            if left[payee] == 0:
                c += 1
    return transfers
