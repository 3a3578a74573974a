"""REST endpoints: a session's report (JSON / CSV / PDF) and the club's results over a range.

Formats are chosen with `?format=json|csv|pdf` (or the Accept header); CSV takes
`?table=players|deals|transfers|purchases` (default players).
"""
from __future__ import annotations

import logging
from collections.abc import Mapping
from datetime import date
from pathlib import Path

from django.db import transaction
from django.http import FileResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response

from accounts.tenancy import CanRead, CanRecord, ClubScopedAPIView, IsClubOwner
from games.api.filters import DATE_FROM, DATE_HELP, DATE_TO, date_range
from games.api.schema import (
    CloseAnswerSchema,
    CloseBodySchema,
    ClosingSchema,
    ReopenAnswerSchema,
    ReopenBodySchema,
    problems,
)
from games.api.views import IDEMPOTENCY_PARAM, SessionScopedMixin
from games.imports.export import session_file_text
from games.models import GameSession
from games.reports.club import club_results, club_results_csv
from games.reports.gather import session_report, timestamp
from games.reports.model import SessionReport
from games.reports.pdf import pdf_failure, pdf_key, pdf_open, pdf_requested, pdf_withdrawn
from games.reports.render import CSV_TABLES, report_csv
from games.selectors import closings_log
from games.services.idempotency import idempotent
from loo_ledger.browsable import BrowsableAPIRenderer
from loo_ledger.fields import as_written, unknown_fields
from loo_ledger.problems import Problem


class CSVRenderer(BaseRenderer):
    media_type = "text/csv"
    format = "csv"
    charset = "utf-8"

    def render(self, data, accepted_media_type=None, renderer_context=None):  # type: ignore[override]
        return data if isinstance(data, (str, bytes)) else ""


class JSONLinesRenderer(CSVRenderer):
    """The session file as written by ``games.imports.export`` (text already)."""

    media_type = "application/jsonl"
    format = "jsonl"


class NDJSONRenderer(JSONLinesRenderer):
    """The same file for a client asking by the older name the imports take too."""

    media_type = "application/x-ndjson"


class PDFRenderer(BaseRenderer):
    media_type = "application/pdf"
    format = "pdf"
    charset = None
    render_style = "binary"

    def render(self, data, accepted_media_type=None, renderer_context=None):  # type: ignore[override]
        return data if isinstance(data, bytes) else b""


class DownloadView(ClubScopedAPIView):
    """A read-only view offering JSON and file downloads; refusals are always JSON problems,
    whatever format was asked for."""

    permission_classes = [CanRead]

    def handle_exception(self, exc):  # type: ignore[override]
        _answer_in_json(self.request)
        return super().handle_exception(exc)


def _answer_in_json(request: Request) -> None:
    request.accepted_renderer = JSONRenderer()
    request.accepted_media_type = "application/json"


#: the club results' first names for ``date_from`` and ``date_to``, still read
RESULTS_DATE_ALIASES = {DATE_FROM: "from", DATE_TO: "to"}
#: what the club results read, API and page: the range by either name
RESULTS_QUERY = (DATE_FROM, DATE_TO, *RESULTS_DATE_ALIASES.values())


def results_range(query: Mapping[str, str]) -> tuple[date | None, date | None]:
    """The club results' date range (API and page): ``date_from``/``date_to`` or their
    aliases ``from``/``to``."""
    return date_range(query, RESULTS_DATE_ALIASES)


def _file_name(session: GameSession, what: str, report: SessionReport, ext: str) -> str:
    """A download's file name; an open session's says ``-provisional`` (its figures may change)."""
    return f"session-{session.pk}-{what}{'' if report.final else '-provisional'}.{ext}"


