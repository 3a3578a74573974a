"""GET .../sessions/{id}/file: a stored session written back as a session file, which imports
to the same chips, pool and deals and replays through the engine's own session reader."""
from __future__ import annotations

import datetime as dt
import io
import itertools
import json
from collections.abc import Callable
from typing import Any

import pytest

from games.imports.api import JSONLinesParser
from games.imports.export import session_file_text
from games.imports.services import ImportRefused, parse_session_file
from games.models import ChipPayment, ChipPurchase, Deal, DealRevision, GameSession
from games.rules import replay_session
from games.services import limits
from games.services.deals import deal_correct, deal_record
from games.services.payments import payment_record
from games.services.sessions import purchase_record, session_create
from loo_ledger.problems import Problem
from tests.api.conftest import padded, problem
from tests.reports import sessionkit as kit
from tests.reports.conftest import url

IMPORTS = "/api/v1/clubs/oak/imports/"


def lines_of(response) -> list[dict]:
    return [json.loads(line) for line in response.content.decode().splitlines()]


def purchases(session: GameSession) -> list[tuple]:
    return [(p.player, p.chips, p.money, p.paid, p.memo)
            for p in ChipPurchase.objects.filter(session=session).order_by("posting")]


def payments(session: GameSession) -> list[tuple]:
    return [(p.player, p.money, p.memo)
            for p in ChipPayment.objects.filter(session=session).order_by("pk")]


def settled(session: GameSession) -> list[tuple]:
    return [(d.number, d.current.dealer, d.current.pool_before, d.current.deltas,
             d.current.pool_after) for d in session.deals.select_related("current").order_by("number")]


def reimported(session: GameSession, viewer_client, scorer_client, capture) -> GameSession:
    """The session exported by a viewer, then imported by a scorer: the session it made."""
    text = viewer_client.get(url(session, "file")).content.decode()
    with capture(execute=True):
        job = scorer_client.post(IMPORTS, {"source": text}, format="json").json()
    job = scorer_client.get(job["url"]).json()
    assert job["status"] == "done", job
    return GameSession.objects.get(pk=job["session"])


def test_the_file_holds_the_session_as_it_stands(hand_session, viewer_client):
    response = viewer_client.get(url(hand_session, "file"))
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/jsonl")
    assert response["Content-Disposition"] == f'attachment; filename="session-{hand_session.pk}.jsonl"'
    header, *lines = lines_of(response)
    assert header["format"] == "loo-session/1" and header["seats"] == kit.SEATS
    assert (header["first_dealer"], header["pool"], header["banker"]) == ("ann", 0, "club")
    assert header["chip_value"] == kit.CHIP_VALUE and header["buy_ins"] == {}
    deals = [line for line in lines if "purchase" not in line]
    assert [d["number"] for d in deals] == list(range(1, kit.N_DEALS + 1))
    # deal 9 as corrected, not as first noted
    assert deals[8] == {**hand_session.deals.get(number=9).current.record, "format": "loo-deal/1"}
    # the buy-ins open the file, each rebuy comes after the deal it followed
    bought = [line["purchase"] for line in lines if "purchase" in line]
    assert [(b["player"], b["chips"], b["memo"]) for b in bought[:4]] == [
        (seat, kit.header()["buy_ins"][seat], "buy-in") for seat in kit.SEATS]
    rebuys = []
    for before, line in itertools.pairwise(lines):
        if "purchase" in line and line["purchase"]["memo"] == "rebuy":
            after = before.get("number") or rebuys[-1][0]  # a second rebuy follows the first
            rebuys.append((after, line["purchase"]["player"], line["purchase"]["chips"],
                           line["purchase"]["paid"]))
    assert rebuys == kit.REBUYS


def test_the_file_imports_to_the_same_chips_pool_and_deals(hand_session, viewer_client,
                                                            scorer_client,
                                                            django_capture_on_commit_callbacks):
    copy = reimported(hand_session, viewer_client, scorer_client,
                      django_capture_on_commit_callbacks)
    assert settled(copy) == settled(hand_session)
    assert purchases(copy) == purchases(hand_session)
    assert viewer_client.get(url(copy, "ledger")).json()["totals"] == \
        viewer_client.get(url(hand_session, "ledger")).json()["totals"]


