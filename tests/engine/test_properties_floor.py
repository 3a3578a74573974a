"""The benchmark's floor (bench/floor.py) checks what it claims, on the shared worked examples."""
from __future__ import annotations

import json
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))

from floor import floor_deal, floor_random_deal

EXAMPLES = Path(__file__).resolve().parent / "examples"  # copies of ../shared/examples


def _example(name: str) -> str:
    return json.dumps(json.loads((EXAMPLES / name).read_text())["record"])


def test_floor_finds_the_winners_and_the_revoke_of_example_e1():
    # ann AD-QD, TH-5C (bob still holds 5H: a revoke), 2C-5H: ann takes all three
    won, offences = floor_deal(_example("e1_miss_taker_revokes.json"), True, True, False)
    assert won == {"ann": 3, "bob": 0}
    assert offences == 1


def test_floor_lets_pam_win_in_example_e3():
    # dan 9S-2S; dan AH, ann Pam (JC) wins; ann KD, QC; dan's 8H takes the last heart
    won, offences = floor_deal(_example("e3_five_card_pam.json"), False, False, True)
    assert won == {"dan": 2, "ann": 3}
    assert offences == 0


def test_floor_counts_failing_to_head_and_to_trump():
    record = {"turnup": "2S", "actions": [
        {"player": "ann", "action": "play", "card": "TH"},
        {"player": "bob", "action": "play", "card": "3H"},   # holds KH: failed to head
        {"player": "cat", "action": "play", "card": "4C"},   # void in hearts, holds 5S: must trump
        {"player": "bob", "action": "play", "card": "KH"},
        {"player": "cat", "action": "play", "card": "5S"},
        {"player": "ann", "action": "play", "card": "2D"},
    ]}
    won, offences = floor_deal(json.dumps(record), True, True, False)
    assert offences == 2
    assert won == {"ann": 1, "bob": 0, "cat": 1}
    assert floor_deal(json.dumps(record), False, False, False)[1] == 0


def test_floor_generator_deals_follow_suit():
    rng = random.Random(4)
    for _ in range(50):
        text = json.dumps(floor_random_deal(rng, ["a", "b", "c", "d", "e"]))
        won, offences = floor_deal(text, False, False, True)
        assert offences == 0 and sum(won.values()) == 5
