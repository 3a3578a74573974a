"""The two readers of a record's actions agree: ``_read_clean`` (the common record, at speed)
gives what ``_read_actions`` (any record, naming every error) gives, or declines.

Hands are read back from what these return, so a difference would quietly change a verdict.
The records are legal deals of every preset and copies edited the ways scorers slip: a card
played twice, a card discarded and played, a respelled card, a draw left out, an unknown player.
"""
from __future__ import annotations

import copy
import random

import pytest

from games.rules import PRESETS, RuleSet
from games.rules.record import _read_actions, _read_clean
from games.rules.simulate import session_deals

SEATS = ["ann", "bob", "cat", "dan", "eve"]


def _edits(record: dict, rng: random.Random) -> list[dict]:
    """The record itself and one copy per kind of slip (where the record has what it needs)."""
    out = [record]
    actions = record["actions"]
    plays = [i for i, a in enumerate(actions) if a["action"] == "play"]
    exchanges = [i for i, a in enumerate(actions) if a["action"] == "exchange" and a["discard"]]
    if len(plays) >= 2:
        i, j = rng.sample(plays, 2)
        twice = copy.deepcopy(record)
        twice["actions"][j]["card"] = actions[i]["card"]  # played twice
        out.append(twice)
        respelled = copy.deepcopy(record)
        card = actions[i]["card"]
        respelled["actions"][i]["card"] = card[0].lower() + card[1].lower()  # "7d": readable
        out.append(respelled)
        stranger = copy.deepcopy(record)
        stranger["actions"][i]["player"] = "zed"
        out.append(stranger)
    if exchanges and plays:
        k = rng.choice(exchanges)
        played_again = copy.deepcopy(record)
        played_again["actions"][rng.choice(plays)]["card"] = actions[k]["discard"][0]
        out.append(played_again)
        no_draw = copy.deepcopy(record)
        no_draw["actions"][k].pop("draw", None)
        out.append(no_draw)
    return out


def _records(preset: str, n_deals: int, seed: int) -> list[dict]:
    rng = random.Random(seed)
    rules = RuleSet.from_options({"preset": preset})
    records = []
    for dealt in session_deals(rules, SEATS, n_deals, rng):
        records += _edits(dealt.record, rng)
    return records


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_the_clean_reader_agrees_with_the_full_one_or_declines(preset):
    rules = RuleSet.from_options({"preset": preset})
    taken = declined = 0
    for record in _records(preset, 12, seed=len(preset)):
        actions = record["actions"]
        fast = _read_clean(actions, rules.game == "three-card")
        if fast is None:
            declined += 1
            continue
        taken += 1
        errors: list[dict] = []
        plays, seen, exchanges, miss_player, ops = _read_actions(
            record, rules, record["dealer"], actions, errors, set())
        assert errors == []  # what the clean reader takes, the full one finds no fault in
        assert (fast[0], fast[1], fast[2], fast[3], fast[4]) == (
            dict(plays), seen, exchanges, miss_player, ops)
    assert taken and declined  # both kinds of record were tried
