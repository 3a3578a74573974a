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


def pdf_requested(report: SessionReport, within_seconds: int = 300) -> bool:
    """Mark this report's PDF as queued; False if it was already queued recently (so polling
    clients do not queue the same rendering again and again)."""
    marker = pdf_path(report).with_suffix(".queued")
    if marker.exists() and time.time() - marker.stat().st_mtime < within_seconds:
        return False
    marker.parent.mkdir(parents=True, exist_ok=True)
    marker.touch()
    return True


def pdf_write(report: SessionReport) -> Path:
    """Render the PDF unless this exact report already has one; written atomically."""
    path = pdf_path(report)
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_bytes(report_pdf(report))
        tmp.replace(path)
    path.with_suffix(".queued").unlink(missing_ok=True)
    return path
