"""Club results over a date range: each player's money across the closed sessions."""
from __future__ import annotations

import io
from dataclasses import dataclass
from datetime import date

from accounts.models import Club
from games.models import GameSession
from games.reports.csvsafe import SafeWriter
from games.reports.gather import session_facts
from games.reports.model import bought_figures
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
    (best first), then name.
    """
    sessions = GameSession.objects.filter(club=club, status=GameSession.Status.CLOSED)
    if date_from:
        sessions = sessions.filter(date__gte=date_from)
    if date_to:
        sessions = sessions.filter(date__lte=date_to)
    table: dict[tuple[str, str], PlayerResults] = {}
    for session in sessions.select_related("club").order_by("date", "id"):
        facts = session_facts(session)
        if facts.returned is None:
            continue
        bought, paid_for, _on_the_spot = bought_figures(facts.seats, facts.purchases)
        results = money_results(facts.seats, bought, facts.returned, facts.chip_value)
        for seat in facts.seats:
            row = table.setdefault((seat, facts.currency), PlayerResults(
                seat, facts.display_names.get(seat, seat), facts.currency))
            row.add(bought[seat], paid_for[seat], results[seat])
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
