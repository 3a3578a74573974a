"""``Idempotency-Key`` on POST: a retry gets the first answer and nothing is stored twice.

* same key, same request (method, path, body) and the first one succeeded -> its stored answer;
* same key, another request -> 422;
* same key while the first is still being processed -> 409;
* the first one failed (any non-2xx answer) -> the key is released, a retry runs afresh (a
  refusal such as "record a purchase first" may not hold on the retry).

An answer describing work that goes on after the request (an import job) would be stale when
replayed: such a view passes ``current``, which turns the stored body into the body as things
stand now; the replay answers that, with the first answer's status and headers.

The key row is committed *before* the work starts (so a concurrent retry sees it in flight)
and marked done in the same transaction as the work (so a stored answer always matches what
was stored). A key left in flight by a crashed worker is taken over after
``IN_FLIGHT_TIMEOUT``.
"""
from __future__ import annotations

import datetime as dt
import functools
import hashlib
import json
from collections.abc import Callable
from typing import Any

from django.core.files.uploadedfile import UploadedFile
from django.core.serializers.json import DjangoJSONEncoder
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.datastructures import MultiValueDict
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter
from rest_framework.request import Request
from rest_framework.response import Response

from accounts.models import Club
from games.models import IdempotencyKey
from games.services import limits
from loo_ledger.fields import as_written
from loo_ledger.locations import location
from loo_ledger.problems import Problem

HEADER = "Idempotency-Key"
REPLAYED_HEADER = "Idempotent-Replayed"
IN_FLIGHT_TIMEOUT = dt.timedelta(minutes=2)
MAX_KEY_LENGTH = 255
KEPT_HEADERS = ("Location",)
#: the header as the OpenAPI schema documents it on every POST that honours it
IDEMPOTENCY_PARAM = OpenApiParameter(
    HEADER, OpenApiTypes.STR, OpenApiParameter.HEADER, required=False,
    description="Any unique string: a retry with the same key and body returns the first answer "
    "and stores nothing twice; the same key with another body is a 422; while the first request "
    "is in flight, a 409.",
)


class _FingerprintEncoder(DjangoJSONEncoder):
    """JSON of a request body in which an uploaded file stands for its bytes."""

    def default(self, o: Any) -> Any:
        if isinstance(o, UploadedFile):
            return upload_digest(o)
        return super().default(o)


def upload_digest(upload: UploadedFile) -> dict[str, Any]:
    """An uploaded file's name, size and sha256 of its bytes (read in chunks, the file left at
    its start for the view), so that another file under the same name is another request. A
    file over the import's cap (``limits.max_file_bytes``) is not read: the view refuses it, so
    no stored answer can be its, and its size stands in."""
    if upload.size is None or upload.size > limits.max_file_bytes():
        return {"name": upload.name, "size": upload.size}
    digest = hashlib.sha256()
    for chunk in upload.chunks():
        digest.update(chunk)
    upload.seek(0)
    return {"name": upload.name, "size": upload.size, "sha256": digest.hexdigest()}


