"""A digest of the engine's outcomes on records with odd JSON values: pure against compiled.

usage (from the repository root):
    .venv/bin/python bench/odd_values.py var/bench/records.jsonl
    .venv/bin/python bench/compiled_engine.py -- .venv/bin/python bench/odd_values.py \
        var/bench/records.jsonl                               # must print the same digest

A sample of the records (``verdict_digest.py``'s) is replayed with each field set in turn to
one of ``ODD`` (a number where a name belongs, a list where a card does, ...): every top-level
field (those ``TOP_FIELDS`` names even where the record leaves them out), every field of every
action (those its kind may hold, ``ACTION_FIELDS``, likewise), the first item of every list and
every value of every object below them (``hands.ann``, ``hands.ann[0]``, ``result.winners[0]``,
``actions[3].discard[0]``), and every action whole. The stored records hold no irregularity, no
result-only record and no given hand, miss or stock, so a third of the sample is read with an
irregularity noted first (``IRREGULARITIES``, by turns) and a third as a result-only record
(the declarations, and the verdict's trick counts and winners), and ``--simulated`` deals
played by ``games.rules.simulate`` with every hand, the miss and the stock given are added:
without them a ``kind`` that is a list (which raised TypeError) was never read. Then the
header fields and service lines of a short simulated session for each preset go through
``replay_session``.

Compiled code raises TypeError on a value of the wrong type where pure Python reads on, so an
annotation narrower than what a record may hold shows here as a different outcome; a value
that crashes both shows as a CRASH line (there should be none). ``--out FILE`` writes every
outcome, one a line, to diff.
"""
from __future__ import annotations

import argparse
import copy
import hashlib
import json
import random
import re
import sys
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TextIO

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import games.rules.deal
from games.rules import PRESETS, RecordError, RuleError, RuleSet, replay, replay_session
from games.rules.simulate import play_random_deal, random_session

ODD: list[object] = [5, None, [1], {"a": 1}, 2.5, True, "zzz", "", -1, ["AS"], "AS",
                     [["AS"]], [], {}, False, 10**30, "A\x00S", "x" * 1000]
#: fields set even where the record leaves them out
TOP_FIELDS = ("hands", "miss", "stock", "result", "sits_out", "redeal", "final", "rules")
#: the fields each kind of action may hold beside ``player`` and ``action`` (deal-record.md),
#: set even where the action leaves them out
ACTION_FIELDS = {"play": ("card", "say"), "irregularity": ("kind", "card", "evidence"),
                 "exchange": ("discard", "draw"), "flush": ("cards",)}
#: the irregularities noted first, by turns: one of each penalty, and one naming a card
IRREGULARITIES = ("looked-out-of-turn", "exposed-card", "misdeal", "looked-at-hand")
DECLARING = ("stand", "pass", "take-miss", "defend", "fold")
#: a session's header fields, set even where the header leaves them out
HEADER_FIELDS = ("format", "seats", "rules", "pool", "first_dealer", "banker", "chip_value",
                 "buy_ins", "allow_credit")

Edit = Callable[[Any], None]
Path_ = tuple[Any, ...]


def _outcome(entry: dict, record: dict) -> str:
    try:
        verdict = replay(record, RuleSet.from_options(entry["rules"]), pool=entry["pool"],
                         first_of_series=entry["first_of_series"])
        return json.dumps(verdict, sort_keys=True)
    except RecordError as err:
        return "record-error " + json.dumps(err.errors, sort_keys=True, default=repr)
    except Exception as err:  # noqa: BLE001 - a crash is what this looks for
        return f"CRASH {type(err).__name__}: {err}"


def _session_outcome(lines: list[Any]) -> str:
    try:
        return json.dumps([v["settlement"] for v in replay_session(lines)], sort_keys=True)
    except (RecordError, RuleError) as err:
        return f"{type(err).__name__} {err}"
    except Exception as err:  # noqa: BLE001
        return f"CRASH {type(err).__name__}: {err}"


def _set(path: Path_, value: object) -> Edit:
    def edit(record: Any) -> None:
        target = record
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = copy.deepcopy(value)
    return edit


def _inner(value: Any, path: Path_) -> Iterator[Path_]:
    """The paths below ``value`` (at ``path``): every value of an object, the first item of
    a list (the others are read alike), to the depth of ``hands.ann[0]``."""
    if len(path) > 3:
        return
    keys = list(value) if isinstance(value, dict) else [0] if isinstance(value, list) and value \
        else []
    for key in keys:
        yield (*path, key)
        yield from _inner(value[key], (*path, key))


def _paths(record: dict) -> list[Path_]:
    out = [(key,) for key in dict.fromkeys([*record, *TOP_FIELDS])]
    for key, value in record.items():
        if key != "actions":
            out += _inner(value, (key,))
    actions = record.get("actions", [])
    for i, action in enumerate(actions if isinstance(actions, list) else []):
        out.append(("actions", i))
        kind = action.get("action")
        for key in dict.fromkeys([*action, *ACTION_FIELDS.get(kind, ())]):
            out.append(("actions", i, key))
            out += _inner(action.get(key), ("actions", i, key))
    return out


def _named(path: Path_) -> str:
    return ".".join(map(str, path))


def _edits(record: dict) -> list[tuple[str, object, Edit]]:
    return [(_named(path), v, _set(path, v)) for path in _paths(record) for v in ODD]


