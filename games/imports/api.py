"""REST: POST a session file to import (202 + job), follow the job, retry it."""
from __future__ import annotations

from typing import Any

from django.db import transaction
from django.urls import reverse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.parsers import BaseParser, FormParser
from rest_framework.request import Request
from rest_framework.response import Response

from accounts.tenancy import CanRecord, ClubScopedAPIView, lock_club_and_recheck
from games.api.schema import ImportJobSchema, problems
from games.api.views import IDEMPOTENCY_PARAM
from games.imports.models import ImportJob
from games.imports.services import import_job_create, import_job_retry, no_such_import
from games.services import limits
from games.services.idempotency import idempotent
from loo_ledger.fields import KnownFieldsOnly, read_flag, unknown_fields
from loo_ledger.locations import location
from loo_ledger.parsers import ReadableMultiPartParser, StorableJSONParser
from loo_ledger.problems import Problem, coded_errors


def file_too_large(**extra: Any) -> Problem:
    """413: a session file over the import's cap (``limits.max_file_bytes``), named."""
    most = limits.max_file_bytes()
    return Problem(413, detail=f"The session file is larger than {most:,} bytes "
                   f"({most // limits.MIB} MiB), the most the import reads: more than a session "
                   "holds (split it into sessions).", code="payload-too-large",
                   max_file_bytes=most, **extra)


class JSONLinesParser(BaseParser):
    """A raw JSON Lines body (`application/x-ndjson`, `application/jsonl`, `text/plain`)."""

    media_type = "application/x-ndjson"

    def parse(self, stream, media_type=None, parser_context=None):  # type: ignore[override]
        most = limits.max_file_bytes()
        raw = stream.read(most + 1) if stream is not None else b""
        if len(raw) > most:
            raise file_too_large()
        try:
            return {"source": raw.decode("utf-8")}
        except UnicodeDecodeError as exc:
            raise Problem(400, detail=f"The session file is not UTF-8 text (byte {exc.start}).",
                          errors=[{"field": "source", "message": "Not UTF-8."}],
                          code="validation-error") from None


class JSONLParser(JSONLinesParser):
    media_type = "application/jsonl"


class PlainTextParser(JSONLinesParser):
    media_type = "text/plain"


def job_json(request: Request, job: ImportJob) -> dict[str, Any]:
    session_url = None
    if job.session_id:
        session_url = request.build_absolute_uri(
            reverse("report-api", kwargs={"club": job.club.slug, "session_id": job.session_id}))
    return {
        "id": job.pk, "status": job.status, "filename": job.filename,
        "total": job.total, "done": job.done, "progress": f"{job.done}/{job.total}",
        # each with its code, as a 400's errors (a line refused as a body's field would be):
        # the engine's and the services' as they gave them, the file's own checks `invalid`
        "errors": coded_errors(job.errors, "validation-error"), "detail": job.detail,
        "attempts": job.attempts,
        "session": job.session_id, "report": session_url,
        "created_at": job.created_at, "started_at": job.started_at, "finished_at": job.finished_at,
        "url": request.build_absolute_uri(
            reverse("import-detail", kwargs={"club": job.club.slug, "job_id": job.pk})),
    }


def job_now(view: ClubScopedAPIView, request: Request, answer: dict[str, Any]) -> dict[str, Any]:
    """An answer about a job, told as the job stands now: replayed for an ``Idempotency-Key``,
    the stored answer would say how it stood when the first request's transaction ended
    (``queued``, even when eager Celery has run the job since)."""
    job = ImportJob.objects.select_related("club").filter(pk=answer.get("id"), club=view.club).first()
    return answer if job is None else job_json(request, job)


def _source(request: Request) -> tuple[str, str]:
    """The session file's text and name, refused whole if the database could not store it."""
    _unknown_keys(request)
    source, filename = _sent_file(request)
    if "\x00" in source:
        raise Problem(400, detail="The session file holds a NUL character, which cannot be "
                      "stored.", code="validation-error",
                      errors=[{"field": "source", "message": "Null characters are not allowed."}])
    return source, filename


def _sent_file(request: Request) -> tuple[str, str]:
    upload = request.FILES.get("file") if hasattr(request, "FILES") else None
    if upload is not None:
        if upload.size > limits.max_file_bytes():  # as a raw body over the limit is
            raise file_too_large(errors=[{"field": "file", "message": "Too large."}])
        try:
            return upload.read().decode("utf-8"), upload.name
        except UnicodeDecodeError:
            raise Problem(400, detail="The file is not UTF-8 text.", code="validation-error",
                          errors=[{"field": "file", "message": "Not UTF-8."}]) from None
    data = request.data
    source = data.get("source") if hasattr(data, "get") else None
    if not isinstance(source, str) or not source.strip():
        # say which: nothing sent, an empty file, or a value that is not the file's text
        said = ("Missing." if source is None else "The file is empty." if isinstance(source, str)
                else f"Must be the file's text (a string), not {type(source).__name__}.")
        raise Problem(400, detail="Send the session file: a `file` upload, a JSON body "
                      "{\"source\": \"...\"} or a raw application/x-ndjson body.",
                      errors=[{"field": "source", "message": said,
                               "code": "required" if source is None else "invalid"}],
                      code="validation-error")
    return source, str(data.get("filename", "") or "")


class ImportSourceSerializer(KnownFieldsOnly, serializers.Serializer):
    """The session file's text in a JSON or form body (the OpenAPI schema's account of it)."""

    source = serializers.CharField(help_text="The session file's text (JSON Lines).")
    filename = serializers.CharField(required=False, allow_blank=True, help_text="The "
                                     "file's name, kept with the job.")


