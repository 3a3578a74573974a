"""The end of a session at 4 to 7 seats (loo-rules.md s.7): the pool left split equally, the odd
units one each in seat order from the eldest (left of the dealer who would deal next), the
banker's buy-back, each player's result in money (odd chip values, currencies of 0, 2 and 3
decimals), conservation, the session file's round trip, and a reopen and re-close.

Each table is one three-card simple pool (everybody plays, the dealer antes 3, P = 3: a trick
is worth 1), recorded result-only; every player without a trick is looed 3. Buy-ins 20 each.

* 4 seats, ann deals; bob 2 tricks, cat 1; dan, ann looed: pool 6. Next dealer bob, eldest
  cat. 6 = 1 each + 2 odd: cat 2, dan 2, ann 1, bob 1. Chips: ann 20-3-3 = 14, bob 22,
  cat 21, dan 17; returned ann 15, bob 23, cat 23, dan 19 (80). 25p a chip, GBP:
  ann -5 x 25 = -1.25, bob +0.75, cat +0.75, dan -0.25.
* 5 seats, bob deals; cat 2, dan 1; eve, ann, bob looed: pool 9. Next cat, eldest dan.
  9 = 1 each + 4 odd: dan, eve, ann, bob 2, cat 1. Chips ann 17, bob 14, cat 22, dan 21,
  eve 17; returned ann 19, bob 16, cat 23, dan 23, eve 19 (100). 7 fils a chip, BHD (three
  decimals): ann -0.007, bob -0.028, cat 0.021, dan 0.021, eve -0.007.
* 6 seats, dan deals; eve, fay, ann 1 trick each; bob, cat, dan looed: pool 9. Next eve,
  eldest fay. 9 = 1 each + 3 odd: fay, ann, bob 2; cat, dan, eve 1 (wrapping past the last
  seat). Chips ann 21, bob 17, cat 17, dan 14, eve 21, fay 21; returned ann 23, bob 19,
  cat 18, dan 15, eve 22, fay 23 (120). 3 yen a chip, JPY (no decimals): ann 9, bob -3,
  cat -6, dan -15, eve 6, fay 9.
* 7 seats, gus deals; ann, bob, cat 1 each; dan, eve, fay, gus looed: pool 12. Next ann,
  eldest bob. 12 = 1 each + 5 odd: bob, cat, dan, eve, fay 2; gus, ann 1. Chips ann 21,
  bob 21, cat 21, dan 17, eve 17, fay 17, gus 14; returned ann 22, bob 23, cat 23, dan 19,
  eve 19, fay 19, gus 15 (140). 1p a chip, GBP: ann 0.02, bob 0.03, cat 0.03, dan -0.01,
  eve -0.01, fay -0.01, gus -0.05.
"""
from __future__ import annotations

import csv
import datetime as dt
import io
from dataclasses import dataclass
from decimal import Decimal

import pytest

from games.settlement import split_pool
from tests.reports.conftest import url
from tests.reports.test_session_file_export import reimported, same_session

pytestmark = pytest.mark.django_db

PLAYERS = ["ann", "bob", "cat", "dan", "eve", "fay", "gus"]


@dataclass(frozen=True)
class Table:
    seats: int
    dealer: str
    tricks: dict[str, int]
    pool: int
    eldest: str
    shares: dict[str, int]
    returned: dict[str, int]
    chip_value: int
    currency: str
    results: dict[str, str]  # as the report writes them


TABLES = [
    Table(4, "ann", {"bob": 2, "cat": 1}, 6, "cat",
          {"ann": 1, "bob": 1, "cat": 2, "dan": 2},
          {"ann": 15, "bob": 23, "cat": 23, "dan": 19}, 25, "GBP",
          {"ann": "-1.25", "bob": "0.75", "cat": "0.75", "dan": "-0.25"}),
    Table(5, "bob", {"cat": 2, "dan": 1}, 9, "dan",
          {"ann": 2, "bob": 2, "cat": 1, "dan": 2, "eve": 2},
          {"ann": 19, "bob": 16, "cat": 23, "dan": 23, "eve": 19}, 7, "BHD",
          {"ann": "-0.007", "bob": "-0.028", "cat": "0.021", "dan": "0.021", "eve": "-0.007"}),
    Table(6, "dan", {"eve": 1, "fay": 1, "ann": 1}, 9, "fay",
          {"ann": 2, "bob": 2, "cat": 1, "dan": 1, "eve": 1, "fay": 2},
          {"ann": 23, "bob": 19, "cat": 18, "dan": 15, "eve": 22, "fay": 23}, 3, "JPY",
          {"ann": "9", "bob": "-3", "cat": "-6", "dan": "-15", "eve": "6", "fay": "9"}),
    Table(7, "gus", {"ann": 1, "bob": 1, "cat": 1}, 12, "bob",
          {"ann": 1, "bob": 2, "cat": 2, "dan": 2, "eve": 2, "fay": 2, "gus": 1},
          {"ann": 22, "bob": 23, "cat": 23, "dan": 19, "eve": 19, "fay": 19, "gus": 15}, 1, "GBP",
          {"ann": "0.02", "bob": "0.03", "cat": "0.03", "dan": "-0.01", "eve": "-0.01",
           "fay": "-0.01", "gus": "-0.05"}),
]
IDS = [f"{t.seats}-seats" for t in TABLES]


