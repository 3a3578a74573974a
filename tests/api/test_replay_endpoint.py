"""POST /api/v1/replay: the dry run answers the verdict and stores nothing."""
from __future__ import annotations

import copy
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.models import Deal, LedgerEntry

from .conftest import example, problem

pytestmark = pytest.mark.django_db

URL = "/api/v1/replay"
RULES = {"preset": "three-card"}


def test_dry_run_returns_the_verdict_and_stores_nothing(scorer_client):
    response = scorer_client.post(URL, {"rules": RULES, "pool": 6, "record": example("e1_miss_taker_revokes.json")},
                                  format="json")
    assert response.status_code == 200, response.content
    verdict = response.json()
    assert verdict["status"] == "irregular" and verdict["pool_kind"] == "double"
    assert [(v["player"], v["rule"], v["trick"]) for v in verdict["violations"]] == [("bob", "revoke", 2)]
    assert verdict["settlement"]["deltas"] == {"ann": 9, "bob": -3, "cat": 0, "dan": -3}
    assert verdict["settlement"]["pool_after"] == 3
    assert verdict["next"] == {"dealer": "ann", "pool": 3, "first_of_series": False}
    assert not Deal.objects.exists() and not LedgerEntry.objects.exists()


def test_pool_and_rules_default_to_the_records_own(outsider_client):
    record = {**example("e1_miss_taker_revokes.json"), "rules": RULES}
    verdict = outsider_client.post(URL, {"record": record}, format="json").json()  # any logged-in user
    assert verdict["settlement"]["pool_before"] == 6


def test_other_rules_give_another_verdict(scorer_client):
    record = example("e1_miss_taker_revokes.json")
    verdict = scorer_client.post(URL, {"rules": {"preset": "three-card", "loo": "unlimited"}, "pool": 6,
                                       "record": record}, format="json").json()
    assert verdict["settlement"]["loo_payments"] == {"bob": 9}  # matches the pool of 9


def test_record_error_names_index_player_and_card(scorer_client):
    data = problem(scorer_client.post(URL, {"rules": RULES, "pool": 6, "record": example("e4_card_played_twice.json")},
                                      format="json"), 400)
    assert data["code"] == "record-error"
    assert any((e["index"], e["player"], e["card"]) == (9, "bob", "AD") for e in data["errors"])


def test_pool_disagreeing_with_the_record_is_an_error(scorer_client):
    data = problem(scorer_client.post(URL, {"rules": RULES, "pool": 9, "record": example("e1_miss_taker_revokes.json")},
                                      format="json"), 400)
    assert "9" in data["detail"] and "6" in data["detail"]


@pytest.mark.parametrize("pool", [10**30, -3])
def test_the_records_own_pool_is_held_to_the_pools_bounds(scorer_client, pool):
    # the top-level pool is 0 to 1,000,000,000; the record's, its default, was any integer
    record = {**example("e1_miss_taker_revokes.json"), "pool": pool}
    data = problem(scorer_client.post(URL, {"rules": RULES, "record": record}, format="json"), 400)
    assert data["errors"] == [{"field": "record", "code": "invalid",
                               "message": f"pool is {pool:,}: a pool holds 0 to 1,000,000,000 chips."}]


def test_a_record_in_another_format_is_refused(scorer_client):
    record = {**example("e1_miss_taker_revokes.json"), "format": "loo-deal/2"}
    data = problem(scorer_client.post(URL, {"rules": RULES, "pool": 6, "record": record},
                                      format="json"), 400)
    assert data["code"] == "record-error"
    assert [(e["field"], e["message"]) for e in data["errors"]] == [
        ("format", "format: 'loo-deal/2' is not a record format this engine reads (loo-deal/1)")]


def test_unknown_option_is_named(scorer_client):
    data = problem(scorer_client.post(URL, {"rules": {"preset": "three-card", "flush": "sometimes"},
                                            "record": example("e1_miss_taker_revokes.json")}, format="json"), 400)
    assert data["code"] == "rule-error" and "flush" in data["detail"]


