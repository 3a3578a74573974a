"""Where a replay's time goes: the engine's pipeline cut into stages, beside the floor.

usage (from the repository root):
    .venv/bin/python bench/stages.py                  # 3,000 mix + 1,000 reference deals
    .venv/bin/python bench/stages.py --deals 300 --instructions   # instructions per stage
        # (valgrind; deterministic, so it shows a change of a few per cent; ~5 minutes)

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
import os
import re
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from engine import Item, mix_items, reference_items
from floor import floor_deal

from games.rules import RuleSet, record
from games.rules.deal import Deal
from games.rules.phases import DECLARATION_ALIASES, DECLARATIONS, EXCHANGE

STAGES = ("json.loads", "hands read back", "Deal set-up", "declarations", "exchanges", "plays",
          "verdict")
_DECLARATIONS = frozenset((*DECLARATIONS, *DECLARATION_ALIASES))


def cached_items(deals: int, seed: int) -> tuple[list[Item], list[Item]]:
    """The mix (every 9th of 9 x ``deals``, so that a short run spans every preset: the mix is
    sorted by preset) and ``deals // 3`` reference deals, generated once into var/bench/ so
    that later runs (under valgrind, or after an engine change) judge the very same texts."""
    cache = ROOT / "var" / "bench" / f"stages-{seed}-{deals}.jsonl"
    if not cache.exists():
        generated = {"mix": mix_items(deals * 9, seed)[::9],
                     "reference": reference_items(max(deals // 3, 1), seed + 1)}
        cache.parent.mkdir(parents=True, exist_ok=True)
        cache.write_text("".join(
            json.dumps([name, i.preset, i.text, i.rules.to_options(), i.pool, i.first_of_series,
                        i.plays, i.floor_flags]) + "\n"
            for name, items in generated.items() for i in items))
    out: dict[str, list[Item]] = {"mix": [], "reference": []}
    for line in cache.read_text().splitlines():
        name, preset, text, options, pool, first, plays, flags = json.loads(line)
        out[name].append(Item(preset, text, RuleSet.from_options(options), pool, first, plays,
                              tuple(flags)))
    return out["mix"], out["reference"]


def run_to(stage: int, item: Item) -> dict | None:
    """Replay one deal as ``replay`` does, stopping after ``stage`` (0-based, see STAGES); the
    verdict after the last stage (tests/engine/test_bench_stages.py holds it to ``replay``'s)."""
    rec = json.loads(item.text)
    if stage == 0:
        return None
    actions = rec["actions"]
    hands, miss, inferred, ops, stock = record._infer_hands(
        rec, item.rules, rec["seats"], rec["dealer"], actions, [], set(), rec.get("result") is None)
    if stage == 1:
        return None
    deal = Deal(item.rules, rec["seats"], rec["dealer"], pool=item.pool, hands=hands, miss=miss,
                turnup=rec.get("turnup"), stock=stock,
                first_of_series=item.first_of_series, redeal=bool(rec.get("redeal")),
                sits_out=rec.get("sits_out") or [], inferred=inferred,
                final=bool(rec.get("final")))
    if stage == 2:
        return None
    for i, action in enumerate(actions):
        kind = action["action"]
        if (stage == 3 and kind not in _DECLARATIONS) or (stage == 4 and kind == "play"):
            return None
        op = ops[i]
        if type(op) is int:
            deal._push_card(deal._idx[action["player"]], op, action)
        elif op is not None and deal.phase == EXCHANGE:
            deal._push_exchange(action, op)
        else:
            deal.push(action)
    return deal.verdict() if stage == 6 else None


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


def count_instructions(deals: int, seed: int) -> int:
    """Instructions per deal in each stage: one valgrind run per stage, differences per deal.

    Instruction counts do not move with the machine's load (CPU times do, by 10-30% here), so a
    change of a few per cent shows; PYTHONHASHSEED is fixed so every run hashes alike."""
    mix, reference = cached_items(deals, seed)
    env = {**os.environ, "PYTHONHASHSEED": "0"}

    def collected(stage: int, workload: str) -> int:
        done = subprocess.run(
            ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable,
             __file__, "--deals", str(deals), "--seed", str(seed), "--stage", str(stage),
             "--workload", workload], env=env, capture_output=True, text=True, check=True)
        return int(re.search(r"Collected : (\d+)", done.stderr).group(1))

    for workload, items in (("mix", mix), ("reference", reference)):
        print(f"{workload}: {len(items):,} deals, instructions per deal")
        previous = collected(-1, workload)
        start = previous
        for k, name in enumerate(STAGES):
            now = collected(k, workload)
            print(f"  {name:<18}{(now - previous) // len(items):>10,}", flush=True)
            previous = now
        print(f"  {'engine in all':<18}{(previous - start) // len(items):>10,}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=3_000, help="mix deals (reference: a third)")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--stage", type=int, choices=range(-1, len(STAGES)), default=None,
                        help="replay once up to this stage and exit (-1: load only), for "
                             "counting instructions under valgrind")
    parser.add_argument("--workload", choices=("mix", "reference"), default="mix")
    parser.add_argument("--instructions", action="store_true",
                        help="count instructions per stage under valgrind (deterministic, slow)")
    args = parser.parse_args(argv)
    if args.instructions:
        return count_instructions(args.deals, args.seed)
    mix, reference = cached_items(args.deals, args.seed)
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
