"""The shared worked examples (../shared/examples) replay to the outcomes worked out by hand.

The same comparison as ../shared/tools/check-contract, through both the Python API and the
command line; skipped cleanly when the shared directory is not beside the repository.
"""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from games.rules import RecordError, replay

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT.parent / "shared" / "examples"
CASES = sorted(EXAMPLES.glob("*.json")) if EXAMPLES.is_dir() else []

pytestmark = pytest.mark.skipif(not CASES, reason="../shared/examples is not available")


def _nonzero(mapping: dict | None) -> dict:
    return {k: v for k, v in (mapping or {}).items() if v}


def _compare(expect: dict, verdict: dict) -> None:
    for key in ("status", "pool_kind"):
        if key in expect:
            assert verdict[key] == expect[key], key
    assert _nonzero(verdict["tricks_won"]) == _nonzero(expect.get("tricks_won"))
    got = sorted((v["player"], v["rule"], v["trick"]) for v in verdict["violations"])
    assert got == sorted(tuple(v) for v in expect.get("violations", []))
    settlement = verdict["settlement"]
    for key in ("payouts", "loo_payments", "deltas"):
        assert _nonzero(settlement[key]) == _nonzero(expect.get(key)), key
    assert settlement["pool_after"] == expect["pool_after"]
    deltas = settlement["deltas"]
    assert sum(deltas.values()) + settlement["pool_after"] - settlement["pool_before"] == 0


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_example_through_the_api(path: Path) -> None:
    case = json.loads(path.read_text())
    expect = case["expect"]
    if expect.get("error"):
        with pytest.raises(RecordError) as caught:
            replay(case["record"])
        assert caught.value.errors and all("message" in e for e in caught.value.errors)
        return
    _compare(expect, replay(case["record"]))


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_example_through_the_command_line(path: Path, tmp_path: Path) -> None:
    case = json.loads(path.read_text())
    record = tmp_path / "record.json"
    record.write_text(json.dumps(case["record"]))
    done = subprocess.run([sys.executable, "-m", "games.rules", "replay", str(record)],
                          capture_output=True, text=True, cwd=ROOT, check=False)
    if case["expect"].get("error"):
        assert done.returncode == 1
        assert json.loads(done.stdout)["errors"]
        return
    assert done.returncode == 0, done.stderr
    _compare(case["expect"], json.loads(done.stdout))


def test_card_played_twice_names_the_action_player_and_card() -> None:
    case = json.loads((EXAMPLES / "e4_card_played_twice.json").read_text())
    with pytest.raises(RecordError) as caught:
        replay(case["record"])
    first = caught.value.errors[0]
    assert (first["index"], first["player"], first["card"]) == (9, "bob", "AD")
