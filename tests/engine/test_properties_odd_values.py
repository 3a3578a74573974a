"""Any one field of a valid record (or of a session file's header or service line) replaced by
any JSON value: the engine answers a verdict or refuses with RecordError or RuleError, never
anything else (a TypeError reached the service as a 500).

The records are random legal deals (``test_properties.tables``), some with hands, miss and
stock given, some with an irregularity noted (the simulator never notes one: an irregularity
whose ``kind`` was a list raised TypeError), some as result-only records; the field is any
value of any object or item of any list in them, or a field the record or an action may hold
and leaves out. ``bench/odd_values.py`` runs the same idea exhaustively over fixed values.
"""
from __future__ import annotations

import copy
import json
import random
from typing import Any

from hypothesis import event, given
from hypothesis import strategies as st

from games.rules import PRESETS, RecordError, RuleError, replay, replay_session
from games.rules.phases import IRREGULARITY_KINDS
from games.rules.simulate import play_random_deal, random_session
from tests.engine.test_properties import tables

#: JSON values: every type, the engine's own words among them, a long text and a NUL
LEAVES = (st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False)
          | st.text(max_size=4)
          | st.sampled_from(["", "AS", "TH", "ann", "stand", "play", "irregularity", "misdeal",
                             "pam-be-civil", "A\x00S"])
          | st.integers(1_000, 20_000).map(lambda n: "x" * n))
JSON = st.recursive(LEAVES, lambda inner: st.lists(inner, max_size=3)
                    | st.dictionaries(st.sampled_from(["ann", "tricks", "winners", "a"]), inner,
                                      max_size=3), max_leaves=6)
#: fields a record may leave out, and those each kind of action may hold (deal-record.md)
RECORD_FIELDS = ("seats", "dealer", "pool", "number", "turnup", "hands", "miss", "stock",
                 "actions", "result", "sits_out", "redeal", "final", "format", "rules")
ACTION_FIELDS = ("player", "action", "card", "say", "kind", "evidence", "discard", "draw",
                 "cards")
NOTE_FIELDS = ("player", "action", "kind", "card", "evidence")
HEADER_FIELDS = ("format", "seats", "rules", "pool", "first_dealer", "banker", "chip_value",
                 "buy_ins")


def places(value: Any, at: tuple = ()) -> list[tuple[tuple, Any]]:
    """``(path, key)`` of every value in ``value`` (an object's keys, a list's positions), and
    of the fields the record and its actions leave out."""
    if isinstance(value, dict):
        extra = RECORD_FIELDS if at == () else ACTION_FIELDS if at[:1] == ("actions",) else ()
        keys = list(dict.fromkeys([*value, *extra]))
    elif isinstance(value, list):
        keys = list(range(len(value)))
    else:
        return []
    found = [(at, key) for key in keys]
    for key in keys:
        if key in (value if isinstance(value, dict) else range(len(value))):
            found += places(value[key], (*at, key))
    return found


def replaced(record: dict, path: tuple, key: Any, new: Any) -> dict:
    out = copy.deepcopy(record)
    target = out
    for step in path:
        target = target[step]
    target[key] = new
    return out


@st.composite
def read_records(draw: st.DrawFn) -> tuple[dict, Any, int, bool, int | None]:
    """A legal deal's record as a scorer may send it: hands given or not, as played or as a
    result-only record, with an irregularity noted or not (the index of its action)."""
    rules, seats, dealer, rng = draw(tables())
    pool, first = draw(st.sampled_from([0, 6])), draw(st.booleans())
    dealt = play_random_deal(rules, seats, dealer, pool=pool, rng=rng, first_of_series=first,
                             with_hands=draw(st.booleans()))
    record = copy.deepcopy(dealt.record)
    if draw(st.booleans()) and dealt.verdict["tricks"]:
        event("result-only")
        record["actions"] = [a for a in record["actions"] if a["action"] != "play"]
        record["result"] = {"tricks": dealt.verdict["tricks_won"],
                            "winners": [t["winner"] for t in dealt.verdict["tricks"]]}
    noted = None
    if draw(st.booleans()):
        actions = record["actions"]
        note = {"player": draw(st.sampled_from(seats)), "action": "irregularity",
                "kind": draw(st.sampled_from(sorted(IRREGULARITY_KINDS)))}
        if draw(st.booleans()):
            note["card"] = draw(st.sampled_from(["AS", "TH", "7C"]))
        noted = draw(st.integers(0, len(actions)))
        actions.insert(noted, note)
    return record, rules, pool, first, noted


def outcome(run: Any) -> str:
    """"verdict" or the refusal's name; anything else raised is the failure looked for."""
    try:
        run()
    except (RecordError, RuleError) as err:
        return type(err).__name__
    return "verdict"


@given(read_records(), st.data(), JSON, st.booleans())
def test_any_field_replaced_by_any_json_value_is_judged_or_refused(read, data, new, standalone):
    record, rules, pool, first, noted = read
    anywhere = st.sampled_from(places(record))
    if noted is not None:  # the noted irregularity's own fields as often as all the others
        anywhere |= st.sampled_from([(("actions", noted), key) for key in NOTE_FIELDS])
    path, key = data.draw(anywhere)
    odd = replaced(record, path, key, new)
    event(f"{type(new).__name__} at {'.'.join(str(p) for p in (*path, key) if type(p) is str)}")
    if standalone:  # the record's own rules, pool and number, as `python -m games.rules` reads it
        event(outcome(lambda: replay({"rules": rules.to_options(), **odd})))
    else:
        event(outcome(lambda: replay(odd, rules, pool=pool, first_of_series=first)))


@given(st.sampled_from(sorted(PRESETS)), st.integers(0, 2**32), st.data(), JSON)
def test_any_session_header_or_service_line_field_replaced_is_judged_or_refused(
        preset, seed, data, new):
    seats = ["ann", "bob", "cat", "dan", "eve"][:5 if preset == "poker-loo" else 4]
    lines: list[Any] = random_session({"preset": preset}, seats, 2, random.Random(seed))
    lines[1:1] = [{"purchase": {"player": "ann", "chips": 10, "paid": False}},
                  {"payment": {"player": "ann", "money": 5}}]
    lines.append({"close": {"reason": "the evening ends"}})
    at = data.draw(st.sampled_from([0, 1, 2, len(lines) - 1]))
    line = lines[at]
    keys = list(dict.fromkeys([*line, *(HEADER_FIELDS if at == 0 else ())]))
    key = data.draw(st.sampled_from(keys))
    if at and isinstance(line[key], dict):  # a service line's own field, or the line's object
        key = data.draw(st.sampled_from([key, *((key, k) for k in line[key])]))
    odd = copy.deepcopy(lines)
    if isinstance(key, tuple):
        odd[at][key[0]][key[1]] = new
    else:
        odd[at][key] = new
    event(outcome(lambda: list(replay_session(json.dumps(x) for x in odd))))
