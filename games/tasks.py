"""Celery tasks of the games app: rendering a session report as PDF."""
from __future__ import annotations

from contextlib import nullcontext

from celery import shared_task


#: a soft time limit: the rendering fails cleanly (the client is told) rather than hold a worker;
#: the hard one ends its process should the soft one not stop it (stuck in a font library)
@shared_task(name="games.tasks.render_pdf", acks_late=True, soft_time_limit=300, time_limit=330)
def render_pdf(session_id: int, fingerprint: str | None = None) -> str:
    """Render (or find) the PDF of a session's current report; returns the file path.

    ``fingerprint`` is the report version the request saw (``pdf_key``): any failure, from the
    session lookup on, is left under it, where that client's next poll looks, and the request
    stops being queued however the task ends. Should the report have changed since, the current
    one is rendered; the client's next poll computes that version too, so it never reads a
    failure or a PDF of another version. A message without one (queued by an older release)
    still renders.

    Idempotent: the file name carries the report's fingerprint, so a retried or duplicated
    task finds the file already there. Late ack: a worker killed mid-rendering has the message
    handed out again; each delivery counts a start under the key first, and one that finds
    ``MAX_STARTS`` made leaves the failure instead of rendering (games.reports.pdf.pdf_attempt).
    """
    from games.models import GameSession
    from games.reports.gather import session_report
    from games.reports.pdf import PdfKey, pdf_attempt, pdf_write

    with pdf_attempt(PdfKey(session_id, fingerprint)) if fingerprint else nullcontext():
        session = GameSession.objects.select_related("club").get(pk=session_id)
        return str(pdf_write(session_report(session)))
