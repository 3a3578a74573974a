"""What the lean probes' tests share: the mix's kind of deal of a preset, checked; a
hand-written four-seat record; and the check that a probe and the engine agree on edited
records."""
from __future__ import annotations

import json
from collections.abc import Callable
from random import Random
from typing import Any

from engine import preset_items
from lean_probe import check_equal, check_mutants

from games.rules import replay
from games.rules.simulate import uniform

#: ann and cat stand, bob and dan pass (the dealer passing leaves the turn-up on the table)
ANN_AND_CAT_STAND = [("ann", "stand"), ("bob", "pass"), ("cat", "stand"), ("dan", "pass")]


def deal_text(pool: int, declarations: list[tuple[str, str]],
              exchanges: list[tuple[str, list, list]], plays: list[tuple[str, str]]) -> str:
    """Four players, dan deals, hearts turned (2H)."""
    return json.dumps({
        "format": "loo-deal/1", "seats": ["ann", "bob", "cat", "dan"], "dealer": "dan",
        "pool": pool, "turnup": "2H",
        "actions": [{"player": p, "action": a} for p, a in declarations]
        + [{"player": p, "action": "exchange", "discard": out, "draw": draw}
           for p, out, draw in exchanges]
        + [{"player": p, "action": "play", "card": c} for p, c in plays]})


def mix_deals(preset: str, lean: Callable[..., Any], may_decline: Callable[..., bool]
              ) -> tuple[list, list]:
    """72 deals of ``preset`` as the benchmark's mix makes them (4-6 seats, uniform choices),
    and those of them ``lean`` handles, each checked to get the engine's verdict
    (``check_equal``)."""
    generated = preset_items(preset, 72, Random(5), (4, 5, 6), uniform)
    return generated, check_equal(generated, lean, may_decline)


def agree_on_edits(items: list, lean: Callable[..., Any], mutants: Callable) -> dict:
    """``check_mutants`` (which asserts agreement on each edited record) on 20 deals: some
    edit must give an irregular verdict, and every draw of a seen card be refused by both."""
    per_kind: dict = {}
    check_mutants(items[:20], per_kind, lean, mutants)
    outcomes = {o for kinds in per_kind.values() for o in kinds}
    assert "same verdict, irregular" in outcomes
    assert per_kind["draw-seen"] == {"both refuse": sum(per_kind["draw-seen"].values())}
    return per_kind


def same_verdict(lean: Callable[..., Any], rules: Any, pool: int,
                 declarations: list[tuple[str, str]], exchanges: list[tuple[str, list, list]],
                 plays: list[tuple[str, str]], first: bool = False) -> dict:
    """``lean``'s verdict on the ``deal_text`` record, asserted equal to the engine's
    (``first``: the first deal of a poker-Loo series)."""
    text = deal_text(pool, declarations, exchanges, plays)
    mine = lean(text, rules, pool, first)
    assert mine == replay(json.loads(text), rules, pool=pool, first_of_series=first)
    return mine
