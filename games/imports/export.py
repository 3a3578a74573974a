"""A stored session written back as a session file (deal-record.md, "Many deals at once").

The file is the session as it stands: each deal's current record and every chip purchase, in
the order they were posted, then every payment toward chips bought on credit, in the order
recorded, and, when the session is closed, a close line where its last closing came (the
payments recorded after it follow it), so importing it (``POST imports/``) rebuilds the same
chips, pool, deals, closing and money paid and owed, and ``python -m games.rules replay``
replays it. What a session file cannot hold stays out: revisions and their reasons, earlier
closings and reopenings. One line a deal, a purchase or a payment, each no larger than a
session holds (``games.services.limits``), and one close line, so the file is one the import
reads: no more lines, no more bytes.
"""
from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from games.models import ChipPayment, ChipPurchase, Deal, GameSession
from games.selectors import standing_closing
from games.services.closing import close_line
from games.services.deals import stored_record
from games.services.limits import session_line
from games.services.payments import payment_line
from games.services.sessions import purchase_line, session_header


def session_lines(session: GameSession) -> Iterator[dict[str, Any]]:
    """Header, then deal records and purchase lines in posting order, then payment lines; a
    closed session's close line after every deal and purchase, among the payments where its
    last closing came.

    Payments move no chip, so they have no place among the postings; after every purchase each
    one is taken as the payments endpoint took it (a player pays at most what they owe for
    chips, and is refunded at most what they paid; after the close, at most what the closing
    left owing), in the order they were recorded."""
    yield session_header(session)
    deals = [(d.posting, 1, stored_record(d.current.record))
             for d in Deal.objects.filter(session=session, current__isnull=False)
             .select_related("current")]
    purchases = [(p.posting, 0, purchase_line(player=p.player, chips=p.chips, money=p.money,
                                              paid=p.paid, memo=p.memo))
                 for p in ChipPurchase.objects.filter(session=session)]
    for _posting, _kind, line in sorted(deals + purchases, key=lambda x: (x[0], x[1])):
        yield line
    closing = standing_closing(session)
    for p in ChipPayment.objects.filter(session=session).order_by("pk"):
        if closing is not None and p.created_at > closing.at:
            yield close_line(reason=closing.reason)
            closing = None
        yield payment_line(player=p.player, money=p.money, memo=p.memo)
    if closing is not None:
        yield close_line(reason=closing.reason)


def session_file_text(session: GameSession) -> str:
    """The whole file: one JSON object a line, UTF-8 as written (no ASCII escapes)."""
    return "".join(session_line(line) + "\n" for line in session_lines(session))
