"""PDF files of reports, cached by the report's content so an unchanged session renders once."""
from __future__ import annotations

import hashlib
import os
import time
from pathlib import Path

from django.conf import settings

from games.reports.model import SessionReport
from games.reports.render import report_json, report_pdf


def report_fingerprint(report: SessionReport) -> str:
    """Changes whenever any figure of the report changes (a new deal, a correction, a close)."""
    return hashlib.sha256(report_json(report).encode()).hexdigest()[:20]


def pdf_path(report: SessionReport) -> Path:
    return Path(settings.MEDIA_ROOT) / "reports" / f"session-{report.session_id}-{report_fingerprint(report)}.pdf"


def _marker(report: SessionReport, kind: str) -> Path:
    return pdf_path(report).with_suffix(f".{kind}")


def pdf_requested(report: SessionReport, within_seconds: int = 600) -> bool:
    """Mark this report's PDF as queued; False if it was already queued recently (so polling
    clients do not queue the same rendering again and again). The window outlasts the task's
    soft time limit (5 minutes), so a slow rendering is not queued a second time."""
    marker = _marker(report, "queued")
    if marker.exists() and time.time() - marker.stat().st_mtime < within_seconds:
        return False
    marker.parent.mkdir(parents=True, exist_ok=True)
    marker.touch()
    return True


def pdf_withdrawn(report: SessionReport) -> None:
    """This rendering is no longer queued (done, failed, or it never reached the queue): the
    next request that finds no PDF queues it again."""
    _marker(report, "queued").unlink(missing_ok=True)


def pdf_failure(report: SessionReport) -> str | None:
    """Why the last rendering of this report failed, once (the next request tries again)."""
    marker = _marker(report, "failed")
    try:
        why = marker.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    marker.unlink(missing_ok=True)
    return why


def pdf_write(report: SessionReport) -> Path:
    """Render the PDF unless this exact report already has one; written atomically. A failure
    is left beside it for the polling client (``pdf_failure``), instead of a queued marker
    that would have it wait in vain."""
    path = pdf_path(report)
    try:
        if not path.exists():
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp = path.with_suffix(f".{os.getpid()}.tmp")
            try:
                tmp.write_bytes(report_pdf(report))
            except Exception as exc:
                _marker(report, "failed").write_text(f"{type(exc).__name__}: {exc}"[:500],
                                                     encoding="utf-8")
                raise
            tmp.replace(path)
    finally:  # rendered or failed, it is no longer queued
        pdf_withdrawn(report)
    return path
