"""A purchase's void in the session file: written by posting order, naming its purchase by its
place among the session's purchases (the header's buy-ins first), read back by the import,
which refuses a void that names no purchase, voids one twice or takes a player below zero
without credit, each as that line's error."""
from __future__ import annotations

import json
from typing import Any

import pytest

from games.imports.export import session_file_text
from games.imports.services import ImportRefused, parse_session_file, validate_session_file
from games.models import ChipPurchase, GameSession, PurchaseVoid
from games.services.deals import deal_record
from games.services.ledger import ledger_balances, ledger_check, money_owed
from games.services.sessions import purchase_record, purchase_void, session_create
from tests.api.conftest import DEALS, TABLE

pytestmark = pytest.mark.django_db


def table(club: Any, **overrides: Any) -> GameSession:
    return session_create(**{"club": club, "date": "2026-11-28", "seats": list(TABLE),
                             "first_dealer": "cat", "rules": {"preset": "three-card"},
                             "buy_ins": dict.fromkeys(TABLE, 20), "chip_value": 10,
                             **overrides})


def imported(club: Any, user: Any, text: str) -> GameSession:
    from games.imports.models import ImportJob
    from games.imports.services import run_import

    job = run_import(ImportJob.objects.create(club=club, created_by=user, source=text).pk)
    assert job.status == "done", (job.detail, job.errors)
    return job.session


def refusals(club: Any, text: str) -> list[dict[str, Any]]:
    with pytest.raises(ImportRefused) as refused:
        validate_session_file(club, parse_session_file(text))
    return refused.value.errors


def voids(session: GameSession) -> list[tuple[int, str, int, str]]:
    """(the purchase's place from 1, its player, chips, the void's reason) in posting order."""
    places = {pk: n for n, pk in enumerate(ChipPurchase.objects.filter(session=session)
                                           .order_by("posting").values_list("pk", flat=True), 1)}
    return [(places[v.purchase_id], v.purchase.player, v.purchase.chips, v.reason)
            for v in PurchaseVoid.objects.filter(purchase__session=session)
            .select_related("purchase").order_by("posting")]


def test_voids_export_in_posting_order_and_import_back(club, member_for):
    """Buy-ins (purchases 1-4), deal 1, dan's rebuy of 100 keyed for 10 (purchase 5, owed),
    voided and bought again (6), deal 2, ann's buy-in voided, deal 3."""
    user = member_for("owner").user
    session = table(club)
    deal_record(session=session, number=1, record=DEALS[0])
    slip = purchase_record(session=session, player="dan", chips=100, paid=False)
    purchase_void(session=session, purchase_id=slip.pk, reason="100 for 10", user=user)
    purchase_record(session=session, player="dan", chips=10, paid=False)
    deal_record(session=session, number=2, record=DEALS[1])
    ann = ChipPurchase.objects.get(session=session, player="ann", memo="buy-in")
    purchase_void(session=session, purchase_id=ann.pk, reason="ann sat out", user=user)
    deal_record(session=session, number=3, record=DEALS[2])
    text = session_file_text(session)
    kinds = [next(iter(line)) if "format" not in line else line.get("format")
             for line in map(json.loads, text.splitlines())]
    assert kinds == ["loo-session/1", *["purchase"] * 4, "loo-deal/1", "purchase", "void",
                     "purchase", "loo-deal/1", "void", "loo-deal/1"]
    assert [json.loads(line) for line in text.splitlines() if '"void"' in line] == [
        {"void": {"purchase": 5, "reason": "100 for 10"}},
        {"void": {"purchase": 1, "reason": "ann sat out"}}]
    copy = imported(club, user, text)
    assert ledger_check(copy) == [] and ledger_balances(copy) == ledger_balances(session)
    assert ledger_balances(copy)["ann"] == 34 - 20
    assert money_owed(copy) == money_owed(session) == {"ann": 0, "bob": 0, "cat": 0, "dan": 100}
    assert voids(copy) == voids(session) == [(5, "dan", 100, "100 for 10"),
                                             (1, "ann", 20, "ann sat out")]
    assert session_file_text(copy) == text


def header(**changes: Any) -> str:
    return json.dumps({"format": "loo-session/1", "seats": list(TABLE), "first_dealer": "cat",
                       "rules": {"preset": "three-card"}, "chip_value": 10,
                       "buy_ins": dict.fromkeys(TABLE, 20), **changes})


def file_of(*lines: Any, **header_changes: Any) -> str:
    return "\n".join([header(**header_changes),
                      *(json.dumps(x) for x in lines)]) + "\n"


