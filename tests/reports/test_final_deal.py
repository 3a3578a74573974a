"""end_pool: final-deal — closing needs a final deal (everybody stands, no miss) first.

Hand-worked (three-card, dealer antes 3, loo 3):
deal 1 (ann deals, simple pool): bob takes AS KS QS: ann -6, bob +3, cat -3, dan -3; pool 9.
deal 2 (bob deals, double pool 9 + 3 = 12): cat stands alone, bob defends with the miss
  3D KH 5C (diamonds trumps): cat AD and AH win, bob's 5C heads cat's 2C: cat takes 2 x 4 = 8,
  the dealer's share stays: bob -3, cat +8; pool 4. Not a final deal: closing is refused.
deal 3 (cat deals the final deal, `"final": true`: everybody stands, no miss, no ante; P = 4):
  dan leads AC KC QC (clubs trumps) and takes all 4; ann, bob, cat looed 3 each:
  ann -3, bob -3, cat -3, dan +4; pool 9.
Play: ann -9, bob -3, cat +2, dan +1. Closing splits 9 from the eldest (next dealer dan, so
ann): ann 3, bob 2, cat 2, dan 2. Results: ann -6, bob -1, cat +4, dan +3 chips (x 10p).
"""
from __future__ import annotations

import datetime as dt

import pytest

from tests.reports import sessionkit as kit
from tests.reports.conftest import url

pytestmark = pytest.mark.django_db


def plays(*pairs: str) -> list[dict]:
    return [{"player": p, "action": "play", "card": c} for p, c in (x.split() for x in pairs)]


DEFENDED = {"dealer": "bob", "turnup": "7D", "actions": [
    {"player": "cat", "action": "stand"}, {"player": "dan", "action": "pass"},
    {"player": "ann", "action": "pass"}, {"player": "bob", "action": "defend"},
    *plays("cat AD", "bob 3D", "cat AH", "bob KH", "cat 2C", "bob 5C")]}

FINAL = {"dealer": "cat", "turnup": "7C", "final": True, "actions": [
    *plays("dan AC", "ann 2H", "bob 2D", "cat 2S",
           "dan KC", "ann 3H", "bob 3D", "cat 3S",
           "dan QC", "ann 4H", "bob 4D", "cat 4S")]}


@pytest.fixture
def final_deal_session(club):
    from games.services.deals import deal_record
    from games.services.sessions import session_create

    session = session_create(club=club, date=dt.date(2026, 11, 29), seats=kit.SEATS,
                             first_dealer="ann", rules={"game": "three-card", "end_pool": "final-deal"},
                             chip_value=10, buy_ins={s: 20 for s in kit.SEATS})
    first = kit.deal_record(1)
    first.pop("pool")
    first["memo"] = "checked again"  # a new record (the same one would be correction-unchanged)
    deal_record(session=session, number=1, record=first)
    deal_record(session=session, number=2, record=DEFENDED)
    return session


def test_close_refused_without_final_deal(final_deal_session, scorer_client):
    from games.services.ledger import ledger_balances

    assert ledger_balances(final_deal_session)["pool"] == 4
    response = scorer_client.post(url(final_deal_session, "close"))
    assert response.status_code == 409
    body = response.json()
    assert body["code"] == "final-deal-required" and body["pool"] == 4
    assert "record a final deal in which everybody stands and there is no miss" in body["detail"]
    assert '"final": true' in body["detail"]
    assert "deal 2 is not one" in body["detail"]
    final_deal_session.refresh_from_db()
    assert final_deal_session.status == "open"


def test_close_after_final_deal(final_deal_session, scorer_client):
    from games.services.deals import deal_record

    deal_record(session=final_deal_session, number=3, record=FINAL)
    response = scorer_client.post(url(final_deal_session, "close"))
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["end_pool"] == {"mode": "final-deal", "pool": 9, "eldest": "ann",
                                "shares": {"ann": 3, "bob": 2, "cat": 2, "dan": 2}}
    assert body["returned"] == {"ann": 14, "bob": 19, "cat": 24, "dan": 23}
    assert body["results"] == {"ann": -60, "bob": -10, "cat": 40, "dan": 30}
    # the final deal's loos (ann, bob, cat) are split, not played on: no deal may follow it,
    # so the older rule's warning does not apply; cat's final deal is no turn at the deal
    assert body["warnings"] == [
        "Players have not dealt equally often: ann 1, bob 1, cat 0, dan 0.",
        "The final deal left 9 units in the pool: split from ann."]


def deals(session) -> str:
    return f"/api/v1/clubs/{session.club.slug}/sessions/{session.pk}/deals/"


def test_no_deal_after_the_final_deal(final_deal_session, scorer_client):
    from games.models import Deal
    from games.services.deals import deal_record

    deal_record(session=final_deal_session, number=3, record=FINAL)
    after = {"dealer": "dan", "turnup": "7C", "actions": []}
    response = scorer_client.post(deals(final_deal_session), {"number": 4, "record": after},
                                  format="json")
    assert response.status_code == 409
    body = response.json()
    assert (body["code"], body["final_deal"]) == ("final-deal-played", 3)
    assert "Deal 3 was the final deal" in body["detail"]
    assert Deal.objects.filter(session=final_deal_session).count() == 3


