"""Renderers of the one report model: JSON, CSV (players / deals / transfers / purchases), HTML and PDF."""
from __future__ import annotations

import datetime as dt
import io
import json
import re
from collections.abc import Iterable
from typing import Any

from django.template.loader import render_to_string

from games.reports.csvsafe import SafeWriter
from games.reports.model import ClosingEvent, DealLine, SessionReport, default_title, long_date

CSV_TABLES = ("players", "deals", "transfers", "purchases")

#: the verdict's ``ended`` in words, for the deals table (the CSV and JSON keep the code)
ENDED_WORDS = {
    "played": "played out",
    "dealer-takes": "dealer takes the pool: all the others passed",
    "conceded": "dealer passed: the one player standing takes the pool",
    "lone-stander": "one player stood: takes the pool without play",
    "nobody-stands": "nobody stood: the pool carries",
    "flush": "a flush was shown",
    "redeal": "a flush was shown: its holder takes the pool, dealt again",
    "misdeal": "misdeal: void, the same dealer deals again",
    "thrown-in": "thrown in after an offence: dealt again",
}


#: a whole number of four digits or more standing alone (not inside a name, not a fraction)
_LONG_NUMBER = re.compile(r"(?<![\w.])\d{4,}(?!\w|-\d)")


def group_digits(text: object, names: Iterable[str] = ()) -> str:
    """Thousands separators in every whole number of ``text`` ("-65000.00" -> "-65,000.00"),
    for the pages and the PDF only: the JSON and the CSV keep plain digits for machines.
    ``names``: the handles ``text`` may name, kept as they are (a handle may be all digits:
    "the banker pays 2024 ..." is a member, not a number)."""
    kept = sorted((n for n in names if n.isdigit() and len(n) >= 4), key=len, reverse=True)
    if not kept:
        return _LONG_NUMBER.sub(lambda m: f"{int(m.group()):,}", str(text))
    handle = "|".join(re.escape(n) for n in kept)
    either = re.compile(rf"(?<![\w.-])(?P<name>{handle})(?![\w-])|{_LONG_NUMBER.pattern}")
    return either.sub(lambda m: m.group() if m["name"] else f"{int(m.group()):,}", str(text))


def ended_words(ended: str) -> str:
    """How a deal ended, in words ("" when the verdict does not say)."""
    return ENDED_WORDS.get(ended, ended)


def report_json(report: SessionReport) -> str:
    """The report as JSON text (money as integer minor units plus decimal text)."""
    return json.dumps(report.as_dict(), indent=2, sort_keys=False)


def _pairs(mapping: dict[str, int]) -> str:
    return " ".join(f"{k}:{v}" for k, v in mapping.items())


