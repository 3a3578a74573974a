"""The lean poker-Loo replay probe (bench/lean_poker.py) gives the engine's very verdicts on
the mix's kind of poker-Loo deal (series, 4-6 seats) it handles, so the figure it prints
beside the engine measures the same work."""
from __future__ import annotations

import json
import sys
from functools import partial
from pathlib import Path

import pytest

from games.rules import RecordError, replay

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

from lean_irish import _mutants
from lean_poker import POKER, _how, _none, lean_poker
from lean_probe import LeanError

from tests.engine.lean_deals import (
    ANN_AND_CAT_STAND,
    agree_on_edits,
    deal_text,
    mix_deals,
    same_verdict,
)

#: lean_poker's verdict on a ``deal_text`` deal, equal to the engine's: a later deal of a
#: series with a pot of 42, or (``_first``) a series' first deal, the pot empty
_later = partial(same_verdict, lean_poker, POKER, 42)
_first = partial(same_verdict, lean_poker, POKER, 0, [], [], first=True)

# a first deal: everybody stands and antes (dan, the dealer, 6; the others 5: P = 21);
# hearts are trumps (2H turned); the jack of clubs is a club like any other
_FIRST_BURNS = [
    ("ann", "AS"), ("bob", "3S"), ("cat", "4S"), ("dan", "5S"),   # ann
    ("ann", "AD"), ("bob", "3D"), ("cat", "4D"), ("dan", "5D"),   # ann
    ("ann", "AC"), ("bob", "3C"), ("cat", "JC"), ("dan", "5C"),   # ann: JC is no Pam
    ("ann", "7D"), ("bob", "KD"), ("cat", "8D"), ("dan", "9D"),   # bob
    ("bob", "KS"), ("cat", "8S"), ("dan", "9S"), ("ann", "7S")]   # bob
_FIRST_SHARED = [
    ("ann", "AS"), ("bob", "3S"), ("cat", "4S"), ("dan", "5S"),   # ann
    ("ann", "AD"), ("bob", "3D"), ("cat", "4D"), ("dan", "5D"),   # ann
    ("ann", "3C"), ("bob", "AC"), ("cat", "4C"), ("dan", "5C"),   # bob
    ("bob", "KD"), ("cat", "8D"), ("dan", "9D"), ("ann", "6D"),   # bob
    ("bob", "KS"), ("cat", "3H"), ("dan", "9S"), ("ann", "6S")]   # cat trumps, void in spades

# a later deal, ann and cat standing: ann is dealt AH KS QS 3D 4C and changes 4C for 6C; cat
# is dealt 5H 2S 9D 8D 7C and keeps them
_ANN_CHANGES = [("ann", ["4C"], ["6C"])]
_TWO_STAND = [
    ("ann", "AH"), ("cat", "5H"),     # ann
    ("ann", "KS"), ("cat", "2S"),     # ann
    ("ann", "QS"), ("cat", "9D"),     # ann: cat holds no spade now
    ("ann", "3D"), ("cat", "8D"),     # cat
    ("cat", "7C"), ("ann", "6C")]     # cat


@pytest.fixture(scope="module")
def items():
    """Poker-Loo deals as the benchmark's mix makes them (4-6 seats, uniform choices)."""
    generated, handled = mix_deals("poker-loo", lean_poker, _none)
    assert handled == generated  # lean == engine on each
    return generated


def test_probe_verdicts_equal_the_engines(items):
    kinds = {_how(i) for i in items}
    assert {"first deal", "lone-stander", "played by 2", "played by 3"} <= kinds


def test_probe_and_engine_agree_on_edited_records(items):
    agree_on_edits(items, lean_poker, _mutants)


def test_probe_burns_a_stander_on_a_first_deal_like_the_engine():
    mine = _first(_FIRST_BURNS)
    assert mine["standers"] == ["ann", "bob", "cat", "dan"] and mine["status"] == "valid"
    assert mine["tricks_won"] == {"ann": 3, "bob": 2, "cat": 0, "dan": 0}
    s = mine["settlement"]
    assert s["antes"] == {"dan": 6, "ann": 5, "bob": 5, "cat": 5} and s["pool"] == 21
    # ann's three tricks take the pot; bob's two neither win nor burn; cat and dan, without a
    # trick, are burned: each matches the pot (21)
    assert s["payouts"] == {"ann": 21}
    assert s["loo_payments"] == {"cat": 21, "dan": 21}
    assert s["pool_after"] == 42
    assert s["deltas"] == {"ann": 16, "bob": -5, "cat": -26, "dan": -27}
    assert mine["next"] == {"dealer": "ann", "pool": 42, "first_of_series": False}


