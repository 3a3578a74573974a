"""A digest of the engine's outcomes on records with odd JSON values: pure against compiled.

usage (from the repository root):
    .venv/bin/python bench/odd_values.py var/bench/records.jsonl
    .venv/bin/python bench/compiled_engine.py -- .venv/bin/python bench/odd_values.py \
        var/bench/records.jsonl                               # must print the same digest

A sample of the records (``verdict_digest.py``'s) is replayed with each top-level field, and
each field of each action, set in turn to one of ``ODD`` (a number where a name belongs, a list
where a card does, ...). Compiled code raises TypeError on a value of the wrong type where pure
Python reads on, so an annotation narrower than what a record may hold shows here as a different
outcome (and as a CRASH line). ``--out FILE`` writes every outcome, one a line, to diff.
"""
from __future__ import annotations

import argparse
import copy
import hashlib
import json
import random
import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import games.rules.deal
from games.rules import RecordError, RuleSet, replay

ODD: list[object] = [5, None, [1], {"a": 1}, 2.5, True, "zzz", "", -1, ["AS"], "AS"]
#: fields set even where the record leaves them out
TOP_FIELDS = ("hands", "miss", "stock", "result", "sits_out", "redeal", "final")
ACTION_FIELDS = ("say", "kind", "evidence", "discard", "draw", "card")

Edit = Callable[[dict], None]


def _outcome(entry: dict, record: dict) -> str:
    try:
        verdict = replay(record, RuleSet.from_options(entry["rules"]), pool=entry["pool"],
                         first_of_series=entry["first_of_series"])
        return json.dumps(verdict, sort_keys=True)
    except RecordError as err:
        return "record-error " + json.dumps(err.errors, sort_keys=True, default=repr)
    except Exception as err:  # noqa: BLE001 - a crash is what this looks for
        return f"CRASH {type(err).__name__}: {err}"


def _set(path: tuple, value: object) -> Edit:
    def edit(record: dict) -> None:
        target = record
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = copy.deepcopy(value)
    return edit


def _edits(record: dict) -> list[tuple[str, Edit]]:
    out = [(f"{key}={v!r}", _set((key,), v))
           for key in dict.fromkeys([*record, *TOP_FIELDS]) for v in ODD]
    for i, action in enumerate(record.get("actions", [])):
        out += [(f"actions[{i}].{key}={v!r}", _set(("actions", i, key), v))
                for key in dict.fromkeys([*action, *ACTION_FIELDS]) for v in ODD]
        out.append((f"actions[{i}]=7", _set(("actions", i), 7)))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("records", type=Path)
    parser.add_argument("--sample", type=int, default=300, help="records replayed (seeded)")
    parser.add_argument("--out", type=Path, help="write every outcome here")
    args = parser.parse_args(argv)
    lines = args.records.read_text().splitlines()
    sample = [json.loads(line) for line in random.Random(7).sample(lines, args.sample)]
    outcomes, crashes = [], Counter()
    for n, entry in enumerate(sample):
        for name, edit in _edits(entry["record"]):
            record = copy.deepcopy(entry["record"])
            edit(record)
            got = _outcome(entry, record)
            outcomes.append(f"{n} {name} {got}")
            if got.startswith("CRASH"):
                crashes[got] += 1
    digest = hashlib.sha256("\n".join(outcomes).encode()).hexdigest()
    engine = Path(games.rules.deal.__file__).name
    print(f"{len(outcomes):,} replays  engine {engine}  crashes {sum(crashes.values())}  "
          f"sha256 {digest}")
    for crash, count in crashes.most_common():
        print(f"  {count} {crash[:200]}")
    if args.out:
        args.out.write_text("\n".join(outcomes) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