class ImportUploadSerializer(KnownFieldsOnly, serializers.Serializer):
    """The session file uploaded (multipart); a ``source`` text field is read as in a form."""

    file = serializers.FileField(required=False, help_text="The session file (.jsonl), UTF-8 "
                                 "(or its text as ``source``: one of the two).")
    source = serializers.CharField(required=False, help_text="The session file's text, "
                                   "where no ``file`` is uploaded.")
    filename = serializers.CharField(required=False, allow_blank=True, help_text="The "
                                     "file's name, kept with the job (else the upload's own).")


#: what ``POST imports/`` takes, by media type: the file's text in a JSON or form body, the
#: file itself in a multipart upload, or the raw JSON Lines (the schema had one object for all)
IMPORT_BODIES = {
    "application/json": ImportSourceSerializer,
    "application/x-www-form-urlencoded": ImportSourceSerializer,
    "multipart/form-data": ImportUploadSerializer,
} | {media: OpenApiTypes.STR for media in ("application/x-ndjson", "application/jsonl",
                                          "text/plain")}


def _unknown_keys(request: Request) -> None:
    """A body key the import does not read is a 400 naming it, as for every other body: a
    misspelt ``filenme`` was passed over. A raw JSON Lines body has no keys of its own."""
    known = ["source", "filename"]
    if request.content_type.startswith("multipart/"):
        known.append("file")
    unknown = unknown_fields(request.data, known, known)
    if unknown:
        raise serializers.ValidationError(unknown)


#: how many jobs ``GET imports/`` lists, newest first
IMPORTS_LISTED = 100


class ImportListView(ClubScopedAPIView):
    """POST a JSON Lines session file (scorer, owner): 202 with the job; GET the club's jobs."""

    name = "Imports"  # the browsable API's title and breadcrumb

    permission_classes = [CanRecord]
    write_query_parameters = ("allow_duplicate",)
    parser_classes = [StorableJSONParser, JSONLinesParser, JSONLParser, PlainTextParser,
                      ReadableMultiPartParser, FormParser]

    @extend_schema(operation_id="clubs_imports_create", request=IMPORT_BODIES,
                   parameters=[IDEMPOTENCY_PARAM, OpenApiParameter(
                       "allow_duplicate", bool, description="Import a file this club has "
                       "imported before again, as a new session (else 409 duplicate-import); "
                       "the job keeps the choice for its retries.")],
                   responses={202: ImportJobSchema, **problems(
                       400, 401, 403, 404, 409, 422, described={
                           413: "`payload-too-large`: a session file (raw or uploaded) over "
                                "the import's cap, `max_file_bytes` "
                                f"({limits.max_file_bytes() // limits.MIB} MiB: what a session at "
                                "every limit exports, and a quarter more), or a JSON body over "
                                "`DATA_UPLOAD_MAX_MEMORY_SIZE` (2.5 MB: send a large file raw or "
                                "as an upload)."})})
    @idempotent(current=job_now)
    def post(self, request: Request, club: str) -> Response:
        allow = read_flag(request.query_params, "allow_duplicate")
        source, filename = _source(request)
        with transaction.atomic():  # the role again under the club's lock, which the new job takes
            lock_club_and_recheck(self, request)
            job = import_job_create(club=self.club, user=request.user, source=source,
                                    filename=filename, allow_duplicate=allow)
        body = job_json(request, _as_answered(job))
        return Response(body, status=202, headers=location(request, body["url"]))

    @extend_schema(operation_id="clubs_imports_list", description="The club's newest "
                   f"{IMPORTS_LISTED} import jobs, newest first (older ones by their URL).",
                   responses={200: ImportJobSchema(many=True), **problems(401, 404)})
    def get(self, request: Request, club: str) -> Response:
        jobs = ImportJob.objects.filter(club=self.club).select_related("club")[:IMPORTS_LISTED]
        return Response([job_json(request, j) for j in jobs])


class ImportDetailView(ClubScopedAPIView):
    """GET an import job: status, progress (deals validated / total), per-line errors."""

    name = "Import"  # the browsable API's title and breadcrumb

    permission_classes = [CanRecord]

    @extend_schema(responses={200: ImportJobSchema, **problems(401, 404)})
    def get(self, request: Request, club: str, job_id: int) -> Response:
        job = ImportJob.objects.select_related("club").filter(pk=job_id, club=self.club).first()
        if job is None:
            raise no_such_import(job_id)
        return Response(job_json(request, job))


def _as_answered(job: ImportJob) -> ImportJob:
    """The job a 202 describes: with tasks run in-process (no broker) the import ran already,
    so it is read again; with a worker it is the job as queued, not whatever step the worker,
    which may have taken it by now, has reached (a race the answer would show)."""
    from games.imports.tasks import import_session

    if import_session.app.conf.task_always_eager:
        job.refresh_from_db()
    return job


class ImportRetryView(ClubScopedAPIView):
    """POST: queue the job again (a failed job, or one whose worker died). A stored job is 409,
    and so is a file another import has stored (or is storing) since, as its upload would be
    now, unless the job was made with allow_duplicate (409 duplicate-import)."""

    name = "Retry the import"  # the browsable API's title and breadcrumb

    permission_classes = [CanRecord]

    @extend_schema(request=None, parameters=[IDEMPOTENCY_PARAM],
                   responses={202: ImportJobSchema, **problems(401, 403, 404, 409, 422)})
    @idempotent(current=job_now)
    def post(self, request: Request, club: str, job_id: int) -> Response:
        with transaction.atomic():  # the role again under the club's lock, which the retry takes
            lock_club_and_recheck(self, request)
            job = import_job_retry(club=self.club, job_id=job_id)
        return Response(job_json(request, _as_answered(job)), status=202)
