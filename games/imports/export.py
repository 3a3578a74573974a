"""A stored session written back as a session file (deal-record.md, "Many deals at once").

The file is the session as it stands, with its closings in the order they came: each deal's
current record and every chip purchase and purchase's void, in the order they were posted,
a close line where the
session was closed and a reopen line where it was reopened, and every payment toward chips
bought on credit, in the order recorded, among them where it was recorded (before a close
line, between it and its reopen line, after it). So importing it (``POST imports/``) rebuilds
the same chips, pool, deals, closings and money paid and owed, and ``python -m games.rules
replay`` replays it. What a session file cannot hold stays out: revisions and their reasons.
One line a deal, a purchase, a void, a payment, a close and a reopen, each no larger than a
session
holds (``games.services.limits``), so the file is one the import reads: no more lines, no more
bytes.
"""
from __future__ import annotations

from collections import deque
from collections.abc import Iterator
from typing import Any

from games.models import ChipPayment, ChipPurchase, Deal, GameSession, SessionClosing
from games.selectors import closings_log
from games.services.closing import close_line, reopen_line
from games.services.deals import stored_record
from games.services.ledger import one_moment
from games.services.limits import session_line
from games.services.payments import payment_line
from games.services.sessions import purchase_line, session_header, void_line


def session_lines(session: GameSession) -> Iterator[dict[str, Any]]:
    """Header, then deal records, purchase lines and void lines in posting order (a void line
    names its purchase by its place among the purchase lines, from 1), each closing's close line
    after the deals and purchases made before it and its reopening's reopen line, and the
    payment lines, each before the first close, reopen or void made after it.

    A closed session takes no deal or purchase, so between a close and its reopening only
    payments come. Payments move no chip, so they have no place among the postings; after the
    purchases before the next close, reopen or void made after it (a void lowers the debt a
    payment is held to) each one is taken as the payments endpoint took
    it (in an open session a player pays at most what they owe for chips, and is refunded at
    most what they paid; in a closed one, at most what the closing left owing), in the order
    they were recorded."""
    yield session_header(session)
    deals = [(d.posting, 1, d.created_at, stored_record(d.current.record))
             for d in Deal.objects.filter(session=session, current__isnull=False)
             .select_related("current")]
    bought = list(ChipPurchase.objects.filter(session=session).select_related("void")
                  .order_by("posting", "id"))
    purchases = [(p.posting, 0, p.created_at,
                  purchase_line(player=p.player, chips=p.chips, money=p.money, paid=p.paid,
                                memo=p.memo))
                 for p in bought]
    voids = [(p.void.posting, 0, p.void.created_at,
              void_line(purchase=place, reason=p.void.reason))
             for place, p in enumerate(bought, start=1) if hasattr(p, "void")]
    postings = deque(sorted(deals + purchases + voids, key=lambda x: (x[0], x[1])))
    payments = deque(ChipPayment.objects.filter(session=session).order_by("pk"))
    for event in closings_log(session):
        if event.action == SessionClosing.Action.CLOSE:
            while postings and _before(postings[0], event):
                yield from _posted(postings.popleft(), payments)
        while payments and payments[0].created_at <= event.at:
            yield _payment(payments.popleft())
        line = close_line if event.action == SessionClosing.Action.CLOSE else reopen_line
        yield line(reason=event.reason)
    for posted in postings:
        yield from _posted(posted, payments)
    for payment in payments:
        yield _payment(payment)


def _posted(posted: tuple[int, int, Any, dict[str, Any]], payments: deque[ChipPayment],
            ) -> Iterator[dict[str, Any]]:
    """A deal's, purchase's or void's line ``(posting, kind, created_at, line)``; a void's
    after the payments recorded before it. A void lowers what its player owes, so a payment
    made toward the voided purchase before it is taken only there: after the void it would
    pay more than is owed (the time stamps, as for a closing that posted nothing)."""
    if "void" in posted[3]:
        while payments and payments[0].created_at <= posted[2]:
            yield _payment(payments.popleft())
    yield posted[3]


def _before(posted: tuple[int, int, Any, Any], closing: SessionClosing) -> bool:
    """Whether a deal or purchase ``(posting, kind, created_at, line)`` came before
    ``closing``: by the postings' order when the closing posted anything (its end-pool split
    and buy-back take the next positions, under the session's lock), which no clock stepped
    back can change; by the time stamps only for a closing that posted nothing."""
    if closing.postings:
        return posted[0] < min(closing.postings)
    return posted[2] <= closing.at


def _payment(p: ChipPayment) -> dict[str, Any]:
    return payment_line(player=p.player, money=p.money, memo=p.memo)


def session_file_text(session: GameSession) -> str:
    """The whole file: one JSON object a line, UTF-8 as written (no ASCII escapes), read at
    one moment (``one_moment``): a purchase on credit and a payment toward it committed
    between the reads gave a file with the payment and not the purchase, which did not import."""
    with one_moment():
        return "".join(session_line(line) + "\n" for line in session_lines(session))
