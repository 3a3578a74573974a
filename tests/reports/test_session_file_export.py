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
from games.models import (
    ChipPayment,
    ChipPurchase,
    Deal,
    DealRevision,
    GameSession,
    PurchaseVoid,
    SessionClosing,
)
from games.rules import replay_session
from games.services import limits
from games.services.closing import session_close, session_reopen
from games.services.deals import deal_correct, deal_record
from games.services.engine import rules_resolve
from games.services.limits import session_line
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
                 payment: dict[str, Any] | None = None, voided: str | None = None,
                 **purchase: Any) -> None:
    """``deals`` deals, ``purchases`` purchases (``purchase``'s fields), each voided for the
    reason ``voided`` when it is given, and ``payments`` payments (``payment``'s) made at once,
    with stand-in records (deal n's is ``record(n)``) and verdicts and no ledger postings: rows
    as many as the export reads, without the time it takes to replay and post each one (the
    test is about how many and how large, not about each)."""
    record = record or (lambda n: {"format": "loo-deal/1", "number": n})
    purchase = {"player": "bob", "chips": 1, "money": 1, **purchase}
    payment = {"player": "bob", "money": 1, **(payment or {})}
    made = Deal.objects.bulk_create(Deal(session=session, number=n, posting=2 * n)
                                    for n in range(1, deals + 1))
    revisions = DealRevision.objects.bulk_create(
        DealRevision(deal=d, revision=1, status="valid", dealer="ann", pool_before=0,
                     pool_after=0, record=record(d.number),
                     verdict={"next": {"dealer": "ann", "pool": 0}, "settlement": {}})
        for d in made)
    for deal, revision in zip(made, revisions, strict=True):
        deal.current = revision
    Deal.objects.bulk_update(made, ["current"])
    bought = ChipPurchase.objects.bulk_create(
        ChipPurchase(session=session, posting=2 * n + 1, **purchase) for n in range(purchases))
    if voided is not None:  # after every deal and purchase
        after = 2 * max(deals, purchases) + 1
        PurchaseVoid.objects.bulk_create(PurchaseVoid(purchase=p, posting=after + n, reason=voided)
                                         for n, p in enumerate(bought))
    ChipPayment.objects.bulk_create(
        ChipPayment(session=session, **payment) for _ in range(payments))


def reopened_to_the_limit(session: GameSession, reason: str = "the evening ended") -> None:
    """Closed and reopened as often as a session may be (``limits.MAX_REOPENS``), then closed:
    one reopening more is refused."""
    for _ in range(limits.MAX_REOPENS):
        session_close(session=session, reason=reason)
        session_reopen(session=session, user=None, reason=reason)
    session_close(session=session, reason=reason)
    with pytest.raises(Problem) as refused:
        session_reopen(session=session, user=None, reason=reason)
    assert (refused.value.status_code, refused.value.code,
            refused.value.extensions["max_reopenings"]) == (409, "session-full", 20)
    assert refused.value.detail == ("A session holds at most 20 reopenings: this one cannot be "
                                    "reopened again.")


