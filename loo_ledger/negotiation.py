"""Content negotiation: a format nobody offers is a 406 naming the formats there are.

DRF answers a format no renderer offers with a bare 404, as if the resource did not exist;
``Accept: application/xml`` on the same URL is a 406. The two now agree, and both say what
the URL offers: ``?format=`` by name, ``Accept`` by media type (DRF's own 406 said only
"Could not satisfy the request Accept header.").
"""
from __future__ import annotations

from typing import Any

from rest_framework.exceptions import NotAcceptable
from rest_framework.negotiation import DefaultContentNegotiation

from .fields import as_written

ACCEPT_SHOWN = 100  # characters of the Accept header a 406 repeats


class ProblemContentNegotiation(DefaultContentNegotiation):
    def filter_renderers(self, renderers: list[Any], format: str) -> list[Any]:
        chosen = [r for r in renderers if r.format == format]
        if not chosen:
            offered = ", ".join(dict.fromkeys(r.format for r in renderers))
            raise NotAcceptable(f"Unknown format {as_written(format)}: this URL offers {offered}.")
        return chosen

    def select_renderer(self, request: Any, renderers: list[Any],
                        format_suffix: str | None = None) -> tuple[Any, str]:
        try:
            return super().select_renderer(request, renderers, format_suffix)
        except NotAcceptable as refused:
            if refused.available_renderers is None:  # filter_renderers' own, already worded
                raise
            raise NotAcceptable(not_acceptable_detail(request, refused.available_renderers),
                                available_renderers=refused.available_renderers) from None


def not_acceptable_detail(request: Any, renderers: list[Any]) -> str:
    """Why nothing matched: the ``Accept`` header as sent, and the media types on offer here
    (those left by ``?format=``, when one was given)."""
    accept = request.META.get("HTTP_ACCEPT", "")
    if len(accept) > ACCEPT_SHOWN:
        accept = accept[:ACCEPT_SHOWN] + "..."
    offered = ", ".join(dict.fromkeys(r.media_type for r in renderers))
    return f"Nothing here matches Accept: {as_written(accept)}; this URL offers {offered}."
