"""Compact builders for hand-worked deal tests (shared by the engine test modules).

A deal is written the way a scorer notes it at the table, one action per segment,
segments separated by ``;`` or newlines::

    record("ann bob cat dan", "dan", turnup="7D", pool=6, actions='''
        ann stand; bob miss; cat pass; dan pass
        ann AD; bob QD
        ann TH; bob 5C
        ann 2C; bob 5H''')

Segment forms (first word is always the player):
    ``ann stand`` / ``pass`` / ``miss`` (= take-miss) / ``take-miss`` / ``defend`` / ``flush``
    ``ann AD``                      play AD (``ann play AD`` also accepted)
    ``ann AD civil``                play AD saying "pam-be-civil"
    ``ann exchange 2C 3D > 4H 5S``  discard 2C 3D, draw 4H 5S (``ann exchange`` = keep all)
    ``ann ! looked-at-miss``        irregularity of that kind (``ann irregularity KIND`` too)
    ``ann ! exposed-card 8C``       irregularity naming the card concerned
"""
from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

_DECLARATIONS = {"stand", "pass", "take-miss", "defend", "flush"}
_CARD = re.compile(r"^(10|[2-9TJQKA])[CDHS]$", re.IGNORECASE)


def _card(word: str) -> str:
    """Normalise a written card: upper case, ``10`` written as ``T``."""
    word = word.upper()
    return "T" + word[2:] if word.startswith("10") else word


def _cards(words: Iterable[str]) -> list[str]:
    return [_card(w) for w in words]


def parse_action(segment: str) -> dict[str, Any]:
    """One compact segment -> one record action dict."""
    words = segment.split()
    if len(words) < 2:
        raise ValueError(f"dealkit: cannot read action {segment!r}")
    player, verb, rest = words[0], words[1].lower(), words[2:]
    if verb == "miss":
        verb = "take-miss"
    if verb in _DECLARATIONS and not rest:
        return {"player": player, "action": verb}
    if verb in ("!", "irregularity") and len(rest) in (1, 2):
        action = {"player": player, "action": "irregularity", "kind": rest[0]}
        if len(rest) == 2:
            action["card"] = _card(rest[1])
        return action
    if verb == "exchange":
        discard, _, draw = " ".join(rest).partition(">")
        action: dict[str, Any] = {"player": player, "action": "exchange",
                                  "discard": _cards(discard.split())}
        if draw.strip() or ">" in rest:
            action["draw"] = _cards(draw.split())
        elif not discard.split():
            action["draw"] = []
        return action
    if verb == "play":
        verb, rest = rest[0].lower(), rest[1:]
    if _CARD.match(verb):
        action = {"player": player, "action": "play", "card": _card(verb)}
        if rest == ["civil"]:
            action["say"] = "pam-be-civil"
        elif rest:
            raise ValueError(f"dealkit: cannot read action {segment!r}")
        return action
    raise ValueError(f"dealkit: cannot read action {segment!r}")


def parse_actions(text: str) -> list[dict[str, Any]]:
    """Compact action text -> list of record actions, in table order."""
    segments = re.split(r"[;\n]", text)
    return [parse_action(s) for s in segments if s.strip()]


def record(seats: str | list[str], dealer: str, *, actions: str | list[dict] = "",
           turnup: str | None = None, pool: int = 0, rules: Mapping[str, Any] | None = None,
           **fields: Any) -> dict[str, Any]:
    """A loo-deal/1 record; extra fields (hands, miss, stock, number, result) pass through.

    ``actions`` is compact text (``"ann stand; bob miss; ..."``) or a list of action dicts.
    """
    acts = actions
    rec: dict[str, Any] = {
        "format": "loo-deal/1",
        "seats": seats.split() if isinstance(seats, str) else list(seats),
        "dealer": dealer,
        "pool": pool,
        "rules": dict(rules or {"game": "three-card"}),
        "actions": parse_actions(acts) if isinstance(acts, str) else list(acts),
    }
    if turnup is not None:
        rec["turnup"] = turnup
    rec.update(fields)
    return rec


