"""A stored session written back as a session file (deal-record.md, "Many deals at once").

The file is the session as it stands: each deal's current record and every chip purchase, in
the order they were posted, then every payment toward chips bought on credit, in the order
recorded, so importing it (``POST imports/``) rebuilds the same chips, pool, deals and money
owed, and ``python -m games.rules replay`` replays it. What a session file cannot hold stays
out: revisions and their reasons, the closing. One line a deal, a purchase or a payment: a
session holds no more of each than the import reads (``games.services.limits``).
"""
from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from games.models import ChipPayment, ChipPurchase, Deal, GameSession
from games.rules.session import SESSION_FORMAT
from games.services.deals import stored_record
from games.services.sessions import CLUB_BANKER


def session_header(session: GameSession) -> dict[str, Any]:
    """The first line. Buy-ins are left to the purchase lines, which keep each one's price,
    memo and whether it was paid, as the header's ``buy_ins`` could not."""
    return {
        "format": SESSION_FORMAT, "name": session.name, "date": session.date.isoformat(),
        "seats": list(session.seats), "first_dealer": session.first_dealer,
        "rules": session.rules, "pool": 0, "banker": session.banker or CLUB_BANKER,
        "chip_value": session.chip_value, "currency": session.currency,
        "allow_credit": session.allow_credit, "buy_ins": {},
    }


def session_lines(session: GameSession) -> Iterator[dict[str, Any]]:
    """Header, then deal records and purchase lines in posting order, then payment lines.

    Payments move no chip, so they have no place among the postings; after every purchase each
    one is taken as the payments endpoint took it (a player pays at most what they owe for
    chips, and is refunded at most what they paid), in the order they were recorded."""
    yield session_header(session)
    deals = [(d.posting, 1, stored_record(d.current.record))
             for d in Deal.objects.filter(session=session, current__isnull=False)
             .select_related("current")]
    purchases = [(p.posting, 0, {"purchase": {"player": p.player, "chips": p.chips,
                                              "money": p.money, "paid": p.paid, "memo": p.memo}})
                 for p in ChipPurchase.objects.filter(session=session)]
    for _posting, _kind, line in sorted(deals + purchases, key=lambda x: (x[0], x[1])):
        yield line
    for p in ChipPayment.objects.filter(session=session).order_by("pk"):
        yield {"payment": {"player": p.player, "money": p.money, "memo": p.memo}}


def session_file_text(session: GameSession) -> str:
    """The whole file: one JSON object a line, UTF-8 as written (no ASCII escapes)."""
    return "".join(json.dumps(line, ensure_ascii=False, separators=(",", ":")) + "\n"
                   for line in session_lines(session))
