"""The report model from hand-made facts (no database, no engine)."""
from __future__ import annotations

import csv
import io
import json

import pytest

from games.reports.model import DealFacts, Purchase, SessionFacts, build_report
from games.settlement import SettlementError

SEATS = ["ann", "bob", "cat"]


def verdict(dealer, before, antes, payouts, loos, after, tricks, violations=()):
    deltas = {s: payouts.get(s, 0) - antes.get(s, 0) - loos.get(s, 0) for s in SEATS}
    return {"dealer": dealer, "status": "irregular" if violations else "valid",
            "pool_kind": "simple" if before == 0 else "double", "standers": list(tricks),
            "tricks_won": tricks, "violations": list(violations),
            "settlement": {"pool_before": before, "antes": antes, "pool": before + sum(antes.values()),
                           "payouts": payouts, "loo_payments": loos, "penalties": {},
                           "pool_after": after, "deltas": deltas}}


# deal 1: ann deals (pool 3), bob takes all 3 tricks: bob +3, ann -3 ante -3 loo, cat -3 loo; pool 6.
# deal 2: bob deals (6 + 3 = 9), cat takes all: cat +9, bob -3 ante -3 loo; ann passed; pool 3.
D1 = verdict("ann", 0, {"ann": 3}, {"bob": 3}, {"ann": 3, "cat": 3}, 6, {"ann": 0, "bob": 3, "cat": 0})
D2 = verdict("bob", 6, {"bob": 3}, {"cat": 9}, {"bob": 3}, 3, {"bob": 0, "cat": 3},
             [{"player": "bob", "rule": "revoke", "trick": 2, "card": "5C",
               "evidence": "held 5H when TH was led", "penalty": "full-loo"}])


def facts(**over):
    base = {
        "club": "oak", "session_id": 7, "title": "t", "date": "2026-11-28", "status": "closed", "seats": SEATS,
        "banker": "ann", "chip_value": 10, "currency": "GBP", "rules": {"game": "three-card"}, "start_pool": 0,
        "purchases": [Purchase("ann", 20, 200, True), Purchase("bob", 20, 200, True),
                   Purchase("cat", 20, 200, False), Purchase("ann", 10, 100, False, after_deal=1)],
        "deals": [DealFacts(1, D1), DealFacts(2, D2, corrections=1)],
        # pool 3 split from cat (next dealer cat's eldest is ann... the closing decides): 1 each
        "end_pool_shares": {"ann": 1, "bob": 1, "cat": 1},
        # ann 30 - 6 + 1 = 25; bob 20 + 3 - 6 + 1 = 18; cat 20 - 3 + 9 + 1 = 27  (70 chips)
        "returned": {"ann": 25, "bob": 18, "cat": 27},
    }
    base.update(over)
    return SessionFacts(**base)


def test_players_and_money():
    r = build_report(facts())
    p = {x.name: x for x in r.players}
    assert [p[s].won_chips for s in SEATS] == [-6, -3, 6]
    assert [p[s].result_chips for s in SEATS] == [-5, -2, 7]
    assert [p[s].result_money for s in SEATS] == [-50, -20, 70]
    assert p["ann"].bought_money == 300 and p["ann"].owed_money == 100
    assert p["cat"].owed_money == 200
    assert [p[s].times_looed for s in SEATS] == [1, 1, 1]
    assert p["bob"].violations == 1
    assert [(t.payer, t.payee, t.amount) for t in r.transfers] == [("ann", "cat", 50), ("bob", "cat", 20)]
    # through the banker: cat owed 2.00 for chips and gets 2.70 for 27 chips back
    assert {b.player: b.banker_pays for b in r.through_banker} == {"ann": 150, "bob": 180, "cat": 70}
    # the buy-backs cover both debts: nobody has anything left to pay the banker
    assert [p[s].owed_to_banker for s in SEATS] == [0, 0, 0] and r.totals["money_owed_to_banker"] == 0
    assert r.totals["loos_paid"] == 9 and r.totals["corrected_deals"] == 1
    # after the two deals, a last point for the close: the pool of 3 split one each
    assert r.chips_series == {"ann": [20, 24, 24, 25], "bob": [20, 23, 17, 18],
                              "cat": [20, 17, 26, 27]}
    assert r.pool_series == [0, 6, 3, 0] and r.closing_point


def test_the_charts_end_where_the_tables_do():
    r = build_report(facts())
    assert {s: v[-1] for s, v in r.chips_series.items()} == {
        p.name: p.returned_chips for p in r.players}
    assert r.pool_series[-1] == r.pool_now == 0
    svg = r.chips_svg + r.pool_svg
    assert "ann (25)" in svg and "pool (0)" in svg and 'data-last-point="close"' in svg


def test_renderers_agree():
    from games.reports.render import report_csv, report_json

    r = build_report(facts())
    data = json.loads(report_json(r))
    assert [p["result"] for p in data["players"]] == ["-0.50", "-0.20", "0.70"]
    rows = list(csv.DictReader(io.StringIO(report_csv(r))))
    assert [row["result_money"] for row in rows] == ["-0.50", "-0.20", "0.70"]
    deals = list(csv.DictReader(io.StringIO(report_csv(r, "deals"))))
    assert deals[1]["violations"] == "bob revoke trick 2 5C: held 5H when TH was led (full-loo)"
    assert deals[1]["corrected"] == "yes" and deals[0]["delta_ann"] == "-6"
    with pytest.raises(ValueError):
        report_csv(r, "nope")


