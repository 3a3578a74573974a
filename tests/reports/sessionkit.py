"""A hand-worked session of 53 deals (three-card Loo, limited loo 3, dealer antes 3).

Seats ann, bob, cat, dan (club oak's players); ann deals first; chip value 25p; club banker.
Deals come in pairs, so the arithmetic is done by hand:

* odd deal ("A", a simple pool, pool empty before it): the dealer antes 3 (P = 3); the eldest
  holds AS KS QS, spades are turned after trick 1, and takes all three tricks: eldest +3; the
  three others are looed 3 each (the dealer -6 with the ante). Pool after: 9.
* even deal ("B", a double pool, pool 9): the dealer (last deal's eldest) antes 3 (P = 12);
  everyone before the dealer passes, so the dealer takes the pool without play: dealer +9.

Dealers run ann, bob, cat, dan, ann, ...: odd deals 4k+1 are ann's (bob eldest), 4k+3 cat's
(dan eldest). Every 4 deals: ann -9, bob +9, cat -9, dan +9.

Exceptions, worked by hand:
* deal 9 is recorded as usual, then corrected: cat heads bob's lead to trick 3 with AH
  (bob 2 tricks +2, cat 1 trick +1, ann -6, dan -3; pool after 6), so deal 10 pays bob 6+3,
  i.e. +6: against the usual pair bob -4, cat +4.
* deal 21: cat revokes (plays 5H to the AS lead holding 9S): the full loo (3) replaces the
  ordinary loo and is booked as cat's loo payment, as in deal-record.md's example: same money,
  one violation.
* deal 53 is an odd deal (ann deals, bob takes 3): ann -6, bob +3, cat -3, dan -3, pool 9 left.

In play: 13 x 4 deals (ann -117, bob +117, cat -117, dan +117), the correction (bob -4,
cat +4) and deal 53: ann -123, bob +116, cat -116, dan +114; the pool holds 9.
Closing splits 9 from the eldest: the next dealer is bob, eldest cat: cat 3, dan 2, ann 2, bob 2.
Chips won: ann -121, bob +118, cat -113, dan +116 (sum 0).
Purchases: buy-ins 20 each; ann and cat rebuy 20 after deals 8, 16, 24, 32, 40, 48 (cat's owed),
ann 20 more after deal 52: bought ann 160, bob 20, cat 140, dan 20 (340 chips).
Returned: ann 39, bob 138, cat 27, dan 136 (340). Results x 25p: ann -30.25, bob +29.50,
cat -28.25, dan +29.00. Fewest transfers (no pair settles alone: ann+bob = -0.75,
cat+dan = +0.75): ann pays bob 29.50, ann pays dan 0.75, cat pays dan 28.25.
"""
from __future__ import annotations

import json
from typing import Any

SEATS = ["ann", "bob", "cat", "dan"]
CHIP_VALUE = 25
OTHERS_CARDS = [["2H", "3H", "4H"], ["2D", "3D", "4D"], ["2C", "3C", "4C"]]


def left_of(seat: str) -> str:
    return SEATS[(SEATS.index(seat) + 1) % len(SEATS)]


def order_from(seat: str) -> list[str]:
    i = SEATS.index(seat)
    return SEATS[i:] + SEATS[:i]


def dealer_of(number: int) -> str:
    return SEATS[(number - 1) % len(SEATS)]


def simple_pool(dealer: str, *, pool: int = 0, variant: str = "") -> dict[str, Any]:
    """Deal "A": eldest leads AS, KS, QS; the others are void in spades.

    variant "split": the eldest holds AS KS 2H and the next player AH, who heads trick 3.
    variant "revoke": the next player holds 9S but plays 5H to trick 1 (a revoke).
    """
    eldest = left_of(dealer)
    others = order_from(eldest)[1:]
    lead = ["AS", "KS", "QS"]
    cards = {p: list(c) for p, c in zip(others, OTHERS_CARDS)}
    turnup = "2S"
    if variant == "split":
        lead = ["AS", "KS", "2H"]
        cards[others[0]] = ["5H", "3H", "AH"]
        cards[others[1]] = ["2D", "3D", "4D"]
        turnup = "3S"
    elif variant == "revoke":
        cards[others[0]] = ["5H", "9S", "3H"]
    actions = []
    for trick in range(3):
        actions.append({"player": eldest, "action": "play", "card": lead[trick]})
        actions += [{"player": p, "action": "play", "card": cards[p][trick]} for p in others]
    return {"format": "loo-deal/1", "dealer": dealer, "pool": pool, "turnup": turnup,
            "actions": actions}


