"""Chips to money, in integer minor units."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from decimal import ROUND_HALF_EVEN, Decimal

#: Currencies whose smallest unit is not 1/100: every one ISO 4217's list gives another
#: exponent (everything else uses 2). A currency left out was shown at the wrong scale: 1,500
#: CFA francs, whose franc has no smaller unit, as "15.00 XOF".
CURRENCY_EXPONENTS: dict[str, int] = {
    **dict.fromkeys(("BIF", "CLP", "DJF", "GNF", "ISK", "JPY", "KMF", "KRW", "PYG", "RWF", "UGX",
                     "UYI", "VND", "VUV", "XAF", "XOF", "XPF"), 0),
    **dict.fromkeys(("BHD", "IQD", "JOD", "KWD", "LYD", "OMR", "TND"), 3),
    **dict.fromkeys(("CLF", "UYW"), 4),
}


class SettlementError(ValueError):
    """Figures that cannot be settled (chips not conserved, unknown player, float money)."""


def exponent(currency: str | None) -> int:
    """Digits after the decimal point for `currency` (2 unless ISO says otherwise)."""
    return CURRENCY_EXPONENTS.get((currency or "").upper(), 2)


def minor_units(value: int | str | Decimal, currency: str | None = None) -> int:
    """A money amount in minor units. Ints are taken as minor units already; Decimal/str as major
    units (Decimal("0.10") GBP -> 10). Floats are refused: they cannot hold money exactly."""
    if isinstance(value, (bool, float)):
        raise SettlementError(f"money must be an int or Decimal, not {type(value).__name__}")
    if isinstance(value, int):
        return value
    scaled = Decimal(value).scaleb(exponent(currency))
    if scaled != scaled.to_integral_value():
        raise SettlementError(f"{value} has more digits than {currency or 'the currency'} allows")
    return int(scaled.to_integral_value(rounding=ROUND_HALF_EVEN))


def format_money(units: int, currency: str | None = None) -> str:
    """Minor units as a plain decimal string ("-1.50"), exact."""
    digits = exponent(currency)
    if digits == 0:
        return str(units)
    sign = "-" if units < 0 else ""
    whole, frac = divmod(abs(units), 10**digits)
    return f"{sign}{whole}.{frac:0{digits}d}"


def money_results(
    seats: Sequence[str],
    bought: Mapping[str, int],
    returned: Mapping[str, int],
    chip_value: int,
) -> dict[str, int]:
    """Each seat's result in minor units: (returned - bought) x chip_value.

    The results sum to zero exactly when every chip the banker sold came back, so a session
    with chips still in the pool (or a missing player) is refused rather than settled wrongly.
    """
    if isinstance(chip_value, bool) or not isinstance(chip_value, int) or chip_value <= 0:
        raise SettlementError(f"chip_value must be a positive int of minor units, got {chip_value!r}")
    unknown = (set(bought) | set(returned)) - set(seats)
    if unknown:
        raise SettlementError(f"not seated: {', '.join(sorted(unknown))}")
    sold = sum(bought.get(s, 0) for s in seats)
    back = sum(returned.get(s, 0) for s in seats)
    if sold != back:
        raise SettlementError(
            f"the banker sold {sold} chips but {back} came back: settle the pool before the buy-back"
        )
    return {s: (returned.get(s, 0) - bought.get(s, 0)) * chip_value for s in seats}
