"""Reading a deal record or a session file's line from JSON text, held to JSON itself.

Python's ``json.loads`` reads ``NaN``, ``Infinity`` and ``-Infinity``, which JSON has not, and
gives up on a number of more than 4,300 digits or on deep nesting with a ``ValueError`` or a
``RecursionError`` that is no ``JSONDecodeError``: the command line printed a traceback for
such a file where it should print the record error. The command line, the session replay
and the service's import read through :func:`json_value`, so all three refuse the same text
in the same words.
"""
from __future__ import annotations

import json
from typing import Any


class UnreadableJSON(ValueError):
    """Text ``json.loads`` reads only beyond JSON's grammar (NaN, Infinity) or not at all (a
    number of more than 4,300 digits, nesting too deep); ``problem`` says which."""

    def __init__(self, problem: str) -> None:
        super().__init__(f"not JSON that can be read: {problem}")
        self.problem = problem


def _no_constant(name: str) -> None:
    raise UnreadableJSON(f"{name} is not a JSON number (JSON has no NaN or Infinity)")


def json_value(text: str) -> Any:
    """``text`` read as JSON: a ``json.JSONDecodeError`` where it is no JSON, an
    :class:`UnreadableJSON` where Python's reader goes beyond JSON or cannot read it."""
    try:
        return json.loads(text, parse_constant=_no_constant)
    except (json.JSONDecodeError, UnreadableJSON):
        raise
    except RecursionError:
        raise UnreadableJSON("nested too deeply") from None
    except ValueError as exc:  # Python's cap on converting long digit strings to int
        if "digits" in str(exc):
            raise UnreadableJSON("a number with more than 4,300 digits") from None
        raise
