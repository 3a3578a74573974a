"""Every format of the report (JSON, CSV, the page, the PDF) says what the ledger says, for
sessions a treasurer meets on odd evenings: a correction, a purchase voided, a rebuy on credit
paid in part, a payment after the close, a reopening and a second close, a seat that bought
nothing and played on credit, a playing banker, and a chip value that makes the money large.

The expected figures are read from the ledger itself (``ledger_statement``: its timeline's
buy-back and end-pool rows, its purchases and debts), not from the report model, so a
renderer or the model going wrong on any of them fails here.
"""
from __future__ import annotations

import csv
import datetime as dt
import io
import random
import re

import pytest

from tests.reports.conftest import url
from tests.reports.test_close_and_report import Tables

pytestmark = pytest.mark.django_db

SEATS = ["ann", "bob", "cat", "dan", "eve"]
#: the largest chip value a session may have: 20 chips are 199,999,999.80 GBP
CHIP_VALUE = 999_999_999
#: typed by members: each would run as a formula in a spreadsheet if written as it is
HOSTILE = {"name": "=HYPERLINK(\"http://x.example/\",\"Night\")",
           "void": "@SUM(1+1)*cmd|' /C calc'!A0", "eve": "-eve+1", "memo": "+cash"}


def _play(session, user, number: int, rng: random.Random) -> None:
    """Record deal ``number``: a legal random three-card deal from where the session stands."""
    from games.rules.simulate import play_random_deal
    from games.selectors import session_next
    from games.services.deals import deal_record

    nxt = session_next(session)
    dealt = play_random_deal({"preset": "three-card"}, SEATS, nxt.dealer, pool=nxt.pool, rng=rng,
                             first_of_series=nxt.first_of_series, number=number)
    deal_record(session=session, number=number, record=dealt.record, user=user)


def _correct_a_deal(session, user, number: int, rng: random.Random) -> None:
    """Correct deal ``number`` to another legal deal dealt into the same pool by the same
    dealer (retried until the later deals it re-settles stay possible)."""
    from games.models import Deal
    from games.rules.simulate import play_random_deal
    from games.services.deals import deal_correct
    from loo_ledger.problems import Problem

    current = Deal.objects.get(session=session, number=number).current
    for _ in range(40):
        dealt = play_random_deal({"preset": "three-card"}, SEATS, current.dealer,
                                 pool=current.pool_before, rng=rng, number=number,
                                 first_of_series=current.verdict.get("first_of_series", True))
        try:
            deal_correct(session=session, number=number, record=dealt.record, user=user,
                         reason="=1+1 the tricks were miscounted")
            return
        except Problem:
            continue
    raise AssertionError(f"no correction of deal {number} was possible")


@pytest.fixture
def odd_session(club, member_for):
    """Closed, reopened, played on and closed again; see the module's docstring."""
    from accounts.models import Member
    from games.models import ChipPurchase
    from games.services.closing import session_close, session_reopen
    from games.services.payments import payment_record
    from games.services.sessions import purchase_record, purchase_void, session_create

    scorer, owner = member_for("scorer").user, member_for("owner").user
    Member.objects.filter(club=club, name="eve").update(display_name=HOSTILE["eve"])
    Member.objects.filter(club=club, name="bob").update(display_name="Robert Ellington-Smythe the Third")
    rng = random.Random(2026)
    session = session_create(
        club=club, date=dt.date(2026, 11, 28), seats=SEATS, first_dealer="ann",
        rules={"preset": "three-card"}, banker="bob", chip_value=CHIP_VALUE, currency="GBP",
        allow_credit=True, name=HOSTILE["name"],
        buy_ins={"ann": 20, "bob": 20, "cat": 20, "dan": 20}, user=scorer)  # eve buys nothing
    for number in range(1, 9):
        _play(session, scorer, number, rng)
        if number == 2:
            purchase_record(session=session, player="cat", chips=10, paid=False, memo=HOSTILE["memo"],
                            user=scorer)
        if number == 3:
            twice = purchase_record(session=session, player="dan", chips=5, user=scorer)
            purchase_void(session=session, purchase_id=twice.pk, reason=HOSTILE["void"], user=scorer)
        if number == 4:
            payment_record(session=session, player="cat", money=3 * CHIP_VALUE, memo="cash",
                           user=scorer)
    _correct_a_deal(session, scorer, 5, rng)
    session_close(session=session, user=scorer, reason="end")
    session_reopen(session=session, user=owner, reason="deal 5 again")
    _correct_a_deal(session, scorer, 5, rng)
    purchase_record(session=session, player="ann", chips=7, paid=False, user=scorer)
    for number in range(9, 12):
        _play(session, scorer, number, rng)
    session_close(session=session, user=scorer, reason="=end again")
    # eve lost chips on credit: after the close she pays the banker part of it
    payment_record(session=session, player="eve", money=3 * CHIP_VALUE, memo=HOSTILE["memo"],
                   user=scorer)
    session.refresh_from_db()
    assert ChipPurchase.objects.filter(session=session, void__isnull=False).count() == 1
    return session


