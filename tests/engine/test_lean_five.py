"""The lean five-card replay probe (bench/lean_five.py) gives the engine's very verdicts on the
mix's kind of five-card deal (passes, 4-6 seats) it handles, so the figure it prints beside
the engine measures the same work."""
from __future__ import annotations

import json
import sys
from functools import partial
from pathlib import Path

import pytest

from games.rules import RecordError, replay

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

from lean_five import FIVE, _how, _mutants, lean_five
from lean_probe import LeanError, _ends_in_flush

from tests.engine.lean_deals import (
    ANN_AND_CAT_STAND,
    agree_on_edits,
    deal_text,
    mix_deals,
    same_verdict,
)

#: lean_five's verdict on a ``deal_text`` deal with a pool of 10, equal to the engine's
_both = partial(same_verdict, lean_five, FIVE, 10)

# ann is dealt AH KS QS 3D 4C and changes 4C for 6C; cat is dealt 5H 2S 9D 8D 7C and keeps them
_ANN_CHANGES = [("ann", ["4C"], ["6C"])]


@pytest.fixture(scope="module")
def items():
    """Five-card deals as the benchmark's mix makes them (4-6 seats, uniform choices)."""
    generated, handled = mix_deals("five-card", lean_five, _ends_in_flush)  # lean == engine
    assert len(handled) >= len(generated) - 2
    return handled


def test_probe_verdicts_equal_the_engines(items):
    kinds = {_how(i) for i in items}
    assert {"lone-stander", "played by 2", "played by 3"} <= kinds


def test_probe_reads_hands_back_through_the_exchange_like_the_engine():
    mine = _both(ANN_AND_CAT_STAND, _ANN_CHANGES, [
        ("ann", "AH"), ("cat", "5H"),     # ann leads a trump to trick 1, as she must
        ("ann", "KS"), ("cat", "2S"),
        ("ann", "QS"), ("cat", "9D"),     # cat holds no spade now
        ("ann", "3D"), ("cat", "8D"),
        ("cat", "7C"), ("ann", "6C")])
    assert mine["standers"] == ["ann", "cat"] and mine["status"] == "valid"
    assert mine["trumps"] == "H" and mine["ended"] == "played"
    assert [t["winner"] for t in mine["tricks"]] == ["ann", "ann", "ann", "cat", "cat"]
    # P = 10 + dan's ante 5 = 15: floor(15/5) = 3 a trick; both took one, nobody is looed
    assert mine["settlement"]["payouts"] == {"ann": 9, "cat": 6}
    assert mine["settlement"]["loo_payments"] == {}
    assert mine["settlement"]["deltas"] == {"ann": 9, "bob": 0, "cat": 6, "dan": -5}
    assert mine["next"] == {"dealer": "ann", "pool": 0, "first_of_series": False}


def test_probe_judges_a_revoke_like_the_engine():
    mine = _both(ANN_AND_CAT_STAND, _ANN_CHANGES, [
        ("ann", "AH"), ("cat", "5H"),
        ("ann", "KS"), ("cat", "9D"),     # cat holds 2S: a revoke
        ("ann", "QS"), ("cat", "2S"),
        ("ann", "3D"), ("cat", "8D"),
        ("cat", "7C"), ("ann", "6C")])
    assert mine["violations"] == [{"player": "cat", "rule": "revoke", "trick": 2, "card": "9D",
                                   "evidence": "held 2S when KS was led",
                                   "penalty": "full-loo"}]
    # the offender's two tricks stay in the pool (6 of 15) and he is looed 5
    assert mine["settlement"]["payouts"] == {"ann": 9}
    assert mine["settlement"]["loo_payments"] == {"cat": 5}
    assert mine["settlement"]["pool_after"] == 11


def test_probe_settles_deals_that_are_not_played_like_the_engine():
    alone = _both([("ann", "pass"), ("bob", "pass"), ("cat", "stand"), ("dan", "pass")], [], [])
    assert alone["ended"] == "lone-stander" and alone["standers"] == ["cat"]
    assert alone["settlement"]["payouts"] == {"cat": 15}  # the pool and dan's ante
    assert alone["settlement"]["deltas"] == {"ann": 0, "bob": 0, "cat": 15, "dan": -5}
    nobody = _both([(p, "pass") for p in ("ann", "bob", "cat", "dan")], [], [])
    assert nobody["ended"] == "nobody-stands" and nobody["standers"] == []
    assert nobody["settlement"]["payouts"] == {} and nobody["settlement"]["pool_after"] == 15


def test_probe_refuses_what_the_engine_refuses():
    passer_changes = deal_text(10, ANN_AND_CAT_STAND, [("bob", ["3S"], ["4S"])], [])
    alone = [("ann", "stand"), ("bob", "pass"), ("cat", "pass"), ("dan", "pass")]
    played_alone = deal_text(10, alone, [], [("ann", "AH")])
    for text in (passer_changes, played_alone):
        with pytest.raises(LeanError):
            lean_five(text, FIVE, 10, False)
        with pytest.raises(RecordError):
            replay(json.loads(text), FIVE, pool=10, first_of_series=False)


def test_probe_and_engine_agree_on_edited_records(items):
    agree_on_edits(items, lean_five, _mutants)