def test_a_loo_amount_of_null_is_a_400_naming_it(scorer_client):
    # it was accepted and read as no loo at all: bob's revoke in e1 paid nothing
    data = problem(scorer_client.post(URL, {"rules": {"preset": "three-card", "loo_amount": None},
                                            "pool": 6, "record": example("e1_miss_taker_revokes.json")},
                                      format="json"), 400)
    assert data["code"] == "rule-error"
    assert data["errors"] == [{"field": "rules", "code": "invalid", "message":
                               "loo_amount: must be a whole number of units from 0 to 1,000,000,000, not None"}]


def test_rules_are_required(scorer_client):
    data = problem(scorer_client.post(URL, {"record": example("e1_miss_taker_revokes.json")}, format="json"), 400)
    assert data["errors"][0]["field"] == "rules"


@pytest.mark.parametrize("payload", [{}, {"record": "ann stand"}, {"record": {}, "rules": "three-card"},
                                     {"record": {}, "rules": RULES, "pool": -1}])
def test_malformed_requests_are_400(scorer_client, payload):
    problem(scorer_client.post(URL, payload, format="json"), 400)


def test_anonymous_is_401(anon_client):
    problem(anon_client.post(URL, {"rules": RULES, "record": example("e1_miss_taker_revokes.json")}, format="json"), 401)


def _json_values():
    leaves = st.none() | st.booleans() | st.integers(-5, 60) | st.sampled_from(
        ["ann", "bob", "dan", "AD", "QD", "10H", "♣7", "stand", "play", "take-miss", "pass", "", "XX"])
    return st.recursive(leaves, lambda inner: st.lists(inner, max_size=4)
                        | st.dictionaries(st.sampled_from(["player", "action", "card", "tricks", "ann"]), inner, max_size=3),
                        max_leaves=8)


def _records():
    base = example("e1_miss_taker_revokes.json")
    keys = st.sampled_from(["seats", "dealer", "pool", "turnup", "hands", "miss", "actions", "result", "number", "stock"])
    return st.dictionaries(keys, _json_values(), max_size=4).map(lambda changes: {**base, **changes})


def test_no_record_makes_a_500(scorer_client):
    @settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
    @given(record=_records())
    def check(record):
        response = scorer_client.post(URL, {"rules": RULES, "record": record}, format="json")
        assert response.status_code in (200, 400), (record, response.content[:300])

    check()


def with_irregularity(kind):
    """e1 with the table's note of an irregularity by ann, of ``kind`` (any JSON), first."""
    record = example("e1_miss_taker_revokes.json")
    record["actions"].insert(0, {"action": "irregularity", "kind": kind, "player": "ann"})
    return record


#: the engine's error for e1 noting an irregularity of kind ["misdeal"] first, as the API lists it
LIST_KIND = {"index": 0, "player": "ann", "card": None, "field": "kind", "code": "invalid",
             "message": "ann: unknown irregularity kind ['misdeal']"}


def test_an_irregularity_kind_that_is_a_list_is_a_400_naming_the_action(scorer_client):
    # the engine raised TypeError (unhashable) looking the list up among the kinds: a 500
    data = problem(scorer_client.post(URL, {"rules": RULES, "pool": 6,
                                            "record": with_irregularity(["misdeal"])},
                                      format="json"), 400)
    assert data["code"] == "record-error"
    assert data["errors"] == [LIST_KIND]
    assert data["detail"] == LIST_KIND["message"]


#: the fields each kind of action may hold (deal-record.md), besides its player and action
ACTION_FIELDS = {"play": ["card", "say"], "irregularity": ["kind", "card", "evidence"],
                 "exchange": ["discard", "draw"], "flush": ["cards"]}


def _actions_with_a_field_replaced():
    """e1, with cat's irregularity noted first, and one field of one action (one it has, or
    one of its kind may have) set to any JSON value."""
    base = example("e1_miss_taker_revokes.json")
    base["actions"].insert(0, {"player": "cat", "action": "irregularity",
                               "kind": "looked-at-stock", "evidence": "he lifted the stock"})
    places = [(i, field) for i, a in enumerate(base["actions"])  # (the irregularity's first)
              for field in ["player", "action", *ACTION_FIELDS.get(a["action"], [])]]

    def replaced(place, value):
        record = copy.deepcopy(base)
        at, field = place
        record["actions"][at][field] = value
        return record

    # (the irregularity's own fields drawn as often as all the others: the list kind hid there)
    return st.builds(replaced, st.sampled_from(places[:5]) | st.sampled_from(places),
                     _json_values())