def check_deck(rec: Mapping[str, Any]) -> None:
    """Guard the tests themselves: no card is in two places in a hand-written deal."""
    owner: dict[str, str] = {}

    def place(card: str, where: str) -> None:
        card = _card(card)
        assert owner.setdefault(card, where) == where, f"{card} both in {owner[card]} and {where}"

    for seat, cards in rec.get("hands", {}).items():
        for card in cards:
            place(card, seat)
    for card in rec.get("miss", []):
        place(card, "miss")
    if rec.get("turnup"):
        place(rec["turnup"], "turnup")
    played: set[str] = set()
    for act in rec["actions"]:
        if act["action"] == "play":
            assert act["card"] not in played, f"{act['card']} played twice"
            played.add(act["card"])
            if owner.get(act["card"]) not in (None, "miss"):
                assert owner[act["card"]] == act["player"], f"{act['card']} is {owner[act['card']]}'s"
        for card in act.get("draw", []):
            place(card, act["player"])


def play(rec: Mapping[str, Any], rules: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """Replay a well-formed record (its own rules unless given); check conservation."""
    from games.rules import replay

    check_deck(rec)
    verdict = replay(rec, rules if rules is not None else rec["rules"])
    assert_conserved(verdict, rec["seats"])
    return verdict


def assert_conserved(verdict: Mapping[str, Any], seats: Iterable[str] | None = None) -> None:
    """Chips are never made or lost: sum(deltas) + pool_after - pool_before == 0, all integers."""
    s = verdict["settlement"]
    deltas = s["deltas"]
    for name in ("pool_before", "pool", "pool_after"):
        assert isinstance(s[name], int) and not isinstance(s[name], bool), (name, s[name])
    assert all(isinstance(v, int) for v in deltas.values()), deltas
    if seats is not None:
        assert set(deltas) == set(seats), f"deltas must name every seat: {deltas}"
    assert sum(deltas.values()) + s["pool_after"] - s["pool_before"] == 0, s
    if "next" in verdict:
        assert verdict["next"]["pool"] == s["pool_after"], (verdict["next"], s["pool_after"])


def violations(verdict: Mapping[str, Any]) -> list[tuple[Any, ...]]:
    """Violations as (player, rule, trick, card, penalty) tuples, in reported order."""
    return [(v["player"], v["rule"], v["trick"], v["card"], v["penalty"])
            for v in verdict["violations"]]


def winners(verdict: Mapping[str, Any]) -> list[str]:
    """Winner of each trick, in trick order."""
    return [t["winner"] for t in verdict["tricks"]]


def nonzero(mapping: Mapping[str, int]) -> dict[str, int]:
    """Drop zero entries (engines may or may not list them in payouts/loos/penalties)."""
    return {k: v for k, v in mapping.items() if v}


def record_errors(rec: Mapping[str, Any], rules: Mapping[str, Any] | None = None) -> list[dict]:
    """Replay a record that must be refused; return RecordError.errors (fails if accepted)."""
    from games.rules import RecordError, replay

    try:
        replay(rec, rules if rules is not None else rec["rules"])
    except RecordError as err:
        assert err.errors, "RecordError must carry at least one error"
        return list(err.errors)
    raise AssertionError("record was accepted but must be refused as a record error")


def deal_at(rules: Mapping[str, Any], seats: str | list[str], dealer: str, actions: str = "",
            **kwargs: Any):
    """A Deal state machine after pushing the given compact actions (for legal_plays tests)."""
    from games.rules import Deal, RuleSet

    seat_list = seats.split() if isinstance(seats, str) else list(seats)
    deal = Deal(RuleSet.from_options(rules), seat_list, dealer, **kwargs)
    for action in parse_actions(actions):
        deal.push(action)
    return deal


def assert_settled(verdict: Mapping[str, Any], *, payouts: Mapping[str, int], pool_after: int,
                   deltas: Mapping[str, int], loos: Mapping[str, int] | None = None,
                   penalties: Mapping[str, int] | None = None, pool: int | None = None) -> None:
    """Compare a settlement with hand-worked figures; seats missing from ``deltas`` must be 0."""
    s = verdict["settlement"]
    assert nonzero(s["payouts"]) == dict(payouts), ("payouts", s["payouts"])
    assert nonzero(s["loo_payments"]) == dict(loos or {}), ("loo_payments", s["loo_payments"])
    assert nonzero(s["penalties"]) == dict(penalties or {}), ("penalties", s["penalties"])
    assert s["pool_after"] == pool_after, ("pool_after", s["pool_after"])
    if pool is not None:
        assert s["pool"] == pool, ("pool", s["pool"])
    expected = {seat: deltas.get(seat, 0) for seat in s["deltas"]}
    assert s["deltas"] == expected, ("deltas", s["deltas"])
    assert set(deltas) <= set(s["deltas"]), ("unknown seats", deltas)
