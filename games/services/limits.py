"""How much one session holds, in one place.

The caps keep one session (its import, ledger and report) from being made large enough to tie up
a worker, and they agree with the session file: the export (``games.imports.export``) writes
one line a deal, one a purchase and one a payment after the header, and the import reads at most
:func:`session_file_lines` of them, so every session the service can store exports into a file
the import takes back. The session's history (corrections, closings) is no line of the file.

The services and the import read these names from this module when they check (``limits.X``),
so a test may lower them with ``monkeypatch.setattr(limits, "MAX_DEALS", 3)`` and every check
follows.
"""
from __future__ import annotations

from loo_ledger.problems import Problem

#: the most deals one session holds: an evening is a hundred or so
MAX_DEALS = 1_000
#: the most chip purchases (buy-ins and rebuys) one session holds: two a deal, more than any
#: table buys
MAX_PURCHASES = 2 * MAX_DEALS
#: the most payments (and refunds) of chips bought on credit one session holds
MAX_PAYMENTS = MAX_PURCHASES


def session_file_lines() -> int:
    """The most lines a session file holds after its header: a full session's deals,
    purchases and payments, one line each."""
    return MAX_DEALS + MAX_PURCHASES + MAX_PAYMENTS


def session_full(what: str, most: int, advice: str) -> Problem:
    """409 ``session-full``: the session holds ``most`` ``what`` (deals, purchases, payments)
    already; the body names the cap as ``max_<what>``."""
    return Problem(409, "Session full", code="session-full", **{f"max_{what}": most},
                   detail=f"A session holds at most {most:,} {what}: {advice}")
