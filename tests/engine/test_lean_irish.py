"""The lean Irish Loo replay probe (bench/lean_irish.py) gives the engine's very verdicts on
the deals it handles, so the figure it prints beside the engine measures the same work."""
from __future__ import annotations

import json
import sys
from functools import partial
from pathlib import Path

import pytest

from games.rules import RecordError, replay

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

from lean_irish import IRISH, _how, _mutants, _none, lean_irish
from lean_probe import LeanError

from tests.engine.lean_deals import (
    ANN_AND_CAT_STAND,
    agree_on_edits,
    deal_text,
    mix_deals,
    same_verdict,
)


@pytest.fixture(scope="module")
def items():
    """Irish deals as the benchmark's mix makes them (4-6 seats, uniform choices)."""
    generated, handled = mix_deals("irish", lean_irish, _none)
    assert handled == generated  # lean == engine on each
    return generated


def test_probe_verdicts_equal_the_engines(items):
    kinds = {_how(i) for i in items}
    assert {"defended", "played, cards exchanged"} <= kinds


def test_probe_and_engine_agree_on_edited_records(items):
    agree_on_edits(items, lean_irish, _mutants)


#: lean_irish's verdict on a ``deal_text`` deal with a pool of 6, equal to the engine's
_both = partial(same_verdict, lean_irish, IRISH, 6)

# ann is dealt KS AD 4C and changes 4C for 7H; cat is dealt 5S QD 8C and keeps them
_ANN_CHANGES = [("ann", ["4C"], ["7H"])]


def test_probe_reads_hands_back_through_the_exchange_like_the_engine():
    mine = _both(ANN_AND_CAT_STAND, _ANN_CHANGES, [
        ("ann", "7H"), ("cat", "5S"),     # ann must lead her trump; cat has none
        ("ann", "KS"), ("cat", "8C"),     # cat holds no spade now
        ("ann", "AD"), ("cat", "QD")])   # cat follows, unable to head
    assert mine["pool_kind"] is None and mine["trumps"] == "H"
    assert mine["standers"] == ["ann", "cat"] and mine["status"] == "valid"
    assert [t["winner"] for t in mine["tricks"]] == ["ann", "ann", "ann"]
    # P = 6 + dan's ante 3: all three tricks take it; cat, with none, is looed 3
    assert mine["settlement"]["payouts"] == {"ann": 9}
    assert mine["settlement"]["loo_payments"] == {"cat": 3}
    assert mine["settlement"]["deltas"] == {"ann": 9, "bob": 0, "cat": -3, "dan": -3}
    assert mine["next"] == {"dealer": "ann", "pool": 3, "first_of_series": False}


def test_probe_judges_a_revoke_with_the_engines_judge():
    mine = _both(ANN_AND_CAT_STAND, _ANN_CHANGES, [
        ("ann", "7H"), ("cat", "8C"),
        ("ann", "KS"), ("cat", "QD"),     # cat holds 5S: a revoke
        ("ann", "AD"), ("cat", "5S")])
    assert mine["violations"] == [{"player": "cat", "rule": "revoke", "trick": 2, "card": "QD",
                                   "evidence": "held 5S when KS was led",
                                   "penalty": "full-loo"}]
    assert mine["settlement"]["loo_payments"] == {"cat": 3}  # looed once, as the offender


def test_probe_settles_a_defended_pool_like_the_engine():
    # dan defends against ann alone and takes every trick: his takes stay in the pool
    mine = _both([("ann", "stand"), ("bob", "pass"), ("cat", "pass"), ("dan", "defend")],
                 [], [("ann", "7H"), ("dan", "9H"),    # dan must head the trump led
                      ("dan", "2C"), ("ann", "KS"),
                      ("dan", "3C"), ("ann", "AD")])
    assert mine["defender"] == "dan"
    assert [t["winner"] for t in mine["tricks"]] == ["dan", "dan", "dan"]
    assert mine["settlement"]["payouts"] == {}
    assert mine["settlement"]["loo_payments"] == {"ann": 3}
    assert mine["settlement"]["pool_after"] == 12
    assert mine["settlement"]["deltas"] == {"ann": -3, "bob": 0, "cat": 0, "dan": -3}


def test_probe_refuses_what_the_engine_refuses():
    seen = deal_text(6, ANN_AND_CAT_STAND, [("ann", ["4C"], ["2H"])], [  # the turn-up is not in the stock
        ("ann", "2H"), ("cat", "5S"), ("ann", "KS"), ("cat", "8C"), ("ann", "AD"),
        ("cat", "QD")])
    with pytest.raises(LeanError):
        lean_irish(seen, IRISH, 6, False)
    with pytest.raises(RecordError):
        replay(json.loads(seen), IRISH, pool=6, first_of_series=False)
    no_miss = deal_text(6, [("ann", "take-miss")], [], [])
    with pytest.raises(LeanError):
        lean_irish(no_miss, IRISH, 6, False)
    with pytest.raises(RecordError):
        replay(json.loads(no_miss), IRISH, pool=6, first_of_series=False)