@pytest.mark.parametrize("table", TABLES, ids=IDS)
def test_split_pool_gives_the_odd_units_in_seat_order_from_the_eldest(table):
    assert split_pool(table.pool, PLAYERS[:table.seats], table.eldest) == table.shares


def test_split_pool_from_the_last_seat_wraps_to_the_first():
    # 7 units among ann..gus from gus: 1 each, gus the odd unit; 13 from fay: fay, gus, ann,
    # bob, cat, dan 2 and eve 1
    seats = PLAYERS
    assert split_pool(8, seats, "gus") == {**{s: 1 for s in seats}, "gus": 2}
    assert split_pool(13, seats, "fay") == {**{s: 2 for s in seats}, "eve": 1}


def _closed_table(club, scorer_client, table: Table):
    from accounts.models import Role
    from accounts.services import member_ensure
    from games.services.deals import deal_record
    from games.services.sessions import session_create

    seats = PLAYERS[:table.seats]
    for name in seats:
        member_ensure(club=club, name=name, role=Role.PLAYER)
    session = session_create(club=club, date=dt.date(2026, 12, 4), seats=seats,
                             first_dealer=table.dealer, rules={"game": "three-card"},
                             chip_value=table.chip_value, currency=table.currency,
                             buy_ins={s: 20 for s in seats})
    deal_record(session=session, number=1,
                record={"dealer": table.dealer, "result": {"tricks": table.tricks}})
    response = scorer_client.post(url(session, "close"), {"reason": "end"}, format="json")
    assert response.status_code == 200, response.content
    return session, response.json()


@pytest.mark.parametrize("table", TABLES, ids=IDS)
def test_the_close_splits_from_the_eldest_and_buys_every_chip_back(club, scorer_client,
                                                                   viewer_client, client,
                                                                   member_for, table):
    from games.services.ledger import ledger_balances, ledger_check
    from games.settlement import minor_units

    session, body = _closed_table(club, scorer_client, table)
    seats = PLAYERS[:table.seats]
    assert body["end_pool"] == {"mode": "split", "pool": table.pool, "eldest": table.eldest,
                                "shares": table.shares}
    assert body["returned"] == table.returned
    money = {s: minor_units(Decimal(table.results[s]), table.currency) for s in seats}
    assert body["results"] == money and sum(money.values()) == 0
    assert body["currency"] == table.currency
    # every chip is back with the banker: nobody, not the pool, holds any
    assert set(ledger_balances(session).values()) == {0}
    assert ledger_check(session) == []

    report = viewer_client.get(url(session, "report")).json()
    assert {p["name"]: p["result"] for p in report["players"]} == table.results
    assert {p["name"]: p["end_pool_share"] for p in report["players"]} == table.shares
    totals = report["totals"]
    assert (totals["chips_bought"], totals["chips_returned"]) == (20 * table.seats,) * 2
    assert (totals["result_money"], totals["result_chips"], totals["end_pool"]) == (0, 0, table.pool)
    rows = list(csv.DictReader(io.StringIO(viewer_client.get(
        url(session, "report"), {"format": "csv"}).content.decode())))
    assert {r["player"]: r["result_money"] for r in rows} == table.results
    assert sum(Decimal(r["result_money"]) for r in rows) == 0
    assert {r["player"]: int(r["returned_chips"]) for r in rows} == table.returned
    client.force_login(member_for("viewer").user)
    page = client.get(f"/clubs/oak/sessions/{session.pk}/report/").content.decode()
    zero = {"GBP": "0.00", "BHD": "0.000", "JPY": "0"}[table.currency]
    chips = 20 * table.seats
    assert (f"Chips: {chips} bought\n= {chips} returned + 0 in the pool; results add up to "
            f"{zero} {table.currency}.") in page
    assert f'data-result="0">{zero}' in page  # the players table's totals line


