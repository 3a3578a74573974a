"""A request's id: answered in ``X-Request-ID`` and written on every line logged while the
request is answered (``ERROR loo_ledger.problems [<id>] Unhandled error on ...``), and in
gunicorn's access log line for it (deploy/gunicorn.conf.py), so that an error a client reports,
or one line of the log, leads to the rest. The id is always the service's own: one a client
sent could make its lines pass for another request's."""
from __future__ import annotations

import logging
import uuid
from contextvars import ContextVar
from typing import Any

from django.core.signals import request_finished
from django.http import HttpRequest, HttpResponse

HEADER = "X-Request-ID"
NONE = "-"  # a line logged outside any request: a worker's, a command's, start-up's
_current: ContextVar[str] = ContextVar("request_id", default=NONE)


class RequestIdMiddleware:
    """First of the middleware, so that every answer (a redirect to https, a 400 for an unknown
    host) names its request."""

    def __init__(self, get_response: Any) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        _current.set(uuid.uuid4().hex)
        response = self.get_response(request)
        response[HEADER] = _current.get()
        return response


def _forget(**_: Any) -> None:
    # not when the middleware returns: Django logs a 4xx or 5xx answer after the middleware
    # (django.request's "Not Found: ..."), and that line is the request's too
    _current.set(NONE)


request_finished.connect(_forget, dispatch_uid="loo_ledger.request_ids")


class RequestIdFilter(logging.Filter):
    """Gives each record the id of the request being answered (``%(request_id)s``)."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.request_id = _current.get()
        return True
