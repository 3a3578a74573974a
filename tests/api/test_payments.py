"""Money paid later toward chips bought on credit: what is owed drops, no chip moves, the
report's banker lines follow; refunds answer a mistaken payment (the table is append-only)."""
from __future__ import annotations

import pytest
from django.db import IntegrityError, transaction

from games.models import ChipPayment, LedgerEntry
from games.services.ledger import ledger_balances

from .conftest import problem, session_url

pytestmark = pytest.mark.django_db

KEY = "7d1f0c7e-0000-4000-8000-0000000000pa"


@pytest.fixture
def owing(oak_session, scorer_client):
    """oak_session where bob bought 15 chips (150) on credit."""
    response = scorer_client.post(session_url(oak_session, "purchases/"),
                                  {"player": "bob", "chips": 15, "paid": False}, format="json")
    assert response.status_code == 201, response.content
    return oak_session


def pay(client, session, player, money, **extra):
    headers = extra.pop("headers", None)  # (popped first: not a field of the body)
    return client.post(session_url(session, "payments/"), {"player": player, "money": money, **extra},
                       format="json", headers=headers)


def owed(client, session) -> dict[str, int]:
    return client.get(session_url(session, "ledger")).json()["totals"]["owed"]


def test_a_payment_lowers_what_is_owed_and_moves_no_chip(owing, scorer_client):
    entries, balances = LedgerEntry.objects.count(), ledger_balances(owing)
    response = pay(scorer_client, owing, "bob", 60, memo="cash at the break")
    assert response.status_code == 201, response.content
    data = response.json()
    assert (data["player"], data["money"], data["memo"], data["created_by"]) == (
        "bob", 60, "cash at the break", "sam")
    assert owed(scorer_client, owing) == {"ann": 0, "bob": 90, "cat": 0, "dan": 0}
    assert LedgerEntry.objects.count() == entries and ledger_balances(owing) == balances
    listed = scorer_client.get(session_url(owing, "payments/")).json()["results"]
    assert [(p["player"], p["money"]) for p in listed] == [("bob", 60)]


def test_the_report_counts_it_as_paid(owing, scorer_client):
    pay(scorer_client, owing, "bob", 60)
    report = scorer_client.get(session_url(owing, "report")).json()
    bob = next(p for p in report["players"] if p["name"] == "bob")
    # 20 chips bought at the start (200, paid) + 15 on credit (150): 260 paid, 90 owed
    assert (bob["bought_money"], bob["paid_money"], bob["owed_money"]) == (350, 260, 90)
    assert report["totals"]["money_owed"] == 90


def test_a_session_holds_at_most_max_payments(owing, scorer_client, monkeypatch):
    from games.services import limits

    monkeypatch.setattr(limits, "MAX_PAYMENTS", 2)  # (2,000 in service)
    assert [pay(scorer_client, owing, "bob", 50).status_code for _ in range(2)] == [201, 201]
    data = problem(pay(scorer_client, owing, "bob", 50), 409)
    assert (data["code"], data["max_payments"]) == ("session-full", 2)
    assert data["detail"] == "A session holds at most 2 payments: no more can be recorded for it."
    assert ChipPayment.objects.count() == 2 and owed(scorer_client, owing)["bob"] == 50


def test_paying_off_the_rest_and_a_refund(owing, scorer_client):
    assert pay(scorer_client, owing, "bob", 150).status_code == 201
    assert owed(scorer_client, owing)["bob"] == 0
    assert pay(scorer_client, owing, "bob", -50, memo="counted twice").status_code == 201
    assert owed(scorer_client, owing)["bob"] == 50


@pytest.mark.parametrize("player, money, message", [
    ("bob", 151, "bob owes 150 for chips and cannot pay 151"),
    ("ann", 1, "ann owes 0 for chips and cannot pay 1"),
    ("bob", -1, "bob has paid 0 later and cannot be refunded 1"),
    ("bob", 0, "non-zero"),
    ("zed", 10, "'zed' is not seated"),
])
def test_refusals_name_the_player_and_store_nothing(owing, scorer_client, player, money, message):
    data = problem(pay(scorer_client, owing, player, money), 400)
    assert data["code"] == "validation-error"
    assert message in data["errors"][0]["message"]
    assert not ChipPayment.objects.exists()


