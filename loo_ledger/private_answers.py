"""Every answer made for a signed-in user is ``Cache-Control: private, max-age=0``: a club's
pages, its report in every format, its results and the whole API as a member sees them.

The pages already said ``Vary: Cookie``, which keeps a club's report out of a cache that honours
it, but a shared cache or proxy that does not (or one keyed on the URL alone) could hand one
club's report to whoever asked for that URL next; and a token-authenticated API answer said
nothing at all. One middleware marks them all, so a view added later cannot forget.

- ``private``: no shared cache (a proxy, a CDN) may keep the answer; the member's own browser may.
- ``max-age=0``: the browser asks again before reusing its copy (an open session's report
  changes with every deal), so a link, a reload or a treasurer downloading the PDF again gets
  the current one.
- not ``no-store``: it would forbid the member's own browser to keep their own club's page or
  file at all, which protects nothing that the signed-in browser does not already show, and
  costs the back button (a refetch) and, in some browsers, opening or saving a download.

Public answers are left as they are: one made without a signed-in user (the home page and the
problem-type pages to a visitor, a login redirect, a 401) and one that says ``public`` itself
(the favicon). Static files never reach this middleware (WhiteNoise answers them first)."""
from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.utils.cache import patch_cache_control

#: what an answer for a signed-in user says (the header's directives)
PRIVATE = {"private": True, "max_age": 0}


def asked_by_a_signed_in_user(request: HttpRequest) -> bool:
    """Whether the answer was made for a signed-in user, by session or token. The user is only
    looked at when the answer read the session already or the request carried credentials
    (``Authorization``: DRF has read the token): looking otherwise would read the session of an
    answer that never did (a problem-type page) and mark it ``Vary: Cookie``."""
    session = getattr(request, "session", None)
    if not (session is not None and session.accessed) and "HTTP_AUTHORIZATION" not in request.META:
        return False
    user = getattr(request, "user", None)
    return bool(user is not None and user.is_authenticated)


class PrivateAnswersMiddleware:
    """Marks each answer made for a signed-in user private (see the module's docstring)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        said = {part.split("=")[0].strip().lower()
                for part in response.get("Cache-Control", "").split(",")}
        if "public" not in said and asked_by_a_signed_in_user(request):
            patch_cache_control(response, **PRIVATE)
        return response
