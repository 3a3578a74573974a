"""The lean three-card replay probe (bench/lean_three.py) gives the engine's very verdicts on
the deals it handles, so the figure it prints beside the engine measures the same work."""
from __future__ import annotations

import json
import random
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))

from engine import preset_items
from lean_probe import LeanError, check_equal, check_mutants
from lean_three import THREE, _defended, _mutants, lean_three

from games.rules import replay
from games.rules.simulate import uniform


@pytest.fixture(scope="module")
def items():
    """Three-card deals as the benchmark's mix makes them (4-6 seats, uniform choices)."""
    generated = preset_items("three-card", 72, random.Random(5), (4, 5, 6), uniform)
    handled = check_equal(generated, lean_three, _defended)  # asserts lean == engine on each
    assert len(handled) >= 65
    return handled


def test_probe_verdicts_equal_the_engines(items):
    assert check_equal(items, lean_three, _defended) == items
    kinds = {lean_three(i.text, i.rules, i.pool, True)["pool_kind"] for i in items}
    assert kinds == {"simple", "double"}


def test_probe_and_engine_agree_on_edited_records(items):
    per_kind: dict = {}
    check_mutants(items[:20], per_kind, lean_three, _mutants)  # asserts agreement on each
    outcomes = {o for kinds in per_kind.values() for o in kinds}
    assert "same verdict, irregular" in outcomes
    assert "both refuse" in outcomes


def _simple_pool(bob_second: str, bob_third: str) -> str:
    """A simple pool, hearts turned after trick 1. Hands: ann KS AD 4C, bob 3S 9D 7C,
    cat 5H QD 8C, dan AS TD 6H."""
    plays = [("ann", "KS"), ("bob", "3S"), ("cat", "5H"), ("dan", "AS"),
             ("cat", "QD"), ("dan", "TD"), ("ann", "AD"), ("bob", bob_second),
             ("ann", "4C"), ("bob", bob_third), ("cat", "8C"), ("dan", "6H")]
    return json.dumps({"format": "loo-deal/1", "seats": ["ann", "bob", "cat", "dan"],
                       "dealer": "dan", "pool": 0, "turnup": "2H",
                       "actions": [{"player": p, "action": "play", "card": c}
                                   for p, c in plays]})


def test_probe_turns_trumps_after_the_first_trick_like_the_engine():
    text = _simple_pool("9D", "7C")
    mine = lean_three(text, THREE, 0, True)
    assert mine == replay(json.loads(text), THREE, pool=0, first_of_series=True)
    # cat's 5H, played void of spades before trumps were known, wins trick 1 once hearts are
    # turned; then ann's AD and dan's 6H (void of clubs, so bound to trump) win one each
    assert mine["pool_kind"] == "simple" and mine["trumps"] == "H"
    assert [t["winner"] for t in mine["tricks"]] == ["cat", "ann", "dan"]
    assert mine["status"] == "valid"
    # P = 0 + 3 (dealer's ante): a unit a trick; bob, with no trick, is looed 3
    assert mine["settlement"]["payouts"] == {"cat": 1, "ann": 1, "dan": 1}
    assert mine["settlement"]["loo_payments"] == {"bob": 3}
    assert mine["settlement"]["deltas"] == {"ann": 1, "bob": -3, "cat": 1, "dan": -2}
    assert mine["next"] == {"dealer": "ann", "pool": 3, "first_of_series": False}


def test_probe_judges_a_revoke_with_the_engines_judge():
    text = _simple_pool("7C", "9D")  # bob throws a club to the QD lead, holding 9D
    mine = lean_three(text, THREE, 0, True)
    assert mine == replay(json.loads(text), THREE, pool=0, first_of_series=True)
    assert mine["violations"] == [{"player": "bob", "rule": "revoke", "trick": 2, "card": "7C",
                                   "evidence": "held 9D when QD was led",
                                   "penalty": "full-loo"}]
    assert mine["settlement"]["loo_payments"] == {"bob": 3}  # looed once, as the offender


def _double_pool(declarations: list[tuple[str, str]]) -> str:
    return json.dumps({"format": "loo-deal/1", "seats": ["ann", "bob", "cat", "dan"],
                       "dealer": "dan", "pool": 6, "turnup": "2H",
                       "actions": [{"player": p, "action": a} for p, a in declarations]})


def test_probe_settles_the_dealers_cases_like_the_engine():
    everyone_passes = _double_pool([("ann", "pass"), ("bob", "pass"), ("cat", "pass")])
    mine = lean_three(everyone_passes, THREE, 6, False)
    assert mine == replay(json.loads(everyone_passes), THREE, pool=6, first_of_series=False)
    assert mine["ended"] == "dealer-takes"
    assert mine["settlement"]["deltas"] == {"ann": 0, "bob": 0, "cat": 0, "dan": 6}
    conceded = _double_pool([("ann", "pass"), ("bob", "take-miss"), ("cat", "pass"),
                             ("dan", "pass")])
    mine = lean_three(conceded, THREE, 6, False)
    assert mine == replay(json.loads(conceded), THREE, pool=6, first_of_series=False)
    assert mine["ended"] == "conceded" and mine["settlement"]["payouts"] == {"bob": 9}


def test_probe_refuses_or_declines_what_the_engine_refuses_or_it_does_not_handle():
    with pytest.raises(LeanError):  # a dealer may not pass against a lone stander
        lean_three(_double_pool([("ann", "stand"), ("bob", "pass"), ("cat", "pass"),
                                 ("dan", "pass")]), THREE, 6, False)
    with pytest.raises(NotImplementedError):  # a defended pool: not in the probe's scope
        lean_three(_double_pool([("ann", "stand"), ("bob", "pass"), ("cat", "pass"),
                                 ("dan", "defend")]), THREE, 6, False)
