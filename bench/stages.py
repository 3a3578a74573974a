"""Where a replay's time goes: the engine's pipeline cut into stages, beside the floor.

usage (from the repository root):
    .venv/bin/python bench/stages.py                  # 3,000 mix + 1,000 reference deals
    .venv/bin/python bench/stages.py --deals 600 --stage 4 --workload reference   # one run for
        # an instruction count: valgrind --tool=callgrind ... (see docs/benchmarks.md)

``replay`` does, in order: ``json.loads``; read each hand back from the plays
(``record._infer_hands``); set up the ``Deal``; push the declarations, the exchanges, the plays;
build the verdict. Run k replays every deal up to the end of stage k; a stage's cost is the
difference between two runs (best of ``--repeat``), so no timer sits inside the loop. The floor
(``bench/floor.py``) is timed over the same texts: its logic is what any Python engine must do.
"""
from __future__ import annotations

import argparse
import gc
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from engine import Item, mix_items, reference_items
from floor import floor_deal

from games.rules import record
from games.rules.deal import Deal
from games.rules.phases import EXCHANGE

STAGES = ("json.loads", "hands read back", "Deal set-up", "declarations", "exchanges", "plays",
          "verdict")
_DECLARATIONS = frozenset({"stand", "pass", "take-miss", "defend", "fold"})


def run_to(stage: int, item: Item) -> None:
    """Replay one deal as ``replay`` does, stopping after ``stage`` (0-based, see STAGES)."""
    rec = json.loads(item.text)
    if stage == 0:
        return
    actions = rec["actions"]
    hands, miss, inferred, ops = record._infer_hands(
        rec, item.rules, rec["seats"], rec["dealer"], actions, [], set(), rec.get("result") is None)
    if stage == 1:
        return
    deal = Deal(item.rules, rec["seats"], rec["dealer"], pool=item.pool, hands=hands, miss=miss,
                turnup=rec.get("turnup"), stock=rec.get("stock"),
                first_of_series=item.first_of_series, redeal=bool(rec.get("redeal")),
                sits_out=rec.get("sits_out") or [], inferred=inferred,
                final=bool(rec.get("final")))
    if stage == 2:
        return
    for i, action in enumerate(actions):
        kind = action["action"]
        if (stage == 3 and kind not in _DECLARATIONS) or (stage == 4 and kind == "play"):
            return
        op = ops[i]
        if type(op) is int:
            deal._push_card(deal._idx[action["player"]], op, action)
        elif op is not None and deal.phase == EXCHANGE:
            deal._push_exchange(action, op)
        else:
            deal.push(action)
    if stage == 6:
        deal.verdict()


def best_seconds(fn: Callable[[Item], object], items: list[Item], repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        started = time.process_time()
        for item in items:
            fn(item)
        best = min(best, time.process_time() - started)
    return best


def report(title: str, items: list[Item], repeat: int) -> None:
    n = len(items)
    print(f"{title}: {n:,} deals, CPU µs per deal (best of {repeat})")
    previous = 0.0
    for k, name in enumerate(STAGES):
        total = best_seconds(lambda item, k=k: run_to(k, item), items, repeat)
        print(f"  {name:<18}{(total - previous) / n * 1e6:>8.1f}")
        previous = max(previous, total)
    print(f"  {'engine in all':<18}{previous / n * 1e6:>8.1f}")
    floor = best_seconds(lambda item: floor_deal(item.text, *item.floor_flags), items, repeat)
    json_only = best_seconds(lambda item: run_to(0, item), items, repeat)
    print(f"  {'floor in all':<18}{floor / n * 1e6:>8.1f}   (of which its logic "
          f"{(floor - json_only) / n * 1e6:.1f})")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=3_000, help="mix deals (reference: a third)")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--stage", type=int, choices=range(-1, len(STAGES)), default=None,
                        help="replay once up to this stage and exit (-1: load only), for "
                             "counting instructions under valgrind")
    parser.add_argument("--workload", choices=("mix", "reference"), default="mix")
    args = parser.parse_args(argv)
    # every k-th deal, so that a short run still spans every preset (the mix is sorted by preset)
    mix = mix_items(args.deals * 9, args.seed)[::9]
    reference = reference_items(max(args.deals // 3, 1), args.seed + 1)
    gc.collect()
    gc.freeze()
    if args.stage is not None:
        items = mix if args.workload == "mix" else reference
        if args.stage >= 0:
            for item in items:
                run_to(args.stage, item)
        return 0
    report("mix (every preset, 4-6 seats)", mix, args.repeat)
    report("reference (five-card, 5 seats, all stand)", reference, args.repeat)
    return 0


if __name__ == "__main__":
    sys.exit(main())