@pytest.mark.parametrize("table", TABLES[1:3], ids=IDS[1:3])
def test_the_closed_table_round_trips_through_its_session_file(club, scorer_client,
                                                               viewer_client, django_capture_on_commit_callbacks,
                                                               table):
    session, _ = _closed_table(club, scorer_client, table)
    copy = reimported(session, viewer_client, scorer_client,
                      django_capture_on_commit_callbacks)
    same_session(session, copy, viewer_client)
    files = [viewer_client.get(url(s, "file")).content.splitlines() for s in (session, copy)]
    assert files[1][1:] == files[0][1:]  # every line but the header (its own session's name)


def test_a_reopen_gives_the_pool_and_chips_back_and_the_re_close_buys_them_again(
        club, scorer_client, owner_client, table=TABLES[1]):
    from games.services.ledger import ledger_balances, ledger_check

    session, first = _closed_table(club, scorer_client, table)
    assert owner_client.post(url(session, "reopen"), {"reason": "recount"},
                             format="json").status_code == 200
    # as the deal left them: ann 17, bob 14, cat 22, dan 21, eve 17, pool 9
    assert ledger_balances(session) == {"ann": 17, "bob": 14, "cat": 22, "dan": 21, "eve": 17,
                                        "pool": 9, "bank": -100}
    assert ledger_check(session) == []
    again = scorer_client.post(url(session, "close"), {"reason": "recounted"}, format="json")
    assert again.status_code == 200, again.content
    for part in ("end_pool", "returned", "results"):
        assert again.json()[part] == first[part], part
    assert set(ledger_balances(session).values()) == {0}
    assert ledger_check(session) == []


FINAL_CASES = [("three-card", 4), ("irish", 5), ("five-card", 6), ("poker-loo", 7)]


@pytest.mark.parametrize(("preset", "players"), FINAL_CASES)
def test_a_final_deal_in_every_game_closes_the_session_as_the_engine_replays_it(club, preset,
                                                                                players):
    """end_pool "final-deal": a generated session, then the final deal dealt by whoever's turn
    it is into the pool left (everybody stands, no miss, no ante). The import stores it, the
    closing splits what it leaves from the eldest after it, the final deal is nobody's turn, and
    the figures are the engine's own replay's."""
    import json
    import random

    from accounts.models import Role
    from accounts.services import member_ensure
    from games.imports.models import ImportJob
    from games.imports.services import run_import
    from games.rules import played_to_a_result, replay_session
    from games.rules.simulate import play_random_deal, random_session
    from games.services.closing import session_close
    from games.services.ledger import ledger_balances, ledger_check
    from games.settlement import eldest_after, turns_dealt

    seats = PLAYERS[:players]
    for name in seats:
        member_ensure(club=club, name=name, role=Role.PLAYER)
    rng = random.Random(f"final-{preset}")
    rules = {"preset": preset, "end_pool": "final-deal"}
    lines = random_session(rules, seats, 12, rng)
    lines[0] = {**lines[0], "allow_credit": True}  # poker-Loo's pots outgrow any buy-in
    verdicts = list(replay_session(lines))
    following = verdicts[-1]["next"]
    while True:  # a misdealt final deal is dealt again: take one that was played
        final = play_random_deal(rules, seats, following["dealer"], pool=following["pool"],
                                 rng=rng, first_of_series=following["first_of_series"],
                                 number=13, redeal=verdicts[-1].get("redeal"), final=True)
        if played_to_a_result(final.verdict):
            break
    assert final.verdict["settlement"]["antes"] == {} and "miss" not in final.record
    assert set(final.verdict["standers"]) == set(seats) - set(final.record.get("sits_out", []))
    lines.append(final.record)
    verdicts = list(replay_session(lines))
    left = verdicts[-1]["settlement"]["pool_after"]
    job = run_import(ImportJob.objects.create(
        club=club, source="\n".join(json.dumps(x) for x in lines)).pk)
    assert job.status == "done", job.errors

    closing = session_close(session=job.session)
    assert (closing.end_pool_mode, closing.end_pool) == ("final-deal", left)
    assert closing.eldest == eldest_after(seats, verdicts[-1]["next"]["dealer"])
    assert sum(closing.shares.values()) == left
    assert set(ledger_balances(job.session).values()) == {0} and ledger_check(job.session) == []
    won = {s: sum(v["settlement"]["deltas"].get(s, 0) for v in verdicts) for s in seats}
    buy_in = lines[0]["buy_ins"]
    assert closing.returned == {s: buy_in[s] + won[s] + closing.shares[s] for s in seats}
    assert sum(closing.returned.values()) == sum(buy_in.values())
    # the final deal is no turn at the deal: the turns are the first twelve deals' alone
    records = lines[1:]
    assert turns_dealt(seats, list(zip(records, verdicts, strict=True))) == \
        turns_dealt(seats, list(zip(records[:-1], verdicts[:-1], strict=True)))
    # every deal conserves chips in the report's deals table too: what the players gained or
    # lost and what the pool gained or lost sum to zero, the final deal's included
    from games.reports.gather import session_report
    from games.reports.render import report_csv

    rows = list(csv.DictReader(io.StringIO(report_csv(session_report(job.session), "deals"))))
    assert len(rows) == 13
    for row in rows:
        moved = sum(int(row[f"delta_{s}"]) for s in seats)
        assert moved + int(row["pool_after"]) - int(row["pool_before"]) == 0, row


