"""PDF files of reports, cached by the report's content so an unchanged session renders once."""
from __future__ import annotations

import hashlib
import os
from pathlib import Path

from django.conf import settings

from games.reports.model import SessionReport
from games.reports.render import report_json, report_pdf


def report_fingerprint(report: SessionReport) -> str:
    """Changes whenever any figure of the report changes (a new deal, a correction, a close)."""
    return hashlib.sha256(report_json(report).encode()).hexdigest()[:20]


def pdf_path(report: SessionReport) -> Path:
    return Path(settings.MEDIA_ROOT) / "reports" / f"session-{report.session_id}-{report_fingerprint(report)}.pdf"


def pdf_write(report: SessionReport) -> Path:
    """Render the PDF unless this exact report already has one; written atomically."""
    path = pdf_path(report)
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_bytes(report_pdf(report))
        tmp.replace(path)
    return path
