"""Correcting a deal: history kept, later deals re-settled, refused corrections change nothing.

Hand-worked (see conftest): correcting deal 1 to "ann, bob and cat took a trick each" makes it
ann +1, bob +1, cat -2 (ante 3, one trick), dan -3 (looed); pool after 3 - 3 + 3 = 3. Deal 2
(ann takes all three, bob revokes) is then played for 3 + dan's ante 3 = 6: ann +6, bob -3,
dan -3, pool after 3 - the same as before, so deal 3 is unchanged.
"""
from __future__ import annotations

import pytest

from games.models import DealRevision, GameSession, LedgerEntry
from games.services.ledger import ledger_balances, ledger_timeline

from .conftest import DEAL1, DEAL2, DEAL3, DELTAS, deals_url, example, problem, rec, session_url

pytestmark = pytest.mark.django_db

FIXED = rec(DEAL1, result={"tricks": {"ann": 1, "bob": 1, "cat": 1}})


def correct(client, session, number, record, reason="scorer misheard the tricks", **headers):
    return client.post(f"{deals_url(session)}{number}/corrections", {"record": record, "reason": reason},
                       format="json", headers=headers or None)


def snapshot(session):
    return (
        list(LedgerEntry.objects.filter(session=session).values_list("seq", "account", "chips")),
        list(DealRevision.objects.filter(deal__session=session).values_list("deal__number", "revision")),
        ledger_balances(session),
    )


def test_correction_resettles_following_deals_and_answers_what_changed(played, scorer_client):
    response = correct(scorer_client, played, 1, FIXED)
    assert response.status_code == 201, response.content
    data = response.json()
    assert (data["deal"], data["revision"]) == (1, 2)
    assert [(c["number"], c["revision"], c["cause"]) for c in data["changes"]] == [
        (1, 2, "corrected"), (2, 2, "resettled")]
    first, second = data["changes"]
    assert first["deltas_before"] == DELTAS[0]
    assert first["deltas_after"] == {"ann": 1, "bob": 1, "cat": -2, "dan": -3}
    assert (first["pool_after_before"], first["pool_after_after"]) == (6, 3)
    assert second["deltas_before"] == DELTAS[1]
    assert second["deltas_after"] == {"ann": 6, "bob": -3, "cat": 0, "dan": -3}
    assert (second["pool_after_before"], second["pool_after_after"]) == (3, 3)
    assert ledger_balances(played) == {"ann": 30, "bob": 18, "cat": 18, "dan": 14, "pool": 0, "bank": -80}


def test_history_is_kept_with_who_and_why(played, scorer_client, viewer_client):
    correct(scorer_client, played, 1, FIXED, reason="bob took one, not two")
    data = viewer_client.get(f"{deals_url(played)}1/").json()
    assert data["revision"] == 2
    old, new = data["revisions"]
    assert old["record"]["result"] == {"tricks": {"ann": 2, "bob": 1}}
    assert old["verdict"]["settlement"]["deltas"] == DELTAS[0]
    assert new["record"]["result"] == {"tricks": {"ann": 1, "bob": 1, "cat": 1}}
    assert (new["cause"], new["reason"], new["created_by"]) == ("corrected", "bob took one, not two", "sam")
    second = viewer_client.get(f"{deals_url(played)}2/").json()
    assert second["revisions"][1]["cause"] == "resettled"
    assert second["revisions"][1]["record"]["pool"] == 3  # the carried pool
    assert "deal 1 corrected" in second["revisions"][1]["reason"]


def test_ledger_rows_show_the_corrected_deals_at_their_place(played, scorer_client):
    correct(scorer_client, played, 1, FIXED)
    deals = [r for r in ledger_timeline(played) if r.kind == "deal"]
    assert [r.balances["pool"] for r in deals] == [3, 3, 0]
    assert deals[0].changes == {"ann": 1, "bob": 1, "cat": -2, "dan": -3, "pool": 3}
    # deal 1 corrected and deal 2 re-settled have new revisions (deal 3 kept its figures),
    # and the ledger answer says so
    rows = scorer_client.get(session_url(played, "ledger")).json()["rows"]
    assert [(r["deal"], r["revision"]) for r in rows if r["kind"] == "deal"] == [(1, 2), (2, 2), (3, 1)]
    assert {r["revision"] for r in rows if r["kind"] == "purchase"} == {None}
    reversals = LedgerEntry.objects.filter(session=played, kind="reversal")
    assert sorted((e.deal.number, e.account, e.chips) for e in reversals if e.deal.number == 1) == sorted([
        (1, "ann", -2), (1, "bob", -1), (1, "cat", 6), (1, "dan", 3), (1, "pool", -6)])