def test_open_session_has_no_settlement():
    r = build_report(facts(status="open", returned=None, end_pool_shares={}))
    assert not r.final and r.transfers == [] and r.through_banker == []
    assert [p.chips_now for p in r.players] == [24, 17, 26] and r.pool_now == 3
    # the CSV says what each holds now too, as the page's "(24 in hand)" and the JSON do
    from games.reports.render import report_csv

    rows = list(csv.DictReader(io.StringIO(report_csv(r))))
    assert [(row["returned_chips"], row["chips_now"]) for row in rows] == [
        ("", "24"), ("", "17"), ("", "26")]
    assert list(rows[0])[-2:] == ["owed_to_banker", "chips_now"]  # new columns come last
    assert [p.owed_to_banker for p in r.players] == [0, 0, 200]  # open: the debt for chips (ann banks)
    # nothing returned and no result yet: null, as each player's are (0 read as "all square")
    assert [r.totals[k] for k in ("chips_returned", "result_chips", "result_money")] == \
        [None, None, None]
    assert [p.result_money for p in r.players] == [None, None, None]
    # no close yet: the series end with the last deal, as the table's chips in hand do
    assert not r.closing_point and r.pool_series == [0, 6, 3]
    assert {s: v[-1] for s, v in r.chips_series.items()} == {"ann": 24, "bob": 17, "cat": 26}
    assert "close" not in r.chips_svg + r.pool_svg


def test_unbalanced_buyback_refused():
    with pytest.raises(SettlementError):
        build_report(facts(returned={"ann": 25, "bob": 18, "cat": 26}))


def test_html_and_pdf_from_one_model():
    from games.reports.render import report_html, report_pdf

    r = build_report(facts())
    html = report_html(r)
    assert 'data-result="-50"' in html and "-0.50" in html
    assert 'data-series="cat" data-values="20,17,26,27"' in html
    assert "held 5H when TH was led" in html and "<script" not in html
    assert report_pdf(r).startswith(b"%PDF")


@pytest.mark.parametrize("title, header", [
    # a session without a name is titled by its number and date: the line repeats neither
    ("Session 7 of 28 November 2026", "Club <b>oak</b> ·"),
    ("Friday table", "Club <b>oak</b> · 28 November 2026 · session 7 ·"),
])
def test_the_header_says_the_date_once(title, header):
    from games.reports.render import report_html

    html = report_html(build_report(facts(title=title)))
    top = html[html.index("<h1>"):html.index("</p>")]
    assert header in top and top.count("28 November 2026") == 1
    assert top.lower().count("session 7") <= 1


@pytest.mark.parametrize("ended, words", [
    ("lone-stander", "one player stood: takes the pool without play"),
    ("nobody-stands", "nobody stood: the pool carries"), ("thrown-in", "dealt again"),
    ("", ""),  # a verdict that does not say (stored before the engine wrote it)
])
def test_how_a_deal_ended_in_words(ended, words):
    from games.reports.render import report_html

    lone = {**D1, "ended": ended, "tricks_won": {"bob": 0}} if ended else D1
    html = report_html(build_report(facts(deals=[DealFacts(1, lone), DealFacts(2, D2)])))
    row = html[html.index('<tr data-deal="1">'):html.index('<tr data-deal="2">')]
    assert f'data-ended="{ended}">' in row and words in row
    assert ("<td>—</td>" in row) == bool(ended)  # no "bob:0" tricks for a deal never played


def test_a_session_title_writes_the_day_unpadded():
    import datetime as dt

    from games.reports.model import long_date

    assert long_date(dt.date(2026, 12, 5)) == "5 December 2026"
    assert long_date(dt.date(2026, 11, 28)) == "28 November 2026"


def test_a_playing_banker_owes_the_banker_nothing():
    # ann banks and bought 10 chips (100) on credit: her own line is kept, not owed to herself;
    # cat (200 on credit, 27 chips back = 270) has nothing left to pay either
    r = build_report(facts())
    p = {x.name: x for x in r.players}
    assert p["ann"].owed_money == 100 and p["ann"].owed_to_banker == 0
    assert r.totals["money_owed_to_banker"] == sum(x.owed_to_banker for x in r.players)
    assert build_report(facts(status="open", returned=None)).players[0].owed_to_banker == 0


@pytest.mark.parametrize("title, date, shown", [
    ("Session 7 of 5 November 2026", "2026-11-05", False),   # the default title says it
    ("Christmas party 25 November 2026", "2026-11-05", True),  # names another day
])
def test_the_header_shows_the_date_unless_the_default_title_says_it(title, date, shown):
    from games.reports.render import report_html

    html = report_html(build_report(facts(title=title, date=date)))
    top = html[html.index("<h1>"):html.index("</p>")]
    assert ("5 November 2026 ·" in top) is shown and ("session 7 ·" in top) is shown


def test_a_game_without_simple_or_double_pools_shows_a_dash_not_none():
    # five-card, Irish and poker-Loo verdicts say "pool_kind": null; the page printed "None"
    from games.reports.render import report_csv, report_html

    five = [DealFacts(1, {**D1, "pool_kind": None}), DealFacts(2, {**D2, "pool_kind": None})]
    r = build_report(facts(deals=five, rules={"game": "five-card"}))
    html = report_html(r)
    row = html[html.index('<tr data-deal="1">'):html.index('<tr data-deal="2">')]
    assert '<td class="pool-kind">—</td>' in row and "None" not in html
    assert [d["pool_kind"] for d in json.loads(json.dumps(r.as_dict()))["deals"]] == [None, None]
    assert [row["pool_kind"] for row in csv.DictReader(io.StringIO(report_csv(r, "deals")))] == ["", ""]
    three = report_html(build_report(facts()))
    assert '<td class="pool-kind">simple</td>' in three and '<td class="pool-kind">double</td>' in three
