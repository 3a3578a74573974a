"""Request bodies: JSON whose strings the database can store, nested no deeper than a deal
record ever is."""
from __future__ import annotations

from typing import Any

from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser

#: deepest nesting accepted (a deal record inside a request is about five levels deep)
MAX_DEPTH = 32


def holds_nul(value: Any) -> bool:
    """True when a NUL character stands in any string (or key) of parsed JSON, however deep."""
    return _unstorable(value, max_depth=None) == "nul"


def _unstorable(value: Any, max_depth: int | None = MAX_DEPTH) -> str | None:
    """"nul" when a string (or key) holds a NUL character, "deep" when lists and objects nest
    deeper than ``max_depth`` (None: any depth), else None. A walk with its own stack, so that
    no depth of nesting can exhaust Python's."""
    stack = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, str):
            if "\x00" in item:
                return "nul"
        elif isinstance(item, (dict, list)):
            if max_depth is not None and depth >= max_depth:
                return "deep"
            if isinstance(item, dict):
                stack.extend((k, depth) for k in item)
                stack.extend((v, depth + 1) for v in item.values())
            else:
                stack.extend((v, depth + 1) for v in item)
    return None


class StorableJSONParser(JSONParser):
    """JSON, refusing a NUL character (``\\u0000``) in any string: PostgreSQL cannot hold one in
    text or jsonb, so such a body would otherwise fail at the database as a 500."""

    def parse(self, stream: Any, media_type: str | None = None,
              parser_context: dict[str, Any] | None = None) -> Any:
        try:
            data = super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise ParseError(f"JSON parse error - nested deeper than {MAX_DEPTH} levels.") from None
        problem = _unstorable(data)
        if problem == "nul":
            raise ParseError("JSON parse error - a string holds a NUL character (\\u0000), "
                             "which cannot be stored.")
        if problem == "deep":
            raise ParseError(f"JSON parse error - nested deeper than {MAX_DEPTH} levels.")
        return data