def _noted(entry: dict, n: int) -> dict:
    """``entry`` with an irregularity noted before its first action (the n-th by turns): by
    the dealer (a misdeal is his), naming the offender's first card played where it is hers."""
    record = copy.deepcopy(entry["record"])
    kind = IRREGULARITIES[n % len(IRREGULARITIES)]
    actions = record["actions"]
    player = record["dealer"] if kind == "misdeal" else actions[0]["player"]
    note = {"player": player, "action": "irregularity", "kind": kind,
            "evidence": "the table saw it"}
    card = next((a["card"] for a in actions if a["action"] == "play" and a["player"] == player),
                None)
    if kind == "exposed-card" and card is not None:
        note["card"] = card
    actions.insert(0, note)
    return {**entry, "record": record}


def _result_only(entry: dict) -> dict:
    """``entry`` as a result-only record: its declarations, and its verdict's trick counts
    and winners (as it stands where the verdict is no played deal: that is a record error)."""
    record = copy.deepcopy(entry["record"])
    try:
        verdict = replay(entry["record"], RuleSet.from_options(entry["rules"]),
                         pool=entry["pool"], first_of_series=entry["first_of_series"])
    except RecordError:
        return entry
    record["actions"] = [a for a in record["actions"] if a["action"] in DECLARING]
    record["result"] = {"tricks": verdict["tricks_won"],
                        "winners": [t["winner"] for t in verdict["tricks"]]}
    return {**entry, "record": record}


def _simulated(count: int) -> list[dict]:
    """``count`` deals played at random (seeded), a preset each by turns, every hand, the miss
    and the stock given."""
    out = []
    rng = random.Random(11)
    presets = sorted(PRESETS)
    for n in range(count):
        rules = RuleSet.from_options({"preset": presets[n % len(presets)]})
        seats = ["ann", "bob", "cat", "dan", "eve"][:4 + n % 2]
        dealt = play_random_deal(rules, seats, seats[n % len(seats)], pool=6, rng=rng,
                                 with_hands=True)
        out.append({"record": dealt.record, "rules": {"preset": presets[n % len(presets)]},
                    "pool": 6, "first_of_series": True})
    return out


def _sessions() -> Iterator[tuple[str, str, object, list[Any]]]:
    """Each preset's short simulated session (a purchase, a void, a payment, a close and a
    reopen beside its deals) with one field of the header or of a service line set to each
    odd value, and each of those lines replaced whole."""
    for preset in sorted(PRESETS):
        seats = ["ann", "bob", "cat", "dan", "eve"] if preset == "poker-loo" else \
            ["ann", "bob", "cat", "dan"]
        lines = random_session({"preset": preset}, seats, 2, random.Random(5))
        lines[1:1] = [{"purchase": {"player": "ann", "chips": 10, "paid": False}},
                      {"void": {"purchase": 1, "reason": "keyed twice"}},
                      {"payment": {"player": "ann", "money": 5}}]
        lines += [{"close": {"reason": "the evening ends"}}, {"reopen": {"reason": "one more"}}]
        for at, line in enumerate(lines):
            if at and "actions" in line:
                continue  # (a deal line: the records above)
            paths = [(key,) for key in dict.fromkeys([*line, *(HEADER_FIELDS if at == 0 else ())])]
            paths += [p for key, value in line.items() for p in _inner(value, (key,))]
            for path in [(), *paths]:
                for v in ODD:
                    changed = copy.deepcopy(lines)
                    if path:
                        _set(path, v)(changed[at])
                    else:
                        changed[at] = copy.deepcopy(v)
                    yield f"{preset} line {at + 1}", _named(path), v, \
                        [json.dumps(x) for x in changed]


def _sample(records: Path, size: int, simulated: int) -> list[dict]:
    lines = records.read_text().splitlines()
    sample = [json.loads(line) for line in random.Random(7).sample(lines, size)]
    read = [entry if n % 3 == 0 else _noted(entry, n // 3) if n % 3 == 1 else _result_only(entry)
            for n, entry in enumerate(sample)]
    return read + _simulated(simulated)


class _Tally:
    """Outcomes as they come: the digest, the crashes, and ``--out``'s lines."""

    def __init__(self, out: TextIO | None) -> None:
        self.sha = hashlib.sha256()
        self.count = 0
        self.crashes: Counter[str] = Counter()
        self.fields: dict[str, set[str]] = {}  # each crash's fields (``actions.*.kind``)
        self.out = out

    def add(self, where: str, field: str, value: object, got: str) -> None:
        text = f"{where} {field}={value!r} {got}"
        self.sha.update((("\n" if self.count else "") + text).encode())
        self.count += 1
        if got.startswith("CRASH"):
            self.crashes[got] += 1
            self.fields.setdefault(got, set()).add(re.sub(r"(?<=\.)\d+(?=\.|$)", "*", field))
        if self.out is not None:
            self.out.write(text + "\n")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("records", type=Path)
    parser.add_argument("--sample", type=int, default=300, help="records replayed (seeded)")
    parser.add_argument("--simulated", type=int, default=30,
                        help="simulated deals with hands, miss and stock given (seeded)")
    parser.add_argument("--out", type=Path, help="write every outcome here")
    args = parser.parse_args(argv)
    out = args.out.open("w") if args.out else None
    tally = _Tally(out)
    for n, entry in enumerate(_sample(args.records, args.sample, args.simulated)):
        for field, value, edit in _edits(entry["record"]):
            record = copy.deepcopy(entry["record"])
            edit(record)
            tally.add(str(n), field, value, _outcome(entry, record))
    for where, field, value, lines in _sessions():
        tally.add(where, field, value, _session_outcome(lines))
    if out is not None:
        out.close()
    engine = Path(games.rules.deal.__file__).name
    print(f"{tally.count:,} replays  engine {engine}  crashes {sum(tally.crashes.values())}  "
          f"sha256 {tally.sha.hexdigest()}")
    for crash, count in tally.crashes.most_common():
        print(f"  {count} {crash[:200]}  at {', '.join(sorted(tally.fields[crash]))}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