def request_fingerprint(request: Request) -> str:
    """sha256 over method, path, query (its parameters sorted; it may change what is done, as
    ``?allow_duplicate=true`` does) and the body in canonical JSON: every value of a form's field,
    an uploaded file by its bytes (``upload_digest``). A body JSON cannot express is an error,
    not a guess: a fingerprint that left something out would answer a changed request with the
    first one's answer."""
    data = request.data
    if isinstance(data, MultiValueDict):  # a form or multipart body: each field's every value
        data = dict(data.lists())
    body = json.dumps(data, sort_keys=True, separators=(",", ":"), cls=_FingerprintEncoder)
    text = f"{request.method}\n{request.path}\n{body}"
    if request.query_params:  # (appended only when there is one: keys stored before still match)
        text += "\n" + json.dumps(sorted(request.query_params.lists()), separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def idempotency_begin(*, club: Club, user: Any, key: str, fingerprint: str) -> tuple[IdempotencyKey, bool]:
    """Claim ``key`` (-> (row, False)) or find its stored answer (-> (row, True)); else 409/422."""
    if not key or len(key) > MAX_KEY_LENGTH:
        raise Problem(400, detail=f"{HEADER} must be 1-{MAX_KEY_LENGTH} characters.",
                      errors=[{"field": HEADER, "message": "Bad length."}], code="validation-error")
    if "\x00" in key:  # PostgreSQL cannot hold it in text: a 500 at the insert otherwise
        raise Problem(400, detail=f"{HEADER} must not hold a NUL character.",
                      errors=[{"field": HEADER, "message": "Null characters are not allowed."}],
                      code="validation-error")
    for _ in range(3):
        try:
            with transaction.atomic():
                return IdempotencyKey.objects.create(club=club, user=user, key=key,
                                                     fingerprint=fingerprint), False
        except IntegrityError:
            pass
        row = IdempotencyKey.objects.filter(club=club, user=user, key=key).first()
        if row is not None:
            break
        # released between our insert and our read: a request that failed keeps no key, so claim it again
    else:
        raise Problem(409, "Request in flight",
                      detail=f"Requests with {HEADER} {as_written(key)} keep arriving at once; retry shortly.",
                      code="conflict")
    if row.fingerprint != fingerprint:
        raise Problem(422, "Idempotency-Key reused",
                      detail=f"The {HEADER} {as_written(key)} was used for a different request; use a new key.",
                      code="unprocessable")
    if row.state == IdempotencyKey.State.DONE:
        return row, True
    stale = timezone.now() - IN_FLIGHT_TIMEOUT
    taken = IdempotencyKey.objects.filter(
        pk=row.pk, state=IdempotencyKey.State.IN_FLIGHT, created_at__lt=stale
    ).update(created_at=timezone.now())
    if taken:
        return row, False
    raise Problem(409, "Request in flight",
                  detail=f"A request with {HEADER} {as_written(key)} is still being processed; retry shortly.",
                  code="conflict")


def idempotency_finish(row: IdempotencyKey, response: Response) -> None:
    row.state = IdempotencyKey.State.DONE
    row.response_status = response.status_code
    row.response_body = json.loads(json.dumps(response.data, cls=DjangoJSONEncoder))
    row.response_headers = {h: response[h] for h in KEPT_HEADERS if response.has_header(h)}
    row.completed_at = timezone.now()
    row.save(update_fields=["state", "response_status", "response_body", "response_headers", "completed_at"])


def stored_headers(request: Request, row: IdempotencyKey) -> dict[str, str]:
    """The first answer's kept headers, a ``Location`` in today's form: an answer stored while
    the API answered a path there is replayed with the absolute URL a new answer carries."""
    headers = dict(row.response_headers)
    if "Location" in headers:
        headers.update(location(request, headers["Location"]))
    return headers


def idempotency_release(row: IdempotencyKey) -> None:
    IdempotencyKey.objects.filter(pk=row.pk, state=IdempotencyKey.State.IN_FLIGHT).delete()


#: (view, request, the stored body) -> the body as it would be answered now
Current = Callable[[Any, Request, Any], Any]


def idempotent(handler: Callable[..., Response] | None = None, *, current: Current | None = None
               ) -> Any:
    """Decorate a club-scoped view's ``post`` (``self.club`` resolved) to honour the header:
    ``@idempotent``, or ``@idempotent(current=...)`` for an answer that changes after the
    request (see the module doc). ``current`` also refreshes the first answer once its
    transaction has committed, when work queued on commit may have run already (eager Celery)."""
    if handler is None:
        return functools.partial(idempotent, current=current)

    def now(view: Any, request: Request, body: Any) -> Any:
        return body if current is None else current(view, request, body)

    @functools.wraps(handler)
    def wrapper(view: Any, request: Request, *args: Any, **kwargs: Any) -> Response:
        key = request.headers.get(HEADER)
        if key is None:
            return handler(view, request, *args, **kwargs)
        row, done = idempotency_begin(
            club=view.club, user=request.user, key=key, fingerprint=request_fingerprint(request)
        )
        if done:
            return Response(now(view, request, row.response_body), status=row.response_status,
                            headers={**stored_headers(request, row), REPLAYED_HEADER: "true"})
        try:
            with transaction.atomic():
                response = handler(view, request, *args, **kwargs)
                if 200 <= response.status_code < 300:
                    idempotency_finish(row, response)
        except BaseException:
            idempotency_release(row)
            raise
        if not 200 <= response.status_code < 300:
            idempotency_release(row)
        else:
            response.data = now(view, request, response.data)
        return response

    return wrapper
