"""Request fields as the ledger reads them: whole numbers that are JSON integers, true/false
that are JSON booleans, and bodies that name no field the endpoint does not have.

Chips and money are counted, so a count sent as text (``"20"``), as a decimal (``20.0``, which
a JSON library may write for any number) or as ``true`` is a client's slip that must be said,
not read as the number it resembles: DRF's ``IntegerField`` takes all but the last. One
predicate (:func:`is_whole`) and one wording (:func:`whole_number_message`) serve the API's
:class:`StrictIntegerField` and the services and the session-file import that check the same
values, so each says the same thing of the same value.
"""
from __future__ import annotations

import datetime as dt
import difflib
import re
from collections.abc import Iterable, Mapping
from typing import Any

from django.core.files.uploadedfile import UploadedFile
from rest_framework import serializers
from rest_framework.exceptions import ErrorDetail
from rest_framework.utils import html

from games.rules.errors import as_json, shown

#: a form's text that is a whole number: ASCII digits, a minus sign at most (``int()`` would
#: also read "٢", "1_0" and " 2 ")
_DIGITS = re.compile(r"-?[0-9]{1,30}")
#: what a count of chips and an amount of money are whole numbers of, as messages say it
CHIPS_UNIT = "of chips"
MONEY_UNIT = "of the smallest currency unit"
#: a day as the API writes it and reads it: ``date.fromisoformat`` also takes 20261130 and
#: 2026-W48-1, and ``strptime("%Y-%m-%d")`` takes 2026-1-5
_DAY = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")


def in_form_post(field: serializers.Field) -> bool:
    """The body ``field`` reads came as a form post (multipart or urlencoded, as the browsable
    API and ``curl -d`` send), where every value is text."""
    return html.is_html_input(getattr(field.root, "initial_data", None))


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


def as_written(value: Any) -> str:
    """A value a client sent, as JSON writes it (``null``, ``"5"``, ``["ann"]``), for a message
    about it: Python's ``repr`` (``None``, ``'5'``) is not what the client wrote. Cut as the
    engine cuts a value it names (``games.rules.errors.shown``): a 10,000-character name makes
    no 10,000-character message. A multipart form's file part, the one value a body carries
    that JSON cannot write, is named as a file with its name (``a file ("ann.txt")``)."""
    if isinstance(value, UploadedFile):
        return f"a file ({shown(value.name, write=as_json)})"
    return shown(value, write=as_json)


def read_day(value: Any) -> dt.date:
    """``value`` read as a day written YYYY-MM-DD, the one form the API writes days in; a
    ValueError for anything else, so a body, a query and a session file refuse the same days."""
    if not isinstance(value, str) or not _DAY.fullmatch(value):
        raise ValueError(value)
    return dt.date.fromisoformat(value)


class DayField(serializers.DateField):
    """A ``DateField`` that takes a day written YYYY-MM-DD and nothing else (:func:`read_day`)."""

    def to_internal_value(self, value: Any) -> dt.date:
        try:
            return read_day(value)
        except ValueError:
            raise serializers.ValidationError(
                f"{self.field_name} must be a day written YYYY-MM-DD, such as 2026-11-30.",
                code="invalid") from None


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
        in_form = in_form_post(self)
        if is_whole(data) or (in_form and isinstance(data, str) and _DIGITS.fullmatch(data)):
            return int(data)
        raise serializers.ValidationError(
            whole_number_message(self.name or self.field_name, self.unit, in_form=in_form),
            code="invalid")


def true_false_message(name: str, *, in_form: bool = False) -> str:
    """What is said of ``name``'s value when it is neither true nor false; ``in_form``: the
    value came in a form post, where true and false are text."""
    if in_form:
        return f"{name} must be true or false, written as true/false, yes/no, on/off or 1/0."
    return f'{name} must be true or false: a JSON boolean, not text ("true", "yes") or a number (1).'


def read_flag(params: Mapping[str, Any], name: str) -> bool:
    """A true/false query parameter (``?allow_duplicate=true``), left out false. A query string
    is text, as a form post is: its spellings are read (true/false, yes/no, on/off, 1/0), and
    any other is a 400 naming the parameter, not a quiet false (``?allow_duplicate=on`` was
    read as false, and the answer told the client to send what it had sent)."""
    if name not in params:
        return False
    try:
        return serializers.BooleanField().to_internal_value(params[name])
    except serializers.ValidationError:
        raise serializers.ValidationError(
            {name: [true_false_message(name, in_form=True)]}, code="invalid") from None


