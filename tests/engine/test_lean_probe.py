"""The lean replay probe (bench/lean_probe.py) gives the engine's very verdicts on the deals it
handles, so the figure it prints beside the engine measures the same work."""
from __future__ import annotations

import json
import random
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))

from engine import reference_items
from lean_probe import LeanError, check_equal, check_mutants, lean_replay

from games.rules import RuleSet


@pytest.fixture(scope="module")
def items():
    """Reference deals the probe handles (it declines those ending in a flush)."""
    generated = reference_items(60, 11)
    handled = check_equal(generated)  # asserts lean == engine on each deal it handles
    assert len(handled) >= 50
    return handled


def test_probe_verdicts_equal_the_engines(items):
    assert check_equal(items) == items
    assert {json.loads(i.text)["dealer"] for i in items} == {"ann", "bob", "cat", "dan", "eve"}


def test_probe_and_engine_agree_on_edited_records(items):
    per_kind: dict = {}
    check_mutants(items[:20], per_kind)  # asserts agreement on each edited record
    outcomes = {o for kinds in per_kind.values() for o in kinds}
    assert "same verdict, irregular" in outcomes
    assert "both refuse" in outcomes


def test_probe_judges_a_revoke_like_the_engine(items):
    record = json.loads(items[0].text)
    plays = [a for a in record["actions"] if a["action"] == "play"]
    rng = random.Random(3)
    for _ in range(200):  # swap two cards of one player until the earlier one revokes
        p = rng.choice([a["player"] for a in plays])
        mine = [a for a in plays if a["player"] == p]
        x, y = rng.sample(mine, 2)
        x["card"], y["card"] = y["card"], x["card"]
        verdict = lean_replay(json.dumps(record), items[0].rules, 0, True)
        if any(v["rule"] == "revoke" for v in verdict["violations"]):
            break
        x["card"], y["card"] = y["card"], x["card"]
    else:
        pytest.fail("no revoke made")
    revoke = next(v for v in verdict["violations"] if v["rule"] == "revoke")
    assert revoke["player"] == p and revoke["penalty"] == "full-loo"
    assert verdict["status"] == "irregular"
    assert p not in verdict["settlement"]["payouts"]


def test_probe_refuses_a_card_played_twice(items):
    record = json.loads(items[0].text)
    plays = [a for a in record["actions"] if a["action"] == "play"]
    plays[7]["card"] = plays[3]["card"]
    with pytest.raises(LeanError):
        lean_replay(json.dumps(record), RuleSet.from_options({"preset": "five-card"}), 0, True)
