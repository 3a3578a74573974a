"""Cards as small integers, with the rank/suit tables the hot path indexes.

A card is ``suit * 13 + (rank - 2)``: 0..51, suits clubs, diamonds, hearts, spades (``C D H S``)
and ranks 2..14 (ace high). Small ints keep every duty check a list index, not an object call.
"""
from __future__ import annotations

from collections.abc import Iterable

from .errors import shown

SUITS = "CDHS"
RANKS = "23456789TJQKA"
CLUBS, DIAMONDS, HEARTS, SPADES = range(4)
JACK, QUEEN, KING, ACE = 11, 12, 13, 14

#: suit (0..3) and rank (2..14) of each card
SUIT: tuple[int, ...] = tuple(c // 13 for c in range(52))
RANK: tuple[int, ...] = tuple(c % 13 + 2 for c in range(52))
#: canonical name of each card, e.g. ``TH``
NAME: tuple[str, ...] = tuple(RANKS[c % 13] + SUITS[c // 13] for c in range(52))

_SUIT_SYMBOLS = {"♣": "C", "♦": "D", "♥": "H", "♠": "S", "♧": "C", "♢": "D", "♡": "H", "♤": "S"}

#: every accepted spelling -> card; the replay looks cards up here and falls back to parse_card
CODE: dict[str, int] = {}
for _c, _name in enumerate(NAME):
    _r, _s = _name[0], _name[1]
    for _rank in ((_r, "10") if _r == "T" else (_r,)):
        for _suit in [_s] + [k for k, v in _SUIT_SYMBOLS.items() if v == _s]:
            for _spelled in {_rank + _suit, (_rank + _suit).lower()}:
                CODE[_spelled] = _c


def count_cards(n: int) -> str:
    """"1 card", "3 cards": a record error counting cards reads as the table would say it."""
    return f"{n} card" if n == 1 else f"{n} cards"


def card_names(cards: Iterable[int]) -> list[str]:
    """Canonical names of card ints, as records and verdicts spell them."""
    return [NAME[c] for c in cards]


def card_code(text: object) -> int:
    """Card int for text, raising ValueError for what is not a card (a record's JSON may
    give any value where a card belongs)."""
    try:
        return CODE[text]  # type: ignore[index]  # (not a str: KeyError or TypeError)
    except (KeyError, TypeError):
        return parse_card(text)


def parse_card(text: object) -> int:
    """Read a card (``TH``, ``10h``, ``T♥``, ``♥10``) into its int; ValueError if it is not one."""
    if not isinstance(text, str):
        raise ValueError(f"not a card: {shown(text)}")  # noqa: TRY004 - the API promises ValueError
    t = text.strip().upper()
    for sym, letter in _SUIT_SYMBOLS.items():
        t = t.replace(sym, letter)
    if len(t) >= 2 and t[0] in SUITS and t[-1] not in SUITS:  # suit written first
        t = t[1:] + t[0]
    code = CODE.get(t)
    if code is None:
        raise ValueError(f"not a card: {shown(text)}")
    return code


def format_card(card: int | str) -> str:
    """Canonical name of a card (int or any accepted spelling): ``TH``."""
    if isinstance(card, str):
        card = parse_card(card)
    return NAME[card]


def suit_letter(suit: int | None) -> str | None:
    return None if suit is None else SUITS[suit]