def test_probe_shares_a_first_deals_pot_among_two_trick_players_like_the_engine():
    mine = _first(_FIRST_SHARED)
    assert mine["tricks_won"] == {"ann": 2, "bob": 2, "cat": 1, "dan": 0}
    s = mine["settlement"]
    # nobody took three: ann and bob, two each, share 21 (10 each, 1 stays); cat (one trick)
    # and dan (none) are burned 21 each
    assert s["payouts"] == {"ann": 10, "bob": 10}
    assert s["loo_payments"] == {"cat": 21, "dan": 21}
    assert s["pool_after"] == 43
    assert s["deltas"] == {"ann": 5, "bob": 5, "cat": -26, "dan": -27}


def test_probe_deals_again_when_all_fold_like_the_engine():
    # the players decide at once: the record may give their folds in any order
    mine = _later([("cat", "fold"), ("ann", "fold"), ("dan", "fold"), ("bob", "fold")], [], [])
    assert mine["ended"] == "nobody-stands" and mine["standers"] == []
    s = mine["settlement"]
    assert s["antes"] == {} and s["payouts"] == {} and s["loo_payments"] == {}
    assert s["pool_after"] == 42 and set(s["deltas"].values()) == {0}
    assert mine["next"] == {"dealer": "dan", "pool": 42, "first_of_series": False}


def test_probe_gives_a_lone_stander_the_pot_like_the_engine():
    mine = _later([("ann", "fold"), ("bob", "stand"), ("cat", "fold"), ("dan", "fold")], [],
                  [])
    assert mine["ended"] == "lone-stander" and mine["settlement"]["payouts"] == {"bob": 42}
    assert mine["next"] == {"dealer": "ann", "pool": 0, "first_of_series": True}


def test_probe_burns_the_second_of_two_standers_like_the_engine():
    mine = _later(ANN_AND_CAT_STAND, _ANN_CHANGES, _TWO_STAND)
    assert mine["tricks_won"] == {"ann": 3, "cat": 2} and mine["trumps"] == "H"
    # no ante on a later deal: P = 42; ann's three tricks take it, and with exactly two
    # standers cat, without three, is burned 42
    assert mine["settlement"]["payouts"] == {"ann": 42}
    assert mine["settlement"]["loo_payments"] == {"cat": 42}
    assert mine["settlement"]["deltas"] == {"ann": 42, "bob": 0, "cat": -42, "dan": 0}
    assert mine["next"] == {"dealer": "ann", "pool": 42, "first_of_series": False}


def test_probe_throws_the_hand_in_for_a_revoke_like_the_engine():
    revoked = list(_TWO_STAND)
    revoked[3], revoked[5] = ("cat", "9D"), ("cat", "2S")  # cat holds 2S when KS is led
    mine = _later(ANN_AND_CAT_STAND, _ANN_CHANGES, revoked)
    assert mine["ended"] == "thrown-in" and mine["status"] == "irregular"
    assert mine["violations"] == [{"player": "cat", "rule": "revoke", "trick": 2, "card": "9D",
                                   "evidence": "held 2S when KS was led", "penalty": "burn"}]
    assert [t["winner"] for t in mine["tricks"]] == ["ann"]  # the finished trick only
    assert mine["settlement"]["payouts"] == {} and mine["settlement"]["loo_payments"] == {
        "cat": 42}
    # the same dealer deals again, cat sitting out
    assert mine["next"] == {"dealer": "dan", "pool": 84, "first_of_series": False}
    assert mine["redeal"] == {"sits_out": ["cat"]}


def test_probe_refuses_what_the_engine_refuses():
    folds_first = deal_text(0, [("bob", "fold")], [], [])             # all must stand
    takes_miss = deal_text(42, [("ann", "take-miss")], [], [])        # no miss at poker-Loo
    four = deal_text(42, ANN_AND_CAT_STAND, [("ann", ["AH", "KS", "QS", "4C"],
                                              ["6C", "7S", "8S", "9S"])], [])  # at most three
    twice = deal_text(42, [("ann", "stand"), ("ann", "fold")], [], [])  # one declaration each
    for text, first in ((folds_first, True), (takes_miss, False), (four, False),
                        (twice, False)):
        with pytest.raises(LeanError):
            lean_poker(text, POKER, json.loads(text)["pool"], first)
        with pytest.raises(RecordError):
            replay(json.loads(text), POKER, pool=json.loads(text)["pool"],
                   first_of_series=first)