class SessionReportView(SessionScopedMixin, DownloadView):
    """GET the session's settlement report: JSON, CSV (`?format=csv&table=...`) or PDF."""

    name = "Report"  # the browsable API's title and breadcrumb

    renderer_classes = [JSONRenderer, BrowsableAPIRenderer, CSVRenderer, PDFRenderer]
    query_parameters = ("table",)

    @extend_schema(
        parameters=[
            OpenApiParameter("format", str, enum=["json", "csv", "pdf"],
                             description="or the Accept header (`text/csv`, `application/pdf`)"),
            OpenApiParameter("table", str, enum=list(CSV_TABLES),
                             description="CSV only: which table (default `players`)"),
        ],
        responses={
            (200, "application/json"): OpenApiResponse(
                OpenApiTypes.OBJECT, description="The report: money in integer minor units "
                "(plus text), chips as integers (docs/settlement.md, Reports)."),
            (200, "text/csv"): OpenApiResponse(
                OpenApiTypes.STR, description="One table; money as decimal text."),
            (200, "application/pdf"): OpenApiResponse(OpenApiTypes.BINARY, description="The PDF."),
            (202, "application/json"): OpenApiResponse(
                OpenApiTypes.OBJECT, description="PDF only, with a task queue: "
                "`{\"status\": \"rendering\", \"detail\"}` while a worker renders it; GET "
                "again after `Retry-After` seconds."),
            **problems(400, 401, 404, 406, described={
                500: "`render-failed` (PDF only): the PDF could not be rendered; `detail` says "
                     "why. GET again to try once more; the JSON and CSV are unaffected.",
                503: "`queue-unavailable` (PDF only, with a task queue): the broker cannot be "
                     "reached, so the PDF was not queued. GET again after `Retry-After` seconds.",
            }),
        },
    )
    def get(self, request: Request, club: str, session_id: int) -> Response:
        session = self.get_session()
        report = session_report(session)
        fmt = request.accepted_renderer.format
        if fmt == "csv":
            table = request.query_params.get("table", "players")
            if table not in CSV_TABLES:
                raise Problem(400, detail=f"table must be one of {', '.join(CSV_TABLES)}.",
                              errors=[{"field": "table", "message": f"Unknown table {as_written(table)}."}],
                              code="validation-error")
            name = _file_name(session, table, report, "csv")
            return Response(report_csv(report, table),
                            headers={"Content-Disposition": f'attachment; filename="{name}"'})
        if fmt == "pdf":
            return self.pdf(session, report)
        return Response(report.as_dict())

    def pdf(self, session: GameSession, report: SessionReport) -> Response:
        """Serve the PDF if rendered; eager Celery renders it now, a real broker answers 202."""
        from games.tasks import render_pdf

        key = pdf_key(report)  # handed to the task: what becomes of it is found under this key
        rendered = pdf_open(key)
        if rendered is None:
            failure = pdf_failure(key)
            eager = render_pdf.app.conf.task_always_eager
            if failure is None and eager:
                try:  # the file rendered: the current report's, should it have changed since
                    done = render_pdf.apply(args=[session.pk, key.fingerprint]).get()
                    rendered = Path(done).open("rb")  # noqa: SIM115 (FileResponse closes it)
                except Exception:  # rendered here and now: say so (logged), try afresh next time
                    logging.getLogger(__name__).exception("PDF of session %s", session.pk)
                    failure = pdf_failure(key) or "see the server's log"
            if failure is not None:
                raise Problem(500, "PDF not rendered", code="render-failed",
                              detail=f"The PDF could not be rendered ({failure}). GET this URL "
                                     "again to try once more; the JSON and CSV are unaffected.")
            if not eager:
                if pdf_requested(key):
                    try:
                        render_pdf.delay(session.pk, key.fingerprint)
                    except Exception as exc:  # the broker cannot be reached
                        pdf_withdrawn(key)
                        raise Problem(503, "Task queue unavailable", code="queue-unavailable",
                                      headers={"Retry-After": "5"},
                                      detail="The PDF could not be queued for rendering: the "
                                             "task queue cannot be reached. GET this URL again "
                                             "shortly.") from exc
                _answer_in_json(self.request)
                return Response({"status": "rendering", "detail": "The PDF is being rendered; "
                                 "GET this URL again shortly."}, status=202,
                                headers={"Retry-After": "2"})
        return FileResponse(rendered, content_type="application/pdf", as_attachment=True,
                            filename=_file_name(session, "report", report, "pdf"))


class SessionFileView(SessionScopedMixin, DownloadView):
    """GET the session as a session file (JSON Lines, the import's format): header, then every
    deal's current record and every purchase in posting order, then every payment."""

    name = "Session file"  # the browsable API's title and breadcrumb

    renderer_classes = [JSONLinesRenderer, NDJSONRenderer]

    @extend_schema(responses={(200, "application/jsonl"): OpenApiTypes.STR, **problems(401, 404)})
    def get(self, request: Request, club: str, session_id: int) -> Response:
        session = self.get_session()
        return Response(session_file_text(session), headers={
            "Content-Disposition": f'attachment; filename="session-{session.pk}.jsonl"'})


class ClubResultsView(DownloadView):
    """GET each player's results over the club's closed sessions (`?date_from=&date_to=`, or
    `?from=&to=`; `?format=csv`)."""

    name = "Club results"  # the browsable API's title and breadcrumb

    renderer_classes = [JSONRenderer, BrowsableAPIRenderer, CSVRenderer]
    query_parameters = RESULTS_QUERY

    @extend_schema(
        parameters=[
            *(OpenApiParameter(name, OpenApiTypes.DATE, description=DATE_HELP[name])
              for name in (DATE_FROM, DATE_TO)),
            *(OpenApiParameter(alias, OpenApiTypes.DATE, description=f"Alias of `{name}` (the "
                               "name this endpoint took first); both with different days is a 400.")
              for name, alias in RESULTS_DATE_ALIASES.items()),
            OpenApiParameter("format", str, enum=["json", "csv"]),
        ],
        responses={(200, "application/json"): OpenApiTypes.OBJECT,
                   (200, "text/csv"): OpenApiTypes.STR, **problems(400, 401, 404, 406)},
    )
    def get(self, request: Request, club: str) -> Response:
        date_from, date_to = results_range(request.query_params)
        rows = club_results(self.club, date_from, date_to)
        if request.accepted_renderer.format == "csv":
            return Response(club_results_csv(rows), headers={
                "Content-Disposition": f'attachment; filename="{self.club.slug}-results.csv"'})
        return Response({
            "club": self.club.slug,
            "from": date_from.isoformat() if date_from else None,
            "to": date_to.isoformat() if date_to else None,
            "players": [r.as_dict() for r in rows],
        })


