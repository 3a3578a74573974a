"""``manage.py prune_pdfs [--older-than DAYS] [--dry-run]``: remove rendered PDFs no longer
served (a superseded report version, a session gone, or older than DAYS) and stale markers.

A session's current PDF younger than DAYS is never removed; one removed is rendered again when
next asked for. Run daily by deploy/loo-ledger-prune.timer.
"""
from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.reports.pdf import reports_dir
from games.reports.prune import prune_pdfs

DAY = 86400


class Command(BaseCommand):
    help = ("Remove rendered PDF reports that are superseded, of a deleted session, or older "
            "than --older-than days, and stale queued/started/failed markers; prints count and bytes.")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--older-than", type=int, default=30, metavar="DAYS",
                            help="also remove current PDFs older than this (default 30)")
        parser.add_argument("--dry-run", action="store_true",
                            help="only say what would be removed")

    def handle(self, *args: Any, **options: Any) -> None:
        days = options["older_than"]
        if days < 0:
            raise CommandError(f"--older-than must be 0 or more days, not {days}")
        pruned = prune_pdfs(days * DAY, dry_run=options["dry_run"])
        if options["verbosity"] >= 2:
            for p in pruned:
                self.stdout.write(f"  {p.path.name} ({p.size} bytes)")
        pdfs = sum(p.is_pdf for p in pruned)
        verb = "Would remove" if options["dry_run"] else "Removed"
        self.stdout.write(f"{verb} {pdfs} PDF(s) and {len(pruned) - pdfs} marker(s), "
                          f"{sum(p.size for p in pruned)} bytes, from {reports_dir()}")
