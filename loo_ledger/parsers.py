"""Request bodies: JSON whose strings the database can store."""
from __future__ import annotations

from typing import Any

from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser


def holds_nul(value: Any) -> bool:
    """True when a NUL character stands in any string (or key) of parsed JSON."""
    if isinstance(value, str):
        return "\x00" in value
    if isinstance(value, dict):
        return any(holds_nul(k) or holds_nul(v) for k, v in value.items())
    if isinstance(value, list):
        return any(holds_nul(v) for v in value)
    return False


class StorableJSONParser(JSONParser):
    """JSON, refusing a NUL character (``\\u0000``) in any string: PostgreSQL cannot hold one in
    text or jsonb, so such a body would otherwise fail at the database as a 500."""

    def parse(self, stream: Any, media_type: str | None = None,
              parser_context: dict[str, Any] | None = None) -> Any:
        data = super().parse(stream, media_type, parser_context)
        if holds_nul(data):
            raise ParseError("JSON parse error - a string holds a NUL character (\\u0000), "
                             "which cannot be stored.")
        return data
