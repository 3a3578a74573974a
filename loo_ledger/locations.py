"""The ``Location`` header, in one form wherever the API answers it.

RFC 9110 lets ``Location`` be a path or an absolute URL; one service should choose one, so a
client needs one way to follow it. This one answers the absolute URL, as the bodies' links
(``links.self``, an import job's ``url``) already do.
"""
from __future__ import annotations

from django.http import HttpRequest
from rest_framework.request import Request


def location(request: Request | HttpRequest, path: str) -> dict[str, str]:
    """``{"Location": URL}`` for a response's headers: ``path`` (a reversed URL path, or a URL
    already absolute, which is kept) as an absolute URL on the request's scheme and host. Every
    view that answers a ``Location`` builds it here."""
    return {"Location": request.build_absolute_uri(path)}