def test_after_a_reopen_purchases_a_void_a_payment_and_a_correction_the_re_close_buys_back_anew(
        club, scorer_client, owner_client, viewer_client, django_capture_on_commit_callbacks):
    """The 5-seat table (7 fils a chip), closed, reopened: ann buys 10 chips and the purchase is
    voided (keyed in by mistake), bob buys 5 on credit and pays the 35 fils, and deal 1 is
    corrected (dan took 2 tricks and cat 1, not the other way round). Deal 1 is then ann -3,
    bob -6, cat +1, dan +2, eve -3, pool 9: ann 20+10-10-3 = 17, bob 20+5-6 = 19, cat 21, dan 22,
    eve 17 (105 = 105 bought less 0 in the bank). The re-close splits 9 from dan as before
    (dan, eve, ann, bob 2, cat 1) and buys back ann 19, bob 21, cat 22, dan 24, eve 19 (105):
    ann -1, bob 21-25 = -4, cat +2, dan +4, eve -1 chips; x 7: -7, -28, 14, 28, -7. bob's banker
    line: bought 175, all paid, bought back 21 x 7 = 147, which the banker pays him."""
    from games.services.deals import deal_correct
    from games.services.ledger import ledger_balances, ledger_check
    from games.services.payments import payment_record
    from games.services.sessions import purchase_record, purchase_void

    session, _ = _closed_table(club, scorer_client, TABLES[1])
    assert owner_client.post(url(session, "reopen"), {"reason": "deal 1 misread"},
                             format="json").status_code == 200
    wrong = purchase_record(session=session, player="ann", chips=10)
    purchase_void(session=session, purchase_id=wrong.pk, reason="keyed in twice")
    purchase_record(session=session, player="bob", chips=5, paid=False)
    payment_record(session=session, player="bob", money=35)
    deal_correct(session=session, number=1, reason="dan took two",
                 record={"dealer": "bob", "result": {"tricks": {"cat": 1, "dan": 2}}})
    assert ledger_balances(session) == {"ann": 17, "bob": 19, "cat": 21, "dan": 22, "eve": 17,
                                        "pool": 9, "bank": -105}
    assert ledger_check(session) == []

    closed = scorer_client.post(url(session, "close"), {"reason": "recounted"}, format="json")
    assert closed.status_code == 200, closed.content
    body = closed.json()
    assert body["end_pool"]["shares"] == {"ann": 2, "bob": 2, "cat": 1, "dan": 2, "eve": 2}
    assert body["returned"] == {"ann": 19, "bob": 21, "cat": 22, "dan": 24, "eve": 19}
    assert body["results"] == {"ann": -7, "bob": -28, "cat": 14, "dan": 28, "eve": -7}
    bob = next(line for line in body["through_banker"] if line["player"] == "bob")
    assert (bob["owed"], bob["buyback"], bob["banker_pays"]) == (0, 147, 147)
    assert set(ledger_balances(session).values()) == {0} and ledger_check(session) == []
    report = viewer_client.get(url(session, "report")).json()
    assert {p["name"]: p["bought_chips"] for p in report["players"]} == {
        "ann": 20, "bob": 25, "cat": 20, "dan": 20, "eve": 20}
    assert report["totals"]["result_money"] == 0

    copy = reimported(session, viewer_client, scorer_client, django_capture_on_commit_callbacks)
    same_session(session, copy, viewer_client)


