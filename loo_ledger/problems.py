"""Every API error as RFC 9457 problem details (``application/problem+json``).

One shape for every refusal, so a client needs one error path::

    {"type": "/problems/validation-error", "title": "Invalid request", "status": 400,
     "detail": "2 errors.", "instance": "/api/v1/clubs/oak/sessions/",
     "code": "validation-error",
     "errors": [{"field": "seats[1]", "message": "'zed' is not a member of this club.",
                 "code": "invalid"}]}

``errors`` lists field- or action-level errors: an item names a ``field`` (dotted path, list
positions in brackets) or an ``index`` (into a record's ``actions``), optionally the ``player``
and ``card``, and always a ``message`` and a machine-readable ``code`` (:func:`error_code`: one
function gives every item its code, whichever site built it).

* DRF views: :func:`exception_handler` (``REST_FRAMEWORK["EXCEPTION_HANDLER"]``).
* Service code: ``raise Problem(409, "Deal number taken", detail=..., code="deal-number-conflict",
  current_number=7)``; extra keyword arguments become extension members of the body.
* Engine errors (``games.rules.RecordError`` / ``RuleError``) become 400 problems with their
  ``errors`` list, wherever they escape from.
* Anything outside DRF under ``/api/`` (unknown URL, uncaught exception):
  :class:`ProblemMiddleware` answers problem+json instead of an HTML page.
"""
from __future__ import annotations

import json
import logging
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from http import HTTPStatus
from typing import Any

from django.conf import settings
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import RequestDataTooBig, TooManyFieldsSent, TooManyFilesSent
from django.core.exceptions import ValidationError as DjangoValidationError
from django.core.signals import got_request_exception
from django.db import IntegrityError
from django.http import Http404, HttpRequest, HttpResponse
from django.utils.html import escape
from rest_framework import exceptions
from rest_framework.renderers import JSONRenderer
from rest_framework.response import Response
from rest_framework.serializers import as_serializer_error
from rest_framework.settings import api_settings
from rest_framework.views import set_rollback

from loo_ledger.page_policy import own_page

logger = logging.getLogger(__name__)

PROBLEM_CONTENT_TYPE = "application/problem+json"
API_PREFIX = "/api/"
TYPE_BASE = "/problems/"


@dataclass(frozen=True)
class ProblemType:
    """A documented kind of problem: its stable ``code``, ``title`` and what to do about it."""

    code: str
    status: int
    title: str
    description: str

    @property
    def uri(self) -> str:
        return f"{TYPE_BASE}{self.code}"


