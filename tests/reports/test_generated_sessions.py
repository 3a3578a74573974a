"""Engine-generated sessions, imported, closed and reported: the report agrees with the engine's
own replay of the same file, results sum to zero and the transfers settle every result."""
from __future__ import annotations

import csv
import io
import json
import random

import pytest

pytestmark = pytest.mark.django_db

CASES = [("three-card", 4), ("three-card-unlimited", 5), ("irish", 4), ("five-card", 5),
         ("poker-loo", 4), ("undivided", 4)]


@pytest.mark.parametrize(("preset", "players"), CASES)
def test_generated_session_report(club, preset, players):
    from games.imports.models import ImportJob
    from games.imports.services import run_import
    from games.reports.gather import session_report
    from games.reports.render import report_csv
    from games.rules import replay_session
    from games.rules.simulate import random_session
    from games.services.closing import session_close

    seats = ["ann", "bob", "cat", "dan", "eve"][:players]
    lines = random_session({"preset": preset}, seats, 30, random.Random(f"{preset}-{players}"))
    lines[0] = {**lines[0], "allow_credit": True, "chip_value": 7}
    text = "\n".join(json.dumps(x) for x in lines)
    job = run_import(ImportJob.objects.create(club=club, source=text).pk)
    assert job.status == "done", job.errors

    verdicts = list(replay_session(lines))  # the engine's own replay, independent of the service
    won = {s: sum(v["settlement"]["deltas"].get(s, 0) for v in verdicts) for s in seats}
    pool_left = verdicts[-1]["settlement"]["pool_after"]

    closing = session_close(session=job.session)
    assert closing.end_pool == pool_left
    report = session_report(job.session)
    players_ = {p.name: p for p in report.players}
    assert {s: players_[s].won_chips for s in seats} == won
    assert sum(p.result_money for p in report.players) == 0
    assert all(p.result_money == p.result_chips * 7 for p in report.players)
    assert all(p.returned_chips == p.bought_chips + won[p.name] + p.end_pool_share
               for p in report.players)
    settled = {p.name: p.result_money for p in report.players}
    for t in report.transfers:
        settled[t.payer] += t.amount
        settled[t.payee] -= t.amount
    assert set(settled.values()) <= {0}
    assert len(report.transfers) <= max(sum(1 for p in report.players if p.result_money) - 1, 0)
    rows = list(csv.DictReader(io.StringIO(report_csv(report, "deals"))))
    assert len(rows) == 30
    assert [int(r["pool_after"]) for r in rows] == [v["settlement"]["pool_after"] for v in verdicts]
