"""The one report model every renderer (JSON, CSV, PDF, web page) reads.

`build_report` is pure Python (no Django): it takes `SessionFacts` (what the session, its chip
purchases, its deals' verdicts and its closing say) and works out every figure the treasurer
needs. `games.reports.gather` fills `SessionFacts` from the database; tests can fill it by hand
or from an engine replay.
"""
from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from games.reports.charts import chips_chart, pool_chart
from games.rules.options import GAME_NAMES
from games.settlement import (
    banker_settlement,
    format_money,
    left_to_pay,
    minimal_transfers,
    money_results,
    turns_dealt,
)


@dataclass(frozen=True)
class Void:
    """A purchase's void: why, and how many deals had been recorded before it."""

    reason: str
    after_deal: int


@dataclass(frozen=True)
class Purchase:
    """Chips bought from the banker; `after_deal` = how many deals had been recorded before;
    `void`: its void, when it was keyed in by mistake (it then counts as nothing bought)."""

    player: str
    chips: int
    money: int  # minor units
    paid: bool
    after_deal: int = 0
    void: Void | None = None


def bought_figures(seats: Sequence[str], purchases: Iterable[Purchase]
                   ) -> tuple[dict[str, int], dict[str, int], dict[str, int]]:
    """Per seat: the chips bought, their money and the money paid for them on the spot, from
    the purchases that stand (a voided one counts nowhere: its chips were handed back, and any
    money paid with them). The session report reads it."""
    chips, money, paid = ({s: 0 for s in seats} for _ in range(3))
    for p in purchases:
        if p.void is None:
            chips[p.player] += p.chips
            money[p.player] += p.money
            paid[p.player] += p.money if p.paid else 0
    return chips, money, paid


def chip_moves(purchases: Iterable[Purchase]) -> list[tuple[int, str, int]]:
    """``(after_deal, player, chips)`` of every purchase and every void (its chips negative), in
    the order of ``after_deal``: what lands in the players' hands between deals."""
    moves = [(p.after_deal, p.player, p.chips) for p in purchases]
    moves += [(p.void.after_deal, p.player, -p.chips) for p in purchases if p.void is not None]
    return sorted(moves, key=lambda m: m[0])


@dataclass(frozen=True)
class DealFacts:
    """A stored deal: its number, its current verdict, how often its record was corrected and
    how often it was settled again because an earlier deal was, and its current record (the
    turns at the deal ask whether it was the final deal)."""

    number: int
    verdict: Mapping[str, Any]
    corrections: int = 0
    resettles: int = 0
    record: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class ClosingEvent:
    """One close or reopen from the session's closings log, so that a report of a session
    closed again says it was reopened: when (as the closings log writes it), by whom (the
    login's username; None once the login is gone) and why."""

    action: str  # "close" | "reopen"
    at: str
    by: str | None
    reason: str


@dataclass(frozen=True)
class SessionFacts:
    """Everything a report is computed from."""

    club: str
    session_id: int | str
    title: str
    date: str
    status: str  # "open" | "closed"
    seats: Sequence[str]
    banker: str  # a seat or "club"
    chip_value: int  # minor units per chip
    currency: str
    rules: Mapping[str, Any]
    start_pool: int
    purchases: Sequence[Purchase]
    deals: Sequence[DealFacts]
    display_names: Mapping[str, str] = field(default_factory=dict)  # the seats' and the banker's
    end_pool_mode: str = "split"
    end_pool_shares: Mapping[str, int] = field(default_factory=dict)  # split at closing
    returned: Mapping[str, int] | None = None  # chips bought back at closing (None: still open)
    warnings: Sequence[str] = ()
    closed_at: str | None = None
    club_name: str = ""  # the club's display name ("" : its slug is shown)
    paid_later: Mapping[str, int] = field(default_factory=dict)  # money paid after buying on credit
    history: Sequence[ClosingEvent] = ()  # the closings log, oldest first


