"""Content negotiation: an unknown ``?format=`` is a 406 naming the formats there are.

DRF answers a format no renderer offers with a bare 404, as if the resource did not exist;
``Accept: application/xml`` on the same URL is a 406. The two now agree.
"""
from __future__ import annotations

from typing import Any

from rest_framework.exceptions import NotAcceptable
from rest_framework.negotiation import DefaultContentNegotiation


class ProblemContentNegotiation(DefaultContentNegotiation):
    def filter_renderers(self, renderers: list[Any], format: str) -> list[Any]:
        chosen = [r for r in renderers if r.format == format]
        if not chosen:
            offered = ", ".join(dict.fromkeys(r.format for r in renderers))
            raise NotAcceptable(f"Unknown format {format!r}: this URL offers {offered}.")
        return chosen