def test_correction_that_changes_nothing_later_touches_only_that_deal(played, scorer_client):
    # the last deal: bob looked at the stock (a single loo of 3 into the pool ann takes)
    stock = [{"player": "bob", "action": "irregularity", "kind": "looked-at-stock"}]
    response = correct(scorer_client, played, 3, rec(DEAL3, actions=stock + DEAL3["actions"]),
                       reason="re-entered")
    assert response.status_code == 201, response.content
    changes = response.json()["changes"]
    assert [(c["number"], c["cause"]) for c in changes] == [(3, "corrected")]
    assert (changes[0]["deltas_before"]["bob"], changes[0]["deltas_after"]["bob"]) == (0, -3)


def test_a_correction_with_the_same_record_and_verdict_changes_nothing(played, scorer_client):
    before = snapshot(played)
    data = problem(correct(scorer_client, played, 2, DEAL2, reason="typed again"), 409)
    assert data["code"] == "correction-unchanged" and data["deal"] == 2
    assert "already has this record (revision 1)" in data["detail"]
    assert snapshot(played) == before  # no revision, no reversal, no posting


def test_the_same_record_is_taken_when_the_engine_now_settles_it_otherwise(played, scorer_client,
                                                                         monkeypatch):
    # after an engine upgrade a deal is re-settled by posting its own record as a correction
    from games.services import deals as deal_service

    upgraded = deal_service._replay

    def replay_v2(*args, **kwargs):
        verdict = upgraded(*args, **kwargs)
        verdict["engine"] = {**verdict["engine"], "version": "9.9.9"}
        return verdict

    monkeypatch.setattr(deal_service, "_replay", replay_v2)
    response = correct(scorer_client, played, 3, DEAL3, reason="engine upgrade")
    assert response.status_code == 201, response.content
    assert [(c["number"], c["cause"]) for c in response.json()["changes"]] == [(3, "corrected")]


def result_only(tricks: dict[str, int], **changes):
    """A three-card record giving only who took how many tricks (the session names the dealer)."""
    return {"format": "loo-deal/1", "turnup": "9C", "result": {"tricks": tricks}, **changes}


@pytest.fixture
def upgraded_engine(monkeypatch):
    """The engine as if upgraded since the deals were stored: every verdict it gives from now
    on says version 9.9.9. Yields the numbers of the deals it replays."""
    from games.services import deals as deal_service

    replayed: list[int] = []
    installed = deal_service.engine_replay

    def replay_v2(record, *args, **kwargs):
        replayed.append(record["number"])
        verdict = installed(record, *args, **kwargs)
        verdict["engine"] = {**verdict["engine"], "version": "9.9.9"}
        return verdict

    monkeypatch.setattr(deal_service, "engine_replay", replay_v2)
    return replayed


def revisions(session):
    """Deal number -> (current revision, the engine version of its verdict)."""
    return {d.number: (d.current.revision, d.current.verdict["engine"]["version"])
            for d in session.deals.select_related("current")}


def test_correction_that_keeps_the_carried_pool_does_not_replay_later_deals(played, scorer_client,
                                                                            upgraded_engine):
    # bob took two tricks of deal 1, ann one: the pool left (6), the next dealer and the series
    # are the same, so deals 2 and 3 are dealt into what they were judged with and are not
    # replayed, even by an engine that would now give them another verdict (its version)
    stored = revisions(played)
    response = correct(scorer_client, played, 1, rec(DEAL1, result={"tricks": {"ann": 1, "bob": 2}}))
    assert response.status_code == 201, response.content
    [change] = response.json()["changes"]
    assert (change["number"], change["cause"], change["pool_after_after"]) == (1, "corrected", 6)
    assert (change["deltas_before"]["bob"], change["deltas_after"]["bob"]) == (1, 2)
    assert upgraded_engine == [1]
    assert revisions(played) == {**stored, 1: (2, "9.9.9")}