def test_the_engine_replays_the_file_to_the_stored_verdicts(hand_session, viewer_client):
    lines = lines_of(viewer_client.get(url(hand_session, "file")))
    verdicts = list(replay_session(lines))
    stored = [d.current.verdict for d in hand_session.deals.select_related("current").order_by("number")]
    assert [v["settlement"] for v in verdicts] == [v["settlement"] for v in stored]
    assert [v["violations"] for v in verdicts] == [v["violations"] for v in stored]


def test_the_file_answers_either_json_lines_name(hand_session, viewer_client):
    for media in ("application/jsonl", "application/x-ndjson", "*/*"):
        response = viewer_client.get(url(hand_session, "file"), HTTP_ACCEPT=media)
        assert response.status_code == 200, media
        assert response["Content-Type"].split(";")[0] in ("application/jsonl", media)


def test_the_file_refusals(hand_session, outsider_client, anon_client, viewer_client):
    assert outsider_client.get(url(hand_session, "file")).status_code == 404
    assert anon_client.get(url(hand_session, "file")).status_code == 401
    missing = viewer_client.get(f"/api/v1/clubs/oak/sessions/{hand_session.pk + 99}/file")
    assert missing.status_code == 404 and missing["Content-Type"] == "application/problem+json"


def test_line_separators_inside_a_name_or_memo_survive_the_round_trip(hand_session, viewer_client,
                                                                      scorer_client,
                                                                      django_capture_on_commit_callbacks):
    # JSON leaves U+2028, U+2029 and U+0085 unescaped in a string; a JSON Lines reader must not
    # break a line there
    from games.services.sessions import purchase_record

    GameSession.objects.filter(pk=hand_session.pk).update(name="Fri\u2028day\u0085night")
    purchase_record(session=hand_session, player="ann", chips=1, memo="a\u2029b")
    copy = reimported(hand_session, viewer_client, scorer_client,
                      django_capture_on_commit_callbacks)
    assert copy.name == "Fri\u2028day\u0085night"
    assert purchases(copy) == purchases(hand_session)


def fill_in_bulk(session: GameSession, deals: int, purchases: int, payments: int = 0,
                 record: Callable[[int], dict[str, Any]] | None = None,
                 payment: dict[str, Any] | None = None, **purchase: Any) -> None:
    """``deals`` deals, ``purchases`` purchases (``purchase``'s fields) and ``payments``
    payments (``payment``'s) made at once, with stand-in records (deal n's is ``record(n)``) and
    verdicts and no ledger postings: rows as many as the export reads, without the time it takes
    to replay and post each one (the test is about how many and how large, not about each)."""
    record = record or (lambda n: {"format": "loo-deal/1", "number": n})
    purchase = {"player": "bob", "chips": 1, "money": 1, **purchase}
    payment = {"player": "bob", "money": 1, **(payment or {})}
    made = Deal.objects.bulk_create(Deal(session=session, number=n, posting=2 * n)
                                    for n in range(1, deals + 1))
    revisions = DealRevision.objects.bulk_create(
        DealRevision(deal=d, revision=1, status="valid", dealer="ann", pool_before=0,
                     pool_after=0, record=record(d.number),
                     verdict={"next": {"dealer": "ann", "pool": 0}}) for d in made)
    for deal, revision in zip(made, revisions, strict=True):
        deal.current = revision
    Deal.objects.bulk_update(made, ["current"])
    ChipPurchase.objects.bulk_create(
        ChipPurchase(session=session, posting=2 * n + 1, **purchase) for n in range(purchases))
    ChipPayment.objects.bulk_create(
        ChipPayment(session=session, **payment) for _ in range(payments))