def test_after_closing_only_what_the_buy_back_left_owing_can_be_paid(make_session,
                                                                     scorer_client, post_deal):
    from .conftest import DEALS

    # bob buys 5 chips (50) on credit and nothing else; the three deals take him to 3 chips
    session = make_session(buy_ins={"ann": 20, "cat": 20, "dan": 20})
    scorer_client.post(session_url(session, "purchases/"),
                       {"player": "bob", "chips": 5, "paid": False}, format="json")
    for n, deal in enumerate(DEALS, start=1):
        assert post_deal(session, n, deal).status_code == 201
    assert scorer_client.post(session_url(session, "close"), {"reason": "home time"},
                              format="json").status_code == 200
    report = scorer_client.get(session_url(session, "report")).json()
    bob = next(b for b in report["through_banker"] if b["player"] == "bob")
    assert (bob["owed"], bob["buyback"], bob["banker_pays"]) == (50, 30, -20)
    # the buy-back (30) settled 30 of the 50: bob can pay the other 20, not more
    data = problem(pay(scorer_client, session, "bob", 21), 400)
    assert data["errors"][0]["message"] == ("bob owes the banker 20 after the closing (50 for "
                                            "chips, the buy-back 30): 21 cannot be paid now.")
    entries = LedgerEntry.objects.count()
    assert pay(scorer_client, session, "bob", 20, memo="paid on Monday").status_code == 201
    assert LedgerEntry.objects.count() == entries  # the frozen chip ledger is untouched
    report = scorer_client.get(session_url(session, "report")).json()
    bob = next(b for b in report["through_banker"] if b["player"] == "bob")
    assert (bob["owed"], bob["buyback"], bob["banker_pays"]) == (30, 30, 0)  # square


def test_after_closing_chips_lost_on_credit_can_be_paid(make_session, scorer_client, post_deal,
                                                       owner_client):
    from .conftest import DEALS

    # credit allowed; bob buys 1 chip (10) on credit, the three deals cost him 2: he ends on -1
    session = make_session(buy_ins={"ann": 20, "cat": 20, "dan": 20}, allow_credit=True)
    scorer_client.post(session_url(session, "purchases/"),
                       {"player": "bob", "chips": 1, "paid": False}, format="json")
    for n, deal in enumerate(DEALS, start=1):
        assert post_deal(session, n, deal).status_code == 201
    assert scorer_client.post(session_url(session, "close"), format="json").status_code == 200

    def bob_line() -> tuple[int, int, int, str]:
        report = scorer_client.get(session_url(session, "report")).json()
        b = next(b for b in report["through_banker"] if b["player"] == "bob")
        return b["owed"], b["buyback"], b["banker_pays"], b["explanation"]

    # he owes 10 for his chip and the buy-back of -1 chip is -10 more: he hands over 20
    assert bob_line()[:3] == (10, -10, -20)
    data = problem(pay(scorer_client, session, "bob", 21), 400)
    assert data["errors"][0]["message"] == ("bob owes the banker 20 after the closing (10 for "
                                            "chips, 10 for chips lost on credit): 21 cannot be "
                                            "paid now.")
    assert pay(scorer_client, session, "bob", 20, memo="paid at the door").status_code == 201
    owed_now, bought_back, banker_pays, why = bob_line()
    assert (owed_now, bought_back, banker_pays) == (-10, -10, 0)
    assert "0.10 of it toward chips lost on credit" in why and "nothing changes hands" in why
    assert owed(scorer_client, session)["bob"] == 0  # nothing owed for chips any more
    # and nothing more to pay; the 20 paid toward a 10 debt is said as such, not "-10 for chips"
    assert problem(pay(scorer_client, session, "bob", 1), 400)["errors"][0]["message"] == (
        "bob owes the banker 0 after the closing (10 paid beyond what the chips cost, 10 for "
        "chips lost on credit): 1 cannot be paid now.")
    # the report still settles: results sum to zero, the players table owes nothing
    report = scorer_client.get(session_url(session, "report")).json()
    assert sum(p["result_money"] for p in report["players"]) == 0
    assert report["totals"]["money_owed"] == 0
    assert pay(owner_client, session, "bob", -20, memo="keyed twice").status_code == 201
    assert bob_line()[:3] == (10, -10, -20)


def test_after_closing_only_an_owner_may_refund(make_session, scorer_client, owner_client,
                                              post_deal):
    from .conftest import DEALS

    session = make_session(buy_ins={"ann": 20, "cat": 20, "dan": 20})
    scorer_client.post(session_url(session, "purchases/"),
                       {"player": "bob", "chips": 5, "paid": False}, format="json")
    for n, deal in enumerate(DEALS, start=1):
        post_deal(session, n, deal)
    scorer_client.post(session_url(session, "close"), {"reason": "home time"}, format="json")
    assert pay(scorer_client, session, "bob", 20).status_code == 201
    data = problem(pay(scorer_client, session, "bob", -20), 403)
    assert data["code"] == "permission-denied" and "only an owner" in data["detail"]
    assert pay(owner_client, session, "bob", -20, memo="entered twice").status_code == 201
    assert owed(owner_client, session)["bob"] == 50


