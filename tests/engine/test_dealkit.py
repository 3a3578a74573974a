"""The compact deal notation of dealkit reads exactly into record actions."""
import pytest

from tests.engine.dealkit import assert_conserved, parse_actions, record


def test_compact_actions_read_into_record_actions():
    acts = parse_actions("ann stand; bob miss\ncat pass; dan defend; ann 10h; bob play 5C; "
                         "ann exchange 2C 3D > 4H 5S; bob exchange; cat ! looked-at-miss; dan JC civil")
    assert acts == [
        {"player": "ann", "action": "stand"},
        {"player": "bob", "action": "take-miss"},
        {"player": "cat", "action": "pass"},
        {"player": "dan", "action": "defend"},
        {"player": "ann", "action": "play", "card": "TH"},
        {"player": "bob", "action": "play", "card": "5C"},
        {"player": "ann", "action": "exchange", "discard": ["2C", "3D"], "draw": ["4H", "5S"]},
        {"player": "bob", "action": "exchange", "discard": [], "draw": []},
        {"player": "cat", "action": "irregularity", "kind": "looked-at-miss"},
        {"player": "dan", "action": "play", "card": "JC", "say": "pam-be-civil"},
    ]


def test_record_carries_fields_and_refuses_gibberish():
    rec = record("ann bob", "bob", turnup="7D", pool=6, actions="ann stand", miss=["2C", "3C", "4C"])
    assert rec["seats"] == ["ann", "bob"] and rec["pool"] == 6 and rec["miss"] == ["2C", "3C", "4C"]
    assert rec["rules"] == {"game": "three-card"} and rec["format"] == "loo-deal/1"
    with pytest.raises(ValueError):
        parse_actions("ann dances")


def test_conservation_check_catches_a_lost_chip():
    verdict = {"settlement": {"pool_before": 6, "pool": 9, "pool_after": 3,
                              "deltas": {"ann": 9, "bob": -3, "dan": -4}}}
    with pytest.raises(AssertionError):
        assert_conserved(verdict)
    verdict["settlement"]["deltas"]["dan"] = -3
    assert_conserved(verdict, ["ann", "bob", "dan"])
