"""Background jobs (session-file imports) and the close/reopen log of sessions.

`SessionClosing` lives in this app only to keep its migrations apart from `games`' own; it is the
book of who closed or reopened a session, when and why, and what the closing posted.
"""
from __future__ import annotations

from django.conf import settings
from django.db import models


class ImportJob(models.Model):
    """One bulk import of a JSON Lines session file, run by a Celery task.

    The row is written in the request's transaction; the task is published after commit.
    `done`/`total` count deal lines validated; the session is stored in one transaction at
    the end, so `session` is set only when every deal is stored.
    """

    class Status(models.TextChoices):
        QUEUED = "queued", "Queued"
        VALIDATING = "validating", "Validating every line"
        STORING = "storing", "Storing the session"
        DONE = "done", "Done"
        FAILED = "failed", "Failed"

    club = models.ForeignKey("accounts.Club", on_delete=models.CASCADE, related_name="import_jobs")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    filename = models.CharField(max_length=200, blank=True)
    source = models.TextField(help_text="The JSON Lines session file as uploaded.")
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.QUEUED)
    total = models.PositiveIntegerField(default=0, help_text="Deal lines in the file.")
    done = models.PositiveIntegerField(default=0, help_text="Deal lines validated so far.")
    errors = models.JSONField(default=list, blank=True, help_text="Per-line errors.")
    detail = models.TextField(blank=True)
    attempts = models.PositiveIntegerField(default=0, help_text="Runs begun, retries included.")
    starts = models.PositiveIntegerField(
        default=0, help_text="Runs begun since the job was last queued (uploaded or retried), "
        "counted as each begins: a worker killed mid-run leaves its start counted, and the "
        "run after the last one allowed (games.imports.services.MAX_STARTS) fails the job "
        "instead of killing its worker again.")
    allow_duplicate = models.BooleanField(
        default=False, help_text="Made with allow_duplicate: a retry may store the file again "
        "although another import of it stored it or is under way.")
    session = models.ForeignKey(
        "games.GameSession", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"Import {self.pk} ({self.status}) @ {self.club_id}"