def test_after_closing_a_debt_the_buy_back_covered_cannot_be_paid_again(owing, scorer_client):
    closed = scorer_client.post(session_url(owing, "close"), {"reason": "home time"}, format="json")
    assert closed.status_code == 200, closed.content
    # bob owes 150 and 350 came back: the closing's "banker pays bob 200" settled it
    assert problem(pay(scorer_client, owing, "bob", 150), 400)
    assert not ChipPayment.objects.exists()
    # and chips still cannot be bought
    assert problem(scorer_client.post(session_url(owing, "purchases/"),
                                      {"player": "bob", "chips": 5}, format="json"),
                   409)["code"] == "session-closed"


def test_a_viewer_may_read_but_not_pay(owing, viewer_client):
    assert problem(pay(viewer_client, owing, "bob", 10), 403)["code"] == "permission-denied"
    assert viewer_client.get(session_url(owing, "payments/")).status_code == 200


def test_a_retried_payment_is_stored_once(owing, scorer_client):
    first = pay(scorer_client, owing, "bob", 40, headers={"Idempotency-Key": KEY})
    again = pay(scorer_client, owing, "bob", 40, headers={"Idempotency-Key": KEY})
    assert first.status_code == again.status_code == 201
    assert again["Idempotent-Replayed"] == "true" and again.json() == first.json()
    assert ChipPayment.objects.count() == 1 and owed(scorer_client, owing)["bob"] == 110


def test_payments_are_append_only(owing, scorer_client):
    pay(scorer_client, owing, "bob", 40)
    payment = ChipPayment.objects.get()
    with pytest.raises(IntegrityError), transaction.atomic():
        ChipPayment.objects.filter(pk=payment.pk).update(money=999)
    with pytest.raises(IntegrityError), transaction.atomic():
        payment.delete()
    assert ChipPayment.objects.get().money == 40


def test_at_closing_the_banker_lines_count_the_payment(owing, scorer_client):
    pay(scorer_client, owing, "bob", 60)
    closed = scorer_client.post(session_url(owing, "close"), {"reason": "home time"}, format="json")
    assert closed.status_code == 200, closed.content
    report = scorer_client.get(session_url(owing, "report")).json()
    bob = next(b for b in report["through_banker"] if b["player"] == "bob")
    # no deal played: bob hands back his 35 chips (350) and still owes 90 for them
    assert (bob["owed"], bob["buyback"], bob["banker_pays"]) == (90, 350, 260)


def test_a_refund_cannot_exceed_what_was_paid(owing, scorer_client):
    pay(scorer_client, owing, "bob", 40)
    data = problem(pay(scorer_client, owing, "bob", -41), 400)
    assert "bob has paid 40 later and cannot be refunded 41" in data["errors"][0]["message"]
    assert pay(scorer_client, owing, "bob", -40).status_code == 201
    assert owed(scorer_client, owing)["bob"] == 150


def test_the_recorder_of_a_payment_cannot_be_deleted_from_under_it(owing, scorer_client):
    from django.contrib.auth import get_user_model
    from django.db.models import ProtectedError

    pay(scorer_client, owing, "bob", 40)
    with pytest.raises(ProtectedError), transaction.atomic():
        get_user_model().objects.get(username="sam").delete()
    assert ChipPayment.objects.get().created_by.username == "sam"


# --- the report owes what a payment may settle ----------------------------------------------


def _closed_with_credit(make_session, scorer_client, post_deal, case):
    """A closed session where bob bought on credit: his buy-back covers the debt ("covered"),
    part of it ("partly"), or he lost chips on credit and owes more than the chips ("lost")."""
    from .conftest import DEALS

    if case == "covered":  # 20 paid + 15 on credit, no deal: 350 back against 150 owed
        session = make_session()
        scorer_client.post(session_url(session, "purchases/"),
                           {"player": "bob", "chips": 15, "paid": False}, format="json")
    else:
        session = make_session(buy_ins={"ann": 20, "cat": 20, "dan": 20},
                               allow_credit=case == "lost")
        chips = 5 if case == "partly" else 1
        scorer_client.post(session_url(session, "purchases/"),
                           {"player": "bob", "chips": chips, "paid": False}, format="json")
        for n, deal in enumerate(DEALS, start=1):
            assert post_deal(session, n, deal).status_code == 201
    assert scorer_client.post(session_url(session, "close"), format="json").status_code == 200
    return session


@pytest.mark.parametrize("case, gross, net", [("covered", 150, 0), ("partly", 50, 20),
                                              ("lost", 10, 20)])
