"""Views whose writes read another body than their answers show.

DRF's generic views, the browsable API's forms (the HTML form and the raw data form) and an
OPTIONS answer all take their fields from ``get_serializer_class()``. A view whose POST, PUT or
PATCH reads its body with a serializer of its own (a deal's ``number`` and ``record``, where the
answer is the deal with its verdict) names it here, so that each form offers the fields the
write takes; the answers, and every other method, keep ``serializer_class``.
"""
from __future__ import annotations

from typing import Any

from rest_framework import serializers


class BodySerializer:
    """``create_serializer_class`` reads a POST's body, ``update_serializer_class`` a PUT's or a
    PATCH's (where the key in the URL may be left out: it never changes); left unset, the
    view's ``serializer_class`` reads it, as DRF's does."""

    create_serializer_class: type[serializers.Serializer] | None = None
    update_serializer_class: type[serializers.Serializer] | None = None
    request: Any

    def get_serializer_class(self) -> type[serializers.Serializer]:
        chosen = {"POST": self.create_serializer_class, "PUT": self.update_serializer_class,
                  "PATCH": self.update_serializer_class}.get(self.request.method)
        return chosen or super().get_serializer_class()  # type: ignore[misc]
