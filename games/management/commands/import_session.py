"""manage.py import_session FILE --club SLUG: import a JSON Lines session file from the shell."""
from __future__ import annotations

import sys
from pathlib import Path

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from accounts.models import Club


class Command(BaseCommand):
    help = ("Import a JSON Lines session file (header + one deal record per line) into a club. "
            "Every line is validated first; nothing is stored if any line is bad.")

    def add_arguments(self, parser):
        parser.add_argument("file", help="session file (.jsonl), or - for stdin")
        parser.add_argument("--club", required=True, help="the club's slug")
        parser.add_argument("--user", help="username recorded as the importer")
        parser.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")
        parser.add_argument("--allow-duplicate", action="store_true",
                            help="import a file this club has imported before, as a new session")

    def handle(self, *args, **opts):
        from games.imports.models import ImportJob
        from games.imports.services import import_job_open, run_import
        from loo_ledger.problems import Problem

        club = Club.objects.filter(slug=opts["club"]).first()
        if club is None:
            raise CommandError(f"no club {opts['club']!r}")
        user = None
        if opts["user"]:
            user = get_user_model().objects.filter(username=opts["user"]).first()
            if user is None:
                raise CommandError(f"no user {opts['user']!r}")
        path = opts["file"]
        try:
            # bytes, decoded: line ends kept as sent, so the duplicate check sees the file
            # exactly as an upload of it would be stored
            raw = sys.stdin.buffer.read() if path == "-" else Path(path).read_bytes()
            text = raw.decode("utf-8")
        except OSError as err:
            raise CommandError(f"cannot read {path}: {err.strerror or err}") from None
        except UnicodeDecodeError as err:
            raise CommandError(f"{path} is not UTF-8 text (byte {err.start})") from None
        if "\x00" in text:
            raise CommandError(f"{path} holds a NUL character, which cannot be stored")
        try:
            job = import_job_open(club=club, user=user, source=text,
                                  filename="stdin" if path == "-" else Path(path).name,
                                  allow_duplicate=opts["allow_duplicate"])
        except Problem as refused:  # the very file imported already: almost always a slip
            raise CommandError(f"{path}: {refused.detail} (here: --allow-duplicate)") from None
        bar = None if opts["no_progress"] else ProgressBar(self.stderr)
        job = run_import(job.pk, progress=bar)
        if bar:
            bar.finish()
        if job.status != ImportJob.Status.DONE:
            for e in job.errors:
                self.stderr.write(f"line {e.get('line')}: {e.get('message')}")
            raise CommandError(f"import {job.pk} failed: {job.detail}")
        self.stdout.write(f"imported session {job.session_id}: {job.total} deals (job {job.pk})")


class ProgressBar:
    """A one-line text progress bar: `validating [#####.....] 25/50`."""

    width = 30

    def __init__(self, out) -> None:
        self.out = out
        self.shown = False
        self.phase = ""

    def __call__(self, phase: str, done: int, total: int) -> None:
        if self.phase and phase != self.phase:
            self.out.write("")  # keep the finished phase's bar on its own line
        self.phase = phase
        filled = self.width * done // max(total, 1)
        self.out.write(f"\r{phase:<10} [{'#' * filled}{'.' * (self.width - filled)}] {done}/{total}",
                       ending="")
        self.out.flush()
        self.shown = True

    def finish(self) -> None:
        if self.shown:
            self.out.write("")
