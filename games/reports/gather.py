"""Fill the report model's `SessionFacts` from the database (read only)."""
from __future__ import annotations

from bisect import bisect_left
from datetime import datetime

from django.db.models import Count, Q
from rest_framework import serializers

from accounts.models import Member
from games.models import ChipPurchase, Deal, GameSession
from games.reports.model import (
    ClosingEvent,
    DealFacts,
    Purchase,
    SessionFacts,
    SessionReport,
    Void,
    build_report,
    default_title,
)
from games.selectors import closings_log, standing_closing
from games.services.deals import stored_record
from games.services.ledger import one_moment, paid_later
from games.services.sessions import CLUB_BANKER


def banker_name(session: GameSession) -> str:
    """The banker's seat, or "club" when the club itself is the bank."""
    return session.banker or CLUB_BANKER


def timestamp(moment: datetime) -> str:
    """A moment as every other answer writes it (DRF's ``...Z``), not ``isoformat``'s
    ``+00:00``: the close's ``closed_at`` then equals the session's, and a report's closing
    history the closings log's."""
    return serializers.DateTimeField().to_representation(moment)


def closing_history(session: GameSession) -> list[ClosingEvent]:
    """The session's closings log as the report carries it: when, who and why of each."""
    return [ClosingEvent(r.action, timestamp(r.at), r.by_name, r.reason)
            for r in closings_log(session)]


def _void(purchase: ChipPurchase, postings: list[int]) -> Void | None:
    """The purchase's void as the report carries it (None: the purchase stands)."""
    void = getattr(purchase, "void", None)
    return None if void is None else Void(void.reason, bisect_left(postings, void.posting))


def session_facts(session: GameSession) -> SessionFacts:
    """Everything the report needs about one session, in one pass over its rows, read at one
    moment (``one_moment``: the session row again among them): a purchase on credit and a
    payment toward it committed between two reads gave a player who had paid more than the
    chips cost."""
    with one_moment():
        return _facts(GameSession.objects.select_related("club").get(pk=session.pk))


def _facts(session: GameSession) -> SessionFacts:
    deals = list(
        Deal.objects.filter(session=session, current__isnull=False)
        .select_related("current")
        .annotate(n_corrections=Count("revisions", filter=Q(revisions__cause="corrected")),
                  n_resettles=Count("revisions", filter=Q(revisions__cause="resettled")))
        .order_by("number")
    )
    postings = [d.posting for d in deals]
    purchases = [
        Purchase(p.player, p.chips, int(p.money), p.paid, bisect_left(postings, p.posting),
                 _void(p, postings))
        for p in ChipPurchase.objects.filter(session=session).select_related("void")
        .order_by("posting", "id")
    ]
    closing = standing_closing(session)
    named = [*session.seats, *([session.banker] if session.banker else [])]  # a banker may not sit
    names = dict(
        Member.objects.filter(club_id=session.club_id, name__in=named)
        .values_list("name", "display_name")
    )
    rules = session.resolved_rules or {}
    return SessionFacts(
        club=session.club.slug,
        club_name=session.club.name,
        paid_later=paid_later(session),
        session_id=session.pk,
        title=session.name or default_title(session.pk, session.date),
        date=session.date.isoformat(),
        status=session.status,
        seats=list(session.seats),
        banker=banker_name(session),
        chip_value=int(session.chip_value),
        currency=session.currency,
        rules=rules,
        start_pool=deals[0].current.pool_before if deals else 0,
        purchases=purchases,
        deals=[DealFacts(d.number, d.current.verdict, d.n_corrections, d.n_resettles,
                         stored_record(d.current.record)) for d in deals],
        display_names={k: v or k for k, v in names.items()},
        end_pool_mode=closing.end_pool_mode if closing else session.end_pool_mode,
        end_pool_shares=dict(closing.end_pool_shares) if closing else {},
        returned=dict(closing.returned) if closing else None,
        warnings=list(closing.warnings) if closing else [],
        closed_at=timestamp(session.closed_at) if session.closed_at else None,
        history=closing_history(session),
    )


def session_report(session: GameSession) -> SessionReport:
    """The report model of one session."""
    return build_report(session_facts(session))