def reason_of(request: Request, body: type[serializers.Serializer]) -> str:
    """The body's ``reason`` for a close or reopen: text, or "" when absent or null. Anything
    else is a 400 naming it: it used to be stored as its Python repr (``null`` as "None", a list
    as "['...']") in the closings log and the session file's close line."""
    data = request.data
    if not isinstance(data, Mapping):
        raise Problem(400, detail='The body is a JSON object: {"reason": "..."}.',
                      code="validation-error",
                      errors=[{"field": None, "message": "Expected an object."}])
    fields = list(body().fields)  # the body's fields as the schema documents them: reason
    if unknown := unknown_fields(data, fields, fields):
        raise Problem(400, detail=" ".join(m for ms in unknown.values() for m in ms),
                      code="validation-error",
                      errors=[{"field": k, "message": m} for k, ms in unknown.items() for m in ms])
    reason = data.get("reason")
    if reason is None:
        return ""
    if not isinstance(reason, str):
        raise Problem(400, detail="reason must be text (a JSON string).", code="validation-error",
                      errors=[{"field": "reason", "message": "Must be a string."}])
    return reason


class SessionCloseView(SessionScopedMixin, ClubScopedAPIView):
    """POST: apply the end-pool rule, buy back every chip and freeze the session (scorer, owner).

    Answers the settlement: end-pool share-out, chips returned, results in money, the fewest
    transfers and any warnings (unequal deals, a last deal ending in a loo).
    """

    name = "Close the session"  # the browsable API's title and breadcrumb

    permission_classes = [CanRecord]

    @extend_schema(request=CloseBodySchema, parameters=[IDEMPOTENCY_PARAM],
                   responses={200: CloseAnswerSchema, **problems(401, 403, 404, 409, 422)})
    @idempotent
    @transaction.atomic  # the role again under the session's lock, the close and the settlement answered
    def post(self, request: Request, club: str, session_id: int) -> Response:
        from games.services.closing import session_close

        session = self.session_for_write()
        reason = reason_of(request, CloseBodySchema)
        done = session_close(session=session, user=request.user, reason=reason)
        report = session_report(session)
        return Response({
            "session": session.pk,
            "status": session.status,
            "closed_at": timestamp(session.closed_at),  # a string: replayed answers match
            "end_pool": {"mode": done.end_pool_mode, "pool": done.end_pool, "eldest": done.eldest,
                         "shares": done.shares},
            "returned": done.returned,
            "results": {p.name: p.result_money for p in report.players},
            "currency": report.currency,
            "through_banker": [b.__dict__ for b in report.through_banker],
            "transfers": [t.__dict__ for t in report.transfers],
            "warnings": done.warnings,
        })


class SessionReopenView(SessionScopedMixin, ClubScopedAPIView):
    """POST {"reason": "..."}: reopen a closed session (owner only); the closing's postings are
    reversed and the reopen is logged with who, when and why."""

    name = "Reopen the session"  # the browsable API's title and breadcrumb

    permission_classes = [IsClubOwner]

    @extend_schema(request=ReopenBodySchema, parameters=[IDEMPOTENCY_PARAM],
                   responses={200: ReopenAnswerSchema, **problems(400, 401, 403, 404, 409, 422)})
    @idempotent
    @transaction.atomic  # the role again under the session's lock, then the reopen
    def post(self, request: Request, club: str, session_id: int) -> Response:
        from games.services.closing import session_reopen

        session = self.session_for_write()
        reason = reason_of(request, ReopenBodySchema)
        log = session_reopen(session=session, user=request.user, reason=reason)
        return Response({"session": session.pk, "status": session.status,
                         "reopened_by": request.user.get_username(), "reopened_at": timestamp(log.at),
                         "reason": log.reason, "reversing_postings": log.postings})


class SessionClosingsView(SessionScopedMixin, ClubScopedAPIView):
    """GET the session's close/reopen log."""

    name = "Closings"  # the browsable API's title and breadcrumb

    permission_classes = [CanRead]

    @extend_schema(responses={200: ClosingSchema(many=True), **problems(401, 404)})
    def get(self, request: Request, club: str, session_id: int) -> Response:
        session = self.get_session()
        return Response([{
            "action": r.action, "at": r.at, "by": r.by_name,
            "reason": r.reason, "end_pool_mode": r.end_pool_mode, "end_pool": r.end_pool,
            "shares": r.end_pool_shares, "returned": r.returned, "warnings": r.warnings,
            "postings": r.postings} for r in closings_log(session)])