def test_a_deal_the_correction_does_not_reach_keeps_its_older_engine_verdict(played, scorer_client,
                                                                            upgraded_engine):
    # deal 1 corrected leaves 3 in the pool, not 6: deal 2 is re-settled by the engine now
    # installed, but leaves 3 as before, so deal 3 keeps the verdict it was stored with
    version = revisions(played)[3][1]
    response = correct(scorer_client, played, 1, FIXED)
    assert response.status_code == 201, response.content
    assert [(c["number"], c["cause"]) for c in response.json()["changes"]] == [
        (1, "corrected"), (2, "resettled")]
    assert upgraded_engine == [1, 2]
    assert revisions(played) == {1: (2, "9.9.9"), 2: (2, "9.9.9"), 3: (1, version)}


def test_a_deal_reached_with_another_series_flag_is_stored_with_it(played, scorer_client, monkeypatch):
    # a deal the correction reaches with another series flag, but which settles the same (as a
    # poker-Loo deal everybody stands in and one player sweeps does), gets a revision saying
    # so: its stored flag is what the next correction of it is replayed with, and what tells
    # whether a correction before it still reaches it
    from games.services import deals as deal_service

    installed = deal_service.engine_replay

    def series_after_deal_1(record, *args, **kwargs):
        verdict = installed(record, *args, **kwargs)
        if record["number"] == 1:  # the corrected deal 1 now says deal 2 starts a series
            verdict["next"] = {**verdict["next"], "first_of_series": True}
        return verdict

    monkeypatch.setattr(deal_service, "engine_replay", series_after_deal_1)
    deal2 = played.deals.get(number=2).current
    assert deal2.first_of_series is False
    response = correct(scorer_client, played, 1, rec(DEAL1, result={"tricks": {"ann": 1, "bob": 2}}))
    assert response.status_code == 201, response.content
    assert [(c["number"], c["cause"]) for c in response.json()["changes"]] == [
        (1, "corrected"), (2, "resettled")]
    current = played.deals.get(number=2).current
    assert (current.revision, current.first_of_series, current.verdict) == (2, True, deal2.verdict)
    assert played.deals.get(number=3).current.revision == 1  # deal 2 carries on what it did


def test_correction_that_changes_the_carried_pool_resettles_every_later_deal(make_session, post_deal,
                                                                           scorer_client):
    # a single loo of 1: bob looking at the stock in deal 1 leaves 7 in the pool, not 6; each
    # later deal (ann 2 tricks, bob 1) then carries an odd unit on (pools 7, 1, 1, ... for
    # 6, 0, 6, 0, ...), so all twelve are re-settled, past the first batch of deals read
    session = make_session(rules={"preset": "three-card", "single_loo": 1},
                           buy_ins=dict.fromkeys(["ann", "bob", "cat", "dan"], 50))
    for number in range(1, 13):
        assert post_deal(session, number, result_only({"ann": 2, "bob": 1})).status_code == 201
    stock = [{"player": "bob", "action": "irregularity", "kind": "looked-at-stock"}]
    response = correct(scorer_client, session, 1, result_only({"ann": 2, "bob": 1}, actions=stock))
    assert response.status_code == 201, response.content
    changes = response.json()["changes"]
    assert [(c["number"], c["cause"]) for c in changes] == [
        (1, "corrected"), *((n, "resettled") for n in range(2, 13))]
    assert [c["pool_after_after"] for c in changes] == [7] + [1] * 11
    assert [c["pool_after_before"] for c in changes] == [6, 0] * 6
    assert {number: revision for number, (revision, _) in revisions(session).items()} == dict.fromkeys(
        range(1, 13), 2)


def test_correction_refused_when_a_deal_it_leaves_alone_would_take_a_player_below_zero(
        make_session, post_deal, scorer_client):
    session = make_session(buy_ins={"ann": 20, "bob": 20, "cat": 20, "dan": 5})
    # deal 1 (cat deals): ann 2 tricks, dan 1, bob looed; dan 5 + 1 = 6 pays his ante of 3 in deal 2
    for number, tricks in enumerate([{"ann": 2, "dan": 1}, {"ann": 2, "bob": 1}], start=1):
        assert post_deal(session, number, result_only(tricks)).status_code == 201
    before = snapshot(session)
    # bob took the trick, not dan: dan is looed (5 - 3 = 2). The pool left is 6 as before, so
    # deal 2 settles as it did, but dan cannot pay its ante
    data = problem(correct(scorer_client, session, 1, result_only({"ann": 2, "bob": 1})), 409)
    assert data["code"] == "correction-refused" and data["deal"] == 2
    assert data["errors"] == [{"player": "dan", "field": "record", "deal": 2, "holds": 2, "owes": 3,
                               "message": "dan holds 2 and owes 3: a purchase recorded now would "
                                          "come after that deal", "code": "insufficient-chips"}]
    assert snapshot(session) == before


