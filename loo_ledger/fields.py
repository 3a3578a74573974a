"""Whole numbers as the ledger reads them: a JSON integer, and nothing that looks like one.

Chips and money are counted, so a count sent as text (``"20"``), as a decimal (``20.0``, which
a JSON library may write for any number) or as ``true`` is a client's slip that must be said,
not read as the number it resembles: DRF's ``IntegerField`` takes all but the last. One
predicate (:func:`is_whole`) and one wording (:func:`whole_number_message`) serve the API's
:class:`StrictIntegerField` and the services and the session-file import that check the same
values, so each says the same thing of the same value.
"""
from __future__ import annotations

import re
from typing import Any

from rest_framework import serializers
from rest_framework.utils import html

#: a form's text that is a whole number: ASCII digits, a minus sign at most (``int()`` would
#: also read "٢", "1_0" and " 2 ")
_DIGITS = re.compile(r"-?[0-9]{1,30}")
#: what a count of chips and an amount of money are whole numbers of, as messages say it
CHIPS_UNIT = "of chips"
MONEY_UNIT = "of the smallest currency unit"


def is_whole(value: Any) -> bool:
    """True for a JSON integer: an ``int``, not a ``bool`` (which Python counts as one)."""
    return type(value) is int


def whole_number_message(name: str, unit: str = "", *, in_form: bool = False) -> str:
    """What is said of ``name``'s value when it is no whole number; ``unit`` is what it counts
    ("of chips"); ``in_form``: the value came in a form post, where a number is text."""
    of = f" {unit}" if unit else ""
    if in_form:
        return f"{name} must be a whole number{of}, written in digits such as 20."
    return (f'{name} must be a whole number{of}: a JSON integer such as 20, not text ("20"), '
            "a decimal (20.0) or true/false.")


class StrictIntegerField(serializers.IntegerField):
    """An ``IntegerField`` that takes a JSON integer only, refusing text, decimals and booleans
    with :func:`whole_number_message`. A form post (multipart or urlencoded, as the browsable
    API and ``curl -d`` send) carries only text: there, ASCII digits are read, nothing else.
    The schema is an ``IntegerField``'s: ``type: integer`` with its bounds.

    ``unit`` says what the number counts; ``name`` is how the message calls the value (default
    the field's name; give one for a ``DictField``'s child, which has none)."""

    def __init__(self, *, unit: str = "", name: str | None = None, **kwargs: Any) -> None:
        self.unit, self.name = unit, name
        super().__init__(**kwargs)

    def to_internal_value(self, data: Any) -> int:
        in_form = html.is_html_input(getattr(self.root, "initial_data", None))
        if is_whole(data) or (in_form and isinstance(data, str) and _DIGITS.fullmatch(data)):
            return int(data)
        raise serializers.ValidationError(
            whole_number_message(self.name or self.field_name, self.unit, in_form=in_form),
            code="invalid")
