"""A digest of the engine's verdicts over a fixed set of records: the check behind a speed-up.

usage (from the repository root):
    .venv/bin/python bench/verdict_digest.py var/bench/records.jsonl     # first run: generates
    .venv/bin/python bench/verdict_digest.py var/bench/records.jsonl     # after a change: compare

The records file is written once (legal deals of every preset and of eight house variants, in
sessions carrying the pool, plus for each house deal a copy with two plays swapped, which is
irregular or a record error) and then only read, so a change to the simulator cannot change what
is judged. The digest is SHA-256 over every verdict's JSON (or the record error's list): an
engine change meant to be invisible must print the same digest. ``--dump FILE`` writes the
verdicts themselves, one a line, to find where two engines differ.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from games.rules import PRESETS, RecordError, RuleSet, replay
from games.rules.simulate import session_deals

SEATS = ["ann", "bob", "cat", "dan", "eve"]
HOUSE_VARIANTS = [
    {"preset": "three-card", "club_law": True, "flush": "three-trumps"},
    {"preset": "five-card", "blaze": True, "pam_be_civil": "binding"},
    {"preset": "five-card", "pam": "jack-of-trumps"},
    {"preset": "three-card", "trump_turned": "on-first-void"},
    {"preset": "three-card", "lead_highest_trump": True, "must_undertrump": True},
    {"preset": "three-card", "simple_pool": "miss-and-trump", "bold_stand": True},
    {"preset": "five-card", "flush_pays": "everyone-pays-holder", "pam_immune": True},
    {"preset": "three-card", "remainder": "early-tricks", "lead_trump": "first-two-tricks"},
]


def generate(path: Path, per_preset: int, seed: int) -> None:
    """Write the records file: one JSON object a line, {record, rules, pool, first_of_series}."""
    rng = random.Random(seed)
    lines = []
    for options in [{"preset": p} for p in sorted(PRESETS)] + HOUSE_VARIANTS:
        rules = RuleSet.from_options(options)
        seats = SEATS[:4] if rules.game != "five-card" else SEATS
        house = options not in ({"preset": p} for p in PRESETS)
        for dealt in session_deals(rules, seats, per_preset, rng):
            entry = {"record": dealt.record, "rules": options, "pool": dealt.pool,
                     "first_of_series": dealt.first_of_series}
            lines.append(entry)
            plays = [i for i, a in enumerate(dealt.record["actions"]) if a["action"] == "play"]
            if house and len(plays) > 3:
                actions = [dict(a) for a in dealt.record["actions"]]
                i, j = rng.sample(plays, 2)
                actions[i]["card"], actions[j]["card"] = actions[j]["card"], actions[i]["card"]
                lines.append({**entry, "record": {**dealt.record, "actions": actions}})
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))


def verdicts(path: Path) -> list[str]:
    out = []
    for line in path.read_text().splitlines():
        entry = json.loads(line)
        rules = RuleSet.from_options(entry["rules"])
        try:
            result: object = replay(entry["record"], rules, pool=entry["pool"],
                                    first_of_series=entry["first_of_series"])
        except RecordError as err:
            result = {"errors": err.errors}
        out.append(json.dumps(result))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("records", type=Path)
    parser.add_argument("--per-preset", type=int, default=600,
                        help="deals generated per preset and per house variant (first run)")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--dump", type=Path, help="also write the verdicts here, one a line")
    args = parser.parse_args(argv)
    if not args.records.exists():
        generate(args.records, args.per_preset, args.seed)
    judged = verdicts(args.records)
    text = "\n".join(judged) + "\n"
    if args.dump:
        args.dump.write_text(text)
    statuses: dict[str, int] = {}
    for verdict in judged:
        status = json.loads(verdict).get("status", "record-error")
        statuses[status] = statuses.get(status, 0) + 1
    print(f"{len(judged):,} records  {statuses}  sha256 {hashlib.sha256(text.encode()).hexdigest()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
