"""manage.py export_report SESSION --format pdf|csv|json [-o FILE]: a session's report."""
from __future__ import annotations

import sys
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from games.reports.render import CSV_TABLES


class Command(BaseCommand):
    help = "Write a session's settlement report as PDF, CSV or JSON (stdout unless -o)."

    def add_arguments(self, parser):
        parser.add_argument("session", type=int, help="the session's id")
        parser.add_argument("--format", choices=["pdf", "csv", "json"], default="json")
        parser.add_argument("--table", choices=CSV_TABLES, default="players",
                            help="which table, for CSV")
        parser.add_argument("-o", "--output", help="file to write (default: stdout)")

    def handle(self, *args, **opts):
        from games.models import GameSession
        from games.reports.gather import session_report
        from games.reports.render import report_csv, report_json, report_pdf

        session = GameSession.objects.select_related("club").filter(pk=opts["session"]).first()
        if session is None:
            raise CommandError(f"no session {opts['session']}")
        report = session_report(session)
        fmt = opts["format"]
        data: bytes = (report_pdf(report) if fmt == "pdf" else
                       (report_csv(report, opts["table"]) if fmt == "csv" else report_json(report)).encode())
        if opts["output"]:
            Path(opts["output"]).write_bytes(data)
            self.stderr.write(f"wrote {opts['output']} ({len(data)} bytes)")
        else:
            sys.stdout.buffer.write(data)
            sys.stdout.flush()