def test_no_action_field_makes_a_500(scorer_client):
    # _records above replaces the record's own fields; the list kind hid one level down
    @settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
    @given(record=_actions_with_a_field_replaced())
    def check(record):
        response = scorer_client.post(URL, {"rules": RULES, "pool": 6, "record": record},
                                      format="json")
        assert response.status_code in (200, 400), (record, response.content[:300])

    check()


def test_result_only_record_needing_trick_order_is_refused(scorer_client):
    # early-tricks with P = 10 + 3 = 13 pays 5/4/4: who gets the odd unit depends on who won
    # trick 1, which trick counts alone do not say; the engine's RecordError is a 400 naming it
    record = {"format": "loo-deal/1", "seats": ["ann", "bob", "cat", "dan"], "dealer": "dan",
              "turnup": "9C", "actions": [{"player": p, "action": a} for p, a in
                                          [("ann", "stand"), ("bob", "stand"),
                                           ("cat", "stand"), ("dan", "pass")]],
              "result": {"tricks": {"ann": 2, "bob": 1}}}
    rules = {"preset": "three-card", "remainder": "early-tricks"}
    data = problem(scorer_client.post(URL, {"rules": rules, "pool": 10, "record": record},
                                      format="json"), 400)
    assert data["code"] == "record-error"
    assert [e["field"] for e in data["errors"]] == ["result"]
    assert "winners" in data["errors"][0]["message"], data["errors"]
    # with each trick's winner given it settles: bob took trick 1 (5), ann 2 and 3 (4 + 4)
    record["result"]["winners"] = ["bob", "ann", "ann"]
    response = scorer_client.post(URL, {"rules": rules, "pool": 10, "record": record},
                                  format="json")
    assert response.status_code == 200, response.content
    assert response.json()["settlement"]["deltas"] == {"ann": 8, "bob": 5, "cat": -3, "dan": -3}


def test_a_seat_named_as_the_engines_place_for_a_card_is_a_400_naming_it(scorer_client):
    # "the miss" is the engine's name for the miss in its owner check: refused up front, not
    # left to a later "dealt twice" with no index. (A session cannot seat it: member handles
    # hold no space.)
    record = {**example("e1_miss_taker_revokes.json"), "seats": ["ann", "the miss", "cat", "dan"]}
    data = problem(scorer_client.post(URL, {"rules": RULES, "pool": 6, "record": record},
                                      format="json"), 400)
    assert data["code"] == "record-error"
    assert [(e["field"], e["message"]) for e in data["errors"]] == [
        ("seats", ("seats: 'the miss' cannot be a seat: the engine's record reading uses the name "
                  "for the miss; seat the player under another name"))]


def test_a_400_names_long_values_cut_to_a_readable_size(scorer_client):
    # a 10,000-character kind, seat or card was repeated whole in its error's message (and a
    # not-a-seat's player, a not-a-card's card): each item now stays short and gives the length
    record = example("e1_miss_taker_revokes.json")
    record["actions"] = [{"player": "ann", "action": "irregularity", "kind": "k" * 10_000},
                         {"player": "q" * 10_000, "action": "stand"}, *record["actions"]]
    data = problem(scorer_client.post(URL, {"rules": RULES, "pool": 6, "record": record},
                                      format="json"), 400)
    assert data["code"] == "record-error"
    by_index = {e["index"]: e for e in data["errors"]}
    assert by_index[0]["message"] == f"ann: unknown irregularity kind '{'k' * 57}…' (10,000 characters)"
    assert by_index[1]["message"] == f"player '{'q' * 57}…' (10,000 characters) is not a seat"
    assert by_index[1]["player"] == f"{'q' * 59}… (10,000 characters)"
    assert max(len(json.dumps(e)) for e in data["errors"]) < 400
    assert len(data["detail"]) < 400
