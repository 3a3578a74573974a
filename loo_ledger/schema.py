"""drf-spectacular extensions: what the OpenAPI schema says beyond what DRF's fields tell it.

Registered by being imported (``games.apps.GamesConfig.ready``), as drf-spectacular's
extensions are.
"""
from __future__ import annotations

from typing import Any

from drf_spectacular.extensions import OpenApiSerializerExtension

from loo_ledger.fields import KnownFieldsOnly


class KnownFieldsOnlyExtension(OpenApiSerializerExtension):
    """A request body of a :class:`~loo_ledger.fields.KnownFieldsOnly` serializer says
    ``additionalProperties: false``: the API refuses any other key (400 naming it), so a client
    generated or validated from the schema learns it before sending one. Only the request
    component says so (an answer may grow fields); an answer's read-only fields, which the
    request component leaves out, are still taken back and ignored."""

    target_class = KnownFieldsOnly
    match_subclasses = True

    def map_serializer(self, auto_schema: Any, direction: str) -> dict[str, Any]:
        schema = auto_schema._map_serializer(self.target, direction, bypass_extensions=True)
        if direction == "request":
            schema["additionalProperties"] = False
        return schema