@dataclass(frozen=True)
class ViolationLine:
    player: str
    rule: str
    trick: int | None
    card: str | None
    evidence: str
    penalty: str


@dataclass(frozen=True)
class DealLine:
    number: int
    dealer: str
    status: str
    pool_kind: str
    pool_before: int
    pool: int  # units played for: carried pool + this deal's antes
    pool_after: int
    standers: list[str]
    tricks_won: dict[str, int]
    payouts: dict[str, int]
    loos: dict[str, int]
    penalties: dict[str, int]
    deltas: dict[str, int]
    violations: list[ViolationLine]
    corrected: bool
    resettled: bool  # settled again after an earlier deal was corrected: figures may differ from paper
    ended: str = ""  # the verdict's way the deal ended (played, dealer-takes, ...; "" if not given)


@dataclass(frozen=True)
class PlayerLine:
    name: str
    display_name: str
    bought_chips: int
    bought_money: int
    paid_money: int
    owed_money: int  # for chips: bought less paid (on the spot or later), before any buy-back
    won_chips: int  # net of every deal's deltas
    end_pool_share: int
    chips_now: int  # in hand (before the buy-back)
    returned_chips: int | None
    result_chips: int | None
    result_money: int | None
    times_dealt: int
    times_looed: int
    violations: int
    # what the player still hands the banker now, as the payments endpoint accepts it: while
    # open, owed_money; once closed, what is left after the buy-back was netted against it
    # (the through-the-banker line's "player pays"), which chips lost on credit can raise
    owed_to_banker: int = 0


@dataclass(frozen=True)
class TransferLine:
    payer: str
    payee: str
    amount: int
    explanation: str


@dataclass(frozen=True)
class BankerLineOut:
    player: str
    owed: int
    buyback: int
    banker_pays: int
    explanation: str