def test_correction_refused_when_a_later_deal_goes_below_zero(make_session, post_deal, scorer_client):
    session = make_session(buy_ins={"ann": 20, "bob": 3, "cat": 20, "dan": 20})
    for n, deal in enumerate([DEAL1, DEAL2, DEAL3], start=1):
        assert post_deal(session, n, deal).status_code == 201
    before = snapshot(session)
    # ann takes all three tricks of deal 1: bob is looed (3 - 3 = 0) and cannot pay deal 2's 3
    data = problem(correct(scorer_client, session, 1, rec(DEAL1, result={"tricks": {"ann": 3}})), 409)
    assert data["code"] == "correction-refused" and data["deal"] == 2
    assert data["errors"][0] == {"player": "bob", "field": "record", "deal": 2, "holds": 0, "owes": 3,
                                 "message": "bob holds 0 and owes 3: a purchase recorded now would "
                                            "come after that deal", "code": "insufficient-chips"}
    assert "would make deal 2 impossible" in data["detail"] and "Nothing was changed" in data["detail"]
    assert snapshot(session) == before


def test_correction_refused_when_a_later_dealer_no_longer_deals(played, scorer_client):
    before = snapshot(played)
    misdeal = rec(DEAL1, actions=[{"player": "cat", "action": "irregularity", "kind": "misdeal"}])
    misdeal.pop("result")
    response = correct(scorer_client, played, 1, misdeal)
    data = problem(response, 409)
    assert data["deal"] == 2
    assert data["errors"][0]["field"] == "record.dealer"
    assert "it was dealt by dan, but after the correction it would be cat's deal" in data["errors"][0]["message"]
    assert snapshot(played) == before


def test_bad_corrected_record_is_a_record_error(played, scorer_client):
    before = snapshot(played)
    data = problem(correct(scorer_client, played, 2, example("e4_card_played_twice.json")), 400)
    assert data["code"] == "record-error"
    assert any(e["index"] == 9 and e["card"] == "AD" for e in data["errors"])
    assert snapshot(played) == before


def test_corrected_record_must_keep_the_dealer(played, scorer_client):
    data = problem(correct(scorer_client, played, 2, rec(DEAL2, dealer="ann")), 400)
    assert "Deal 2 is dan's deal, not ann's" in data["detail"]


def test_correcting_an_unrecorded_deal_is_404(played, scorer_client):
    corrected = problem(correct(scorer_client, played, 7, DEAL1), 404)
    # reading it says the same (it said "Not found", "... in this session.")
    read = problem(scorer_client.get(f"{deals_url(played)}7/"), 404)
    assert (read["title"], read["detail"]) == (corrected["title"], corrected["detail"]) == (
        "No such deal", f"Deal 7 is not recorded in session {played.pk}.")


def test_reason_is_required(played, scorer_client):
    data = problem(scorer_client.post(f"{deals_url(played)}1/corrections", {"record": FIXED}, format="json"), 400)
    assert data["errors"][0]["field"] == "reason"


def test_a_reason_is_at_most_2000_characters(played, scorer_client):
    # docs/api.md: "reason (required, at most 2,000 characters, kept with the revision)"
    data = problem(correct(scorer_client, played, 1, FIXED, reason="r" * 2001), 400)
    assert [e["field"] for e in data["errors"]] == ["reason"]
    assert DealRevision.objects.filter(deal__session=played, deal__number=1).count() == 1
    assert correct(scorer_client, played, 1, FIXED, reason="r" * 2000).status_code == 201


def test_closed_session_refuses_corrections(played, scorer_client):
    GameSession.objects.filter(pk=played.pk).update(status="closed")
    assert problem(correct(scorer_client, played, 1, FIXED), 409)["code"] == "session-closed"


@pytest.mark.parametrize("role, status", [("anon", 401), ("viewer", 403), ("player", 403), ("outsider", 404)])
def test_correction_refused_by_role(api_client_for, played, role, status):
    before = snapshot(played)
    problem(correct(api_client_for(role), played, 1, FIXED), status)
    assert snapshot(played) == before
