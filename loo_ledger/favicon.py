"""``/favicon.ico``: every browser asks for it on every site page it opens (the admin's, the API
docs' and the browsable API's pages among them, whose templates are not ours), so it is served
from the root, where the asking happens, instead of answering each of those asks with a 404."""
from __future__ import annotations

from functools import cache
from pathlib import Path

from django.http import HttpRequest, HttpResponse
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_safe

ICON = Path(__file__).resolve().parent / "assets" / "favicon.ico"


@cache
def _icon() -> bytes:
    return ICON.read_bytes()


@require_safe
@cache_control(public=True, max_age=7 * 24 * 3600)
def favicon(request: HttpRequest) -> HttpResponse:
    """A club on a card (16, 32 and 48 px), kept for a week by browsers and proxies."""
    return HttpResponse(_icon(), content_type="image/vnd.microsoft.icon")