def test_a_session_full_to_every_limit_exports_a_file_the_import_reads(club, ledger_may_break):
    """At the service's own limits: a session holding all the deals, purchases, payments and
    reopenings it may is refused one more of each, and its file (its close and reopen lines
    too) is one the import reads (one line more is not)."""
    session = session_create(club=club, date=dt.date(2026, 11, 28), seats=["ann", "bob"],
                             first_dealer="ann", rules={"preset": "three-card"})
    fill_in_bulk(session, limits.MAX_DEALS, limits.MAX_PURCHASES, limits.MAX_PAYMENTS,
                 voided="keyed twice")
    with pytest.raises(Problem) as refused:
        payment_record(session=session, player="bob", money=1)
    assert (refused.value.status_code, refused.value.extensions["max_payments"]) == (409, 2_000)
    with pytest.raises(Problem) as refused:
        purchase_record(session=session, player="bob", chips=1)
    assert (refused.value.status_code, refused.value.extensions["max_purchases"]) == (409, 2_000)
    with pytest.raises(Problem) as refused:
        deal_record(session=session, number=limits.MAX_DEALS + 1, record={})
    assert (refused.value.status_code, refused.value.extensions["max_deals"]) == (409, 1_000)
    reopened_to_the_limit(session)

    text = session_file_text(session)
    sf = parse_session_file(text)
    assert (sf.deals, len(sf.lines)) == (1_000, 7_041) == (
        limits.MAX_DEALS, limits.session_file_lines())

    def refusal(lines: list[str]) -> dict:
        with pytest.raises(ImportRefused) as refused:
            parse_session_file("".join(lines))
        [error] = refused.value.errors
        return error

    lines = text.splitlines(keepends=True)
    payment_lines = [i for i, line in enumerate(lines) if '"payment"' in line]
    # the payments come last, then the closings (they were all recorded before them)
    assert payment_lines == list(range(len(lines) - 2_041, len(lines) - 41))
    assert [json.loads(line) for line in lines[-41:]] == [
        {"close": {"reason": "the evening ended"}},
        {"reopen": {"reason": "the evening ended"}}] * 20 + [
        {"close": {"reason": "the evening ended"}}]
    payment = lines[-42]
    assert refusal([*lines, payment]) == {"line": 7_043, "message": (
        "more than 7,041 lines after the header: a session holds at most 1,000 deals, 2,000 "
        "purchases and as many voids, 2,000 payments and 20 reopenings, a close line before "
        "each and one more; split the file")}
    voids = [i for i, line in enumerate(lines) if '"void"' in line]
    # the voids after every deal and purchase (they were posted so), before the payments
    assert voids == list(range(len(lines) - 4_041, len(lines) - 2_041))
    void = lines[voids[-1]]
    assert refusal([*lines[:voids[0]], *[void] * 2_001]) == {
        "line": voids[0] + 2_001, "message": (
            "void 2,001: a session holds at most 2,000 purchases, each voided once at most")}
    lines = lines[:-4_041]  # deals and purchases: the caps between them, as before
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
    dearest price, the largest refund), the name, and every close and reopen line's reason, the
    session reopened as often as it may be. The file is no larger than the bounds say, and the
    import reads it."""
    session = session_create(club=club, date=dt.date(2026, 11, 28), seats=["ann", "bob"],
                             first_dealer="ann", rules={"preset": "three-card"},
                             name=WIDEST * limits.MAX_NAME_CHARS)
    fill_in_bulk(session, limits.MAX_DEALS, limits.MAX_PURCHASES, limits.MAX_PAYMENTS,
                 record=lambda n: padded({"number": n, "pool": limits.MAX_POOL},
                                         limits.MAX_RECORD_BYTES),
                 payment={"player": WIDEST * 32, "money": -limits.MAX_MONEY,
                          "memo": WIDEST * limits.MAX_MEMO_CHARS},
                 player=WIDEST * 32, chips=limits.MAX_CHIPS, money=limits.MAX_MONEY,
                 paid=False, memo=WIDEST * limits.MAX_MEMO_CHARS,
                 voided=WIDEST * limits.MAX_VOID_REASON_CHARS)
    reopened_to_the_limit(session, reason=WIDEST * limits.MAX_REASON_CHARS)
    text = session_file_text(session)
    data = text.encode()
    header, *lines = data.splitlines()
    assert {len(line) for line in lines if b'"loo-deal/1"' in line} == {limits.MAX_RECORD_BYTES}
    assert {len(line) for line in lines if line.startswith(b'{"purchase"')} == {
        limits.purchase_line_bytes()}
    assert {len(line) for line in lines if b'"payment"' in line} == {limits.payment_line_bytes()}
    # a void line names its purchase by its place: the last one's, 2,000, is the widest
    voids = [len(line) for line in lines if line.startswith(b'{"void"')]
    assert len(voids) == limits.MAX_PURCHASES and voids[-1] == max(voids) == limits.void_line_bytes()
    assert {len(line) for line in lines[-41::2]} == {limits.close_line_bytes()}
    assert {len(line) for line in lines[-40::2]} == {limits.reopen_line_bytes()}
    assert len(lines) == limits.session_file_lines()
    # at every bound the file is the largest the bounds allow, to the byte (but the header,
    # whose bound is room to spare, and the places the void lines name, 1 to 2,000, which the
    # bound counts as wide as the last)
    widest_voids = limits.MAX_PURCHASES * (limits.void_line_bytes() + 1)
    assert widest_voids - sum(n + 1 for n in voids) == 9 * 3 + 90 * 2 + 900 * 1
    assert len(data) == len(header) + 1 + limits.MAX_DEALS * (limits.MAX_RECORD_BYTES + 1) \
        + limits.MAX_PURCHASES * (limits.purchase_line_bytes() + 1) \
        + widest_voids - (9 * 3 + 90 * 2 + 900 * 1) \
        + limits.MAX_PAYMENTS * (limits.payment_line_bytes() + 1) \
        + 21 * (limits.close_line_bytes() + 1) + 20 * (limits.reopen_line_bytes() + 1) \
        == limits.session_file_bytes() - (limits.MAX_HEADER_BYTES - len(header)) \
        - (9 * 3 + 90 * 2 + 900 * 1)
    assert len(data) <= limits.session_file_bytes() < limits.max_file_bytes() == 30 * limits.MIB
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
        "dealer": big, "each": big}, "loo": "mixed", "loo_amount": big, "loo_cap": big,
        "single_loo": big})
    rules = {"preset": "five-card-unlimited", **options.to_options()}
    assert rules_resolve(rules) == options.to_options()  # rules a session takes
    names = [f"{n:02d}".ljust(32, "x") for n in range(max(hi for _lo, hi in SEAT_LIMITS.values()))]
    widest = GameSession(name=WIDEST * limits.MAX_NAME_CHARS, date=dt.date(2026, 11, 28),
                         seats=names, first_dealer=names[-1], rules=rules,
                         resolved_rules=options.to_options(), banker=names[0],
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


def credit_session(club, member_for) -> GameSession:
    """ann loses 4 chips more than she bought (credit allowed) in deal 1; cat rebuys 5 chips
    on credit and pays 0.20 of it while the session is open."""
    session = session_create(club=club, date=dt.date(2026, 11, 30), seats=kit.SEATS,
                             first_dealer="ann", rules={"game": "three-card"}, chip_value=10,
                             allow_credit=True, buy_ins={"ann": 2, "bob": 20, "cat": 20, "dan": 20},
                             user=member_for("scorer").user)
    deal_record(session=session, number=1,
                record={"format": "loo-deal/1", "result": {"tricks": {"bob": 3}}})
    purchase_record(session=session, player="cat", chips=5, paid=False, memo="rebuy")
    payment_record(session=session, player="cat", money=20, memo="part")
    return session


def test_a_closed_credit_session_imports_back_closed_with_its_later_payments(
        club, member_for, viewer_client, scorer_client, django_capture_on_commit_callbacks):
    # closed, ann's buy-back is -2 chips (-4 and a share of the pool's 2): she owes the banker
    # 0.20, and pays it after the close. The file once had no closing, so the copy was open and
    # the import refused her payment as more than her debt for chips: a stored session whose
    # file the import refused. Now the file closes the copy where the session was closed
    session = credit_session(club, member_for)
    closed = scorer_client.post(url(session, "close"), {"reason": "the evening ended"},
                                format="json")
    assert closed.status_code == 200 and closed.json()["returned"]["ann"] == -2
    assert scorer_client.post(url(session, "payments/"), {
        "player": "ann", "money": 20, "memo": "lost on credit"}, format="json").status_code == 201
    lines = lines_of(viewer_client.get(url(session, "file")))
    assert lines[-4:] == [  # the rebuy, the payment before the close, the close, the one after
        {"purchase": {"player": "cat", "chips": 5, "money": 50, "paid": False, "memo": "rebuy"}},
        {"payment": {"player": "cat", "money": 20, "memo": "part"}},
        {"close": {"reason": "the evening ended"}},
        {"payment": {"player": "ann", "money": 20, "memo": "lost on credit"}}]
    assert len(list(replay_session(lines))) == 1  # the engine's reader passes over the close
    copy = reimported(session, viewer_client, scorer_client, django_capture_on_commit_callbacks)
    assert copy.status == GameSession.Status.CLOSED
    original, copied = (SessionClosing.objects.get(session=s) for s in (session, copy))
    fields = ("end_pool_mode", "end_pool", "end_pool_shares", "returned", "warnings", "reason")
    assert [getattr(copied, f) for f in fields] == [getattr(original, f) for f in fields]
    assert copied.by == member_for("scorer").user  # the importer closes the copy
    assert payments(copy) == payments(session)
    reports = [viewer_client.get(url(s, "report")).json() for s in (session, copy)]
    assert reports[1]["players"] == reports[0]["players"]
    assert reports[1]["through_banker"] == reports[0]["through_banker"]
    # ann's 0.40 paid (the buy-in, the loss on credit), bought back at -0.20; cat's 0.30 owed
    assert [(p["paid_money"], p["owed_money"], p["returned_chips"], p["owed_to_banker"])
            for p in reports[1]["players"]] == [(40, 0, -2, 0), (200, 0, 25, 0),
                                                (220, 30, 25, 0), (200, 0, 19, 0)]
    assert viewer_client.get(url(copy, "ledger")).json()["totals"] == \
        viewer_client.get(url(session, "ledger")).json()["totals"]
    assert viewer_client.get(url(copy, "file")).content == \
        viewer_client.get(url(session, "file")).content.replace(
            f'"name":"{session.name}"'.encode(), f'"name":"{copy.name}"'.encode())


def import_errors(client, capture, lines: list[dict]) -> list[dict]:
    """The errors of a file of these lines, imported by ``client`` (it must be refused)."""
    text = "".join(json.dumps(line) + "\n" for line in lines)
    with capture(execute=True):
        job = client.post(IMPORTS, {"source": text}, format="json").json()
    job = client.get(job["url"]).json()
    assert job["status"] == "failed" and job["session"] is None, job
    return job["errors"]


def engine_errors(lines: list[dict]) -> list[dict]:
    """The engine's refusal of a session file of these lines (``replay_session``) in the
    import's shape: each error's line, message (less the engine's "line N: "), those of
    field, deal, index, player and card it names, and the code the import's answer gives it."""
    from games.rules import RecordError
    from loo_ledger.problems import coded_errors

    with pytest.raises(RecordError) as caught:
        list(replay_session(lines))
    return coded_errors([{k: v for k, v in e.items() if v is not None}
                         | {"message": e["message"].removeprefix(f"line {e['line']}: ")}
                         for e in caught.value.errors], "validation-error")


@pytest.mark.parametrize("how, offset, message", [
    ("deal after", 1, ("a deal after the close line (line {close}): a closed session takes none, "
                      "so only payments come between a close line and the reopen line that "
                      "reopens the session")),
    ("purchase after", 1, "a purchase after the close line (line {close})"),
    ("second close", 2, ("a close line in a closed session (closed at line {close}): a reopen "
                        "line comes between two close lines")),
    ("beyond the closing", 1, ("ann owes the banker 20 after the closing (0 for chips, 20 for "
                              "chips lost on credit): 21 cannot be paid now.")),
    ("not an object", 0, 'a close line is {{"close": {{"reason": text}}}}'),
    ("long reason", 0, "the closing's reason is 1,001 characters long; it may be at most 1,000"),
])
def test_a_bad_close_line_is_refused_naming_its_line(
        club, member_for, viewer_client, scorer_client, django_capture_on_commit_callbacks,
        how, offset, message):
    session = credit_session(club, member_for)
    session_close(session=session, reason="done")
    *before, close = lines_of(viewer_client.get(url(session, "file")))
    assert close == {"close": {"reason": "done"}}
    deal = next(line for line in before if line.get("format") == "loo-deal/1")
    rebuy, pay = before[-2], {"payment": {"player": "ann", "money": 20}}
    after = {
        "deal after": [close, {**deal, "number": 2}],
        "purchase after": [close, rebuy],
        "second close": [close, pay, close],
        "beyond the closing": [close, {"payment": {"player": "ann", "money": 21}}],
        "not an object": [{"close": "done"}],
        "long reason": [{"close": {"reason": "x" * 1_001}}],
    }[how]
    errors = import_errors(scorer_client, django_capture_on_commit_callbacks, [*before, *after])
    close_line = len(before) + 1
    assert errors[0]["line"] == close_line + offset, errors
    assert errors[0]["message"].startswith(message.format(close=close_line)), errors
    assert GameSession.objects.filter(club=club).count() == 1  # nothing was stored
    if how in ("deal after", "purchase after", "second close"):
        # the engine's replay refuses it alike, first: the same line, words, field (the line's
        # kind, a deal's "close") and deal number (up to 1.2.0 a deal's words were the engine's
        # own, after the record's). (The deal's own errors, a dealer and a pool the ledger
        # does not expect, each says in its words: the service's deal checks, the engine's.)
        assert engine_errors([*before, *after])[:1] == errors[:1]
        assert errors[0]["field"] == {"deal after": "close", "purchase after": "purchase",
                                      "second close": "close"}[how]
        assert errors[0].get("deal") == (2 if how == "deal after" else None)


def test_a_close_line_without_the_final_deal_is_refused_as_the_closing_refuses(
        club, scorer_client, django_capture_on_commit_callbacks):
    # end_pool: final-deal, deal 1 leaves the pool 3 (the dealer's ante): the closing needs a
    # final deal first, and the close line is refused as the closing would refuse it
    header = {**kit.header(), "rules": {"game": "three-card", "end_pool": "final-deal"},
              "buy_ins": dict.fromkeys(kit.SEATS, 20)}
    errors = import_errors(scorer_client, django_capture_on_commit_callbacks,
                           [header, kit.deal_record(1), {"close": {}}])
    assert errors[0]["line"] == 3, errors
    assert errors[0]["message"].startswith("The rules say end_pool: final-deal and "), errors


def test_a_payment_toward_chips_lost_on_credit_before_the_close_line_says_where_it_goes(
        club, member_for, viewer_client, scorer_client, django_capture_on_commit_callbacks):
    # a hand-made file with ann's payment after the close put before the close line: an open
    # session takes no payment beyond the debt for chips; the error says where it belongs
    session = credit_session(club, member_for)
    session_close(session=session)
    payment_record(session=session, player="ann", money=20)
    *before, close, pay = lines_of(viewer_client.get(url(session, "file")))
    errors = import_errors(scorer_client, django_capture_on_commit_callbacks,
                           [*before, pay, close])
    assert [e["line"] for e in errors] == [len(before) + 1]
    assert errors[0]["message"].startswith("ann owes 0 for chips and cannot pay 20. A payment "
                                           "made after closing toward chips lost on credit comes "
                                           "after the session's close line")


# --- sessions closed and reopened: the file carries the history --------------------------------

def same_session(original: GameSession, copy: GameSession, client) -> None:
    """The copy holds what the original does: status, deals as settled, purchases, payments,
    the ledger's totals, the standing closing's figures (when closed) and the report's money."""
    from games.selectors import standing_closing

    original.refresh_from_db()
    copy.refresh_from_db()
    assert copy.status == original.status
    assert settled(copy) == settled(original)
    assert purchases(copy) == purchases(original)
    assert payments(copy) == payments(original)
    assert client.get(url(copy, "ledger")).json()["totals"] == \
        client.get(url(original, "ledger")).json()["totals"]
    if original.status == GameSession.Status.CLOSED:
        fields = ("end_pool_mode", "end_pool", "end_pool_shares", "returned", "warnings", "reason")
        closings = [standing_closing(s) for s in (original, copy)]
        assert [getattr(closings[1], f) for f in fields] == [getattr(closings[0], f) for f in fields]
    reports = [client.get(url(s, "report")).json() for s in (original, copy)]
    for part in ("players", "through_banker", "transfers"):
        assert reports[1][part] == reports[0][part], part


def closing_log(session: GameSession) -> list[tuple[str, str]]:
    return list(SessionClosing.objects.filter(session=session).order_by("at", "id")
                .values_list("action", "reason"))


def test_a_session_reopened_after_a_payment_while_closed_imports_back(
        club, member_for, viewer_client, scorer_client, owner_client,
        django_capture_on_commit_callbacks):
    # closed, ann owes the banker 0.20 (chips lost on credit) and pays it; cat is refunded 0.10
    # by the owner; the session is reopened, dealt on and closed again. The file once had one
    # close line, the last, with both payments before it: an open session takes neither
    session = credit_session(club, member_for)
    assert scorer_client.post(url(session, "close"), {"reason": "first"},
                              format="json").status_code == 200
    assert scorer_client.post(url(session, "payments/"), {
        "player": "ann", "money": 20, "memo": "lost on credit"}, format="json").status_code == 201
    assert owner_client.post(url(session, "payments/"), {
        "player": "cat", "money": -10, "memo": "refund"}, format="json").status_code == 201
    assert owner_client.post(url(session, "reopen"), {"reason": "one more deal"},
                             format="json").status_code == 200
    deal_record(session=session, number=2,
                record={"format": "loo-deal/1", "result": {"tricks": {"cat": 3}}})
    assert scorer_client.post(url(session, "close"), {"reason": "second"},
                              format="json").status_code == 200
    lines = lines_of(viewer_client.get(url(session, "file")))
    tail = lines[lines.index({"close": {"reason": "first"}}):]
    assert tail[:4] == [
        {"close": {"reason": "first"}},
        {"payment": {"player": "ann", "money": 20, "memo": "lost on credit"}},
        {"payment": {"player": "cat", "money": -10, "memo": "refund"}},
        {"reopen": {"reason": "one more deal"}}]
    assert tail[4]["format"] == "loo-deal/1" and tail[5:] == [{"close": {"reason": "second"}}]
    assert len(list(replay_session(lines))) == 2  # the engine passes over close and reopen
    # a scorer may not refund after a close: the file is refused before anything is stored,
    # naming the refund's line
    errors = import_errors(scorer_client, django_capture_on_commit_callbacks, lines)
    assert errors == [{"line": lines.index(tail[2]) + 1, "player": "cat", "field": "money", "message": (
        "After closing, only an owner may refund a payment: it reopens a debt the closing had "
        "settled. The importer is not an owner of this club."), "code": "invalid"}]
    copy = reimported(session, viewer_client, owner_client, django_capture_on_commit_callbacks)
    same_session(session, copy, viewer_client)
    assert closing_log(copy) == closing_log(session) == [
        ("close", "first"), ("reopen", "one more deal"), ("close", "second")]


def test_a_session_reopened_and_open_imports_back_open_with_its_closing_and_reopening(
        hand_session, viewer_client, owner_client, django_capture_on_commit_callbacks):
    # closed, cat pays 10.00 of his 30.00 on credit while it is closed, reopened and still
    # open: the file has the close, the payment and the reopen after the last deal, no close
    # after them
    session_close(session=hand_session, reason="end of the evening")
    payment_record(session=hand_session, player="cat", money=1000, memo="cash")
    assert owner_client.post(url(hand_session, "reopen"), {"reason": "deal 40 miscounted"},
                             format="json").status_code == 200
    payment_record(session=hand_session, player="cat", money=500, memo="more")
    lines = lines_of(viewer_client.get(url(hand_session, "file")))
    assert lines[-4:] == [
        {"close": {"reason": "end of the evening"}},
        {"payment": {"player": "cat", "money": 1000, "memo": "cash"}},
        {"reopen": {"reason": "deal 40 miscounted"}},
        {"payment": {"player": "cat", "money": 500, "memo": "more"}}]
    copy = reimported(hand_session, viewer_client, owner_client,
                      django_capture_on_commit_callbacks)
    assert copy.status == GameSession.Status.OPEN
    same_session(hand_session, copy, viewer_client)
    assert closing_log(copy) == closing_log(hand_session)
    assert viewer_client.get(url(copy, "file")).content == \
        viewer_client.get(url(hand_session, "file")).content  # the same name, the same file


@pytest.mark.parametrize("how, message", [
    ("no close before", ("a reopen line with no close line before it to reverse: only a closed "
                         "session is reopened, so a reopen line follows its close line (and "
                         "the payments made while the session was closed)")),
    ("reopened twice", "a reopen line with no close line before it to reverse"),
    ("no reason", "A reason is required: say why the session is reopened."),
    ("blank reason", "A reason is required: say why the session is reopened."),
    ("long reason", "The reopening's reason is 1,001 characters long; it may be at most 1,000."),
    ("not text", "The reopening's reason must be text."),
    ("not an object", 'a reopen line is {"reopen": {"reason": text}}'),
])
def test_a_bad_reopen_line_is_refused_naming_its_line(
        club, member_for, viewer_client, owner_client, django_capture_on_commit_callbacks,
        how, message):
    session = credit_session(club, member_for)
    lines = lines_of(viewer_client.get(url(session, "file")))
    close, reopen = {"close": {"reason": "done"}}, {"reopen": {"reason": "again"}}
    after = {
        "no close before": [reopen],
        "reopened twice": [close, reopen, reopen],
        "no reason": [close, {"reopen": {}}],
        "blank reason": [close, {"reopen": {"reason": "  "}}],
        "long reason": [close, {"reopen": {"reason": "x" * 1_001}}],
        "not text": [close, {"reopen": {"reason": 7}}],
        "not an object": [close, {"reopen": "again"}],
    }[how]
    errors = import_errors(owner_client, django_capture_on_commit_callbacks, [*lines, *after])
    assert [e["line"] for e in errors] == [len(lines) + len(after)], errors
    assert errors[0]["message"].startswith(message), errors
    assert GameSession.objects.filter(club=club).count() == 1  # nothing was stored
    if how in ("no close before", "reopened twice"):  # the engine's replay refuses it alike
        assert engine_errors([*lines, *after]) == errors == [
            {"line": len(lines) + len(after), "field": "reopen", "message": errors[0]["message"],
             "code": "invalid"}]


def test_a_file_reopened_more_often_than_a_session_may_be_is_refused_unread(
        club, member_for, viewer_client):
    session = credit_session(club, member_for)
    lines = [session_line(line) + "\n" for line in
             lines_of(viewer_client.get(url(session, "file")))]
    cycle = [session_line({"close": {"reason": "done"}}) + "\n",
             session_line({"reopen": {"reason": "again"}}) + "\n"]
    assert len(parse_session_file("".join(lines + cycle * 20)).lines) == len(lines) - 1 + 40
    with pytest.raises(ImportRefused) as refused:
        parse_session_file("".join(lines + cycle * 21))
    assert refused.value.errors == [{"line": len(lines) + 42, "message": (
        "reopening 21: a session is reopened at most 20 times")}]


def test_a_reopening_says_why_in_at_most_1000_characters(closed_session_of_credit):
    session, owner_client = closed_session_of_credit
    for reason, message in [
            ("", "A reason is required: say why the session is reopened."),
            (" " * 3, "A reason is required: say why the session is reopened."),
            ("x" * 1_001, ("The reopening's reason is 1,001 characters long; it may be at "
                           "most 1,000."))]:
        refused = problem(owner_client.post(url(session, "reopen"), {"reason": reason},
                                            format="json"), 400)
        assert refused["errors"] == [{"field": "reason", "message": message, "code": "invalid"}]
    # at the bound once stripped, as stored and as the file carries it
    done = owner_client.post(url(session, "reopen"), {"reason": f" {'x' * 1_000} "},
                             format="json")
    assert done.status_code == 200 and done.json()["reason"] == "x" * 1_000


@pytest.fixture
def closed_session_of_credit(club, member_for, owner_client):
    session = credit_session(club, member_for)
    session_close(session=session)
    return session, owner_client


def test_a_payment_under_a_closing_corrected_since_imports_back(
        club, member_for, viewer_client, owner_client, django_capture_on_commit_callbacks):
    # closed, ann's buy-back is -2 chips: she pays the 0.20 she owes. The session is reopened
    # and deal 1 corrected (ann took every trick), then closed again. The copy's first closing
    # is worked out from deal 1 as corrected (ann bought back at +4), which leaves her owing
    # nothing: her payment is held to what any closing leaves (with credit: anything), not to
    # that closing's figures, or the file of a stored session would be refused
    session = credit_session(club, member_for)
    session_close(session=session, reason="first")
    payment_record(session=session, player="ann", money=20, memo="lost on credit")
    session_reopen(session=session, user=None, reason="deal 1 misread")
    deal_correct(session=session, number=1, reason="ann took them",
                 record={"format": "loo-deal/1", "result": {"tricks": {"ann": 3}}})
    session_close(session=session, reason="second")
    copy = reimported(session, viewer_client, owner_client, django_capture_on_commit_callbacks)
    same_session(session, copy, viewer_client)
    assert closing_log(copy) == closing_log(session)
    first = [SessionClosing.objects.filter(session=s).order_by("at", "id").first().returned["ann"]
             for s in (session, copy)]
    assert first == [-2, 4]  # the reversed closing as it was, and as worked out again


def test_a_final_deal_session_reopened_to_play_on_imports_back(
        club, viewer_client, owner_client, django_capture_on_commit_callbacks):
    # end_pool: final-deal. Closed after the final deal (3), reopened, deal 3 corrected into an
    # ordinary deal to play on (it leaves 1 unit), a final deal 4, closed again. The copy's
    # first closing, worked out from deal 3 as corrected, has no final deal before it: a
    # closing the file reopens later is not refused for it (the file once carried the last
    # close only, and this session imported back)
    from tests.reports.test_final_deal import DEFENDED, FINAL

    session = session_create(club=club, date=dt.date(2026, 11, 29), seats=kit.SEATS,
                             first_dealer="ann",
                             rules={"game": "three-card", "end_pool": "final-deal"},
                             chip_value=10, buy_ins=dict.fromkeys(kit.SEATS, 20))
    first = kit.deal_record(1)
    first.pop("pool")
    for number, record in enumerate([first, DEFENDED, FINAL], start=1):
        deal_record(session=session, number=number, record=record)
    session_close(session=session, reason="the final deal was played")
    session_reopen(session=session, user=None, reason="one more round")
    deal_correct(session=session, number=3, reason="not the final deal after all",
                 record={"format": "loo-deal/1", "dealer": "cat", "turnup": "9C",
                         "result": {"tricks": {"dan": 2, "bob": 1}}})
    deal_record(session=session, number=4, record={
        "format": "loo-deal/1", "dealer": "dan", "turnup": "9C", "final": True,
        "result": {"tricks": {"dan": 1, "ann": 1, "bob": 1}}})
    session_close(session=session, reason="now it was")
    copy = reimported(session, viewer_client, owner_client, django_capture_on_commit_callbacks)
    same_session(session, copy, viewer_client)
    reversed_closing = SessionClosing.objects.filter(session=copy).order_by("at", "id").first()
    assert (reversed_closing.end_pool, reversed_closing.warnings[-1]) == (1, (
        "No final deal was played: the 1 units in the pool were split from ann (a closing a "
        "session file reopens later, its deals corrected since)."))


def test_without_credit_a_payment_under_a_reopened_closing_is_at_most_the_debt(
        club, member_for, viewer_client, owner_client, django_capture_on_commit_callbacks):
    # a hand-made file: cat owes 0.50 for chips bought on credit and pays 0.60 under a closing
    # the file reopens later. Without credit no closing leaves more owing than the chips cost
    session = session_create(club=club, date=dt.date(2026, 11, 30), seats=kit.SEATS,
                             first_dealer="ann", rules={"game": "three-card"}, chip_value=10,
                             buy_ins=dict.fromkeys(kit.SEATS, 20))
    purchase_record(session=session, player="cat", chips=5, paid=False)
    lines = lines_of(viewer_client.get(url(session, "file")))
    errors = import_errors(owner_client, django_capture_on_commit_callbacks, [
        *lines, {"close": {"reason": "done"}}, {"payment": {"player": "cat", "money": 60}},
        {"reopen": {"reason": "again"}}])
    assert errors == [{"line": len(lines) + 2, "player": "cat", "field": "money", "message": (
        "cat owes 50 for chips and cannot pay 60: without credit no closing leaves more owing "
        "than the chips cost."), "code": "invalid"}]


def test_no_login_is_no_owner_for_a_refund_after_the_close(club, member_for):
    # an owner member without a login (a club's records may hold one) made every caller
    # without a login (user=None: the shell's import without --user) an owner for a refund
    from accounts.services import member_ensure
    from games.services.payments import may_refund_after_close

    member_ensure(club=club, name="eve-owner", role="owner")
    session = credit_session(club, member_for)
    session_close(session=session)
    with pytest.raises(Problem) as refused:
        payment_record(session=session, player="cat", money=-20, user=None)
    assert (refused.value.status_code, refused.value.code) == (403, "permission-denied")
    assert may_refund_after_close(club.pk, member_for("owner").user)
    assert not may_refund_after_close(club.pk, member_for("scorer").user)


def test_a_close_stamped_before_the_deal_it_follows_exports_after_it(
        hand_session, viewer_client, owner_client, monkeypatch, django_capture_on_commit_callbacks):
    """A deal or purchase goes before the close line of the closing it came before by the
    postings' order (the closing posts after it, under the session's lock), not by time stamps:
    with the clock stepped back an hour between deal 54 and the close after it, the file put
    the close line first and deal 54 after it, a deal in a closed session, so the file of a
    stored session did not import back."""
    import datetime as dt

    from django.utils import timezone

    session_close(session=hand_session, reason="first")
    assert owner_client.post(url(hand_session, "reopen"), {"reason": "one more"},
                             format="json").status_code == 200
    record = kit.deal_record(54)
    record.pop("pool")
    deal = deal_record(session=hand_session, number=54, record=record)
    earlier = deal.created_at - dt.timedelta(hours=1)
    monkeypatch.setattr(timezone, "now", lambda: earlier)  # the clock stepped back an hour
    session_close(session=hand_session, reason="second")
    monkeypatch.undo()
    lines = lines_of(viewer_client.get(url(hand_session, "file")))
    assert lines[-2]["format"] == "loo-deal/1" and lines[-2]["number"] == 54
    assert lines[-1] == {"close": {"reason": "second"}}
    copy = reimported(hand_session, viewer_client, owner_client, django_capture_on_commit_callbacks)
    same_session(hand_session, copy, viewer_client)


def test_a_session_whose_rules_resolve_otherwise_now_imports_back_with_the_rules_it_plays(
        club, member_for, viewer_client, scorer_client, django_capture_on_commit_callbacks):
    # opened before an ante object kept the part it leaves out at its default (Engine 1.2.0):
    # {"each": 1} resolved then to a dealer's ante of 0, and the session keeps playing so
    # (``resolved_rules``). Its file must carry the rules it plays, not the words it was
    # opened with, which resolve to 3/1 now: the copy anted 3 more a deal.
    given = {"game": "three-card", "ante": {"each": 1}}
    session = session_create(club=club, date=dt.date(2026, 11, 30), seats=kit.SEATS,
                             first_dealer="ann", rules=given, chip_value=10,
                             buy_ins={s: 20 for s in kit.SEATS}, user=member_for("scorer").user)
    then = rules_resolve({"game": "three-card", "ante": {"dealer": 0, "each": 1}})
    GameSession.objects.filter(pk=session.pk).update(resolved_rules=then)
    session.refresh_from_db()
    for number, winner in enumerate(["bob", "cat", "dan"], start=1):
        deal_record(session=session, number=number,
                    record={"format": "loo-deal/1", "result": {"tricks": {winner: 3}}})
    assert session.deals.get(number=1).current.pool_before == 0
    assert session.deals.get(number=1).current.verdict["settlement"]["antes"] == \
        {"bob": 1, "cat": 1, "dan": 1}  # the dealer (ann) antes nothing, each other player 1

    copy = reimported(session, viewer_client, scorer_client, django_capture_on_commit_callbacks)
    assert copy.resolved_rules == session.resolved_rules
    same_session(session, copy, viewer_client)