def test_a_session_full_to_every_limit_exports_a_file_the_import_reads(club, ledger_may_break):
    """At the service's own limits: a session holding all the deals, purchases and payments it
    may is refused one more of each, and its file is one the import reads (one line more is
    not)."""
    session = session_create(club=club, date=dt.date(2026, 11, 28), seats=["ann", "bob"],
                             first_dealer="ann", rules={"preset": "three-card"})
    fill_in_bulk(session, limits.MAX_DEALS, limits.MAX_PURCHASES, limits.MAX_PAYMENTS)
    with pytest.raises(Problem) as refused:
        payment_record(session=session, player="bob", money=1)
    assert (refused.value.status_code, refused.value.extensions["max_payments"]) == (409, 2_000)
    with pytest.raises(Problem) as refused:
        purchase_record(session=session, player="bob", chips=1)
    assert (refused.value.status_code, refused.value.extensions["max_purchases"]) == (409, 2_000)
    with pytest.raises(Problem) as refused:
        deal_record(session=session, number=limits.MAX_DEALS + 1, record={})
    assert (refused.value.status_code, refused.value.extensions["max_deals"]) == (409, 1_000)

    text = session_file_text(session)
    sf = parse_session_file(text)
    assert (sf.deals, len(sf.lines)) == (1_000, 5_000) == (
        limits.MAX_DEALS, limits.session_file_lines())

    def refusal(lines: list[str]) -> dict:
        with pytest.raises(ImportRefused) as refused:
            parse_session_file("".join(lines))
        [error] = refused.value.errors
        return error

    lines = text.splitlines(keepends=True)
    payment_lines = [i for i, line in enumerate(lines) if '"payment"' in line]
    assert payment_lines == list(range(len(lines) - 2_000, len(lines)))  # the payments come last
    payment = lines[-1]
    assert refusal([*lines, payment]) == {"line": 5_002, "message": (
        "more than 5,000 lines after the header: a session holds at most 1,000 deals, 2,000 "
        "purchases and 2,000 payments; split the file")}
    lines = lines[:-2_000]  # deals and purchases: the caps between them, as before
    last_deal = max(i for i, line in enumerate(lines) if '"loo-deal/1"' in line)
    last_purchase = max(i for i, line in enumerate(lines) if '"purchase"' in line)
    purchase, deal = lines[last_purchase], lines[last_deal]
    # a payment more in place of a purchase: refused at the line past the payments' cap
    assert refusal([*lines[:-1], payment, *[payment] * 2_000]) == {
        "line": len(lines) + 2_000, "message": (
            "payment 2,001: a session holds at most 2,000 payments; split the file")}
    # a purchase more and a deal fewer, or the other way round: as many lines as a file holds,
    # refused at the line past the cap (the file's last line either way)
    assert last_purchase == len(lines) - 1
    lines[last_deal] = purchase
    assert refusal(lines) == {"line": last_purchase + 1, "message": (
        "purchase 2,001: a session holds at most 2,000 purchases (the header's buy-ins among "
        "them); split the file")}
    lines[last_deal], lines[last_purchase] = deal, deal
    assert refusal(lines) == {"line": last_purchase + 1, "message": (
        "deal 1,001: a session holds at most 1,000 deals; split the file")}


def test_a_session_at_its_limits_exports_and_imports_back_and_takes_no_more(
        hand_session, viewer_client, scorer_client, django_capture_on_commit_callbacks,
        monkeypatch):
    """The whole way round, through the API, with the limits lowered to what the session holds."""
    held = ChipPurchase.objects.filter(session=hand_session).count()  # buy-ins and rebuys
    monkeypatch.setattr(limits, "MAX_DEALS", kit.N_DEALS)  # (1,000 in service)
    monkeypatch.setattr(limits, "MAX_PURCHASES", held)  # (2,000 in service)
    copy = reimported(hand_session, viewer_client, scorer_client,
                      django_capture_on_commit_callbacks)
    assert settled(copy) == settled(hand_session)
    assert purchases(copy) == purchases(hand_session)
    for session in (hand_session, copy):
        more = problem(scorer_client.post(url(session, "purchases/"),
                                          {"player": "ann", "chips": 20}, format="json"), 409)
        assert (more["code"], more["max_purchases"]) == ("session-full", held)
        assert more["detail"].startswith(f"A session holds at most {held} purchases: close")
        deal = problem(scorer_client.post(url(session, "deals/"), {
            "number": kit.N_DEALS + 1, "record": kit.deal_record(kit.N_DEALS + 1)},
            format="json"), 409)
        assert (deal["code"], deal["max_deals"]) == ("session-full", kit.N_DEALS)
    assert ChipPurchase.objects.filter(session=copy).count() == held


#: a character JSON writes as six bytes (\u0001), the most any character takes in a line
WIDEST = "\x01"


