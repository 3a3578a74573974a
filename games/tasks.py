"""Celery tasks of the games app: rendering a session report as PDF."""
from __future__ import annotations

from celery import shared_task


#: a soft time limit: the rendering fails cleanly (the client is told) rather than hold a worker
@shared_task(name="games.tasks.render_pdf", acks_late=True, soft_time_limit=300)
def render_pdf(session_id: int) -> str:
    """Render (or find) the PDF of a session's current report; returns the file path.

    Idempotent: the file name carries the report's fingerprint, so a retried or duplicated
    task finds the file already there.
    """
    from games.models import GameSession
    from games.reports.gather import session_report
    from games.reports.pdf import pdf_write

    session = GameSession.objects.select_related("club").get(pk=session_id)
    return str(pdf_write(session_report(session)))
