"""Club results over a date range: each player's money across the closed sessions."""
from __future__ import annotations

import io
from dataclasses import dataclass
from datetime import date

from django.db.models import Sum

from accounts.models import Club, Member
from games.models import ChipPurchase, GameSession
from games.reports.csvsafe import SafeWriter
from games.selectors import standing_closings
from games.services.ledger import one_moment
from games.settlement import format_money, money_results


@dataclass
class PlayerResults:
    """One player's figures in one currency over the range (money in minor units)."""

    player: str
    display_name: str
    currency: str
    sessions: int = 0
    chips_bought: int = 0
    money_bought: int = 0
    result: int = 0
    best: int | None = None
    worst: int | None = None

    def add(self, bought_chips: int, bought_money: int, result: int) -> None:
        self.sessions += 1
        self.chips_bought += bought_chips
        self.money_bought += bought_money
        self.result += result
        self.best = result if self.best is None else max(self.best, result)
        self.worst = result if self.worst is None else min(self.worst, result)

    def as_dict(self) -> dict[str, object]:
        return {**self.__dict__, "result_text": format_money(self.result, self.currency)}


def club_results(club: Club, date_from: date | None, date_to: date | None) -> list[PlayerResults]:
    """Per player (and currency) over the club's *closed* sessions dated within the range.

    Open sessions are left out: their figures are not final. Sorted by currency, then result
    (best first), then name. A handful of queries whatever the sessions and their deals (the
    chips bought and returned are all a result needs; each session's whole report, every deal's
    verdict, was gathered before), read at one moment: a session reopened meanwhile is either
    closed with its closing's figures or left out, never half of each.
    """
    sessions = GameSession.objects.filter(club=club, status=GameSession.Status.CLOSED)
    if date_from:
        sessions = sessions.filter(date__gte=date_from)
    if date_to:
        sessions = sessions.filter(date__lte=date_to)
    with one_moment():
        listed = list(sessions.order_by("date", "id"))
        closings = standing_closings(sessions)
        bought: dict[tuple[int, str], tuple[int, int]] = {
            (row["session_id"], row["player"]): (int(row["chips"]), int(row["money"]))
            for row in ChipPurchase.objects.filter(session__in=sessions, void__isnull=True)
            .values("session_id", "player").annotate(chips=Sum("chips"), money=Sum("money"))}
        names = {name: shown or name for name, shown in
                 Member.objects.filter(club=club).values_list("name", "display_name")}
    table: dict[tuple[str, str], PlayerResults] = {}
    for session in listed:
        if (closing := closings.get(session.pk)) is None:
            continue
        figures = {seat: bought.get((session.pk, seat), (0, 0)) for seat in session.seats}
        chips = {seat: bought_chips for seat, (bought_chips, _money) in figures.items()}
        results = money_results(session.seats, chips, closing.returned, int(session.chip_value))
        for seat, (seat_chips, money) in figures.items():
            row = table.setdefault((seat, session.currency), PlayerResults(
                seat, names.get(seat, seat), session.currency))
            row.add(seat_chips, money, results[seat])
    return sorted(table.values(), key=lambda r: (r.currency, -r.result, r.player))


def club_results_csv(rows: list[PlayerResults]) -> str:
    out = io.StringIO()
    w = SafeWriter(out)
    w.writerow(["player", "display_name", "currency", "sessions", "chips_bought", "money_bought",
                "result", "best", "worst"])
    for r in rows:
        money = [("" if units is None else format_money(units, r.currency))
                 for units in (r.money_bought, r.result, r.best, r.worst)]
        w.writerow([r.player, r.display_name, r.currency, r.sessions, r.chips_bought, *money])
    return out.getvalue()