def from_the_ledger(session) -> dict:
    """What the ledger says each seat bought, paid, was bought back and won, and the deals'
    deltas: the figures every format must show."""
    from games.services.ledger import ledger_statement

    statement = ledger_statement(session)
    rows = statement["rows"]
    kinds = [r["kind"] for r in rows]
    # the standing closing: the last end-pool and buy-back rows (an earlier, reopened closing
    # is netted out in its place and shows no row)
    buyback = rows[len(kinds) - 1 - kinds[::-1].index("buyback")]
    end_pool = [r for r in rows if r["kind"] == "end-pool"]
    returned = {s: -buyback["changes"].get(s, 0) for s in SEATS}
    bought = statement["totals"]["purchased"]
    deals = {r["deal"]: {s: r["changes"].get(s, 0) for s in SEATS}
             for r in rows if r["kind"] == "deal"}
    return {
        "bought": bought, "money": statement["totals"]["money"],
        "owed": statement["totals"]["owed"], "returned": returned,
        "shares": {s: end_pool[-1]["changes"].get(s, 0) if end_pool else 0 for s in SEATS},
        "results": {s: (returned[s] - bought[s]) * CHIP_VALUE for s in SEATS},
        "deals": deals, "pool_after": {r["deal"]: r["pool"] for r in rows if r["kind"] == "deal"},
    }


def money(units: int) -> str:
    from games.settlement import format_money

    return format_money(units, "GBP")


def grouped(units: int) -> str:
    from games.reports.render import group_digits

    return group_digits(money(units))


def test_json_says_what_the_ledger_says(odd_session, viewer_client):
    want = from_the_ledger(odd_session)
    data = viewer_client.get(url(odd_session, "report")).json()
    players = {p["name"]: p for p in data["players"]}
    assert {s: players[s]["bought_chips"] for s in SEATS} == want["bought"]
    assert {s: players[s]["bought_money"] for s in SEATS} == want["money"]
    assert {s: players[s]["owed_money"] for s in SEATS} == want["owed"]
    assert {s: players[s]["returned_chips"] for s in SEATS} == want["returned"]
    assert {s: players[s]["end_pool_share"] for s in SEATS} == want["shares"]
    assert {s: players[s]["result_money"] for s in SEATS} == want["results"]
    assert {s: players[s]["result"] for s in SEATS} == {s: money(v) for s, v in want["results"].items()}
    assert sum(want["results"].values()) == 0 and min(want["results"].values()) < 0
    assert want["bought"]["eve"] == 0  # the seat that bought nothing played on credit
    assert {d["number"]: {s: d["deltas"].get(s, 0) for s in SEATS}
            for d in data["deals"]} == want["deals"]
    assert {d["number"]: d["pool_after"] for d in data["deals"]} == want["pool_after"]
    assert {s: v[-1] for s, v in data["chips_series"].items()} == want["returned"]
    assert data["reopenings"] == 1 and data["totals"]["corrected_deals"] >= 1
    # eve, who bought nothing, lost 8 chips on credit and has paid 3 of them since the close
    assert want["returned"]["eve"] == -8
    assert players["eve"]["owed_to_banker"] == 5 * CHIP_VALUE
    assert players["eve"]["paid_money"] == 3 * CHIP_VALUE
    settled = dict(want["results"])
    for t in data["transfers"]:
        settled[t["payer"]] += t["amount"]
        settled[t["payee"]] -= t["amount"]
    assert set(settled.values()) == {0}


def csv_rows(client, session, table: str) -> list[dict[str, str]]:
    response = client.get(url(session, "report"), {"format": "csv", "table": table})
    assert response.status_code == 200
    return list(csv.DictReader(io.StringIO(response.content.decode())))


