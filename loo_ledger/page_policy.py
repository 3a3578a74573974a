"""The policy of the service's own pages (home, a club's, its results, a session's report, the
problem types).

Their Content-Security-Policy: they run no script and load nothing but the favicon, so their
policy lets no script run and nothing else load. A club, player or session name that ever
slipped its escaping would still be inert. The API docs, the browsable API and the admin run
scripts of their own and get no policy (``SECURE_CSP`` is left empty).

Their methods: GET and HEAD only. Each of them only renders; the forms on them send elsewhere or
by GET (the log-out button posts to the browsable API's log-out, the results' dates are a GET),
so a POST, PUT, PATCH or DELETE is a 405 naming ``GET, HEAD`` in ``Allow``, where it used to
render the page as a GET would. A page that comes to take a form post needs a decorator of its
own.

Who may keep them: ``loo_ledger.private_answers`` (every answer for a signed-in user)."""
from __future__ import annotations

from collections.abc import Callable

from django.http import HttpResponse
from django.utils.csp import CSP
from django.views.decorators.csp import csp_override
from django.views.decorators.http import require_safe

PAGE_CSP = {
    "default-src": [CSP.NONE],
    "style-src": [CSP.UNSAFE_INLINE],  # each page's own <style> (and a style="" or two)
    "img-src": [CSP.SELF],  # the favicon
    "form-action": [CSP.SELF],  # the results' dates, the log-out button
    "frame-ancestors": [CSP.NONE],  # as X-Frame-Options: DENY says
    "base-uri": [CSP.NONE],
}


def own_page[V: Callable[..., HttpResponse]](view: V) -> V:
    """The decorator of an own page's view: GET and HEAD only, and the page's policy (the 405
    too carries it)."""
    return csp_override(PAGE_CSP)(require_safe(view))
