"""Read-side queries for sessions and deals (HackSoft style: selectors read, services write)."""
from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from django.db.models import Count, QuerySet

from accounts.models import Club
from games.models import POOL, Deal, GameSession, LedgerEntry


@dataclass(frozen=True)
class NextDeal:
    """What the server expects of the next deal: its number, dealer, pool and series flag."""

    number: int
    dealer: str
    pool: int
    first_of_series: bool

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def session_list(*, club: Club) -> QuerySet[GameSession]:
    """The club's sessions, newest first, with their deal counts."""
    return (
        GameSession.objects.filter(club=club)
        .select_related("created_by")
        .annotate(deal_count=Count("deals"))
        .order_by("-date", "-id")
    )


def session_get(*, club: Club, session_id: int) -> GameSession | None:
    return session_list(club=club).filter(pk=session_id).first()


def pool_balance(session: GameSession) -> int:
    """Units in the pool now, from the ledger (the source of truth)."""
    from django.db.models import Sum

    total = LedgerEntry.objects.filter(session=session, account=POOL).aggregate(s=Sum("chips"))["s"]
    return int(total or 0)


def session_next(session: GameSession) -> NextDeal:
    """The next deal as the last deal's verdict (``next``) and the ledger's pool say."""
    last = (
        Deal.objects.filter(session=session).select_related("current").order_by("-number").first()
    )
    pool = pool_balance(session)
    if last is None or last.current is None:
        return NextDeal(1, session.first_dealer, pool, True)
    nxt = last.current.verdict.get("next") or {}
    return NextDeal(
        last.number + 1,
        str(nxt.get("dealer", session.first_dealer)),
        pool,
        bool(nxt.get("first_of_series", False)),
    )


def deal_list(*, session: GameSession) -> QuerySet[Deal]:
    """A session's deals in order, with the current revision and revision counts."""
    return (
        Deal.objects.filter(session=session)
        .select_related("current", "current__created_by")
        .annotate(revision_count=Count("revisions", distinct=True))
        .order_by("number")
    )


def deal_get(*, session: GameSession, number: int) -> Deal | None:
    return (
        Deal.objects.filter(session=session, number=number)
        .select_related("current", "current__created_by")
        .prefetch_related("revisions__created_by")
        .first()
    )