def test_csv_says_what_the_ledger_says_and_runs_nothing(odd_session, viewer_client):
    want = from_the_ledger(odd_session)
    players = {r["player"]: r for r in csv_rows(viewer_client, odd_session, "players")}
    for s in SEATS:
        row = players[s]
        assert int(row["bought_chips"]) == want["bought"][s]
        assert row["bought_money"] == money(want["money"][s])
        assert row["owed_money"] == money(want["owed"][s])
        assert int(row["returned_chips"]) == want["returned"][s]
        assert int(row["end_pool_share"]) == want["shares"][s]
        assert row["result_money"] == money(want["results"][s])
    assert players["eve"]["display_name"] == "'" + HOSTILE["eve"]
    deals = csv_rows(viewer_client, odd_session, "deals")
    assert {int(d["number"]): {s: int(d[f"delta_{s}"]) for s in SEATS} for d in deals} == want["deals"]
    purchases = csv_rows(viewer_client, odd_session, "purchases")
    voided = [p for p in purchases if p["voided"] == "yes"]
    assert [p["void_reason"] for p in voided] == ["'" + HOSTILE["void"]]
    assert sum(int(p["chips"]) for p in purchases if p["voided"] == "no") == sum(want["bought"].values())
    transfers = csv_rows(viewer_client, odd_session, "transfers")
    settled = dict(want["results"])
    for t in transfers:
        amount = int(t["amount"].replace(".", ""))
        settled[t["payer"]] += amount
        settled[t["payee"]] -= amount
    assert set(settled.values()) == {0}


def test_the_page_says_what_the_ledger_says(odd_session, client, member_for):
    want = from_the_ledger(odd_session)
    client.force_login(member_for("viewer").user)
    page = client.get(f"/clubs/oak/sessions/{odd_session.pk}/report/")
    assert page.status_code == 200
    html = page.content.decode()
    tables = Tables()
    tables.feed(html)
    rows = tables.tables["players"]["rows"]
    heads = tables.tables["players"]["heads"]
    col = {h: i for i, h in enumerate(heads)}
    by_seat = dict(zip(SEATS, rows, strict=False))  # the rows in seat order, then the total
    for s in SEATS:
        row = by_seat[s]
        assert row[col["Chips bought"]] == f"{want['bought'][s]:,}"
        assert row[col["Bought for (GBP)"]] == grouped(want["money"][s])
        assert row[col["Owed for chips (GBP)"]] == grouped(want["owed"][s])
        assert row[col["Pool share"]] == f"{want['shares'][s]:,}"
        assert row[col["Chips returned"]] == f"{want['returned'][s]:,}"
        assert row[col["Result (chips)"]] == f"{want['returned'][s] - want['bought'][s]:,}"
        assert row[col["Result (GBP)"]] == grouped(want["results"][s])
        assert f'data-result="{want["results"][s]}"' in html
    assert rows[len(SEATS)][col["Result (GBP)"]] == "0.00"
    deals = tables.tables["deals"]["rows"]
    assert [int(r[0].split()[0]) for r in deals] == sorted(want["deals"])
    assert [r[5] for r in deals] == [f"{want['pool_after'][n]:,}" for n in sorted(want["deals"])]


def test_the_pdf_says_what_the_ledger_says(odd_session, viewer_client):
    from pypdf import PdfReader

    want = from_the_ledger(odd_session)
    response = viewer_client.get(url(odd_session, "report"), {"format": "pdf"})
    assert response.status_code == 200
    reader = PdfReader(io.BytesIO(b"".join(response.streaming_content)))
    text = re.sub(r"\s+", " ", " ".join(p.extract_text() for p in reader.pages))
    for s in SEATS:
        assert grouped(want["results"][s]) in text, s
        assert grouped(want["money"][s]) in text, s
    assert "results add up to 0.00 GBP" in text


def test_reopened_every_format_says_the_chips_each_holds_now(odd_session, owner_client,
                                                             viewer_client, client, member_for):
    """Open again: no results anywhere, and the chips in hand are the ledger's balances."""
    from games.services.ledger import ledger_balances

    assert owner_client.post(url(odd_session, "reopen"), {"reason": "again"},
                             format="json").status_code == 200
    held = {s: ledger_balances(odd_session)[s] for s in SEATS}
    data = viewer_client.get(url(odd_session, "report")).json()
    assert data["final"] is False and data["pool_now"] == ledger_balances(odd_session)["pool"]
    assert {p["name"]: p["chips_now"] for p in data["players"]} == held
    assert {p["name"]: p["result_money"] for p in data["players"]} == dict.fromkeys(SEATS)
    assert {s: v[-1] for s, v in data["chips_series"].items()} == held
    rows = csv_rows(viewer_client, odd_session, "players")
    assert {r["player"]: (int(r["chips_now"]), r["result_money"]) for r in rows} == {
        s: (n, "") for s, n in held.items()}
    client.force_login(member_for("viewer").user)
    tables = Tables()
    tables.feed(client.get(f"/clubs/oak/sessions/{odd_session.pk}/report/").content.decode())
    players = tables.tables["players"]
    returned = players["heads"].index("Chips returned")
    assert [r[returned] for r in players["rows"][:len(SEATS)]] == [
        f"({held[s]:,} in hand)" for s in SEATS]
