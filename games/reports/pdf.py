"""PDF files of reports, cached by the report's content so an unchanged session renders once.

Each PDF is ``session-<id>-<fingerprint>.pdf`` under ``MEDIA_ROOT/reports/``. Beside it live its
markers: ``.queued`` while a worker has been asked to render it, ``.started`` (how many times)
while a rendering has begun and not ended, ``.failed`` (why) after an attempt failed, and a
temporary ``.<digits>.tmp`` (``_private``): the worker's while it writes the PDF, the failure or
the count, a request's while it reads a failure it claimed. All are named by a
:class:`PdfKey`, the session and the fingerprint the *request* computed, and the task is handed
that key: whatever becomes of a rendering is found where the asking client's next poll looks.
"""
from __future__ import annotations

import hashlib
import re
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache
from importlib import import_module
from importlib.metadata import version
from pathlib import Path
from typing import BinaryIO

from django.conf import settings
from django.template.loader import get_template

from games.reports.model import SessionReport
from games.reports.render import report_json, report_pdf

#: seconds a queued rendering is waited for before a request queues it again; outlasts the
#: task's soft time limit (5 minutes), so a slow rendering is not queued a second time
QUEUED_FOR = 600

_FINGERPRINT = r"[0-9a-f]{20}"
_NAME = re.compile(rf"session-(?P<session>\d+)-(?P<fingerprint>{_FINGERPRINT})"
                   r"(?P<suffix>\.pdf|\.queued|\.started|\.failed|\.\d+\.tmp)")
#: starts of one rendering at most (settings.LOO_TASK_MAX_STARTS: a WeasyPrint run that kills
#: its worker every time is not begun for ever)
MAX_STARTS: int = settings.LOO_TASK_MAX_STARTS


#: what draws the PDF besides the report's figures: the code that renders it (read once: it
#: changes only with a restart) and the templates (read through the loader each time)
DRAWN_BY = ("games.reports.render", "games.reports.charts", "games.templatetags.report_format")
LAYOUT_TEMPLATES = ("reports/session.html", "reports/_style.html")


@cache
def _code_digest() -> bytes:
    """The rendering code's and WeasyPrint's version, as bytes to hash."""
    code = b"".join(Path(str(import_module(name).__file__)).read_bytes() for name in DRAWN_BY)
    return hashlib.sha256(code + version("weasyprint").encode()).digest()


def layout_digest() -> str:
    """How the report looks, apart from its figures: the rendering code, WeasyPrint's version and
    the templates as the loader finds them now."""
    digest = hashlib.sha256(_code_digest())
    for name in LAYOUT_TEMPLATES:
        digest.update(get_template(name).template.source.encode())
    return digest.hexdigest()


def report_fingerprint(report: SessionReport) -> str:
    """Changes whenever any figure of the report changes (a new deal, a correction, a close),
    and whenever its look does (``layout_digest``): a closed session's report never changes, so
    its PDF was served as an older release drew it, until the prune's cutoff."""
    text = report_json(report) + layout_digest()
    return hashlib.sha256(text.encode()).hexdigest()[:20]


def reports_dir() -> Path:
    return Path(settings.MEDIA_ROOT) / "reports"


@dataclass(frozen=True)
class PdfKey:
    """One version of one session's report: what its PDF and markers are named after."""

    session_id: int | str
    fingerprint: str

    def __post_init__(self) -> None:  # it names files, from values a broker message may carry:
        # nothing but a session id and a fingerprint may get in
        if not re.fullmatch(r"[A-Za-z0-9_]+", str(self.session_id)):
            raise ValueError(f"not a session id: {self.session_id!r}")
        if not re.fullmatch(_FINGERPRINT, str(self.fingerprint)):
            raise ValueError(f"not a report fingerprint: {self.fingerprint!r}")

    def file(self, suffix: str) -> Path:
        return reports_dir() / f"session-{self.session_id}-{self.fingerprint}{suffix}"


def pdf_key(report: SessionReport) -> PdfKey:
    return PdfKey(report.session_id, report_fingerprint(report))


def pdf_path(key: PdfKey) -> Path:
    return key.file(".pdf")


def pdf_open(key: PdfKey) -> BinaryIO | None:
    """The rendered PDF opened for reading, or None. Opened at once rather than looked for
    first, so a prune between the look and the opening cannot turn into a 500."""
    try:
        return pdf_path(key).open("rb")
    except FileNotFoundError:
        return None