class StrictBooleanField(serializers.BooleanField):
    """A ``BooleanField`` that takes JSON ``true``/``false`` only. DRF's reads ``"yes"``,
    ``"on"``, ``"t"``, ``1`` and ``0.0`` in a JSON body too, so ``"paid": "no"`` and
    ``"paid": "false"`` hinge on a list of spellings a client cannot see; here any of them is a
    400 with :func:`true_false_message`. A form post (multipart or urlencoded) carries only
    text: there the spellings DRF reads are read, and a field left out is false, as an
    unticked checkbox is not sent (DRF would give it the field's default: the browsable API's
    purchase form, unticked, recorded chips owed as paid). A ``null`` default ("work it out")
    stays null. The schema is a ``BooleanField``'s: ``type: boolean``."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        if isinstance(self.default, bool):
            self.default_empty_html = False  # in a form: an unticked box, left out, is false
            self.initial = self.default  # and the browsable API's box starts as the default

    def to_internal_value(self, data: Any) -> bool | None:
        in_form = in_form_post(self)
        if type(data) is bool:
            return data
        if in_form and isinstance(data, str):
            try:
                return super().to_internal_value(data)
            except serializers.ValidationError:
                pass  # (a spelling DRF does not know: said below, in the form's words)
        raise serializers.ValidationError(true_false_message(self.field_name, in_form=in_form),
                                          code="invalid")


#: where a form's key names a part of a field: ``buy_ins.ann`` of a dict, ``seats[0]`` of a list
_FORM_PART = re.compile(r"[.\[]")
#: the fields a form post gives in parts, as DRF reads them
_CONTAINERS = (serializers.DictField, serializers.ListField)
#: what a form post carries beside its fields (the CSRF token of the browsable API's forms)
FORM_EXTRAS = frozenset({"csrfmiddlewaretoken"})


def nearest(name: str, names: Iterable[str]) -> str | None:
    """The one of ``names`` that ``name`` most likely misspells (None when none is close): what
    a refusal of an unknown field or query parameter suggests."""
    near = difflib.get_close_matches(name, list(names), n=1)
    return near[0] if near else None


#: the ``code`` of the error naming a body field or a query parameter the endpoint does not take
UNKNOWN = "unknown"


def unknown_fields(data: Any, known: Iterable[str], writable: Iterable[str] = (),
                   parted: Iterable[str] = ()) -> dict[str, list[str]]:
    """Each key of a request body that names none of the ``known`` fields, with a message
    suggesting the nearest ``writable`` one. Left out silently, a misspelt field took its
    default: ``"piad": false`` recorded chips paid on the spot, ``"chipvalue": 25`` a chip worth
    1. In a form post, a key naming a part of one of the ``parted`` fields (a dict's or a
    list's) is known too. Each message is DRF's ``ErrorDetail`` with the code ``unknown``,
    which the refusal's ``errors`` item carries wherever it is built."""
    if not isinstance(data, Mapping):
        return {}
    known, writable = set(known), sorted(writable)
    parted = set(parted) if html.is_html_input(data) else set()
    out: dict[str, list[str]] = {}
    for key in data:
        if key in known or key in FORM_EXTRAS:
            continue
        if parted and _FORM_PART.split(str(key), maxsplit=1)[0] in parted:
            continue  # a form's part of a field: buy_ins.ann, seats[0] (DRF reads them so)
        near = nearest(str(key), writable)
        hint = f"did you mean '{near}'?" if near else f"the fields are {', '.join(writable)}."
        out[str(key)] = [ErrorDetail(f"Unknown field '{shown(key, bare=True)}': {hint}", code=UNKNOWN)]
    return out


class KnownFieldsOnly:
    """Mixin for a request serializer: a body with a key that is none of its fields is a 400
    naming each such key (beside the other fields' errors), not a key quietly passed over. A
    read-only field (a round-tripped ``id``) is known, and ignored as DRF ignores it."""

    def to_internal_value(self, data: Any) -> Any:
        fields = self.fields  # type: ignore[attr-defined]
        unknown = unknown_fields(data, fields, [n for n, f in fields.items() if not f.read_only],
                                 [n for n, f in fields.items() if isinstance(f, _CONTAINERS)])
        try:
            value = super().to_internal_value(data)  # type: ignore[misc]
        except serializers.ValidationError as exc:
            if unknown and isinstance(exc.detail, dict):
                exc.detail.update(unknown)
            raise
        if unknown:
            raise serializers.ValidationError(unknown)
        return value
