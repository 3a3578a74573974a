"""Request bodies: JSON whose strings the database can store, nested no deeper than a deal
record ever is; multipart forms whose charset cannot be read are a 400."""
from __future__ import annotations

import re
from typing import Any

from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser, MultiPartParser

#: deepest nesting accepted (a deal record inside a request is about five levels deep)
MAX_DEPTH = 32

#: What no stored string may hold. NUL: PostgreSQL's text and jsonb refuse it. A UTF-16
#: surrogate (U+D800-U+DFFF): json.loads takes one from a lone ``"\ud800"`` escape (a valid
#: pair becomes one character), but it is no text UTF-8 can encode, so PostgreSQL refuses it and
#: SQLite stores it only for every later read of the row to fail.
_UNSTORABLE_CHARACTER = re.compile("[\x00\ud800-\udfff]")


def unstorable(value: Any, max_depth: int | None = None) -> str | None:
    """Why parsed JSON cannot be stored, as a phrase for an error message (a string or key
    holding a NUL character or a lone surrogate; lists and objects nested deeper than
    ``max_depth``, None: any depth), else None. The one check of every JSON a client sends (the
    request parser, each line of an imported file). A walk with its own stack, so that no depth
    of nesting can exhaust Python's."""
    stack = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, str):
            if (problem := text_unstorable(item)) is not None:
                return problem
        elif isinstance(item, (dict, list)):
            if max_depth is not None and depth >= max_depth:
                return f"nested deeper than {max_depth} levels"
            if isinstance(item, dict):
                stack.extend((k, depth) for k in item)
                stack.extend((v, depth + 1) for v in item.values())
            else:
                stack.extend((v, depth + 1) for v in item)
    return None


def text_unstorable(text: str) -> str | None:
    """Why the string ``text`` cannot be stored (it holds a NUL character or a lone
    surrogate), as :func:`unstorable` says it; None when it can. Free text a form post carries
    is read past the JSON parser, so the services ask it of such text too
    (``games.services.limits.text_problem``)."""
    found = _UNSTORABLE_CHARACTER.search(text)
    return None if found is None else _character_problem(found.group())


def _character_problem(char: str) -> str:
    if char == "\x00":
        return "a string holds a NUL character (\\u0000), which cannot be stored"
    return (f"a string holds a lone UTF-16 surrogate (\\u{ord(char):04x}), which is not a "
            "character and cannot be stored")


class StorableJSONParser(JSONParser):
    """JSON the database can store: a string holding a NUL character (``\\u0000``) or a lone
    surrogate (``\\ud800``), or nesting deeper than ``MAX_DEPTH``, is refused as malformed (a
    400), where it would otherwise fail at the database or on every later read as a 500."""

    def parse(self, stream: Any, media_type: str | None = None,
              parser_context: dict[str, Any] | None = None) -> Any:
        try:
            data = super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise ParseError(f"JSON parse error - nested deeper than {MAX_DEPTH} levels.") from None
        if (problem := unstorable(data, MAX_DEPTH)) is not None:
            raise ParseError(f"JSON parse error - {problem}.")
        return data


class ReadableMultiPartParser(MultiPartParser):
    """DRF's multipart parser, a charset that cannot read the form refused as malformed (a 400).
    Django reads a form's text with bad bytes replaced, and a text codec that cannot replace
    (``idna``) raised a ``UnicodeError`` past DRF's refusal of non-text charsets: a 500."""

    def parse(self, stream: Any, media_type: str | None = None,
              parser_context: dict[str, Any] | None = None) -> Any:
        try:
            return super().parse(stream, media_type, parser_context)
        except UnicodeError as exc:
            charset = (parser_context or {}).get("encoding")
            raise ParseError(f"Multipart form parse error - the charset {charset!r} cannot read "
                             f"this form ({exc}).") from None
