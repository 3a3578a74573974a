"""API paths answer with or without their trailing slash.

The API's collections and resources end in a slash (``.../deals/``) and its actions do not
(``.../close``). A client that gets one wrong should not meet Django's APPEND_SLASH: it
redirects a GET, drops a POST's body (and, with DEBUG on, raises an error). So a path under
``/api/`` that matches nothing is tried with its last slash toggled, and when that form
matches the request carries on under it, before any view, idempotency key or log sees the
path. Paths outside the API keep Django's usual behaviour.
"""
from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.urls import is_valid_path

from loo_ledger.problems import API_PREFIX


class EitherSlashMiddleware:
    """Put an API path that matches only with its trailing slash toggled into that form."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        path = request.path_info
        if path.startswith(API_PREFIX) and path != API_PREFIX:
            urlconf = getattr(request, "urlconf", None)
            if not is_valid_path(path, urlconf):
                other = path[:-1] if path.endswith("/") else f"{path}/"
                if is_valid_path(other, urlconf):
                    prefix = request.path[:-len(path)] if request.path.endswith(path) else ""
                    request.path_info = other
                    request.path = prefix + other
        return self.get_response(request)
