"""Celery task: import a session file (see games.imports.services)."""
from __future__ import annotations

from celery import shared_task


#: a soft time limit: the task fails cleanly (the job says so) rather than hold a worker; the
#: hard one ends its process should the soft one not stop it (stuck in C code, or caught)
@shared_task(name="games.imports.tasks.import_session", acks_late=True, reject_on_worker_lost=True,
             soft_time_limit=600, time_limit=630)
def import_session(job_id: int) -> str:
    """Run an import job; late ack, so a worker that dies mid-import leaves the message to be
    redelivered (and the job's transaction rolled back: nothing half stored). Each delivery
    counts a start on the job first; one that finds ``MAX_STARTS`` already made fails the job
    instead of running it (games.imports.services: a file that kills its worker every time)."""
    from games.imports.services import run_import

    return run_import(job_id).status


def publish(job_id: int) -> None:
    """Queue the job after the surrounding transaction commits (a request never waits on a
    broker inside its transaction; if the broker is down the job stays queued for a retry)."""
    import logging

    from django.db import transaction

    def send() -> None:
        try:
            import_session.delay(job_id)
        except Exception:  # broker unreachable: the job row says queued; POST retry re-publishes
            logging.getLogger(__name__).exception("could not publish import job %s", job_id)
            from games.imports.models import ImportJob

            ImportJob.objects.filter(pk=job_id).update(
                detail="could not reach the task queue: POST .../retry to queue it again")

    transaction.on_commit(send)