def test_a_correction_cannot_make_a_deal_with_deals_after_it_final(final_deal_session,
                                                                    scorer_client):
    first = kit.deal_record(1)
    first.pop("pool")
    response = scorer_client.post(deals(final_deal_session) + "1/corrections",
                                  {"record": {**first, "final": True}, "reason": "said final"},
                                  format="json")
    assert response.status_code == 409
    body = response.json()
    assert body["code"] == "correction-refused" and body["deal"] == 2
    assert "it would come after the final deal 1" in body["errors"][0]["message"]


@pytest.mark.parametrize("final", ["yes", 1])
def test_final_must_be_true_or_false(final_deal_session, scorer_client, final):
    response = scorer_client.post(deals(final_deal_session),
                                  {"number": 3, "record": {**FINAL, "final": final}}, format="json")
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "record-error"
    assert [(e["field"], e["message"]) for e in body["errors"]] == [
        ("final", f"final: {final!r} is not true or false")]


def test_a_split_session_has_no_final_deal(club, scorer_client):
    from games.models import Deal
    from games.services.sessions import session_create

    session = session_create(club=club, date=dt.date(2026, 11, 29), seats=kit.SEATS,
                             first_dealer="ann", rules={"game": "three-card"},
                             chip_value=10, buy_ins={s: 20 for s in kit.SEATS})
    first = kit.deal_record(1)
    first.pop("pool")
    response = scorer_client.post(deals(session), {"number": 1, "record": {**first, "final": True}},
                                  format="json")
    assert response.status_code == 400
    body = response.json()
    assert body["errors"][0]["field"] == "record.final"
    assert "end_pool: split, so no deal is a final deal" in body["errors"][0]["message"]
    assert not Deal.objects.filter(session=session).exists()
    # false is what every deal of such a session is, and may be said
    response = scorer_client.post(deals(session), {"number": 1, "record": {**first, "final": False}},
                                  format="json")
    assert response.status_code == 201, response.content


def test_a_misdealt_final_deal_is_dealt_again_and_that_one_is_final(final_deal_session,
                                                                     scorer_client):
    from games.services.deals import deal_record

    misdealt = {"dealer": "cat", "final": True, "actions": [
        {"player": "cat", "action": "irregularity", "kind": "misdeal"}]}
    assert deal_record(session=final_deal_session, number=3, record=misdealt).current \
        .verdict["ended"] == "misdeal"
    # void: not the final deal played, so the session cannot close on it ...
    closing = scorer_client.post(url(final_deal_session, "close"))
    assert closing.status_code == 409 and closing.json()["code"] == "final-deal-required"
    # ... and the same dealer deals the final deal again
    again = scorer_client.post(deals(final_deal_session), {"number": 4, "record": FINAL},
                               format="json")
    assert again.status_code == 201, again.content
    assert scorer_client.post(url(final_deal_session, "close")).status_code == 200


def test_records_stored_before_the_engine_checked_flags_still_replay(final_deal_session,
                                                                     scorer_client, monkeypatch):
    # deal 3 stored as yesterday's engine took it: "final": 1 and a format in capitals
    from games.rules import record as engine_record
    from games.services.deals import deal_record

    monkeypatch.setattr(engine_record, "_FLAGS", ())
    monkeypatch.setattr(engine_record, "RECORD_FORMAT", "LOO-DEAL/1")
    old = {"dealer": "cat", "turnup": "7C", "final": 1, "format": "LOO-DEAL/1",
           "actions": FINAL["actions"]}
    deal_record(session=final_deal_session, number=3, record=old)
    monkeypatch.undo()
    first = kit.deal_record(1)
    first.pop("pool")
    response = scorer_client.post(deals(final_deal_session) + "1/corrections",
                                  {"record": first, "reason": "checked again"}, format="json")
    assert response.status_code == 201, response.content


def test_a_final_deal_stored_before_the_engine_checked_flags_is_the_final_deal(
        final_deal_session, scorer_client, monkeypatch):
    # deal 3 stored as yesterday's engine took it, "final": 1, which it played as the final
    # deal (everybody standing, no ante) and which a correction or the session file replays
    # as one (games.services.deals.stored_record): the session must read it so too
    from games.rules import record as engine_record
    from games.services.deals import deal_record

    monkeypatch.setattr(engine_record, "_FLAGS", ())
    old = {**FINAL, "final": 1}
    deal_record(session=final_deal_session, number=3, record=old)
    monkeypatch.undo()
    after = {"dealer": "dan", "turnup": "7C", "actions": []}
    response = scorer_client.post(deals(final_deal_session), {"number": 4, "record": after},
                                  format="json")
    assert response.status_code == 409, response.content
    assert response.json()["code"] == "final-deal-played"
    response = scorer_client.post(url(final_deal_session, "close"))
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["end_pool"]["shares"] == {"ann": 3, "bob": 2, "cat": 2, "dan": 2}
    assert body["warnings"] == [  # cat's final deal is no turn at the deal
        "Players have not dealt equally often: ann 1, bob 1, cat 0, dan 0.",
        "The final deal left 9 units in the pool: split from ann."]
    report = scorer_client.get(url(final_deal_session, "report")).json()
    assert {p["name"]: p["times_dealt"] for p in report["players"]} == {
        "ann": 1, "bob": 1, "cat": 0, "dan": 0}
