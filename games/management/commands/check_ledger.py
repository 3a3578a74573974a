"""``manage.py check_ledger [--session ID]``: verify every session's chip ledger.

Exit status 0 when every ledger holds (each posting sums to zero, players + pool = chips issued,
seq and digest chain unbroken, every deal's movement equal to its current verdict), else 1.
"""
from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db.models import Sum

from games.models import GameSession, LedgerEntry
from games.services.ledger import ledger_balances, ledger_check


class Command(BaseCommand):
    help = "Verify the chip ledger of every session (or one): exit 1 if any is broken."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--session", type=int, help="Check only this session id.")

    def handle(self, *args: Any, **options: Any) -> None:
        sessions = GameSession.objects.order_by("pk")
        if options["session"] is not None:
            sessions = sessions.filter(pk=options["session"])
            if not sessions.exists():
                raise CommandError(f"no session {options['session']}")
        broken = 0
        for session in sessions:
            problems = ledger_check(session)
            if problems:
                broken += 1
                self.stdout.write(self.style.ERROR(f"session {session.pk}: BROKEN"))
                for problem in problems:
                    self.stdout.write(f"  - {problem}")
            else:
                self.stdout.write(f"session {session.pk}: ok, {sound_summary(session)}")
        if broken:
            raise CommandError(f"{broken} session ledger(s) broken", returncode=1)


def sound_summary(session: GameSession) -> str:
    """What a sound ledger holds: its deals and the chips out ("80 chips issued"); once the
    banker has bought chips back, how many were sold and bought back, so that a closed
    session's "0 chips issued" does not read as if none were ever sold."""
    deals = session.deals.count()
    out = -ledger_balances(session)["bank"]
    bought_back = (LedgerEntry.objects.filter(session=session, kind=LedgerEntry.Kind.BUYBACK,
                                              account="bank")
                   .aggregate(chips=Sum("chips"))["chips"] or 0)
    line = f"{deals} deal{'' if deals == 1 else 's'}, {out} chips issued"
    if bought_back:
        line += f" ({out + bought_back} sold, {bought_back} bought back)"
    return line
