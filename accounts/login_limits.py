"""One limit on password guessing for every login form: the API token, the admin, the
browsable API; the password changes, REST (accounts.api.PasswordChangeView) and the admin's,
which ask for the current password, take the same count.

A client address gets ``LOO_LOGIN_RATE`` tries (right or wrong) across all five, counted in
the cache under one key (scope ``login``), so switching forms does not buy more guesses. The token view applies
it as a DRF throttle (a 429 problem); the session logins, which are Django views, through
``SessionLoginLimitMiddleware``. While the tries cannot be counted (the cache's Redis is
down) every login is refused with a 503 saying so: the limit is never silently lifted.
"""
from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from django.http import HttpRequest, HttpResponse
from rest_framework.throttling import SimpleRateThrottle

from loo_ledger.problems import outage_page

#: the session views (``request.resolver_match.view_name``) whose POST checks a password: the
#: two login pages and the admin's own password change, which asks for the current one
SESSION_LOGIN_VIEWS = frozenset({"admin:login", "rest_framework:login", "admin:password_change"})


class LoginRateThrottle(SimpleRateThrottle):
    """Login tries per client address (``NUM_PROXIES`` decides whether ``X-Forwarded-For``
    is believed), at the rate ``DEFAULT_THROTTLE_RATES["login"]``."""

    scope = "login"

    def get_cache_key(self, request: Any, view: Any) -> str:
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}


class LoginTriesArePosts:
    """Mixin for an API view whose POST checks a password (the token, the password change):
    each POST is a try against :class:`LoginRateThrottle`, and nothing else is (the browsable
    API's GET of the form, an OPTIONS), as showing the login pages is not."""

    request: Any

    def get_throttles(self) -> list[LoginRateThrottle]:
        return [LoginRateThrottle()] if self.request.method == "POST" else []


class SessionLoginLimitMiddleware:
    """A login POST to the admin or the browsable API (or a POST of the admin's password
    change) beyond the limit is a 429 with ``Retry-After``; the form is never checked, so even
    the right password must wait."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_view(self, request: HttpRequest, view_func: Any, args: Any,
                     kwargs: Any) -> HttpResponse | None:
        match = request.resolver_match
        if request.method != "POST" or match is None or match.view_name not in SESSION_LOGIN_VIEWS:
            return None
        throttle = LoginRateThrottle()
        try:
            if throttle.allow_request(request, None):
                return None
        except Exception as exc:  # the tries cannot be counted (Redis down): a 503, not a 500
            if (down := outage_page(exc)) is not None:
                return down
            raise
        wait = max(math.ceil(throttle.wait() or 1), 1)
        response = HttpResponse(
            f"Too many login attempts from this address. Try again in {wait} seconds.\n",
            status=429, content_type="text/plain; charset=utf-8")
        response["Retry-After"] = str(wait)
        return response