def test_a_session_at_every_count_and_size_bound_exports_under_the_import_cap(club,
                                                                            ledger_may_break):
    """The import's byte cap holds at full scale: every deal's line as large as it can be (a
    record at its bound, its pool the largest the ledger holds), every purchase's and every
    payment's too (the widest characters in the longest player and memo; the most chips at the
    dearest price, the largest refund), and the name. The file is no larger than the bounds
    say, and the import reads it."""
    session = session_create(club=club, date=dt.date(2026, 11, 28), seats=["ann", "bob"],
                             first_dealer="ann", rules={"preset": "three-card"},
                             name=WIDEST * limits.MAX_NAME_CHARS)
    fill_in_bulk(session, limits.MAX_DEALS, limits.MAX_PURCHASES, limits.MAX_PAYMENTS,
                 record=lambda n: padded({"number": n, "pool": limits.MAX_POOL},
                                         limits.MAX_RECORD_BYTES),
                 payment={"player": WIDEST * 32, "money": -limits.MAX_MONEY,
                          "memo": WIDEST * limits.MAX_MEMO_CHARS},
                 player=WIDEST * 32, chips=limits.MAX_CHIPS, money=limits.MAX_MONEY,
                 paid=False, memo=WIDEST * limits.MAX_MEMO_CHARS)
    text = session_file_text(session)
    data = text.encode()
    header, *lines = data.splitlines()
    assert {len(line) for line in lines if b'"loo-deal/1"' in line} == {limits.MAX_RECORD_BYTES}
    assert {len(line) for line in lines if b'"purchase"' in line} == {limits.purchase_line_bytes()}
    assert {len(line) for line in lines if b'"payment"' in line} == {limits.payment_line_bytes()}
    assert len(lines) == limits.session_file_lines()
    # at every bound the file is the largest the bounds allow, to the byte (but the header,
    # whose bound is room to spare)
    assert len(data) == len(header) + 1 + limits.MAX_DEALS * (limits.MAX_RECORD_BYTES + 1) \
        + limits.MAX_PURCHASES * (limits.purchase_line_bytes() + 1) \
        + limits.MAX_PAYMENTS * (limits.payment_line_bytes() + 1) \
        == limits.session_file_bytes() - (limits.MAX_HEADER_BYTES - len(header))
    assert len(data) <= limits.session_file_bytes() < limits.max_file_bytes() == 27 * limits.MIB
    assert JSONLinesParser().parse(io.BytesIO(data)) == {"source": text}  # no 413
    sf = parse_session_file(text)
    assert (sf.deals, len(sf.lines)) == (limits.MAX_DEALS, limits.session_file_lines())