@dataclass(frozen=True)
class SessionReport:
    club: str
    club_name: str
    session_id: int | str
    title: str
    date: str
    status: str
    closed_at: str | None
    history: list[ClosingEvent]  # every close and reopen, oldest first
    reopenings: int  # how often the session was reopened (0: never)
    final: bool  # closed: figures settled; open: provisional
    seats: list[str]
    banker: str  # a seat, another member's handle, or "club"
    banker_display_name: str  # as the players table names a seat ("club" for the club)
    chip_value: int
    currency: str
    rules: dict[str, Any]
    game_name: str  # the game as the laws write it ("poker-Loo"); rules["game"] keeps the key
    start_pool: int
    pool_now: int
    end_pool_mode: str
    players: list[PlayerLine]
    deals: list[DealLine]
    through_banker: list[BankerLineOut]
    transfers: list[TransferLine]
    chips_series: dict[str, list[int]]  # point 0: after the buy-ins; then after each deal
    pool_series: list[int]
    closing_point: bool  # the series end with a point for the close (after its pool split)
    warnings: list[str]
    totals: dict[str, int | None]  # chips_returned and the results: None while open
    purchases: list[Purchase] = field(default_factory=list)  # every one, the voided shown so

    def money(self, units: int | None) -> str:
        """Minor units as the currency's decimal text ("" for unknown)."""
        return "" if units is None else format_money(units, self.currency)

    @property
    def chips_svg(self) -> str:
        return chips_chart(self.chips_series, closing=self.closing_point,
                           names={p.name: p.display_name for p in self.players})

    @property
    def pool_svg(self) -> str:
        return pool_chart(self.pool_series, closing=self.closing_point)

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready: integers stay integers (minor units and chips); money also as text."""
        data = asdict(self)
        for p in data["players"]:  # unknown before the close: null, as result_money is
            p["result"] = None if p["result_money"] is None else self.money(p["result_money"])
        for t in data["transfers"]:
            t["amount_text"] = self.money(t["amount"])
        return data


def long_date(day: dt.date) -> str:
    """A date as a report writes it out: "5 December 2026" (no padded day)."""
    return f"{day.day} {day:%B %Y}"


def default_title(session_id: int | str, day: dt.date) -> str:
    """The title of a session without a name, which says its number and date already."""
    return f"Session {session_id} of {long_date(day)}"


def game_name(rules: Mapping[str, Any]) -> str:
    """The session's game as the laws write it, from the engine's one table ("" if unnamed)."""
    game = str(rules.get("game") or "")
    return GAME_NAMES.get(game, game)


def _in_seat_order(seats: Sequence[str], mapping: Mapping[str, int] | None) -> dict[str, int]:
    """A per-player mapping in seat order (PostgreSQL's jsonb does not keep key order)."""
    mapping = mapping or {}
    return {p: mapping[p] for p in seats if p in mapping} | {
        p: n for p, n in mapping.items() if p not in seats}


def _deal_line(facts: DealFacts, seats: Sequence[str]) -> DealLine:
    v = facts.verdict
    s = v["settlement"]
    def order(mapping: Mapping[str, int] | None) -> dict[str, int]:
        return _in_seat_order(seats, mapping)

    return DealLine(
        number=facts.number,
        dealer=v.get("dealer", ""),
        status=v.get("status", ""),
        pool_kind=v.get("pool_kind", ""),
        pool_before=s["pool_before"],
        pool=s["pool"],
        pool_after=s["pool_after"],
        standers=list(v.get("standers", [])),
        tricks_won=order(v.get("tricks_won")),
        payouts=order(s.get("payouts")),
        loos=order(s.get("loo_payments")),
        penalties=order(s.get("penalties")),
        deltas=order(s["deltas"]),
        violations=[
            ViolationLine(x["player"], x["rule"], x.get("trick"), x.get("card"),
                          x.get("evidence", ""), x.get("penalty", ""))
            for x in v.get("violations", [])
        ],
        corrected=facts.corrections > 0,
        resettled=facts.resettles > 0,
        ended=str(v.get("ended") or ""),
    )


def build_report(facts: SessionFacts) -> SessionReport:
    """Every figure of the report, from the facts alone."""
    seats = list(facts.seats)
    in_order = sorted(facts.deals, key=lambda d: d.number)
    deals = [_deal_line(d, seats) for d in in_order]

    bought, bought_money, paid_money = bought_figures(seats, facts.purchases)
    for player, money in facts.paid_later.items():
        paid_money[player] += money

    # Chips in hand after each deal: purchases (and voids) land after the deal count they name.
    chips = {s: 0 for s in seats}
    pending = chip_moves(facts.purchases)
    k = 0

    def buy_up_to(n: int) -> None:
        nonlocal k
        while k < len(pending) and pending[k][0] <= n:
            chips[pending[k][1]] += pending[k][2]
            k += 1

    buy_up_to(0)
    series = {s: [chips[s]] for s in seats}
    pool_series = [facts.start_pool]
    for d in deals:
        for s in seats:
            chips[s] += d.deltas.get(s, 0)
        buy_up_to(d.number)
        for s in seats:
            series[s].append(chips[s])
        pool_series.append(d.pool_after)
    buy_up_to(10**9)
    won = {s: sum(d.deltas.get(s, 0) for d in deals) for s in seats}
    share = {s: facts.end_pool_shares.get(s, 0) for s in seats}
    pool_now = pool_series[-1] - sum(share.values())  # a closing split empties the pool
    in_hand = {s: bought[s] + won[s] + share[s] for s in seats}
    final = facts.returned is not None
    if final:  # the close: the pool split to the players, so the charts end as the tables do
        for s in seats:
            series[s].append(in_hand[s])
        pool_series.append(pool_now)
    owed = {s: bought_money[s] - paid_money[s] for s in seats}  # below 0: paid toward a credit loss
    # open: what the payments endpoint accepts; a playing banker owes himself nothing
    to_banker = {s: 0 if s == facts.banker else max(owed[s], 0) for s in seats}
    dealt = turns_dealt(seats, [(d.record, d.verdict) for d in in_order])
    results: dict[str, int] = {}
    through: list[BankerLineOut] = []
    transfers: list[TransferLine] = []
    if final:
        returned = {s: facts.returned.get(s, 0) for s in seats}  # type: ignore[union-attr]
        results = money_results(seats, bought, returned, facts.chip_value)
        lines = banker_settlement(
            seats, facts.banker, bought_money=bought_money, paid_money=paid_money,
            buyback_money={s: returned[s] * facts.chip_value for s in seats},
            currency=facts.currency,
        )
        through = [BankerLineOut(x.player, x.owed, x.buyback, x.banker_pays, x.explanation)
                   for x in lines]
        to_banker = {s: 0 if s == facts.banker else left_to_pay(owed[s], returned[s] * facts.chip_value)
                     for s in seats}
        transfers = [TransferLine(t.payer, t.payee, t.amount, t.explanation)
                     for t in minimal_transfers(seats, results, facts.currency)]

    players = []
    for s in seats:
        ret = facts.returned.get(s, 0) if final else None  # type: ignore[union-attr]
        players.append(PlayerLine(
            name=s,
            display_name=facts.display_names.get(s, s),
            bought_chips=bought[s],
            bought_money=bought_money[s],
            paid_money=paid_money[s],
            owed_money=max(owed[s], 0),  # paid toward a credit loss: 0
            won_chips=won[s],
            end_pool_share=share[s],
            chips_now=in_hand[s],
            returned_chips=ret,
            result_chips=None if ret is None else ret - bought[s],
            result_money=results.get(s) if final else None,
            times_dealt=dealt[s],  # turns at the deal, as the closing's warning counts them
            times_looed=sum(1 for d in deals if d.loos.get(s)),
            violations=sum(1 for d in deals for x in d.violations if x.player == s),
            owed_to_banker=to_banker[s],
        ))

    totals = {
        "deals": len(deals),
        "chips_bought": sum(bought.values()),
        "money_bought": sum(bought_money.values()),
        "money_owed": sum(max(owed[s], 0) for s in seats),
        "money_owed_to_banker": sum(to_banker.values()),
        # not known before the close (null, as each player's are): 0 would read as a result
        "chips_returned": sum(facts.returned.values()) if final else None,  # type: ignore[union-attr]
        "loos_paid": sum(sum(d.loos.values()) for d in deals),
        "penalties_paid": sum(sum(d.penalties.values()) for d in deals),
        "violations": sum(len(d.violations) for d in deals),
        "corrected_deals": sum(1 for d in deals if d.corrected),
        "resettled_deals": sum(1 for d in deals if d.resettled),
        "end_pool": sum(share.values()),
        "won_chips": sum(won.values()),
        "chips_now": sum(in_hand.values()),
        "result_chips": sum(p.result_chips or 0 for p in players) if final else None,
        "result_money": sum(results.values()) if final else None,
        "times_looed": sum(p.times_looed for p in players),
    }
    return SessionReport(
        club=facts.club, club_name=facts.club_name or facts.club, session_id=facts.session_id,
        title=facts.title, date=facts.date, status=facts.status, closed_at=facts.closed_at,
        history=list(facts.history),
        reopenings=sum(1 for e in facts.history if e.action == "reopen"), final=final, seats=seats,
        banker=facts.banker, banker_display_name=facts.display_names.get(facts.banker, facts.banker),
        chip_value=facts.chip_value, currency=facts.currency,
        rules=dict(facts.rules), game_name=game_name(facts.rules), start_pool=facts.start_pool, pool_now=pool_now,
        end_pool_mode=facts.end_pool_mode, players=players, deals=deals, through_banker=through,
        transfers=transfers, chips_series=series, pool_series=pool_series, closing_point=final,
        warnings=list(facts.warnings), totals=totals, purchases=list(facts.purchases),
    )
