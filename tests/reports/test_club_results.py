"""The club's results over many sessions: the same figures as each session's report, read in
a number of queries that does not grow with the sessions or their deals."""
from __future__ import annotations

import datetime as dt
import random

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

pytestmark = pytest.mark.django_db

SEATS = ["ann", "bob", "cat"]


def closed_session(club, day: dt.date, deals: int, seed: int, *, reopen: bool = False):
    """A session of ``deals`` random deals with a rebuy on credit and a voided purchase, closed
    (and, with ``reopen``, reopened: open again, so in no results)."""
    from games.rules.simulate import play_random_deal
    from games.selectors import session_next
    from games.services.closing import session_close, session_reopen
    from games.services.deals import deal_record
    from games.services.sessions import purchase_record, purchase_void, session_create

    rng = random.Random(seed)
    session = session_create(club=club, date=day, seats=SEATS, first_dealer="ann",
                             rules={"preset": "three-card"}, chip_value=25 + seed,
                             allow_credit=True, buy_ins=dict.fromkeys(SEATS, 20))
    for number in range(1, deals + 1):
        nxt = session_next(session)
        dealt = play_random_deal({"preset": "three-card"}, SEATS, nxt.dealer, pool=nxt.pool,
                                 rng=rng, first_of_series=nxt.first_of_series, number=number)
        deal_record(session=session, number=number, record=dealt.record)
    purchase_record(session=session, player="bob", chips=5 + seed, paid=False)
    wrong = purchase_record(session=session, player="cat", chips=50)
    purchase_void(session=session, purchase_id=wrong.pk, reason="keyed twice")
    session_close(session=session)
    if reopen:
        session_reopen(session=session, user=None, reason="recount")
    return session


def queries_of_the_results(club) -> int:
    from games.reports.club import club_results

    with CaptureQueriesContext(connection) as captured:
        club_results(club, None, None)
    return len(captured.captured_queries)


def test_the_results_read_as_many_queries_for_ten_sessions_as_for_one(club):
    """Each closed session's whole report (every deal's verdict) was gathered to take its chips
    bought and returned: 70 ms and 7 queries a session of 100 deals, seconds for a club's year."""
    closed_session(club, dt.date(2026, 11, 1), 3, 1)
    one = queries_of_the_results(club)
    for k in range(2, 11):
        closed_session(club, dt.date(2026, 11, k), 3, k)
    assert queries_of_the_results(club) == one


def test_the_results_are_each_sessions_report_added_up(club):
    from games.reports.club import club_results
    from games.reports.gather import session_report

    sessions = [closed_session(club, dt.date(2026, 11, k), 4, k) for k in (1, 2, 3)]
    closed_session(club, dt.date(2026, 11, 4), 2, 4, reopen=True)  # open again: left out
    closed_session(club, dt.date(2026, 12, 1), 2, 5)  # out of the range
    want: dict[str, dict[str, int]] = {s: {"sessions": 0, "chips_bought": 0, "money_bought": 0,
                                           "result": 0} for s in SEATS}
    results = {s: [] for s in SEATS}
    for session in sessions:
        for p in session_report(session).players:
            row = want[p.name]
            row["sessions"] += 1
            row["chips_bought"] += p.bought_chips
            row["money_bought"] += p.bought_money
            row["result"] += p.result_money
            results[p.name].append(p.result_money)
    rows = club_results(club, dt.date(2026, 11, 1), dt.date(2026, 11, 30))
    assert {r.player: {"sessions": r.sessions, "chips_bought": r.chips_bought,
                       "money_bought": r.money_bought, "result": r.result} for r in rows} == want
    assert {r.player: (r.best, r.worst) for r in rows} == {
        s: (max(v), min(v)) for s, v in results.items()}
    assert [r.result for r in rows] == sorted((r.result for r in rows), reverse=True)