def test_a_session_at_its_size_bounds_exports_and_imports_back(
        club, member_for, viewer_client, scorer_client, django_capture_on_commit_callbacks,
        monkeypatch):
    """The whole way round at the size bounds, real deals through the services: records of
    exactly ``MAX_RECORD_BYTES``, memos (of purchases, of payments and refunds taken by the
    API) and a name of the widest characters at their bounds. The file holds them byte for
    byte, goes up raw and imports to the same session, payments and all."""
    monkeypatch.setattr(limits, "MAX_DEALS", 4)  # (1,000 in service: the sizes are the point)
    monkeypatch.setattr(limits, "MAX_PURCHASES", 8)  # (2,000): the buy-ins and a rebuy a deal
    monkeypatch.setattr(limits, "MAX_PAYMENTS", 8)  # (2,000): a payment and a refund a deal
    memo = WIDEST * limits.MAX_MEMO_CHARS
    h = kit.header()
    session = session_create(club=club, date=dt.date(2026, 11, 28), seats=kit.SEATS,
                             first_dealer="ann", rules=h["rules"], chip_value=kit.CHIP_VALUE,
                             name=(WIDEST + "\u2028\u00e9") * (limits.MAX_NAME_CHARS // 3),
                             buy_ins=h["buy_ins"], user=member_for("scorer").user)
    with pytest.raises(Problem) as refused:  # a byte more is refused
        deal_record(session=session, number=1, record=padded(
            kit.deal_record(1), limits.MAX_RECORD_BYTES + 1, WIDEST, seats=kit.SEATS))
    assert refused.value.extensions["max_record_bytes"] == limits.MAX_RECORD_BYTES
    for number in range(1, limits.MAX_DEALS + 1):
        record = padded(kit.deal_record(number), limits.MAX_RECORD_BYTES, WIDEST, seats=kit.SEATS)
        deal_record(session=session, number=number, record=record)
        purchase_record(session=session, player=kit.dealer_of(number), chips=5, paid=False,
                        memo=memo)
        for money in (5 * kit.CHIP_VALUE, -1):  # the rebuy paid, then a unit of it refunded
            assert scorer_client.post(url(session, "payments/"), {
                "player": kit.dealer_of(number), "money": money, "memo": memo},
                format="json").status_code == 201
    assert ChipPayment.objects.filter(session=session).count() == limits.MAX_PAYMENTS

    data = viewer_client.get(url(session, "file")).content
    assert [json.loads(line)["payment"]["memo"] for line in data.splitlines()
            if b'"payment"' in line] == [memo] * limits.MAX_PAYMENTS
    deals = [line for line in data.splitlines() if b'"loo-deal/1"' in line]
    assert [limits.record_bytes(json.loads(line)) for line in deals] == \
        [limits.MAX_RECORD_BYTES] * limits.MAX_DEALS
    assert all(len(line) <= limits.MAX_RECORD_BYTES for line in deals)
    assert len(data) <= limits.session_file_bytes()
    with django_capture_on_commit_callbacks(execute=True):
        job = scorer_client.generic("POST", IMPORTS, data, content_type="application/x-ndjson")
    assert job.status_code == 202, job.content
    job = scorer_client.get(job.json()["url"]).json()
    assert job["status"] == "done", job
    copy = GameSession.objects.get(pk=job["session"])
    assert copy.name == session.name
    assert settled(copy) == settled(session)
    assert purchases(copy) == purchases(session)
    assert payments(copy) == payments(session)
    assert [d.current.record for d in copy.deals.select_related("current").order_by("number")] \
        == [d.current.record for d in session.deals.select_related("current").order_by("number")]


def test_the_largest_header_a_session_can_have_is_far_below_its_bound():
    """``MAX_HEADER_BYTES`` (8 KiB) is room to spare: the widest name at its bound, the most
    seats any game has (16) with the longest names, and rules spelling out every option, with
    the largest amounts, come to under 3 KiB."""
    from games.rules import RuleSet
    from games.rules.options import SEAT_LIMITS
    from games.services.engine import rules_resolve
    from games.services.sessions import session_header

    big = 10**9
    options = RuleSet.from_options({"preset": "five-card-unlimited", "ante": {
        "dealer": big, "each": big}, "loo_amount": big, "loo_cap": big, "single_loo": big})
    rules = {"preset": "five-card-unlimited", **options.to_options()}
    assert rules_resolve(rules) == options.to_options()  # rules a session takes
    names = [f"{n:02d}".ljust(32, "x") for n in range(max(hi for _lo, hi in SEAT_LIMITS.values()))]
    widest = GameSession(name=WIDEST * limits.MAX_NAME_CHARS, date=dt.date(2026, 11, 28),
                         seats=names, first_dealer=names[-1], rules=rules, banker=names[0],
                         chip_value=limits.MAX_CHIPS, currency="GBP", allow_credit=True)
    assert 2_000 < limits.line_bytes(session_header(widest)) < 3 * 1024 < limits.MAX_HEADER_BYTES


def test_a_record_at_its_bound_imports_back_after_a_correction_widens_its_pool(
        club, viewer_client, scorer_client, django_capture_on_commit_callbacks):
    """A correction re-settles every later deal with the pool it now finds, which may take more
    digits than the pool it was recorded with. The bound measures a record with its pool at the
    widest, so the re-settled line is no larger than measured, and the import takes it back."""
    session = session_create(club=club, date=dt.date(2026, 11, 28), seats=kit.SEATS,
                             first_dealer="ann", rules={"preset": "three-card", "loo_amount": 5},
                             allow_credit=True)
    # deal 1 (ann deals a simple pool, P = 3): bob, cat, dan a trick each, ann looed 5: pool 5
    first = {"format": "loo-deal/1", "dealer": "ann", "turnup": "9C",
             "result": {"tricks": {"bob": 1, "cat": 1, "dan": 1}}}
    deal_record(session=session, number=1, record=first)
    # deal 2 (bob deals, pool 5): everyone before him passes; at the bound
    second = {k: v for k, v in kit.dealer_takes("bob", 5).items() if k != "pool"}
    deal_record(session=session, number=2, record=padded(
        second, limits.MAX_RECORD_BYTES, seats=kit.SEATS, number=2))
    # deal 1 corrected: bob 2 tricks, cat 1, ann and dan looed 5 each: pool 10 before deal 2
    deal_correct(session=session, number=1, reason="bob took two",
                 record={**first, "result": {"tricks": {"bob": 2, "cat": 1}}})
    resettled = session.deals.select_related("current").get(number=2).current
    assert (resettled.revision, resettled.pool_before) == (2, 10)

    data = viewer_client.get(url(session, "file")).content
    assert max(len(line) for line in data.splitlines()) <= limits.MAX_RECORD_BYTES
    with django_capture_on_commit_callbacks(execute=True):
        job = scorer_client.generic("POST", IMPORTS, data, content_type="application/x-ndjson")
    job = scorer_client.get(job.json()["url"]).json()
    assert job["status"] == "done", job
    assert settled(GameSession.objects.get(pk=job["session"])) == settled(session)


def test_money_paid_later_travels_in_the_file_and_the_copy_settles_the_same(
        hand_session, viewer_client, scorer_client, django_capture_on_commit_callbacks):
    # cat bought 120 chips on credit (30.00); he pays 10.00, 2.50 of it counted twice and
    # refunded. Without payment lines the copy had cat owe 30.00 and its banker lines differed
    payment_record(session=hand_session, player="cat", money=1000, memo="cash")
    payment_record(session=hand_session, player="cat", money=-250, memo="counted twice")
    lines = lines_of(viewer_client.get(url(hand_session, "file")))
    assert lines[-2:] == [{"payment": {"player": "cat", "money": 1000, "memo": "cash"}},
                          {"payment": {"player": "cat", "money": -250, "memo": "counted twice"}}]
    assert list(replay_session(lines))  # the engine's reader passes over them
    copy = reimported(hand_session, viewer_client, scorer_client,
                      django_capture_on_commit_callbacks)
    assert payments(copy) == payments(hand_session)
    assert viewer_client.get(url(copy, "ledger")).json()["totals"] == \
        viewer_client.get(url(hand_session, "ledger")).json()["totals"]
    reports = []
    for session in (hand_session, copy):
        assert scorer_client.post(url(session, "close"), {}, format="json").status_code == 200
        reports.append(viewer_client.get(url(session, "report")).json())
    original, imported = reports
    assert imported["players"] == original["players"]
    assert imported["through_banker"] == original["through_banker"]
    assert imported["transfers"] == original["transfers"]
    history = ("corrected_deals", "resettled_deals")  # revisions stay out of the file
    assert {k: v for k, v in imported["totals"].items() if k not in history} == \
        {k: v for k, v in original["totals"].items() if k not in history}
    cat = next(p for p in imported["players"] if p["name"] == "cat")
    assert (cat["paid_money"], cat["owed_money"]) == (500 + 750, 3000 - 750)  # buy-in paid


def test_a_payment_toward_chips_lost_on_credit_says_how_to_import_it(
        club, viewer_client, scorer_client, django_capture_on_commit_callbacks):
    # ann loses 4 chips more than she bought (credit allowed), pays 0.40 once the session is
    # closed: an open session takes no payment beyond the debt for chips, so the copy cannot
    # have it; the import says so and what to do, rather than dropping the money
    import datetime as dt

    from games.services.closing import session_close
    from games.services.deals import deal_record
    from games.services.payments import payment_record
    from games.services.sessions import session_create

    session = session_create(club=club, date=dt.date(2026, 11, 30), seats=kit.SEATS,
                             first_dealer="ann", rules={"game": "three-card"}, chip_value=10,
                             allow_credit=True, buy_ins={"ann": 2, "bob": 20, "cat": 20, "dan": 20})
    deal_record(session=session, number=1,
                record={"format": "loo-deal/1", "result": {"tricks": {"bob": 3}}})
    assert session_close(session=session).returned["ann"] == -2  # -4 and a share of 2
    payment_record(session=session, player="ann", money=20, memo="lost on credit")
    text = viewer_client.get(url(session, "file")).content.decode()
    with django_capture_on_commit_callbacks(execute=True):
        job = scorer_client.post(IMPORTS, {"source": text}, format="json").json()
    job = scorer_client.get(job["url"]).json()
    assert job["status"] == "failed"
    [error] = job["errors"]
    assert error["line"] == len(text.splitlines()) and error["player"] == "ann"
    assert error["message"].startswith("ann owes 0 for chips and cannot pay 20. A payment made "
                                       "after closing toward chips lost on credit")