def report_csv(report: SessionReport, table: str = "players") -> str:
    """One table of the report as CSV; money as decimal text in the session's currency."""
    if table not in CSV_TABLES:
        raise ValueError(f"table must be one of {', '.join(CSV_TABLES)}")
    out = io.StringIO()
    w = SafeWriter(out)
    m = report.money
    if table == "players":
        w.writerow(["player", "display_name", "bought_chips", "bought_money", "paid_money",
                    "owed_money", "won_chips", "end_pool_share", "returned_chips",
                    "result_chips", "result_money", "times_dealt", "times_looed", "violations",
                    "owed_to_banker", "chips_now"])  # added last: a reader going by position
                                                     # keeps its columns
        for p in report.players:
            w.writerow([p.name, p.display_name, p.bought_chips, m(p.bought_money),
                        m(p.paid_money), m(p.owed_money), p.won_chips, p.end_pool_share,
                        "" if p.returned_chips is None else p.returned_chips,
                        "" if p.result_chips is None else p.result_chips,
                        m(p.result_money), p.times_dealt, p.times_looed, p.violations,
                        m(p.owed_to_banker), p.chips_now])
    elif table == "deals":
        w.writerow(["number", "dealer", "status", "pool_kind", "pool_before", "pool",
                    "pool_after", "standers", "tricks", "payouts", "loos", "penalties",
                    "violations", "corrected", *(f"delta_{s}" for s in report.seats),
                    "resettled", "ended"])  # added last: a reader going by position keeps its columns
        for d in report.deals:
            violations = " | ".join(
                f"{v.player} {v.rule} trick {v.trick if v.trick is not None else '-'}"
                f" {v.card or '-'}: {v.evidence} ({v.penalty})" for v in d.violations)
            w.writerow([d.number, d.dealer, d.status, d.pool_kind, d.pool_before, d.pool,
                        d.pool_after, " ".join(d.standers), _pairs(d.tricks_won),
                        _pairs(d.payouts), _pairs(d.loos), _pairs(d.penalties), violations,
                        "yes" if d.corrected else "no",
                        *(d.deltas.get(s, 0) for s in report.seats),
                        "yes" if d.resettled else "no", d.ended])
    elif table == "purchases":  # every one, a voided one with its void (it counts nowhere)
        w.writerow(["after_deal", "player", "chips", "money", "paid", "voided",
                    "void_after_deal", "void_reason"])
        for b in report.purchases:
            w.writerow([b.after_deal, b.player, b.chips, m(b.money), "yes" if b.paid else "no",
                        "yes" if b.void else "no", "" if b.void is None else b.void.after_deal,
                        "" if b.void is None else b.void.reason])
    else:
        w.writerow(["payer", "payee", "amount", "explanation"])
        for t in report.transfers:
            w.writerow([t.payer, t.payee, m(t.amount), t.explanation])
    return out.getvalue()


def report_context(report: SessionReport, **extra: Any) -> dict[str, Any]:
    """Template context shared by the web page and the PDF (money grouped in thousands)."""
    def money(units: int | None) -> str:
        return shown_money(report, units)

    players = [{"p": p, "bought": money(p.bought_money), "owed": money(p.owed_money),
                "to_banker": money(p.owed_to_banker), "result": money(p.result_money),
                # the seat's handle, which the deals table uses, where the name does not say it
                "handle": "" if p.display_name.casefold() == p.name.casefold() else p.name}
               for p in report.players]
    shown = {p.name: p.display_name for p in report.players}  # as the players table names them
    banker = [{"b": b, "player": shown.get(b.player, b.player), "owed": money(b.owed),
               "buyback": money(b.buyback), "settles": _settles(report, b.player, b.banker_pays),
               "why": group_digits(b.explanation, report.seats)}
              for b in report.through_banker]
    transfers = [{"t": t, "payer": shown.get(t.payer, t.payer),
                  "payee": shown.get(t.payee, t.payee), "amount": money(t.amount),
                  "why": group_digits(t.explanation, report.seats)}
                 for t in report.transfers]
    deals = [{"d": d, "tricks": _tricks(d), "payouts": _pairs(d.payouts),
              "loos": _pairs(d.loos), "penalties": _pairs(d.penalties),
              "ended": ended_words(d.ended)} for d in report.deals]
    purchases = [{"p": p, "player": shown.get(p.player, p.player), "money": money(p.money)}
                 for p in report.purchases]
    totals = report.totals
    totals_money = {"bought": money(totals["money_bought"]), "owed": money(totals["money_owed"]),
                    "to_banker": money(totals["money_owed_to_banker"]),
                    "result": money(totals["result_money"])}
    day = dt.date.fromisoformat(report.date)
    said = report.title == default_title(report.session_id, day)  # number and date in the title
    return {"report": report, "players": players, "banker_lines": banker,
            # the header names the date and the session only where the title does not already
            "day": "" if said else long_date(day),
            "session_no": "" if said else report.session_id,
            "banker": report.banker_display_name,  # as the players table names a seat
            "totals_money": totals_money,
            "closed_at": short_moment(report.closed_at) if report.closed_at else "",
            "history_line": history_line(report),
            "transfers": transfers, "deals": deals, "chip_value": money(report.chip_value),
            "purchases": purchases,
            "chips_svg": report.chips_svg, "pool_svg": report.pool_svg,
            "chart": chart_figures(report, shown), **extra}


