"""The Content-Security-Policy of the service's own pages (home, a club's, its results, a
session's report, the problem types): they run no script and load nothing but the favicon, so
their policy lets no script run and nothing else load. A club, player or session name that ever
slipped its escaping would still be inert. The API docs, the browsable API and the admin run
scripts of their own and get no policy (``SECURE_CSP`` is left empty)."""
from __future__ import annotations

from django.utils.csp import CSP
from django.views.decorators.csp import csp_override

PAGE_CSP = {
    "default-src": [CSP.NONE],
    "style-src": [CSP.UNSAFE_INLINE],  # each page's own <style> (and a style="" or two)
    "img-src": [CSP.SELF],  # the favicon
    "form-action": [CSP.SELF],  # the results' dates, the log-out button
    "frame-ancestors": [CSP.NONE],  # as X-Frame-Options: DENY says
    "base-uri": [CSP.NONE],
}

#: the decorator of an own page's view
own_page = csp_override(PAGE_CSP)