def test_the_club_results_add_the_four_tables_up_by_currency(club, scorer_client, viewer_client):
    """The four tables closed in one club: GBP twice (25p and 1p a chip), BHD, JPY. Per player
    and currency, GBP: ann -125 + 2 = -123, bob 75 + 3 = 78, cat 78, dan -25 - 1 = -26, eve -1,
    fay -1, gus -5 (two sessions for ann..dan, one for eve..gus); BHD and JPY as their one
    table. Each currency's results sum to zero; money is never added across currencies."""
    for table in TABLES:
        _closed_table(club, scorer_client, table)
    body = viewer_client.get("/api/v1/clubs/oak/results").json()
    got = {(r["currency"], r["player"]): (r["sessions"], r["result"], r["result_text"])
           for r in body["players"]}
    assert {k: v for k, v in got.items() if k[0] == "GBP"} == {
        ("GBP", "ann"): (2, -123, "-1.23"), ("GBP", "bob"): (2, 78, "0.78"),
        ("GBP", "cat"): (2, 78, "0.78"), ("GBP", "dan"): (2, -26, "-0.26"),
        ("GBP", "eve"): (1, -1, "-0.01"), ("GBP", "fay"): (1, -1, "-0.01"),
        ("GBP", "gus"): (1, -5, "-0.05")}
    for table in TABLES[1:3]:
        assert {p: text for (c, p), (_n, _units, text) in got.items() if c == table.currency} \
            == table.results
    for currency in ("GBP", "BHD", "JPY"):
        assert sum(units for (c, _p), (_n, units, _t) in got.items() if c == currency) == 0
    rows = list(csv.DictReader(io.StringIO(viewer_client.get(
        "/api/v1/clubs/oak/results", {"format": "csv"}).content.decode())))
    assert sorted((r["currency"], r["player"], r["result"]) for r in rows) == sorted(
        (c, p, text) for (c, p), (_n, _u, text) in got.items())


# An Irish session file with its final deal, by hand (ann bob cat dan, ann deals first, 20
# chips each, 10p a chip, end_pool "final-deal"):
# deal 1, ann deals into the empty pool: ann antes 3; bob and dan stand, cat and ann pass; bob
#   takes all three tricks: P = 3 to bob, dan looed 3. ann -3, bob +3, dan -3; pool 3.
# deal 2, bob deals the final deal (everybody stands, no ante, P = 3, a trick 1): cat 2, dan 1;
#   ann and bob looed 3 each. ann -3, bob -3, cat +2, dan +1; pool 6.
# Close: 6 from the eldest after the final deal (next dealer cat, so dan): dan 2, ann 2, bob 1,
# cat 1. Chips ann 14, bob 20, cat 22, dan 18 (+ 6 = 80); returned ann 16, bob 21, cat 23,
# dan 20; results ann -40, bob +10, cat +30, dan 0. The final deal is no turn: ann 1, the rest 0.
IRISH_FILE = [
    {"format": "loo-session/1", "seats": ["ann", "bob", "cat", "dan"], "first_dealer": "ann",
     "rules": {"game": "irish", "end_pool": "final-deal"}, "pool": 0, "banker": "club",
     "chip_value": 10, "buy_ins": {"ann": 20, "bob": 20, "cat": 20, "dan": 20}},
    {"turnup": "7H", "actions": [{"player": p, "action": a} for p, a in (
        ("bob", "stand"), ("cat", "pass"), ("dan", "stand"), ("ann", "pass"))],
     "result": {"tricks": {"bob": 3}}},
    {"final": True, "result": {"tricks": {"cat": 2, "dan": 1}}},
    {"close": {"reason": "the final deal is played"}},
]