PROBLEM_TYPES: dict[str, ProblemType] = {
    t.code: t
    for t in [
        ProblemType("validation-error", 400, "Invalid request",
                    "Some fields are missing or wrong, or a query parameter is one the URL "
                    "does not take (`parameters` lists those it takes); `errors` names each "
                    "field or parameter and why."),
        ProblemType("malformed-request", 400, "Malformed request body",
                    "The body is not valid JSON (or not the declared media type), or a string "
                    "in it holds what no database can store: a NUL character (\\u0000) or a "
                    "lone UTF-16 surrogate (\\ud800 to \\udfff not in a pair)."),
        ProblemType("record-error", 400, "The deal record cannot describe a real deal",
                    "Nothing was stored. `errors` names the action index, player and card of "
                    "every impossibility found (see the deal-record format)."),
        ProblemType("rule-error", 400, "Invalid rules",
                    "The rules (preset and house options) are unknown or contradict each "
                    "other; `errors` names each option."),
        ProblemType("not-authenticated", 401, "Authentication required",
                    "Send `Authorization: Token <key>` (POST /api/v1/auth/token/) or log in."),
        ProblemType("authentication-failed", 401, "Authentication failed",
                    "The token or credentials are invalid."),
        ProblemType("permission-denied", 403, "Permission denied",
                    "Your role in this club may not do this (see the roles table)."),
        ProblemType("not-found", 404, "Not found",
                    "No such resource, or it belongs to a club you are not a member of."),
        ProblemType("payload-too-large", 413, "Request body too large",
                    "The body is larger than the service reads at once "
                    "(`DATA_UPLOAD_MAX_MEMORY_SIZE`); a large session file goes up as a raw "
                    "`application/x-ndjson` (or multipart) upload to the imports endpoint, "
                    "up to the import's cap (`max_file_bytes`): what a session at every limit "
                    "exports, with room to spare."),
        ProblemType("method-not-allowed", 405, "Method not allowed",
                    "This endpoint does not support this HTTP method."),
        ProblemType("not-acceptable", 406, "Not acceptable",
                    "No representation matches the Accept header or the `?format=` asked for; "
                    "`detail` names the formats this URL offers."),
        ProblemType("conflict", 409, "Conflict",
                    "The request conflicts with the current state; `detail` says how: a request "
                    "with the same `Idempotency-Key` is still in flight (retry shortly), a "
                    "retry of an import job that stored its session already (\"Already "
                    "imported\", `session` names it), a club slug already taken, or a change "
                    "made at the same moment by another request (retry it)."),
        ProblemType("unsupported-media-type", 415, "Unsupported media type",
                    "Send `Content-Type: application/json`."),
        ProblemType("unprocessable", 422, "Unprocessable request",
                    "Well-formed but cannot be applied (e.g. an Idempotency-Key reused with "
                    "another body)."),
        ProblemType("throttled", 429, "Too many requests", "Retry after `Retry-After` seconds."),
        ProblemType("server-error", 500, "Internal server error",
                    "A bug on our side; nothing was stored."),
        ProblemType("render-failed", 500, "PDF not rendered",
                    "The worker could not render the report's PDF; `detail` says why. GET the "
                    "URL again to try once more; the JSON and CSV downloads are unaffected."),
        ProblemType("queue-unavailable", 503, "Task queue unavailable",
                    "The task queue (the Celery broker) cannot be reached, so the work could "
                    "not be queued; nothing was stored. Try again after `Retry-After` seconds."),
        ProblemType("service-unavailable", 503, "Service unavailable",
                    "The database, or the Redis that counts login tries (`CACHE_URL`), cannot "
                    "be reached just now (`detail` says which): nothing was stored. Try again "
                    "after `Retry-After` seconds."),
        # the services' own refusals (games.services); generic codes above come first, so
        # that a bare status still maps to its generic type
        ProblemType("record-mismatch", 400, "The record disagrees with the session",
                    "Seats, deal number, dealer, pool or rules in the record differ from what "
                    "the session knows; `errors` names each field. Nothing was stored."),
        ProblemType("insufficient-chips", 400, "Not enough chips",
                    "A player would owe more chips than they hold; record a purchase first "
                    "(or open the session with `allow_credit`). Each error has `player`, "
                    "`holds` and `owes`. A purchase's void is refused so too, with status 409 "
                    "(the session as it stands does not allow it): the player holds fewer "
                    "chips than the purchase gave; its error has `player`, `holds` and "
                    "`takes`."),
        ProblemType("deal-number-conflict", 409, "Not the next deal",
                    "Deals are recorded in order; `current_number` is the last deal recorded "
                    "and `next_number` the one to send. To change a recorded deal, post a "
                    "correction."),
        ProblemType("correction-unchanged", 409, "Nothing to correct",
                    "The correction's record is the deal's current record and gives the same "
                    "verdict, so it would change nothing. (The same record is taken when the "
                    "engine now settles it differently: that is how a deal is re-settled after "
                    "an engine upgrade.)"),
        ProblemType("correction-refused", 409, "Correction refused",
                    "The corrected deal would make a later deal impossible (`deal` and "
                    "`errors[].deal` say which), or a later purchase's void (`purchase`: a "
                    "player would hold fewer chips than it takes back, without credit). "
                    "Nothing was changed."),
        ProblemType("purchase-voided", 409, "Purchase voided already",
                    "A purchase is voided once (`purchase` names it); a void is never undone: "
                    "record the purchase again if it was voided by mistake."),
        ProblemType("session-closed", 409, "Session closed",
                    "The session is closed and frozen; only an owner can reopen it "
                    "(POST .../reopen with a reason)."),
        ProblemType("session-open", 409, "Session is open",
                    "Only a closed session can be reopened."),
        ProblemType("duplicate-import", 409, "Already imported",
                    "This club imported the very same session file before, or is importing "
                    "it; `session` and `job` name what it made. POST the file again with "
                    "`?allow_duplicate=true` to import it once more as a new session. A retry "
                    "of a failed import is refused so too once another import of the file "
                    "stored it or is under way, unless the job was made with "
                    "`allow_duplicate`."),
        ProblemType("session-full", 409, "Session full",
                    "A session holds at most 1,000 deals (`max_deals`) and 2,000 chip "
                    "purchases, buy-ins included (`max_purchases`): close it and open another "
                    "for the play that follows. It holds at most 2,000 payments of chips "
                    "bought on credit (`max_payments`): no more can be recorded for it. It is "
                    "reopened at most 20 times (`max_reopenings`): after that it stays closed. "
                    "The body names the cap that was reached."),
        ProblemType("final-deal-played", 409, "Final deal played",
                    "The last deal recorded (`final_deal`) was the final deal of `end_pool: "
                    "final-deal`, which plays the pool off: no deal comes after it. Close the "
                    "session, or correct that deal if it was not the final deal."),
        ProblemType("final-deal-required", 409, "Final deal missing",
                    "The rules say `end_pool: final-deal` and units are left in the pool: "
                    "record a final deal (everybody stands, no miss, `\"final\": true`) "
                    "before closing."),
    ]
}