def test_every_report_format_owes_what_a_payment_may_settle(make_session, scorer_client,
                                                            post_deal, client, member_for,
                                                            case, gross, net):
    import csv
    import io

    session = _closed_with_credit(make_session, scorer_client, post_deal, case)

    def figures():
        report = scorer_client.get(session_url(session, "report")).json()
        bob = next(p for p in report["players"] if p["name"] == "bob")
        line = next(b for b in report["through_banker"] if b["player"] == "bob")
        rows = csv.DictReader(io.StringIO(scorer_client.get(
            session_url(session, "report"), {"format": "csv"}).content.decode()))
        row = next(r for r in rows if r["player"] == "bob")
        client.force_login(member_for("scorer").user)
        html = client.get(f"/clubs/oak/sessions/{session.pk}/report/").content.decode()
        bob_row = html[html.index('<tr data-player="bob">'):]
        bob_row = bob_row[:bob_row.index("</tr>")]
        return bob, line, row, bob_row, report["totals"]

    bob, line, row, bob_row, totals = figures()
    # the debt for chips stays what it was (labelled so), the net beside it is what can be paid
    assert bob["owed_money"] == max(gross, 0) and bob["owed_to_banker"] == net
    assert max(-line["banker_pays"], 0) == net  # the through-the-banker line says the same
    # (its column comes after violations, where it was added: readers by position keep theirs)
    assert row["owed_to_banker"] == f"{net / 100:.2f}"
    assert list(row)[list(row).index("violations") + 1] == "owed_to_banker"
    assert f'data-owed-to-banker="{net}"' in bob_row
    assert totals["money_owed_to_banker"] == net
    # ...and it is exactly what the payments endpoint accepts now
    assert f"bob owes the banker {net} after the closing" in problem(
        pay(scorer_client, session, "bob", net + 1), 400)["errors"][0]["message"]
    if net:
        assert pay(scorer_client, session, "bob", net).status_code == 201
        bob, line, row, bob_row, totals = figures()
        assert bob["owed_to_banker"] == 0 and line["banker_pays"] == 0
        assert 'data-owed-to-banker="0"' in bob_row


def test_while_open_what_is_owed_to_the_banker_is_the_debt_for_chips(owing, scorer_client,
                                                                     client, member_for):
    report = scorer_client.get(session_url(owing, "report")).json()
    bob = next(p for p in report["players"] if p["name"] == "bob")
    assert bob["owed_money"] == bob["owed_to_banker"] == 150  # a payment may settle it all
    assert pay(scorer_client, owing, "bob", 151).status_code == 400
    client.force_login(member_for("viewer").user)
    html = client.get(f"/clubs/oak/sessions/{owing.pk}/report/").content.decode()
    assert "Left to pay the banker" not in html  # one figure while open: nothing to net yet


def test_a_playing_banker_does_not_pay_himself(make_session, scorer_client):
    session = make_session(banker="bob", buy_ins={"ann": 20, "cat": 20, "dan": 20})
    assert scorer_client.post(session_url(session, "purchases/"),
                              {"player": "bob", "chips": 5, "paid": True},
                              format="json").status_code == 201  # (never owed: to himself)
    data = problem(pay(scorer_client, session, "bob", 20), 400)
    assert data["errors"][0]["message"] == ("bob is the banker: the banker's own chips are paid "
                                            "to nobody.")
    assert not ChipPayment.objects.exists()


def test_a_payment_memo_over_its_bound_is_refused_whole_not_cut(owing, scorer_client):
    from games.services import limits
    from games.services.payments import payment_record
    from loo_ledger.problems import Problem

    most = limits.MAX_MEMO_CHARS
    with pytest.raises(Problem) as refused:
        payment_record(session=owing, player="bob", money=50, memo="m" * (most + 1))
    assert refused.value.status_code == 400
    assert refused.value.errors == [{"field": "memo", "message": (
        "The memo is 201 characters long; it may be at most 200."), "code": "invalid"}]
    data = problem(pay(scorer_client, owing, "bob", 50, memo="m" * (most + 1)), 400)
    assert data["errors"][0]["field"] == "memo"
    assert not ChipPayment.objects.exists()
    assert payment_record(session=owing, player="bob", money=50, memo="m" * most).memo == "m" * most


def test_a_payment_or_refund_beyond_the_money_bound_is_refused(owing, scorer_client):
    # MAX_MONEY either way, by the API and by the service (which the import's payment lines go
    # through): the widest amount a payment's session-file line is measured with
    from games.services import limits
    from games.services.payments import payment_record
    from loo_ledger.problems import Problem

    for money in (limits.MAX_MONEY + 1, -(limits.MAX_MONEY + 1)):
        assert problem(pay(scorer_client, owing, "bob", money), 400)["errors"][0]["field"] == "money"
        with pytest.raises(Problem) as refused:
            payment_record(session=owing, player="bob", money=money)
        [error] = refused.value.errors
        assert error["field"] == "money"
        assert error["message"].startswith("money is a whole, non-zero number")
    assert not ChipPayment.objects.exists()