def dealer_takes(dealer: str, pool: int) -> dict[str, Any]:
    """Deal "B": a double pool in which everyone before the dealer passes."""
    return {"format": "loo-deal/1", "dealer": dealer, "pool": pool, "turnup": "7D",
            "actions": [{"player": p, "action": "pass"} for p in order_from(left_of(dealer))[:-1]]}


def deal_record(number: int, *, corrected: bool = True) -> dict[str, Any]:
    """Deal `number` of the session as finally recorded (`corrected=False`: deal 9 as first
    recorded, before the correction)."""
    dealer = dealer_of(number)
    if number % 2 == 1:
        variant = "split" if (number == 9 and corrected) else ("revoke" if number == 21 else "")
        rec = simple_pool(dealer, variant=variant)
    else:
        rec = dealer_takes(dealer, 6 if (number == 10 and corrected) else 9)
    rec["number"] = number
    return rec


N_DEALS = 53
BUY_IN = 20
REBUYS: list[tuple[int, str, int, bool]] = [  # (after deal, player, chips, paid)
    *[(n, p, 20, p == "ann") for n in (8, 16, 24, 32, 40, 48) for p in ("ann", "cat")],
    (52, "ann", 20, True),
]

EXPECTED = {
    "bought": {"ann": 160, "bob": 20, "cat": 140, "dan": 20},
    "won": {"ann": -123, "bob": 116, "cat": -116, "dan": 114},
    "end_pool": 9,
    "eldest": "cat",
    "shares": {"ann": 2, "bob": 2, "cat": 3, "dan": 2},
    "returned": {"ann": 39, "bob": 138, "cat": 27, "dan": 136},
    "result_chips": {"ann": -121, "bob": 118, "cat": -113, "dan": 116},
    "result_money": {"ann": -3025, "bob": 2950, "cat": -2825, "dan": 2900},
    "transfers": [("ann", "bob", 2950), ("ann", "dan", 75), ("cat", "dan", 2825)],
    "times_dealt": {"ann": 14, "bob": 13, "cat": 13, "dan": 13},
    # odd deals: 27 x 9 units of loos, less the 3 of the split deal 9 (two looed, not three).
    "loos_paid": 27 * 9 - 3,
    "penalties_paid": 0,
    "money_owed": {"ann": 0, "bob": 0, "cat": 6 * 20 * 25, "dan": 0},
}


def header(**extra: Any) -> dict[str, Any]:
    return {"format": "loo-session/1", "seats": SEATS, "rules": {"game": "three-card"},
            "first_dealer": "ann", "pool": 0, "banker": "club", "chip_value": CHIP_VALUE,
            "currency": "GBP", "date": "2026-11-28", "name": "Saturday table",
            "buy_ins": {s: BUY_IN for s in SEATS}, **extra}


def session_lines(n_deals: int = N_DEALS) -> list[dict[str, Any]]:
    """Header, then deals and purchase lines in play order (deal 9 in its corrected form)."""
    lines: list[dict[str, Any]] = [header()]
    for number in range(1, n_deals + 1):
        lines.append(deal_record(number))
        lines += [{"purchase": {"player": p, "chips": c, "paid": paid}}
                  for after, p, c, paid in REBUYS if after == number]
    return lines


def session_file(n_deals: int = N_DEALS) -> str:
    return "\n".join(json.dumps(x) for x in session_lines(n_deals)) + "\n"