def pdf_files() -> Iterator[tuple[Path, PdfKey, str]]:
    """Every rendered PDF and marker on disk, with its key and suffix (``.pdf``, ``.queued``,
    ``.started``, ``.failed``, ``.<digits>.tmp``); any other file there is not ours and left
    out."""
    if not reports_dir().is_dir():
        return
    for path in reports_dir().iterdir():
        if match := _NAME.fullmatch(path.name):
            yield path, PdfKey(int(match["session"]), match["fingerprint"]), match["suffix"]


def pdf_requested(key: PdfKey, within_seconds: int = QUEUED_FOR) -> bool:
    """Mark this report's PDF as queued; False if it was already queued recently (so polling
    clients do not queue the same rendering again and again)."""
    marker = key.file(".queued")
    if marker.exists() and time.time() - marker.stat().st_mtime < within_seconds:
        return False
    marker.parent.mkdir(parents=True, exist_ok=True)
    marker.touch()
    return True


def pdf_withdrawn(key: PdfKey) -> None:
    """This rendering is no longer queued (done, failed, or it never reached the queue): the
    next request that finds no PDF queues it again."""
    key.file(".queued").unlink(missing_ok=True)


def _private(path: Path) -> Path:
    """A temporary name beside ``path`` that no other writer or reader uses (``.<digits>.tmp``:
    a stale one is pruned as a worker's would be)."""
    return path.with_suffix(f".{uuid.uuid4().int}.tmp")


def _write_whole(path: Path, data: bytes) -> None:
    """Write ``path`` atomically: a reader finds it whole or not at all."""
    tmp = _private(path)
    tmp.write_bytes(data)
    tmp.replace(path)


def pdf_failure(key: PdfKey) -> str | None:
    """Why the last rendering of this report failed, once (the next request tries again).

    The marker is claimed before it is read, by renaming it to a name of this caller's own:
    of two requests polling at the same moment one renames it (the rename is atomic) and
    answers the failure, the other finds none and queues the rendering again."""
    claimed = _private(key.file(".failed"))
    try:
        key.file(".failed").rename(claimed)
    except FileNotFoundError:
        return None
    try:
        return claimed.read_text(encoding="utf-8")
    finally:
        claimed.unlink(missing_ok=True)


class GivenUp(Exception):
    """A rendering not begun again: its last ``MAX_STARTS`` starts each killed their worker."""

    def __init__(self, starts: int) -> None:
        super().__init__(f"its rendering stopped the worker {starts} times (the worker was "
                         "killed while rendering it, most likely out of memory: the report is "
                         "probably too large for the server), so it was not tried again")


def pdf_started(key: PdfKey) -> int:
    """Count a start of this rendering in its ``.started`` marker, written whole before any
    work, so a worker killed in the rendering leaves it counted; the starts so far, this one
    included. Only an attempt that ends (``pdf_attempt``) removes the marker."""
    marker = key.file(".started")
    try:
        before = int(marker.read_text(encoding="ascii"))
    except (FileNotFoundError, ValueError):  # none yet (or not ours to read): a first start
        before = 0
    marker.parent.mkdir(parents=True, exist_ok=True)
    _write_whole(marker, str(before + 1).encode())
    return before + 1


@contextmanager
def pdf_attempt(key: PdfKey) -> Iterator[None]:
    """One rendering asked for as ``key``. Whatever fails inside (the session lookup, the
    report, WeasyPrint) is left for the polling request (``pdf_failure``) instead of a queued
    marker that would have it wait in vain; done or failed, it is no longer queued.

    Its start is counted first (``pdf_started``): past ``MAX_STARTS`` the body is not run, and
    :class:`GivenUp` is the failure the client is told. An attempt that ends, done or failed,
    takes its count away, so the next request after a failure is told starts afresh; only a
    worker killed mid-rendering (or a BaseException, as a kill is simulated) leaves it."""
    try:
        if (starts := pdf_started(key)) > MAX_STARTS:
            raise GivenUp(starts - 1)
        yield
    except Exception as exc:
        marker = key.file(".failed")
        marker.parent.mkdir(parents=True, exist_ok=True)
        why = str(exc) if isinstance(exc, GivenUp) else f"{type(exc).__name__}: {exc}"
        _write_whole(marker, why[:500].encode())
        key.file(".started").unlink(missing_ok=True)
        raise
    else:
        key.file(".started").unlink(missing_ok=True)
    finally:
        pdf_withdrawn(key)


def pdf_write(report: SessionReport) -> Path:
    """Render the PDF unless this exact report already has one; written atomically, so a
    reader never sees half a file."""
    path = pdf_path(pdf_key(report))
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        _write_whole(path, report_pdf(report))
    return path
