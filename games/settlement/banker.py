"""Settling through the banker: the banker buys back every chip and collects what is owed."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from games.settlement.money import SettlementError, format_money


@dataclass(frozen=True)
class BankerLine:
    """One player's account with the banker at the end of the session (minor units).

    `owed` is what the player still owes for chips (bought less what was paid, on the spot or
    later; below zero when a payment after closing covered chips lost on credit, a buy-back
    below zero); `buyback` is what the banker pays for the chips returned. `banker_pays` = buyback -
    owed: positive, the banker hands that much over; negative, the player hands the banker its
    absolute value.
    """

    player: str
    bought: int
    paid: int
    owed: int
    buyback: int
    result: int
    banker_pays: int
    is_banker: bool
    explanation: str


def left_to_pay(owed: int, buyback: int) -> int:
    """What a player still hands the banker once the session is closed: the money owed for chips
    (below zero when more was paid than the chips cost) less the buy-back, which the banker nets
    against it; never below 0 (a buy-back worth more is the banker's to pay). Chips lost on
    credit (a buy-back below zero) add to it. The payments endpoint accepts up to this much
    after closing, and the report shows it beside the debt for chips."""
    return max(owed - buyback, 0)


def banker_settlement(
    seats: Sequence[str],
    banker: str,
    *,
    bought_money: Mapping[str, int],
    paid_money: Mapping[str, int],
    buyback_money: Mapping[str, int],
    currency: str | None = None,
) -> list[BankerLine]:
    """One `BankerLine` per seat, in seat order. `banker` is a seat or "club".

    The banker's own line (when the banker plays) still shows the player's result; the
    money simply stays in the banker's hands, so nothing changes hands for it.
    """

    def _m(units: int) -> str:
        return format_money(units, currency)

    lines: list[BankerLine] = []
    total_result = 0
    for seat in seats:
        bought = bought_money.get(seat, 0)
        paid = paid_money.get(seat, 0)
        owed = bought - paid
        buyback = buyback_money.get(seat, 0)
        net = buyback - owed
        result = buyback - bought
        total_result += result
        is_banker = seat == banker
        if owed >= 0:
            why = f"bought {_m(bought)} ({_m(paid)} paid, {_m(owed)} owed), "
        elif buyback < 0:
            why = f"bought {_m(bought)} ({_m(paid)} paid: {_m(-owed)} of it toward chips lost on credit), "
        else:  # a payment toward a loss that a later correction took away
            why = f"bought {_m(bought)} ({_m(paid)} paid: {_m(-owed)} more than the chips cost), "
        why += f"chips bought back for {_m(buyback)}"
        if is_banker:
            why += "; as banker keeps the difference"
        elif net > 0:
            why += f": the banker pays {seat} {_m(net)}"
        elif net < 0:
            why += f": {seat} pays the banker {_m(-net)}"
        else:
            why += ": nothing changes hands"
        lines.append(BankerLine(seat, bought, paid, owed, buyback, result, net, is_banker, why))
    if total_result != 0:
        raise SettlementError(f"results sum to {total_result}, not zero: chips are missing")
    return lines