def test_an_irish_final_deal_by_the_command_line_and_by_the_import(club, tmp_path):
    import json
    import pathlib
    import subprocess
    import sys

    from games.imports.models import ImportJob
    from games.imports.services import run_import
    from games.models import SessionClosing
    from games.reports.gather import session_report

    path = tmp_path / "irish.jsonl"
    path.write_text("\n".join(json.dumps(x) for x in IRISH_FILE) + "\n", encoding="utf-8")
    root = pathlib.Path(__file__).resolve().parents[2]
    done = subprocess.run([sys.executable, "-m", "games.rules", "replay", str(path)], cwd=root,
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stdout
    verdicts = [json.loads(line) for line in done.stdout.splitlines()]
    assert [(v["dealer"], v["settlement"]["deltas"], v["settlement"]["pool_after"])
            for v in verdicts] == [
        ("ann", {"ann": -3, "bob": 3, "cat": 0, "dan": -3}, 3),
        ("bob", {"ann": -3, "bob": -3, "cat": 2, "dan": 1}, 6)]
    assert verdicts[1]["settlement"]["antes"] == {} and len(verdicts[1]["standers"]) == 4

    job = run_import(ImportJob.objects.create(club=club, source=path.read_text()).pk)
    assert job.status == "done", job.errors
    closing = SessionClosing.objects.get(session=job.session)
    assert (closing.end_pool_mode, closing.end_pool) == ("final-deal", 6)
    assert closing.end_pool_shares == {"ann": 2, "bob": 1, "cat": 1, "dan": 2}
    assert closing.returned == {"ann": 16, "bob": 21, "cat": 23, "dan": 20}
    assert closing.warnings == ["Players have not dealt equally often: ann 1, bob 0, cat 0, dan 0.",
                                "The final deal left 6 units in the pool: split from dan."]
    report = session_report(job.session)
    assert {p.name: p.result_money for p in report.players} == {
        "ann": -40, "bob": 10, "cat": 30, "dan": 0}


def _flush_final(club, flush: str):
    """ann bob cat dan, 20 chips each, end_pool "final-deal", three-card with ``flush``: deal 1
    (ann deals into the empty pool, antes 3; bob 2 tricks, cat 1; dan and ann looed 3: pool 6),
    then bob's final deal, in which cat, dealt 2H 5H 7H with 3H turned, shows a flush."""
    from games.services.deals import deal_record
    from games.services.sessions import session_create

    seats = PLAYERS[:4]
    session = session_create(club=club, date=dt.date(2026, 12, 4), seats=seats,
                             first_dealer="ann", chip_value=10,
                             rules={"game": "three-card", "end_pool": "final-deal", "flush": flush},
                             buy_ins=dict.fromkeys(seats, 20))
    deal_record(session=session, number=1,
                record={"dealer": "ann", "result": {"tricks": {"bob": 2, "cat": 1}}})
    final = deal_record(session=session, number=2, record={
        "dealer": "bob", "final": True, "turnup": "3H", "hands": {"cat": ["2H", "5H", "7H"]},
        "actions": [{"player": "cat", "action": "flush"}]})
    return session, final.current.verdict


def test_a_final_deal_ended_by_a_flush_leaves_its_loos_to_be_split(club, scorer_client):
    # flush "three-trumps": cat takes the 6 and every other stander (all, at a final deal) is
    # looed 3: pool 9. ann 20-3-3-3 = 11, bob 22-3 = 19, cat 21+6 = 27, dan 17-3 = 14. The
    # close splits 9 from dan (next dealer cat): dan 3, ann 2, bob 2, cat 2; returned ann 13,
    # bob 21, cat 29, dan 17 (80); results x 10p: -70, +10, +90, -30.
    session, verdict = _flush_final(club, "three-trumps")
    assert (verdict["ended"], verdict["settlement"]["loo_payments"]) == (
        "flush", {"ann": 3, "bob": 3, "dan": 3})
    body = scorer_client.post(url(session, "close"), format="json").json()
    assert body["end_pool"] == {"mode": "final-deal", "pool": 9, "eldest": "dan",
                                "shares": {"ann": 2, "bob": 2, "cat": 2, "dan": 3}}
    assert body["returned"] == {"ann": 13, "bob": 21, "cat": 29, "dan": 17}
    assert body["results"] == {"ann": -70, "bob": 10, "cat": 90, "dan": -30}
    assert body["warnings"] == ["Players have not dealt equally often: ann 1, bob 0, cat 0, dan 0.",
                                "The final deal left 9 units in the pool: split from dan."]


def test_a_final_deal_whose_redeal_flush_takes_the_pool_leaves_nothing_to_split(club,
                                                                              scorer_client):
    # flush "three-trumps-redeal": cat takes the 6, nobody is looed and the cards are thrown in
    # (ended "redeal", bob to deal again into an empty pool). The flusher took the pool the
    # final deal was to play off: it is the final deal played (docs/engine.md interpretation
    # 34), and the session closes on it, nothing split: ann 14, bob 22, cat 27, dan 17
    # returned; results x 10p: -60, +20, +70, -30; bob's final deal is no turn.
    session, verdict = _flush_final(club, "three-trumps-redeal")
    assert (verdict["ended"], verdict["settlement"]["pool_after"], verdict["next"]["dealer"]) == (
        "redeal", 0, "bob")
    body = scorer_client.post(url(session, "close"), format="json").json()
    assert body["end_pool"] == {"mode": "final-deal", "pool": 0, "eldest": "cat",
                                "shares": {"ann": 0, "bob": 0, "cat": 0, "dan": 0}}
    assert body["returned"] == {"ann": 14, "bob": 22, "cat": 27, "dan": 17}
    assert body["results"] == {"ann": -60, "bob": 20, "cat": 70, "dan": -30}
    assert body["warnings"] == ["Players have not dealt equally often: ann 1, bob 0, cat 0, dan 0."]


#: bob's deal 3 after the final deal: an ordinary deal (cat 2 tricks, dan 1) or the final deal
#: dealt again
AFTER_REDEAL = [{"dealer": "bob", "result": {"tricks": {"cat": 2, "dan": 1}}},
                {"dealer": "bob", "final": True, "result": {"tricks": {"cat": 2, "dan": 1}}}]


@pytest.mark.parametrize("after", AFTER_REDEAL, ids=["ordinary", "final again"])
def test_no_deal_is_recorded_after_a_final_deal_its_redeal_flush_ended(club, scorer_client,
                                                                        after):
    # the final deal played (the flusher took its pool): bob's deal 3 was stored before, as if
    # the table played on; it is refused as after any final deal played, nothing stored
    from games.models import Deal

    session, _ = _flush_final(club, "three-trumps-redeal")
    response = scorer_client.post(url(session, "deals/"), {"number": 3, "record": after},
                                  format="json")
    assert response.status_code == 409, response.content
    body = response.json()
    assert (body["code"], body["final_deal"]) == ("final-deal-played", 2)
    assert body["detail"].startswith("Deal 2 was the final deal, which plays the pool off")
    assert Deal.objects.filter(session=session).count() == 2


def test_a_correction_cannot_make_a_deal_with_deals_after_it_a_final_deal_a_redeal_flush_ends(
        club, scorer_client):
    # bob's final deal corrected into an ordinary one (cat 2 tricks, dan 1: P = 6 + 3 = 9, cat 6,
    # dan 3, pool 0), then cat's deal 3; correcting deal 2 back into the final deal cat's
    # redeal flush ended would leave deal 3 after the final deal played: refused, naming deal
    # 3, nothing changed (it was taken before: the redeal counted as no final deal played)
    from games.models import Deal
    from games.services.deals import deal_correct, deal_record

    session, _ = _flush_final(club, "three-trumps-redeal")
    final = dict(Deal.objects.get(session=session, number=2).current.record)
    ordinary = {"dealer": "bob", "result": {"tricks": {"cat": 2, "dan": 1}}}
    deal_correct(session=session, number=2, record=ordinary, reason="played on")
    deal_record(session=session, number=3,
                record={"dealer": "cat", "result": {"tricks": {"dan": 2, "ann": 1}}})
    response = scorer_client.post(url(session, "deals/2/corrections"),
                                  {"record": final, "reason": "it was the final deal"},
                                  format="json")
    assert response.status_code == 409, response.content
    body = response.json()
    assert (body["code"], body["deal"]) == ("correction-refused", 3)
    assert body["errors"][0]["message"] == ("it would come after the final deal 2, which plays "
                                            "the pool off.")
    assert Deal.objects.get(session=session, number=2).current.record.get("final") is not True


def test_the_import_refuses_a_deal_after_a_final_deal_its_redeal_flush_ended(
        club, scorer_client, viewer_client, django_capture_on_commit_callbacks):
    # the session's own file, with bob's ordinary deal 3 after the final deal: refused at that
    # line, as the service and the engine's replay refuse it
    from tests.reports.test_session_file_export import engine_errors, import_errors, lines_of

    session, _ = _flush_final(club, "three-trumps-redeal")
    lines = [*lines_of(viewer_client.get(url(session, "file"))),
             {"format": "loo-deal/1", "number": 3, **AFTER_REDEAL[0]}]
    at = len(lines)  # (the header, the buy-ins' lines, deals 1 and 2, then deal 3)
    errors = import_errors(scorer_client, django_capture_on_commit_callbacks, lines)
    # the engine's in the same words, field and deal (1.2.0: "final: deal 3 comes after deal
    # 2, the final deal, which plays the pool off", words of its own)
    assert errors == engine_errors(lines) == [
        {"line": at, "field": "final", "deal": 3,
         "message": (f"a deal after the final deal (line {at - 1}), which plays the pool off: "
                     "it is the session's last"), "code": "invalid"}]


def test_the_older_rules_warning_reads_the_last_deal_played_past_a_misdeal(club, scorer_client):
    # ann deals: bob 2 tricks, cat 1, dan and ann looed 3 (pool 6); bob misdeals (3 to the pool:
    # 9) and the table closes on it, his turn. The misdeal is void (bob is to deal again), so
    # the round ended with deal 1's loos, which are still in the pool: the older rule's warning
    # names them (it looked at the misdeal alone, which ended in none, and said nothing).
    # 9 from cat (bob would deal again): cat 3, dan 2, ann 2, bob 2.
    from games.services.deals import deal_record
    from games.services.sessions import session_create

    seats = PLAYERS[:4]
    session = session_create(club=club, date=dt.date(2026, 12, 4), seats=seats,
                             first_dealer="ann", rules={"game": "three-card"},
                             buy_ins=dict.fromkeys(seats, 20))
    deal_record(session=session, number=1,
                record={"dealer": "ann", "result": {"tricks": {"bob": 2, "cat": 1}}})
    deal_record(session=session, number=2, record={"dealer": "bob", "actions": [
        {"player": "bob", "action": "irregularity", "kind": "misdeal"}]})
    body = scorer_client.post(url(session, "close"), format="json").json()
    assert body["end_pool"] == {"mode": "split", "pool": 9, "eldest": "cat",
                                "shares": {"ann": 2, "bob": 2, "cat": 3, "dan": 2}}
    assert body["warnings"] == [
        "Players have not dealt equally often: ann 1, bob 1, cat 0, dan 0.",
        ("Deal 1, the last deal played (what came after it was void: a misdeal or a hand thrown "
        "in, to be dealt again), ended in a loo (ann paid 3, dan paid 3): by the older rule the "
        "round is played on until a deal without a loo.")]


#: poker-Loo, dan deals the series' first deal (ann AH KH QH 3C 4C, bob AS KS 5D 6D 7D, cat 2S
#: 3S 4S 8D 9D, dan 5S 6S 7S TD KC; 2H turned): bob exposes 7D at trick 2, "as revoke"
THROWN_IN = """
    ann AH; bob 5D; cat 8D; dan 5S
    ann KH; bob ! exposed-card 7D; bob 6D
"""


def test_the_older_rules_warning_is_not_given_for_a_poker_loo_throw_in_burn(club, scorer_client):
    # the first deal, P = 6 + 3 x 5 = 21: bob's exposed card burns him 21 at once and throws
    # the hand in (pool 42), dan to deal it again with bob sitting out, and the table closes.
    # The burn is a penalty paid with the hand never played to a result, not a loo ending a
    # round: no older-rule warning (it said "The last deal ended in a loo (bob paid 21)").
    # Chips: ann 45, bob 24, cat 45, dan 44; 42 split from ann (left of dan, to deal again):
    # ann, bob 11, cat, dan 10; returned ann 56, bob 35, cat 55, dan 54 (200).
    from games.rules import actions_from_text
    from games.services.deals import deal_record
    from games.services.sessions import session_create

    seats = PLAYERS[:4]
    session = session_create(club=club, date=dt.date(2026, 12, 4), seats=seats,
                             first_dealer="dan", rules={"game": "poker-loo"},
                             buy_ins=dict.fromkeys(seats, 50))
    hands = {"ann": ["AH", "KH", "QH", "3C", "4C"], "bob": ["AS", "KS", "5D", "6D", "7D"],
             "cat": ["2S", "3S", "4S", "8D", "9D"], "dan": ["5S", "6S", "7S", "TD", "KC"]}
    deal = deal_record(session=session, number=1, record={
        "dealer": "dan", "turnup": "2H", "hands": hands,
        "actions": actions_from_text(THROWN_IN)})
    verdict = deal.current.verdict
    assert (verdict["ended"], verdict["settlement"]["loo_payments"]) == ("thrown-in", {"bob": 21})
    body = scorer_client.post(url(session, "close"), format="json").json()
    assert body["end_pool"] == {"mode": "split", "pool": 42, "eldest": "ann",
                                "shares": {"ann": 11, "bob": 11, "cat": 10, "dan": 10}}
    assert body["returned"] == {"ann": 56, "bob": 35, "cat": 55, "dan": 54}
    assert body["warnings"] == ["Players have not dealt equally often: ann 0, bob 0, cat 0, dan 1."]


def test_the_pdf_adds_the_results_up_exactly_in_three_decimals(club, scorer_client):
    """The 5-seat table's PDF (BHD, 7 fils a chip): every result as the page writes it, the
    totals line and the chips check, 0.000 BHD."""
    import re

    from pypdf import PdfReader

    from games.reports.gather import session_report
    from games.reports.render import report_pdf

    session, _ = _closed_table(club, scorer_client, TABLES[1])
    pdf = report_pdf(session_report(session))
    text = re.sub(r"\s+", " ", " ".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf)).pages))
    assert "Chips: 100 bought = 100 returned + 0 in the pool; results add up to 0.000 BHD." in text
    for result in ("-0.007", "-0.028", "0.021"):
        assert result in text
    # bought 100 chips for 0.700, none owed; won in play -9 (the pool's), 9 shared back, 100
    # returned, results 0 chips and 0.000; 1 deal, 3 loos, no violation
    assert "Total 100 0.700 0.000 0.000 -9 9 100 0 0.000 1 3 0 " in text
