"""Pruning rendered PDFs: every version of a report (each deal, correction, close or reopen)
renders a file of its own, and only the current version of a session's report is ever served,
so the others, and markers no request will read, would pile up under ``MEDIA_ROOT``."""
from __future__ import annotations

import logging
import time
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from games.models import GameSession
from games.reports.gather import session_report
from games.reports.pdf import QUEUED_FOR, PdfKey, pdf_files, report_fingerprint

logger = logging.getLogger(__name__)

#: a session whose report could not be gathered: its current version is unknown
UNKNOWN = "unknown"


@dataclass(frozen=True)
class Pruned:
    """One file removed (or, in a dry run, that would be)."""

    path: Path
    size: int

    @property
    def is_pdf(self) -> bool:
        return self.path.suffix == ".pdf"


def current_fingerprints(session_ids: Iterable[int]) -> dict[int, str]:
    """Each existing session's report version now; UNKNOWN where the report cannot be gathered
    (logged), so a bug elsewhere never makes a current PDF look superseded."""
    current: dict[int, str] = {}
    for session in GameSession.objects.select_related("club").filter(pk__in=set(session_ids)):
        try:
            current[session.pk] = report_fingerprint(session_report(session))
        except Exception:
            logger.exception("report of session %s: its PDFs are kept", session.pk)
            current[session.pk] = UNKNOWN
    return current


def is_stale(key: PdfKey, suffix: str, age: float, max_age: float, current: dict[int, str]) -> bool:
    """A queued marker or a worker's temporary file is stale once the queued window is over
    (no request waits on it, no rendering is under way); a PDF or a failure, once its report is
    no longer the session's current one (or the session is gone) or it is older than max_age;
    so is a start count (``.started``), which a killed rendering's message, handed out again
    up to the broker's visibility timeout later, still counts on."""
    if suffix == ".queued" or suffix.endswith(".tmp"):
        return age > QUEUED_FOR
    now = current.get(int(key.session_id))
    superseded = now is None or (now != UNKNOWN and now != key.fingerprint)
    return superseded or age > max_age


def prune_pdfs(max_age: float, *, dry_run: bool = False) -> list[Pruned]:
    """Remove the stale rendered PDFs and markers (``is_stale``); max_age in seconds.

    The files are listed before the reports are read: a PDF is only written after its report's
    version is in the database, so a file listed and unlike the report read afterwards is truly
    superseded, never one rendered just now for a newer version.
    """
    now = time.time()
    listed = []
    for path, key, suffix in pdf_files():
        try:
            stat = path.stat()
        except FileNotFoundError:  # withdrawn or renamed meanwhile
            continue
        listed.append((path, key, suffix, stat))
    current = current_fingerprints(int(key.session_id) for _, key, _, _ in listed)
    pruned = []
    for path, key, suffix, stat in listed:
        if is_stale(key, suffix, now - stat.st_mtime, max_age, current):
            if not dry_run:
                path.unlink(missing_ok=True)
            pruned.append(Pruned(path, stat.st_size))
    return pruned