_CODE_BY_EXCEPTION: list[tuple[type[exceptions.APIException], str]] = [
    (exceptions.ParseError, "malformed-request"),
    (exceptions.ValidationError, "validation-error"),
    (exceptions.NotAuthenticated, "not-authenticated"),
    (exceptions.AuthenticationFailed, "authentication-failed"),
    (exceptions.PermissionDenied, "permission-denied"),
    (exceptions.NotFound, "not-found"),
    (exceptions.MethodNotAllowed, "method-not-allowed"),
    (exceptions.NotAcceptable, "not-acceptable"),
    (exceptions.UnsupportedMediaType, "unsupported-media-type"),
    (exceptions.Throttled, "throttled"),
]
_CODE_BY_STATUS: dict[int, str] = {t.status: t.code for t in reversed(PROBLEM_TYPES.values())}

#: an ``errors`` item's ``code`` when neither its site nor its message gave one, by the code of
#: the problem it is an error of (any other problem's items take the problem's own code:
#: ``insufficient-chips``, ``payload-too-large``, ...; the engine's: :func:`error_code`)
ITEM_CODES: dict[str, str] = {
    "validation-error": "invalid",  # DRF's own code for a value it cannot take
    "malformed-request": "invalid",
    "rule-error": "invalid",  # the engine names the option in the message
    "record-mismatch": "mismatch",  # the record says one thing, the session another
    "correction-refused": "impossible",  # a later deal could no longer be stored
}
#: every code an ``errors`` item may carry, as docs/api.md and the schema list them: DRF's own
#: (and Django's validators') beside these
ITEM_CODE_VOCABULARY: dict[str, str] = {
    "required": "DRF: a field that must be sent was not",
    "null": "DRF: null where a value is needed",
    "blank": "DRF: an empty string where text is needed",
    "invalid": "a value that cannot be taken (DRF's generic code; a service's own check of a "
               "field; a rule; a field of a deal record the engine cannot read)",
    "max_length": "DRF: text longer than the field takes (so `min_length`, `max_value`, "
                  "`min_value`, `invalid_choice`, `not_a_list`, `empty`, `unique`, ... as DRF "
                  "names them)",
    "unknown": "a body field or query parameter the endpoint does not take",
    "impossible": "a deal record's action (`index`) that cannot have happened, or a later deal "
                  "a correction would make impossible",
    "mismatch": "a deal record that disagrees with the session (`record-mismatch`)",
    "insufficient-chips": "a player who would hold fewer chips than the deal or void takes",
    "authorization": "DRF: a wrong username or password",
}


def problem_type_for_status(status: int) -> ProblemType | None:
    """The generic problem type for an HTTP status (first registered wins)."""
    code = _CODE_BY_STATUS.get(status)
    return PROBLEM_TYPES[code] if code else None


class Problem(exceptions.APIException):
    """Raise from a view or service to answer a problem with a chosen status and ``errors``.

    ``code`` picks a registered :data:`PROBLEM_TYPES` entry (its URI becomes ``type``) or is any
    short slug of your own; ``extensions`` become extra top-level members of the body.
    """

    def __init__(
        self,
        status: int,
        title: str | None = None,
        detail: str | None = None,
        *,
        errors: Iterable[Mapping[str, Any]] | None = None,
        code: str | None = None,
        headers: Mapping[str, str] | None = None,
        **extensions: Any,
    ) -> None:
        registered = PROBLEM_TYPES.get(code or "") or problem_type_for_status(status)
        self.status_code = status
        self.code = code or (registered.code if registered else "problem")
        self.title = title or (registered.title if registered else HTTPStatus(status).phrase)
        self.errors = coded_errors(errors, self.code) if errors is not None else None
        self.headers = dict(headers or {})
        self.extensions = extensions
        super().__init__(detail=detail or self.title, code=self.code)


