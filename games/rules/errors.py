"""The two refusals: a rule set that cannot be played, a record that cannot describe a deal."""
from __future__ import annotations

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
    return record_error(f"player {name!r} is not a seat", index=index, field="player",
                        player=name if type(name) is str else None)


def not_a_card(text: Any, *, index: int | None = None, player: Any = None) -> dict[str, Any]:
    """The error for a play whose card cannot be read (or is missing)."""
    if text is None:
        return record_error("play: the card is missing", index=index, player=player,
                            field="card")
    return record_error(f"{text!r} is not a card", index=index, player=player, card=str(text),
                        field="card")


def numbered_cards(cards: Any, field: str, *, player: Any = None,
                   index: int | None = None) -> list[dict[str, Any]]:
    """An error for each number in a record's list of cards: a record names cards as text
    ("TH"), and a number must not be read as the engine's internal card code (which ``Deal``
    takes from Python callers), so ``7`` would quietly have been the 9C."""
    if type(cards) is not list:
        return []
    return [record_error(f"{field}: {c!r} is not a card (cards are written like \"TH\")",
                         index=index, player=player, card=str(c), field=field)
            for c in cards if isinstance(c, (int, float))]  # bool too
