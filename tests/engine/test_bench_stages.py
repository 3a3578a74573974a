"""bench/stages.py replays a deal in the engine's own stages: after the last one it must give
``replay``'s very verdict, or its per-stage figures time something else than the engine."""
from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))

from engine import mix_items, reference_items
from stages import STAGES, run_to

from games.rules import replay

ITEMS = mix_items(45, 7) + reference_items(5, 8)  # five deals of each preset, five all-stand


@pytest.mark.parametrize("item", ITEMS, ids=lambda item: item.preset)
def test_the_staged_replay_gives_the_engines_verdict(item):
    expected = replay(json.loads(item.text), item.rules, pool=item.pool,
                      first_of_series=item.first_of_series)
    assert run_to(len(STAGES) - 1, item) == expected
    for stage in range(len(STAGES) - 1):  # every earlier stop runs without error
        assert run_to(stage, item) is None
