"""Read-side queries for sessions and deals (HackSoft style: selectors read, services write)."""
from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from django.db.models import Case, Count, JSONField, OuterRef, Q, QuerySet, Subquery, Sum, When
from django.db.models.functions import Coalesce

from accounts.models import Club
from games.models import POOL, Deal, GameSession, LedgerEntry, SessionClosing


@dataclass(frozen=True)
class NextDeal:
    """What the server expects of the next deal: its number, dealer, pool and series flag.

    ``sits_out`` is not None when the next deal is a redeal by the same dealer (poker-Loo's
    revoke): the record is then replayed with ``redeal: true`` and those players sitting out,
    as the engine's own ``replay_session`` does.
    """

    number: int
    dealer: str
    pool: int
    first_of_series: bool
    sits_out: tuple[str, ...] | None = None

    def as_dict(self) -> dict[str, Any]:
        out = asdict(self)
        if self.sits_out is None:
            out.pop("sits_out")
        else:
            out["sits_out"] = list(self.sits_out)
        return out

    @classmethod
    def after(cls, verdict: dict[str, Any], number: int, pool: int | None = None) -> NextDeal:
        """The deal after deal ``number`` whose verdict this is (pool: the verdict's unless given)."""
        nxt = verdict.get("next") or {}
        redeal = verdict.get("redeal")
        return cls(
            number + 1, str(nxt["dealer"]), int(nxt["pool"] if pool is None else pool),
            bool(nxt.get("first_of_series", False)),
            tuple(redeal.get("sits_out") or ()) if isinstance(redeal, dict) else None,
        )


def session_list(*, club: Club) -> QuerySet[GameSession]:
    """The club's sessions, newest first, with their deal counts.

    Each count is a subquery on the deals' (session, number) index. A join to the deals
    grouped by every session column (``annotate(Count("deals"))``) read and sorted every deal
    row of a session on each request that looks the session up (every deal recorded, every
    report): 4 ms at 1,000 deals on SQLite, most of what recording a deal gains as the session
    grows (bench/service.py, docs/benchmarks.md).
    """
    deals = (Deal.objects.filter(session=OuterRef("pk")).order_by().values("session")
             .annotate(n=Count("pk")).values("n"))
    return (
        GameSession.objects.filter(club=club)
        .select_related("created_by", "club")  # the club: each session's links name it
        .annotate(deal_count=Coalesce(Subquery(deals), 0))
        .order_by("-date", "-id")
    )


def session_list_with_next(*, club: Club) -> QuerySet[GameSession]:
    """``session_list`` with what each open session's next deal is worked out from (its last
    deal's number and verdict, the pool: ``session_next``'s two queries) read in the same query,
    for ``listed_next``: a page of sessions is then one query, not two more a session. A closed
    session has no next deal, so its subqueries are not run."""
    last = Deal.objects.filter(session=OuterRef("pk")).order_by("-number")
    pool = (LedgerEntry.objects.filter(session=OuterRef("pk"), account=POOL).order_by()
            .values("session").annotate(units=Sum("chips")).values("units"))
    is_open = Q(status=GameSession.Status.OPEN)
    return session_list(club=club).annotate(
        next_after=Case(When(is_open, then=Subquery(last.values("number")[:1]))),
        next_after_verdict=Case(When(is_open, then=Subquery(last.values("current__verdict")[:1])),
                                output_field=JSONField()),
        next_pool=Case(When(is_open, then=Coalesce(Subquery(pool), 0))),
    )


def session_get(*, club: Club, session_id: int) -> GameSession | None:
    return session_list(club=club).filter(pk=session_id).first()


def standing_closing(session: GameSession) -> SessionClosing | None:
    """The closing a closed session stands on (its latest close: buy-back, end-pool shares);
    None while the session is open. Latest as written, not as stamped (:func:`closings_log`)."""
    if session.status != GameSession.Status.CLOSED:
        return None
    latest = SessionClosing.objects.filter(session=session).order_by("-id").first()
    return latest if latest is not None and latest.action == SessionClosing.Action.CLOSE else None


def standing_closings(sessions: QuerySet[GameSession]) -> dict[int, SessionClosing]:
    """:func:`standing_closing` of many sessions in one query: each closed session's latest
    closing as written, where it is a close (only its session, action and chips returned read)."""
    latest: dict[int, SessionClosing] = {}
    for row in (SessionClosing.objects
                .filter(session__in=sessions.filter(status=GameSession.Status.CLOSED))
                .only("session_id", "action", "returned").order_by("id")):
        latest[row.session_id] = row
    return {pk: row for pk, row in latest.items() if row.action == SessionClosing.Action.CLOSE}


def closings_log(session: GameSession) -> QuerySet[SessionClosing]:
    """The session's closes and reopens, oldest first, with who made each (the closings
    endpoint, the report and the session file read the same log). Oldest as written: each row
    is written under the session's lock, so its id says the order; its stamp ``at`` is the wall
    clock's, which may be stepped back between two of them."""
    return SessionClosing.objects.filter(session=session).select_related("by").order_by("id")


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
    verdict = last.current.verdict if last is not None and last.current is not None else None
    return _next_after(session, last.number if last else None, verdict, pool_balance(session))


def listed_next(session: GameSession) -> NextDeal:
    """An open session's ``session_next`` from what ``session_list_with_next`` read with the
    session (no query), as fresh as the session row; a session read otherwise asks the
    database. (A closed session has no next deal: its figures were not read.)"""
    if not hasattr(session, "next_pool"):
        return session_next(session)
    return _next_after(session, session.next_after, session.next_after_verdict, session.next_pool)


def _next_after(session: GameSession, number: int | None, verdict: dict[str, Any] | None,
                pool: int) -> NextDeal:
    """The deal after deal ``number`` with this current ``verdict`` (None: no deal yet)."""
    if number is None or verdict is None:
        return NextDeal(1, session.first_dealer, pool, True)
    return NextDeal.after(verdict, number, pool=pool)


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