def problem_body(
    *,
    status: int,
    code: str,
    title: str | None = None,
    detail: str | None = None,
    instance: str | None = None,
    errors: list[dict[str, Any]] | None = None,
    extensions: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """The JSON body of a problem (``type``, ``title``, ``status``, ``detail``, ``instance``, ...)."""
    registered = PROBLEM_TYPES.get(code)
    body: dict[str, Any] = {
        "type": registered.uri if registered else f"{TYPE_BASE}{code}",
        "title": title or (registered.title if registered else HTTPStatus(status).phrase),
        "status": status,
        "detail": detail or (registered.title if registered else HTTPStatus(status).phrase),
        "instance": instance,
        "code": code,
    }
    if errors is not None:
        body["errors"] = coded_errors(errors, code)
    if extensions:
        body.update({k: v for k, v in extensions.items() if k not in body})
    return body


def error_code(item: Mapping[str, Any], problem_code: str) -> str:
    """The machine-readable ``code`` of one ``errors`` item of a ``problem_code`` problem.

    Its own when its site gave one (DRF's ``required``, ``max_length``, ...), or its message's
    when that is DRF's ``ErrorDetail`` (``unknown`` from ``loo_ledger.fields.unknown_fields``);
    else an engine record error's by what the engine carries: ``impossible`` for an action
    (``index``, no ``field``) that cannot have happened as recorded (a card the player cannot
    hold, a second declaration), ``invalid`` for a ``field`` of the record or of an action that
    cannot be read or does not fit (a card that is no card, a hand of the wrong size, a record
    that stops before the end); any other by its problem (:data:`ITEM_CODES`). The one place a
    code is decided, so that no site can leave one out: a client switches on it, never on the
    message's words.
    """
    for own in (item.get("code"), getattr(item.get("message"), "code", None)):
        if isinstance(own, str) and own:
            return own
    if problem_code == "record-error":
        return "impossible" if item.get("index") is not None and not item.get("field") else "invalid"
    return ITEM_CODES.get(problem_code, problem_code)


def coded_errors(errors: Iterable[Mapping[str, Any]], problem_code: str) -> list[dict[str, Any]]:
    """``errors`` as plain dicts, each with its :func:`error_code` (a code given stays)."""
    return [{**e, "code": error_code(e, problem_code)} for e in errors]


def flatten_validation_errors(detail: Any, path: str = "") -> list[dict[str, Any]]:
    """DRF's nested ``ValidationError.detail`` as a flat list of ``{"field", "message", "code"}``.

    Paths are dotted with list positions in brackets (``buy_ins.ann``, ``seats[2]``);
    ``non_field_errors`` belong to the enclosing object (``field`` is its path, or null).
    """
    if isinstance(detail, Mapping):
        out: list[dict[str, Any]] = []
        for key, value in detail.items():
            if key in (api_settings.NON_FIELD_ERRORS_KEY, "detail"):
                sub = path
            elif isinstance(key, int):  # ListField/DictField errors are keyed by position
                sub = f"{path}[{key}]"
            else:
                sub = f"{path}.{key}" if path else str(key)
            out.extend(flatten_validation_errors(value, sub))
        return out
    if isinstance(detail, list):
        out = []
        for i, value in enumerate(detail):
            if isinstance(value, (Mapping, list)):
                out.extend(flatten_validation_errors(value, f"{path}[{i}]"))
            else:
                out.extend(flatten_validation_errors(value, path))
        return out
    return [{"field": path or None, "message": str(detail), "code": getattr(detail, "code", None)}]


def record_problem(exc: Exception) -> Problem:
    """The engine's ``RecordError`` as a 400 ``record-error`` with every error it found (action
    index, player, card): the one shape for a view, the bulk import and a stray one alike."""
    errors = [dict(e) if isinstance(e, Mapping) else {"message": str(e)}
              for e in getattr(exc, "errors", None) or [{"message": str(exc)}]]
    first = errors[0].get("message", str(exc))
    detail = first if len(errors) == 1 else f"{len(errors)} errors in the record."
    return Problem(400, detail=detail, errors=errors, code="record-error")


def rule_problem(exc: Exception) -> Problem:
    """The engine's ``RuleError`` as a 400 ``rule-error`` naming each option it refused."""
    errors = [{"field": "rules", "message": str(e)} for e in getattr(exc, "errors", None) or []]
    return Problem(400, detail=str(exc), errors=errors or [{"field": "rules", "message": str(exc)}],
                   code="rule-error")


def _engine_problem(exc: Exception) -> Problem | None:
    """A 400 problem for the engine's RecordError/RuleError, or None for anything else."""
    try:
        from games.rules.errors import RecordError, RuleError  # re-exported by games.rules
    except ImportError:  # the engine is optional for this module
        return None
    if isinstance(exc, RecordError):
        return record_problem(exc)
    if isinstance(exc, RuleError):
        return rule_problem(exc)
    return None


#: PostgreSQL's SQLSTATEs of a server that is going away or not there yet (a restart):
#: admin_shutdown, crash_shutdown, cannot_connect_now; class 08 is any connection exception
_SERVER_GOING_AWAY = {"57P01", "57P02", "57P03"}
#: seconds a client is asked to wait (``Retry-After``) when a backing service is down
OUTAGE_RETRY_AFTER = 5


def unreachable_service(exc: BaseException) -> str | None:
    """Which backing service ``exc`` says cannot be reached (``"database"``, ``"login-limit
    cache"``), or None when it is anything else: a lost connection is no bug of ours, and the
    client is told to come back (503) rather than shown a 500. A PostgreSQL error of the
    server's own (a deadlock, a constraint) is not an outage; nor is SQLite's."""
    import psycopg
    import redis
    from django.db import InterfaceError, OperationalError

    if isinstance(exc, redis.exceptions.ConnectionError | redis.exceptions.TimeoutError):
        return "login-limit cache"
    if isinstance(exc, InterfaceError):  # a connection closed under us
        return "database"
    cause = exc.__cause__
    if isinstance(exc, OperationalError) and isinstance(cause, psycopg.OperationalError):
        state = getattr(cause, "sqlstate", None)
        if state is None or state.startswith("08") or state in _SERVER_GOING_AWAY:
            return "database"
    return None


def _noted_outage(exc: BaseException) -> str | None:
    """``unreachable_service``, logged on one line (the log is no place for a traceback of
    every request made while the database restarts)."""
    service = unreachable_service(exc)
    if service is not None:
        logger.error("%s unreachable: %s: %s", service, type(exc).__name__, exc)
    return service


def outage_detail(service: str) -> str:
    return (f"The {service} cannot be reached just now; nothing was stored. Try again in "
            f"{OUTAGE_RETRY_AFTER} seconds.")


def _outage_problem(exc: Exception) -> Problem | None:
    """A 503 ``service-unavailable`` for a lost database or cache connection (logged, without
    a traceback), or None."""
    service = _noted_outage(exc)
    if service is None:
        return None
    return Problem(503, detail=outage_detail(service), code="service-unavailable",
                   headers={"Retry-After": str(OUTAGE_RETRY_AFTER)})


def _as_api_exception(exc: Exception) -> exceptions.APIException | None:
    """Translate Django/engine/database exceptions into DRF ones (None: a real bug, 500)."""
    if isinstance(exc, exceptions.APIException):
        return exc
    if (outage := _outage_problem(exc)) is not None:
        return outage
    if isinstance(exc, Http404):
        return exceptions.NotFound(*exc.args)
    if isinstance(exc, DjangoPermissionDenied):
        return exceptions.PermissionDenied(*exc.args)
    if isinstance(exc, DjangoValidationError):
        return exceptions.ValidationError(as_serializer_error(exc))
    if isinstance(exc, RequestDataTooBig):
        return Problem(413, detail=f"The request body is larger than the "
                       f"{settings.DATA_UPLOAD_MAX_MEMORY_SIZE:,} bytes this service reads; send "
                       "a large session file as a raw upload (see docs/settlement.md).",
                       code="payload-too-large")
    if isinstance(exc, (TooManyFieldsSent, TooManyFilesSent)):
        return exceptions.ParseError(str(exc))
    if isinstance(exc, IntegrityError) and _is_unique_violation(exc):
        # A uniqueness race lost to a concurrent writer; the transaction was rolled back.
        # (Any other integrity error is a bug and stays a 500.)
        logger.warning("IntegrityError answered as 409: %s", exc)
        return Problem(409, detail="The request conflicts with a concurrent change; retry it.",
                       code="conflict")
    return _engine_problem(exc)


def _is_unique_violation(exc: IntegrityError) -> bool:
    """PostgreSQL's unique_violation (SQLSTATE 23505) or SQLite's UNIQUE constraint failure."""
    return getattr(exc.__cause__, "sqlstate", None) == "23505" or "UNIQUE constraint failed" in str(exc)


def _detail_text(detail: Any, n_errors: int) -> str:
    if isinstance(detail, (list, Mapping)):
        return "1 error." if n_errors == 1 else f"{n_errors} errors."
    return str(detail)


def exception_handler(exc: Exception, context: Mapping[str, Any]) -> Response | None:
    """DRF exception handler: every handled error becomes problem+json."""
    api_exc = _as_api_exception(exc)
    if api_exc is None:
        return None
    request = context.get("request")
    headers: dict[str, str] = {}
    if getattr(api_exc, "auth_header", None):
        headers["WWW-Authenticate"] = api_exc.auth_header  # type: ignore[attr-defined]
    if getattr(api_exc, "wait", None):
        headers["Retry-After"] = str(int(api_exc.wait))  # type: ignore[attr-defined]

    if isinstance(api_exc, Problem):
        headers.update(api_exc.headers)
        body = problem_body(
            status=api_exc.status_code, code=api_exc.code, title=api_exc.title,
            detail=str(api_exc.detail), instance=_instance(request), errors=api_exc.errors,
            extensions=api_exc.extensions,
        )
    else:
        code = next((c for cls, c in _CODE_BY_EXCEPTION if isinstance(api_exc, cls)), None)
        code = code or _CODE_BY_STATUS.get(api_exc.status_code, "problem")
        errors = None
        if isinstance(api_exc, exceptions.ValidationError):
            errors = flatten_validation_errors(api_exc.detail)
        detail = _detail_text(api_exc.detail, len(errors or []))
        if errors and len(errors) == 1:
            detail = errors[0]["message"]
        body = problem_body(status=api_exc.status_code, code=code, detail=detail,
                            instance=_instance(request), errors=errors)

    set_rollback()
    response = Response(body, status=api_exc.status_code, headers=headers)
    renderer = getattr(request, "accepted_renderer", None)
    fmt = getattr(renderer, "format", None)
    if fmt == "api":
        return response  # the browsable API shows the problem on its own page
    if fmt != "json" and request is not None:
        # a page, a schema or a file was asked for (or no format could be agreed): the problem
        # is still JSON
        request.accepted_renderer = JSONRenderer()
        request.accepted_media_type = PROBLEM_CONTENT_TYPE
    response.content_type = PROBLEM_CONTENT_TYPE
    return response


def _instance(request: Any) -> str | None:
    return request.get_full_path() if request is not None else None


def problem_response(request: HttpRequest, status: int, detail: str | None = None) -> HttpResponse:
    """A plain Django problem+json response (outside DRF)."""
    registered = problem_type_for_status(status)
    body = problem_body(status=status, code=registered.code if registered else "problem",
                        detail=detail, instance=request.get_full_path())
    return HttpResponse(json.dumps(body), status=status, content_type=PROBLEM_CONTENT_TYPE)


class ProblemMiddleware:
    """Under ``/api/``, turn Django's own HTML error pages (unknown URL, uncaught exception) into
    problem+json. DRF responses are left alone: the exception handler already shaped them."""

    def __init__(self, get_response: Any) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if not request.path.startswith(API_PREFIX) or response.status_code < 400:
            return response
        if hasattr(response, "data") or response.get("Content-Type", "").startswith(
            (PROBLEM_CONTENT_TYPE, "application/json")
        ):
            return response
        return problem_response(request, response.status_code)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not request.path.startswith(API_PREFIX):
            return outage_page(exception)
        api_exc = _as_api_exception(exception)
        if api_exc is None:
            logger.exception("Unhandled error on %s", request.path, exc_info=exception)
            # As Django does for an uncaught exception: error trackers listen to this signal,
            # and the test client re-raises the exception so a failing test shows the traceback.
            got_request_exception.send(sender=type(self), request=request)
            return problem_response(request, 500)
        response = exception_handler(api_exc, {"request": None})
        assert response is not None
        response.data["instance"] = request.get_full_path()
        return HttpResponse(json.dumps(response.data), status=response.status_code,
                            content_type=PROBLEM_CONTENT_TYPE)


def outage_page(exception: BaseException) -> HttpResponse | None:
    """A page's (or a login form's) answer when the database or the cache is down: a plain
    503 saying so, with ``Retry-After``, instead of the 500 page; None for anything else."""
    service = _noted_outage(exception)
    if service is None:
        return None
    response = HttpResponse(outage_detail(service) + "\n", status=503,
                            content_type="text/plain; charset=utf-8")
    response["Retry-After"] = str(OUTAGE_RETRY_AFTER)
    return response


_PAGE_STYLE = ("<style>body{font:16px/1.5 system-ui,sans-serif;max-width:42em;margin:2em auto;"
               "padding:0 1em}code{background:#f2f2f2;padding:0 .2em}td,th{text-align:left;"
               "padding:.2em 1em .2em 0;vertical-align:top}.scroll{overflow-x:auto}"
               ":focus-visible{outline:2px solid #1a5fb4;outline-offset:2px}</style>")


def _page(title: str, body: str) -> HttpResponse:
    return HttpResponse(f'<!doctype html><html lang="en"><meta charset="utf-8">'
                        f'<meta name="viewport" content="width=device-width, initial-scale=1">'
                        f"<title>{escape(title)}</title>{_PAGE_STYLE}<main>{body}</main>")


def _prose(text: str) -> str:
    """A description as HTML: escaped first, then each `backticked` span made ``<code>``."""
    return re.sub(r"`([^`]+)`", r"<code>\1</code>", str(escape(text)))


@own_page
def problem_type_view(request: HttpRequest, code: str) -> HttpResponse:
    """The human page behind a problem ``type`` URI (``/problems/<code>``)."""
    problem = PROBLEM_TYPES.get(code)
    if problem is None:
        raise Http404(code)
    return _page(problem.title, (
        f"<h1>{escape(problem.title)}</h1><p>HTTP {problem.status} &middot; "
        f"<code>{escape(problem.code)}</code></p><p>{_prose(problem.description)}</p>"
        f'<p><a href="{TYPE_BASE}">Every problem type</a></p>'
    ))


@own_page
def problem_index_view(request: HttpRequest) -> HttpResponse:
    """``/problems/``: every problem type with its status and title, each linked to its page."""
    rows = "".join(
        f'<tr><td>{t.status}</td><td><a href="{escape(t.uri)}"><code>{escape(t.code)}</code></a>'
        f"</td><td>{escape(t.title)}</td></tr>"
        for t in sorted(PROBLEM_TYPES.values(), key=lambda t: (t.status, t.code))
    )
    return _page("Problem types", (
        "<h1>Problem types</h1><p>Every error of the API is an <code>application/problem+json"
        "</code> body whose <code>type</code> is one of these pages and whose <code>code</code> "
        "repeats its name.</p>"
        # a phone's narrow screen scrolls the table in its box, which the keyboard can reach
        '<div class="scroll" role="region" aria-label="Problem types" tabindex="0"><table>'
        '<tr><th scope="col">HTTP</th><th scope="col">code</th><th scope="col">title</th></tr>'
        f"{rows}</table></div>"
    ))


# --- OpenAPI: one Problem schema, on every error response of every operation -----------------

PROBLEM_ERROR_ITEM_SCHEMA: dict[str, Any] = {
    "type": "object",
    "description": "One field- or action-level error. `message` and `code` are always there; "
                   "the others when they apply.",
    "properties": {
        "field": {"type": "string", "nullable": True,
                  "description": "Dotted path of the field, list positions in brackets "
                                 "(`buy_ins.ann`, `seats[2]`); null for the whole object."},
        "index": {"type": "integer", "nullable": True,
                  "description": "Index into the record's `actions`."},
        "player": {"type": "string", "nullable": True, "description": "Seat concerned."},
        "card": {"type": "string", "nullable": True, "description": "Card concerned, e.g. `QD`."},
        "deal": {"type": "integer", "description": "Deal number concerned (corrections)."},
        "message": {"type": "string"},
        "code": {"type": "string", "minLength": 1,
                 "description": "Machine-readable reason, stable (switch on it, never on "
                                "`message`): "
                                + "; ".join(f"`{c}`: {what}" for c, what in
                                            ITEM_CODE_VOCABULARY.items())
                                + "; or, on a problem none of these fit, the problem's own "
                                  "`code` (e.g. `payload-too-large`)."},
    },
    "required": ["message", "code"],
    "additionalProperties": True,
}

PROBLEM_SCHEMA: dict[str, Any] = {
    "type": "object",
    "description": "RFC 9457 problem details (media type `application/problem+json`). Extra "
                   "members may be present for some problems (e.g. `current_number` on a deal "
                   "number conflict).",
    "properties": {
        "type": {"type": "string", "format": "uri-reference",
                 "description": "Identifies the problem; `/problems/<code>` documents it.",
                 "example": "/problems/validation-error"},
        "title": {"type": "string", "example": "Invalid request"},
        "status": {"type": "integer", "example": 400},
        "detail": {"type": "string", "example": "2 errors."},
        "instance": {"type": "string", "nullable": True, "example": "/api/v1/clubs/oak/members/"},
        "code": {"type": "string", "example": "validation-error",
                 "description": "Stable code of the problem type: "
                                + ", ".join(f"`{c}`" for c in sorted(PROBLEM_TYPES))
                                + ", or one a service adds (e.g. `deal-number-conflict`)."},
        "errors": {"type": "array", "items": {"$ref": "#/components/schemas/ProblemErrorItem"}},
        "parameters": {"type": "array", "items": {"type": "string"},
                       "description": "A query parameter the URL does not take (or a value "
                                      "it cannot read): the parameters the URL takes."},
    },
    "required": ["type", "title", "status", "detail", "instance", "code"],
    "additionalProperties": True,
}

_UNSAFE = {"post", "put", "patch", "delete"}
CLUB_PARAMETER_DESCRIPTION = (
    "The club's slug. You must be a member: another club answers 404, as if it did not exist."
)


def _standard_error_statuses(path: str, method: str, operation: Mapping[str, Any]) -> list[int]:
    """Which refusals any operation like this one can answer (see accounts.tenancy)."""
    statuses: list[int] = []
    query = [p["name"] for p in operation.get("parameters", []) if p.get("in") == "query"]
    # ?page=0 too; and any request: a query parameter the URL does not take (loo_ledger.query)
    if "requestBody" in operation or query or method in _UNSAFE or method == "get":
        statuses.append(400)
    if {} not in operation.get("security", [{}]):
        statuses.append(401)
    if "{club}" in path and method in _UNSAFE:
        statuses.append(403)
    if "requestBody" in operation:  # a body of a type no parser reads; one larger than the
        statuses += [413, 415]  # service reads (DATA_UPLOAD_MAX_MEMORY_SIZE), on any operation
    if "{" in path or "page" in query:  # a page past the end is a 404
        statuses.append(404)
    statuses.append(406)  # every answer is negotiated: an Accept or ?format= it cannot meet
    return statuses


#: the answers that tell the client when to come back (a throttled login, an outage)
_RETRY_AFTER_STATUSES = {"429", "503"}
RETRY_AFTER_HEADER: dict[str, Any] = {
    "schema": {"type": "integer", "minimum": 1},
    "description": "Seconds to wait before sending the request again.",
}


def _declare_outage(responses: dict[str, Any]) -> None:
    """Every operation reads the database (a token, a membership), so any may answer 503
    ``service-unavailable`` (``_outage_problem``); a 503 a view declares for itself (the PDF's
    ``queue-unavailable``) is kept and the outage added to its description."""
    outage = PROBLEM_TYPES["service-unavailable"]
    said = f"`{outage.code}`: {outage.description}"
    declared = responses.get("503")
    if declared is None:
        responses["503"] = {"description": said}
    elif f"`{outage.code}`" not in declared.get("description", ""):
        declared["description"] = f"{declared.get('description', '')} Or {said}".strip()


def openapi_problem_hook(result: dict[str, Any], generator: Any, request: Any, public: bool
                         ) -> dict[str, Any]:
    """drf-spectacular post-processing hook.

    Adds the ``Problem`` schema, the standard refusals (400/401/403/404) to every operation that
    can answer them and the outage 503 to every operation, and makes every 4xx/5xx response of every operation (including ones a view
    declares itself, e.g. ``responses={409: OpenApiResponse(description=...)}``) a
    ``application/problem+json`` :data:`PROBLEM_SCHEMA`.
    """
    schemas = result.setdefault("components", {}).setdefault("schemas", {})
    # One definition wins over any a view declared with its own serializer.
    schemas["Problem"] = PROBLEM_SCHEMA
    schemas["ProblemErrorItem"] = PROBLEM_ERROR_ITEM_SCHEMA
    content = {PROBLEM_CONTENT_TYPE: {"schema": {"$ref": "#/components/schemas/Problem"}}}
    for path, item in result.get("paths", {}).items():
        for method, operation in item.items():
            if not isinstance(operation, dict) or "responses" not in operation:
                continue
            responses = operation["responses"]
            for parameter in operation.get("parameters", []):
                if parameter.get("in") == "path" and parameter["name"] == "club":
                    parameter.setdefault("description", CLUB_PARAMETER_DESCRIPTION)
            for status in _standard_error_statuses(path, method, operation):
                key = str(status)
                if key not in responses:
                    registered = problem_type_for_status(status)
                    responses[key] = {"description": registered.description if registered else ""}
            _declare_outage(responses)
            for key, response in responses.items():
                if key.isdigit() and int(key) >= 400:
                    response["content"] = content
                    response.setdefault("description", HTTPStatus(int(key)).phrase)
                    if key in _RETRY_AFTER_STATUSES:
                        response["headers"] = {"Retry-After": RETRY_AFTER_HEADER}
    _drop_unreferenced_problem_components(result)
    _tag_by_resource(result)
    return result


TAG_DESCRIPTIONS: dict[str, str] = {
    "auth": "Get an API token: send it as `Authorization: Token <token>`.",
    "clubs": "The clubs you belong to. Another club's URLs answer 404, as if it did not exist.",
    "members": "A club's members: seat names at the table, roles, and optional logins.",
    "sessions": "Evenings of play: seats, rules, banker and chip value; closing and reports.",
    "deals": "Recording deals (replayed by the rules engine) and correcting them.",
    "ledger": "The append-only chip ledger: each player's balance and the pool after every deal.",
    "purchases": "Chips bought from the banker (buy-ins and rebuys).",
    "replay": "Dry-run a deal record against rules and a pool; nothing is stored.",
    "imports": "Bulk import of a JSON Lines session file, run in the background (202 + a job).",
    "results": "A club's results per player over a date range.",
}


def _tag_by_resource(result: dict[str, Any]) -> None:
    """Operations left with drf-spectacular's default tag ``clubs`` (the first path segment) are
    tagged by the resource after ``{club}`` instead (``members``, ``imports``, ...), and every
    tag in use gets its description."""
    used: list[str] = []
    for path, item in result.get("paths", {}).items():
        parts = [p for p in path.split("/") if p]
        resource = parts[parts.index("{club}") + 1] if "{club}" in parts[:-1] else None
        for operation in item.values():
            if not isinstance(operation, dict):
                continue
            if resource and operation.get("tags") == ["clubs"]:
                operation["tags"] = [resource]
            used += [t for t in operation.get("tags", []) if t not in used]
    known = [t for t in TAG_DESCRIPTIONS if t in used]
    result["tags"] = [{"name": t, "description": TAG_DESCRIPTIONS[t]} for t in known] + [
        {"name": t} for t in sorted(set(used) - set(known))
    ]


def _drop_unreferenced_problem_components(result: dict[str, Any]) -> None:
    """Remove views' own Problem* serializer components that the rewrite left unused."""
    schemas = result["components"]["schemas"]
    while True:
        text = json.dumps(result, default=str)  # lazy translation strings included
        unused = [name for name in schemas if name.startswith("Problem") and name not in
                  ("Problem", "ProblemErrorItem") and f'"#/components/schemas/{name}"' not in text]
        if not unused:
            return
        for name in unused:
            del schemas[name]
