"""The two refusals: a rule set that cannot be played, a record that cannot describe a deal."""
from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any


class RuleError(ValueError):
    """Unknown option, bad value or impossible combination; every message names the option."""

    def __init__(self, errors: list[str] | str):
        self.errors = [errors] if isinstance(errors, str) else list(errors)
        super().__init__("; ".join(self.errors))


class RecordError(ValueError):
    """A record that cannot describe a real deal, with every error found.

    Each error is ``{"index", "player", "card", "field", "message"}`` (``index`` into actions).
    """

    def __init__(self, errors: list[dict[str, Any]] | str):
        if isinstance(errors, str):
            errors = [record_error(errors)]
        self.errors = errors
        super().__init__("; ".join(e["message"] for e in errors))


def record_error(message: str, *, index: int | None = None, player: Any = None,
                 card: str | None = None, field: str | None = None) -> dict[str, Any]:
    """One error; ``player`` as the record names him (any JSON value where he is no seat)."""
    return {"index": index, "player": player, "card": card, "field": field, "message": message}


def not_a_seat(name: Any, *, index: int | None = None) -> dict[str, Any]:
    """The error for an action whose player is missing or names nobody at the table."""
    if name is None:
        return record_error("player: missing (whose action is it?)", index=index, field="player")
    return record_error(f"player {shown(name)} is not a seat", index=index, field="player",
                        player=shown(name, bare=True) if type(name) is str else None)


def not_a_card(text: Any, *, index: int | None = None, player: Any = None) -> dict[str, Any]:
    """The error for a play whose card cannot be read (or is missing)."""
    if text is None:
        return record_error("play: the card is missing", index=index, player=player,
                            field="card")
    return record_error(f"{shown(text)} is not a card", index=index, player=player, card=shown(str(text), bare=True),
                        field="card")


def numbered_cards(cards: Any, field: str, *, player: Any = None,
                   index: int | None = None) -> list[dict[str, Any]]:
    """An error for each number in a record's list of cards: a record names cards as text
    ("TH"), and a number must not be read as the engine's internal card code (which ``Deal``
    takes from Python callers), so ``7`` would quietly have been the 9C."""
    if type(cards) is not list:
        return []
    return [record_error(f"{field}: {shown(c)} is not a card (cards are written like \"TH\")",
                         index=index, player=player, card=shown(str(c), bare=True), field=field)
            for c in cards if isinstance(c, (int, float))]  # bool too


#: the most characters of a client's value a message repeats: a 10,000-character kind or seat
#: name must not make a 10,000-character message (in every error of a 400, in logs)
SHOWN_CHARS = 60


def shown(value: Any, *, bare: bool = False, write: Callable[[Any], str] = repr) -> str:
    """``value`` as a message names it: its ``repr``, cut to ``SHOWN_CHARS`` characters with
    an ellipsis and the full length when longer (``'aaaa…' (10,000 characters)``); a list or
    object is cut the same way, its length counted in items. ``bare``: text unquoted (a
    name a message gives as it is, ``bob: unknown option``), cut the same way. ``write``: how
    the value is written before it is cut (the service writes JSON, ``json.dumps``)."""
    text = value if bare and isinstance(value, str) else write(value)
    if len(text) <= SHOWN_CHARS:
        return text
    if isinstance(value, str):
        if bare:
            return f"{text[:SHOWN_CHARS - 1]}… ({len(value):,} characters)"
        return f"{text[:SHOWN_CHARS - 2]}…{text[-1]} ({len(value):,} characters)"
    if isinstance(value, (list, tuple, dict)):
        noun = "item" if len(value) == 1 else "items"
        return f"{text[:SHOWN_CHARS - 2]}…{text[-1]} ({len(value):,} {noun})"
    return f"{text[:SHOWN_CHARS - 1]}… ({len(text):,} characters)"


def as_json(value: Any) -> str:
    """``value`` as JSON writes it (``null``, ``"5"``, ``["ann"]``): a ``write`` for ``shown``
    where a message names what the client wrote, which Python's ``repr`` (``None``) is not."""
    return json.dumps(value, ensure_ascii=False)


def seats_shown(errors: list[dict[str, Any]], seats: list[Any]) -> list[dict[str, Any]]:
    """``errors`` with each seat name longer than ``SHOWN_CHARS`` cut in their messages as
    ``shown`` cuts it: the deal's messages name a seat as written (``bob plays twice``), and
    the engine seats any name; ``player`` keeps the name whole, to match it by. ``errors``
    itself where no seat is that long (nothing to cut)."""
    long = sorted({s for s in seats if type(s) is str and len(s) > SHOWN_CHARS},
                  key=len, reverse=True)
    if not long:
        return errors

    def cut(message: str) -> str:
        for seat in long:
            message = message.replace(seat, shown(seat, bare=True))
        return message

    return [dict(e, message=cut(e["message"])) for e in errors]
