"""Settling through the banker: the banker buys back every chip and collects what is owed."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from games.settlement.money import SettlementError, format_money


@dataclass(frozen=True)
class BankerLine:
    """One player's account with the banker at the end of the session (minor units).

    `owed` is what the player bought on credit (bought - paid on the spot); `buyback` is what
    the banker pays for the chips returned. `banker_pays` = buyback - owed: positive, the
    banker hands that much over; negative, the player hands the banker its absolute value.
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
    lines: list[BankerLine] = []
    total_result = 0
    for seat in seats:
        bought = bought_money.get(seat, 0)
        paid = paid_money.get(seat, 0)
        if paid > bought:
            raise SettlementError(f"{seat} paid {paid} for chips costing {bought}")
        owed = bought - paid
        buyback = buyback_money.get(seat, 0)
        net = buyback - owed
        result = buyback - bought
        total_result += result
        is_banker = seat == banker
        m = lambda units: format_money(units, currency)  # noqa: E731 - local formatter
        why = f"bought {m(bought)} ({m(paid)} paid on the spot, {m(owed)} owed), chips bought back for {m(buyback)}"
        if is_banker:
            why += "; as banker keeps the difference"
        elif net > 0:
            why += f": the banker pays {seat} {m(net)}"
        elif net < 0:
            why += f": {seat} pays the banker {m(-net)}"
        else:
            why += ": nothing changes hands"
        lines.append(BankerLine(seat, bought, paid, owed, buyback, result, net, is_banker, why))
    if total_result != 0:
        raise SettlementError(f"results sum to {total_result}, not zero: chips are missing")
    return lines