def chart_figures(report: SessionReport, shown: dict[str, str]) -> dict[str, Any]:
    """The numbers both charts draw, a row a point (the buy-ins, each deal, the close), for
    the table that stands in for the pictures: a screen reader cannot follow a line.
    ``shown``: each seat's display name, as the legend names it."""
    seats = list(report.chips_series)
    after = (["the buy-ins"] + [f"deal {d.number}" for d in report.deals]
             + (["the close"] if report.closing_point else []))
    rows = [{"after": label, "chips": [report.chips_series[s][i] for s in seats],
             "pool": report.pool_series[i]} for i, label in enumerate(after)]
    return {"names": [shown.get(s, s) for s in seats], "rows": rows}


def short_moment(moment: str) -> str:
    """An ISO moment as the header says it: "1 Dec 2026 01:10 UTC"."""
    at = dt.datetime.fromisoformat(moment)
    return f"{at.day} {at:%b %Y %H:%M %Z}".strip()


def times(n: int) -> str:
    """How often, in words: "once", "twice", "3 times"."""
    return {1: "once", 2: "twice"}.get(n, f"{n} times")


#: each closings-log action as the header says it happened
PAST = {"close": "closed", "reopen": "reopened"}
#: a reason quoted in the header is cut to this many characters (the JSON keeps it whole)
SHORT_REASON = 80


def _event_words(event: ClosingEvent, verb: str) -> str:
    """One close or reopen in the header: "last reopened 1 Dec 2026 01:05 UTC by olga
    (recount)"; a long reason is cut there (the JSON keeps it whole)."""
    reason = event.reason if len(event.reason) <= SHORT_REASON else (
        event.reason[:SHORT_REASON - 1].rstrip() + "…")
    return (f"last {verb} {short_moment(event.at)}" + (f" by {event.by}" if event.by else "")
            + (f" ({reason})" if reason else ""))


def history_line(report: SessionReport) -> str:
    """The header's word on a session that was reopened: how often it was closed and
    reopened, then the last reopening and the last close, in the order they came ("" for a
    session never reopened: the status says its one close)."""
    if not report.reopenings:
        return ""
    events = report.history
    last = {e.action: i for i, e in enumerate(events)}  # each action's latest, by position
    said = "; ".join(_event_words(events[i], PAST[action])
                     for action, i in sorted(last.items(), key=lambda item: item[1]))
    closes = sum(1 for e in events if e.action == "close")
    return f"Closed {times(closes)}, reopened {times(report.reopenings)}; {said}."


def shown_money(report: SessionReport, units: int | None) -> str:
    """Money as the page and the PDF show it: the session's currency, thousands grouped."""
    return group_digits(report.money(units))


def _tricks(deal: DealLine) -> str:
    """The tricks cell: "—" for a deal that ended before any trick was taken (a lone stander's
    "dan:0" would read as a trick count)."""
    if deal.ended not in ("", "played") and not any(deal.tricks_won.values()):
        return "—"
    return _pairs(deal.tricks_won)


def _settles(report: SessionReport, player: str, banker_pays: int) -> str:
    """A through-the-banker line's money in words: who hands whom how much."""
    if player == report.banker:
        return "nothing: the banker's own"
    if banker_pays > 0:
        return f"banker pays {shown_money(report, banker_pays)}"
    if banker_pays < 0:
        return f"player pays {shown_money(report, -banker_pays)}"
    return "nothing"


def report_html(report: SessionReport, *, for_pdf: bool = False, **extra: Any) -> str:
    """The server-rendered page (also the PDF's source, with print styling)."""
    return render_to_string("reports/session.html", report_context(report, for_pdf=for_pdf, **extra))


def report_pdf(report: SessionReport) -> bytes:
    """The report as PDF (WeasyPrint renders the same HTML and inline SVG charts)."""
    from weasyprint import HTML  # heavy import, only when a PDF is wanted

    return HTML(string=report_html(report, for_pdf=True)).write_pdf()