def test_a_void_line_names_a_header_buy_in_by_its_seat_order(club, member_for):
    text = file_of({"void": {"purchase": 2, "reason": "bob never came"}}, DEALS[0])
    copy = imported(club, member_for("owner").user, text)
    assert voids(copy) == [(2, "bob", 20, "bob never came")]
    assert ledger_balances(copy)["bob"] == 0 + 1  # deal 1: bob +1


def test_bad_void_lines_are_each_that_lines_error(club):
    errors = refusals(club, file_of(
        {"purchase": {"player": "dan", "chips": 5}},          # line 2: purchase 5
        {"void": {"purchase": 6, "reason": "x"}},             # 3: names none (5 so far)
        {"void": {"purchase": 0, "reason": "x"}},             # 4: names none
        {"void": {"purchase": "5", "reason": "x"}},           # 5: not a place
        {"void": {"purchase": 5, "reason": "keyed twice"}},   # 6: good
        {"void": {"purchase": 5, "reason": "again"}},         # 7: voided already
        {"void": {"purchase": 2, "reason": "  "}},            # 8: no reason
        DEALS[0],                                             # 9: cat 20 -> 14
        {"void": {"purchase": 3, "reason": "x"}},             # 10: cat holds 14 of 20
        {"void": ["not", "an", "object"]},                    # 11
    ))
    said = {e["line"]: e["message"] for e in errors}
    assert sorted(said) == [3, 4, 5, 7, 8, 10, 11]
    assert "there are 5, so 6 names none" in said[3] and "so 0 names none" in said[4]
    assert 'so "5" names none' in said[5]
    assert said[7] == "purchase 5 was voided already (line 6): a purchase is voided once"
    assert said[8] == "A reason is required: say why the purchase is voided."
    assert said[10] == ("cat holds 14 chips and the void takes back 20: without credit a void "
                        "may not take a player below zero.")
    assert [e.get("player") for e in errors if e["line"] == 10] == ["cat"]
    assert said[11].startswith("a void line is")
    assert not PurchaseVoid.objects.exists()


def test_with_credit_a_void_line_may_take_a_player_below_zero(club, member_for):
    text = file_of(DEALS[0], {"void": {"purchase": 3, "reason": "cat bought none"}},
                   allow_credit=True)
    copy = imported(club, member_for("owner").user, text)
    assert ledger_balances(copy)["cat"] == 14 - 20
    assert ledger_check(copy) == []


def test_a_void_line_after_the_close_line_is_refused(club):
    errors = refusals(club, file_of({"close": {"reason": "done"}},
                                    {"void": {"purchase": 1, "reason": "x"}}))
    assert [e["line"] for e in errors] == [3]
    assert errors[0]["message"].startswith("a void after the close line (line 2)")


def test_a_file_with_more_voids_than_a_session_holds_purchases_is_refused_unread(monkeypatch,
                                                                                club):
    from games.services import limits

    monkeypatch.setattr(limits, "MAX_PURCHASES", 4)
    text = file_of(*[{"void": {"purchase": n, "reason": "x"}} for n in range(1, 6)])
    with pytest.raises(ImportRefused) as refused:
        parse_session_file(text)
    assert refused.value.errors == [{"line": 6, "message": (
        "void 5: a session holds at most 4 purchases, each voided once at most")}]


def test_a_payment_made_before_a_void_is_written_before_it(club, member_for):
    """dan buys 100 on credit, pays for them, and then the purchase is voided (keyed for the
    wrong player): the payment stands (refund it, or the closing pays it back), and the file
    writes it before the void, where it was made: after the void dan owes nothing, and the
    import would refuse a payment there."""
    from games.services.payments import payment_record

    user = member_for("owner").user
    session = table(club)
    slip = purchase_record(session=session, player="dan", chips=100, paid=False)
    payment_record(session=session, player="dan", money=1000, memo="cash", user=user)
    purchase_void(session=session, purchase_id=slip.pk, reason="it was ann's", user=user)
    payment_record(session=session, player="dan", money=-400, memo="part back", user=user)
    text = session_file_text(session)
    kinds = [next(iter(json.loads(line))) for line in text.splitlines()[1:]]
    assert kinds == [*["purchase"] * 5, "payment", "void", "payment"]
    copy = imported(club, user, text)
    assert money_owed(copy) == money_owed(session) == {"ann": 0, "bob": 0, "cat": 0, "dan": -600}
    assert session_file_text(copy) == text
