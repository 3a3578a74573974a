"""Property tests over every preset (and common house rules): random legal deals, one illegal
play, JSON round trips, sessions.

The deals come from `games.rules.simulate`, which only ever pushes what `Deal.legal_actions()`
offers; these tests check that the replay agrees with that one definition of "legal", that
chips are conserved, and that breaking exactly one duty is caught where it was broken.
Run heavier with HYPOTHESIS_PROFILE=thorough.
"""
from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import assume, event, given
from hypothesis import strategies as st

from games.rules import (
    PRESETS,
    Deal,
    RecordError,
    RuleError,
    RuleSet,
    actions_from_text,
    actions_to_text,
    replay,
    replay_session,
)
from games.rules.simulate import play_random_deal, random_session, session_deals
from tests.engine.verdict_shape import assert_verdict_shape

NAMES = ("ann", "bob", "cat", "dan", "eve", "fay", "gus", "hal", "ivy")
#: house rules beyond the presets that change who may do what (each a loo-rules.md option)
HOUSE_RULES: list[dict[str, Any]] = [
    {"game": "three-card", "flush": "three-trumps"},
    {"game": "three-card", "flush": "three-trumps-redeal"},
    {"game": "three-card", "club_law": True, "bold_stand": True},
    {"game": "three-card", "trump_turned": "on-first-void"},
    {"game": "three-card", "trump_turned": "first-lead", "simple_pool": "miss-and-trump"},
    {"game": "three-card", "pools": "always-double", "single_stander": "concede"},
    {"game": "three-card", "lead_highest_trump": True, "must_undertrump": True},
    {"game": "three-card", "lead_trump": "first-two-tricks", "remainder": "early-tricks"},
    {"game": "three-card", "trump_ace_first_trick": True, "penalty_and_loo": "both"},
    {"game": "three-card", "ante": {"dealer": 3, "each": 3}, "ante_double": {"dealer": 6, "each": 3}},
    # option pairs (the three-card combination audit)
    {"game": "three-card", "undivided": True, "loo": "unlimited", "flush": "three-trumps",
     "single_stander": "concede"},
    {"game": "three-card", "pools": "always-double", "bold_stand": True, "club_law": True,
     "flush": "three-trumps-redeal", "undivided": True, "ante_first_deal_only": True},
    {"game": "three-card", "trump_turned": "on-first-void", "must_undertrump": True,
     "trump_ace_first_trick": True, "lead_trump": "first-two-tricks", "lead_highest_trump": True},
    {"game": "three-card", "simple_pool": "miss-and-trump", "club_law": True,
     "flush": "three-trumps", "lead_trump": "first-two-tricks", "lead_highest_trump": True},
    {"game": "three-card", "loo": "mixed", "loo_cap": 7, "penalty_and_loo": "both",
     "single_loo": 2, "remainder": "early-tricks", "ante_double": {"dealer": 6, "each": 1}},
    {"game": "irish", "club_law": True, "loo": "unlimited"},
    {"game": "five-card", "blaze": True},
    {"game": "five-card", "blaze": True, "blaze_rank": "above-flush",
     "flush_ties": "high-card-then-split"},
    {"game": "five-card", "pam": "jack-of-trumps", "pam_be_civil": "request"},
    {"game": "five-card", "pam_be_civil": "automatic", "pam_follows_trump": True},
    {"game": "five-card", "pam_be_civil": "request-if-next-trump", "pam_immune": True},
    {"game": "five-card", "flush_pays": "everyone-pays-holder", "turnup_to_dealer": False},
    {"game": "five-card", "must_head": True, "must_trump": True, "lead_trump": "every-trick"},
    {"game": "five-card", "loo": "mixed", "loo_cap": 25, "trump_ace_first_trick": True},
    {"game": "poker-loo", "loo_cap": 50},
]
RULES: dict[str, RuleSet] = {name: RuleSet.from_options({"preset": name}) for name in PRESETS}
RULES.update({json.dumps(o, sort_keys=True): RuleSet.from_options(o) for o in HOUSE_RULES})
RULE_NAMES = sorted(RULES)
#: violation rule names of deal-record.md, plus the engine's name for `trump_ace_first_trick`
RULE_NAMES_OF_CONTRACT = {
    "revoke", "failed-to-head", "failed-to-trump", "failed-to-overtrump", "failed-to-lead-trump",
    "failed-to-lead-trump-ace", "failed-to-lead-highest-trump", "played-out-of-turn",
    "pam-not-civil", "failed-to-play-trump-to-pam", "failed-to-play-trump-ace"}
SEAT_RANGE = {"three-card": (2, 9), "irish": (2, 9), "five-card": (4, 7), "poker-loo": (2, 8)}


def _seated(rules: RuleSet, count: int) -> list[str]:
    seats = list(NAMES[:count])
    try:
        rules.check_seats(seats)
    except RuleError:
        assume(False)
    return seats


@st.composite
def tables(draw: st.DrawFn) -> tuple[RuleSet, list[str], str, random.Random]:
    """Rules (a preset or a house variant), seats the rules accept, a dealer, a seeded rng."""
    name = draw(st.sampled_from(RULE_NAMES))
    rules = RULES[name]
    seats = _seated(rules, draw(st.integers(*SEAT_RANGE[rules.game])))
    dealer = draw(st.sampled_from(seats))
    return rules, seats, dealer, random.Random(draw(st.integers(0, 2**32)))


def assert_conserves(verdict: dict, seats: list[str], record: dict | None = None) -> None:
    """Every seat has an integer delta and the deltas plus the pool change sum to zero (and
    the whole verdict has the shape deal-record.md and docs/engine-api.md promise)."""
    assert_verdict_shape(verdict, seats, record=record)
    settlement = verdict["settlement"]
    deltas = settlement["deltas"]
    assert set(deltas) == set(seats)
    for value in (*deltas.values(), settlement["pool_before"], settlement["pool_after"]):
        assert type(value) is int
    assert sum(deltas.values()) + settlement["pool_after"] - settlement["pool_before"] == 0
    assert settlement["pool_after"] >= 0
    assert verdict["next"]["pool"] == settlement["pool_after"]


def _plays(actions: list[dict]) -> list[int]:
    return [i for i, a in enumerate(actions) if a["action"] == "play"]


@given(tables(), st.sampled_from([0, 0, 3, 7, 12, 31]), st.booleans())
def test_random_legal_deal_is_valid_and_conserves_chips(table, pool, first_of_series):
    rules, seats, dealer, rng = table
    dealt = play_random_deal(rules, seats, dealer, pool=pool, rng=rng,
                             first_of_series=first_of_series)
    event(dealt.verdict["ended"])
    verdict = replay(dealt.record, rules, pool=pool, first_of_series=first_of_series)
    assert verdict["status"] == "valid", verdict["violations"]
    assert verdict["violations"] == []
    assert verdict == dealt.verdict  # hands inferred from the plays judge alike
    assert_conserves(verdict, seats, dealt.record)


@given(tables(), st.booleans())
def test_record_round_trips_through_json(table, with_hands):
    rules, seats, dealer, rng = table
    dealt = play_random_deal(rules, seats, dealer, pool=6, rng=rng, with_hands=with_hands)
    text = json.dumps(dealt.record)
    again = json.loads(text)
    assert again == dealt.record
    assert json.dumps(again) == text
    assert replay(again, rules.to_options()) == replay(dealt.record, rules)


@given(tables(), st.sampled_from([0, 6]))
def test_actions_round_trip_through_the_table_notation(table, pool):
    """deal-record.md: the compact notation must round-trip with the JSON exactly."""
    rules, seats, dealer, rng = table
    record = play_random_deal(rules, seats, dealer, pool=pool, rng=rng).record
    text = actions_to_text(record["actions"])
    assert len(text.splitlines()) == len(record["actions"])
    assert actions_from_text(text) == record["actions"]
    assert actions_from_text(text.replace("\n", "; ")) == record["actions"]


def _state_before(rules: RuleSet, record: dict, upto: int) -> Deal:
    """The deal as it stood just before action `upto` (hands known, so every play is judged)."""
    deal = Deal(rules, record["seats"], record["dealer"], pool=record["pool"],
                hands=record["hands"], miss=record.get("miss"), turnup=record.get("turnup"))
    for action in record["actions"][:upto]:
        deal.push(action)
    return deal


@given(tables(), st.sampled_from([0, 6, 9]), st.data())
def test_one_illegal_play_is_flagged_where_it_happened(table, pool, data):
    """Swap two of one player's plays: if the earlier one now breaks a duty, that rule is
    reported for that player at that trick, and nothing earlier is."""
    rules, seats, dealer, rng = table
    dealt = play_random_deal(rules, seats, dealer, pool=pool, rng=rng, with_hands=True)
    record = dealt.record
    actions = record["actions"]
    plays = _plays(actions)
    firsts = [i for i in plays if "say" not in actions[i]
              and any(actions[j]["player"] == actions[i]["player"] for j in plays if j > i)]
    assume(firsts)
    i = data.draw(st.sampled_from(firsts))
    player = actions[i]["player"]
    before = _state_before(rules, record, i)
    breaking = {j: before.play_violation(player, actions[j]["card"]) for j in plays
                if j > i and actions[j]["player"] == player and "say" not in actions[j]}
    breaking = {j: rule for j, rule in breaking.items() if rule is not None}
    assume(breaking)
    j = data.draw(st.sampled_from(sorted(breaking)))
    card, rule = actions[j]["card"], breaking[j]
    assert rule in RULE_NAMES_OF_CONTRACT, rule
    event(rule)
    width = len({actions[k]["player"] for k in plays})
    trick = 1 + plays.index(i) // width
    bad = json.loads(json.dumps(record))
    bad["actions"][i]["card"], bad["actions"][j]["card"] = card, actions[i]["card"]

    verdict = replay(bad, rules)

    assert verdict["status"] == "irregular"
    found = [(v["player"], v["rule"], v["trick"]) for v in verdict["violations"]]
    assert min(v[2] for v in found) == trick, found
    assert [v for v in found if v[0] == player and v[2] == trick] == [(player, rule, trick)]
    offence = next(v for v in verdict["violations"] if v["player"] == player)
    assert offence["card"] == card and offence["evidence"] and offence["penalty"]
    assert_conserves(verdict, seats)
    assert verdict["settlement"]["payouts"].get(player, 0) == 0  # winnings stay in the pool


@given(tables(), st.data())
def test_a_card_nobody_could_hold_is_a_record_error(table, data):
    """A play of a card already played is refused whole, naming the action, and is the
    only error: the replay goes on past it as the record has it."""
    rules, seats, dealer, rng = table
    record = play_random_deal(rules, seats, dealer, pool=6, rng=rng).record
    plays = _plays(record["actions"])
    assume(len(plays) > 1)
    k = data.draw(st.sampled_from(plays[1:]))
    earlier = record["actions"][plays[0]]["card"]
    record["actions"][k]["card"] = earlier
    with pytest.raises(RecordError) as caught:
        replay(record, rules)
    assert [(e["index"], e["player"], e["card"]) for e in caught.value.errors] == [
        (k, record["actions"][k]["player"], earlier)]


@given(tables(), st.data())
def test_a_short_draw_is_reported_once(table, data):
    """An exchange that draws one card too few is refused, naming the action, and the replay
    goes on with the hand as the record plays it: the cards drawn are not reported again as
    cards the player cannot hold, nor the tricks that follow as played twice. (Which played
    card the record left out of the draw is unknowable, so what it then implies, e.g. about
    the stock, may still be reported after it.)"""
    rules, seats, dealer, rng = table
    record = play_random_deal(rules, seats, dealer, pool=6, rng=rng).record
    drawing = [i for i, a in enumerate(record["actions"])
               if a["action"] == "exchange" and a.get("draw")]
    assume(drawing)
    k = data.draw(st.sampled_from(drawing))
    spoiled = record["actions"][k]
    spoiled["draw"] = spoiled["draw"][:-1]
    with pytest.raises(RecordError) as caught:
        replay(record, rules)
    first, *rest = caught.value.errors
    assert (first["index"], first["player"], first["field"]) == (k, spoiled["player"], "draw")
    assert not [e["message"] for e in rest
                if "cannot hold" in e["message"] or "plays twice" in e["message"]]


CARD_NAMES = [rank + suit for rank in "23456789TJQKA" for suit in "CDHS"]
ACTION_KINDS = ["play", "stand", "pass", "exchange", "flush", "take-miss", "defend",
                "irregularity", "fold"]


@given(tables(), st.data())
def test_a_mangled_record_is_a_verdict_or_a_record_error(table, data):
    """Up to three random edits of a legal record (an action dropped, repeated or moved; a
    player, card, kind or exchange changed to anything) give a verdict that conserves chips or
    a RecordError naming what is wrong: never another exception (which the service would
    answer with a 500), however the replay carries on past the first error."""
    rules, seats, dealer, rng = table
    record = play_random_deal(rules, seats, dealer, pool=6, rng=rng).record
    actions = record["actions"]
    for _ in range(data.draw(st.integers(1, 3))):
        if not actions:
            break
        k = data.draw(st.integers(0, len(actions) - 1))
        edit = data.draw(st.sampled_from(["drop", "repeat", "move", "player", "card", "kind",
                                          "exchange"]))
        if edit == "drop":
            del actions[k]
        elif edit == "repeat":
            actions.insert(k, dict(actions[data.draw(st.integers(0, len(actions) - 1))]))
        elif edit == "move":
            actions.insert(data.draw(st.integers(0, len(actions) - 1)), actions.pop(k))
        elif edit == "player":
            actions[k] = {**actions[k], "player": data.draw(st.sampled_from([*seats, "zed", None]))}
        elif edit == "card":
            actions[k] = {**actions[k], "card": data.draw(st.sampled_from([*CARD_NAMES, "ZZ", 7]))}
        elif edit == "kind":
            actions[k] = {**actions[k], "action": data.draw(st.sampled_from(ACTION_KINDS))}
        else:
            cards = st.lists(st.sampled_from(CARD_NAMES), max_size=4)
            actions[k] = {**actions[k], "discard": data.draw(cards), "draw": data.draw(cards)}
    try:
        verdict = replay(record, rules, pool=6)
    except RecordError as err:
        assert err.errors and all(e["message"] for e in err.errors)
        event("record error")
    else:
        assert_conserves(verdict, seats)
        event("verdict")


@given(st.sampled_from(RULE_NAMES), st.integers(3, 7), st.integers(1, 25),
       st.integers(0, 2**32))
def test_session_conserves_chips_and_chains_the_pool(name, n_seats, n_deals, seed):
    rules = RULES[name]
    seats = _seated(rules, n_seats)
    lines = random_session(rules, seats, n_deals, random.Random(seed))
    header, records = lines[0], lines[1:]
    assert header["format"] == "loo-session/1" and header["seats"] == seats
    assert len(records) == n_deals
    verdicts = list(replay_session(json.dumps(line) for line in lines))
    assert len(verdicts) == n_deals
    pool = header["pool"]
    total = 0
    for record, verdict in zip(records, verdicts, strict=True):
        assert verdict["status"] == "valid"
        assert record["pool"] == pool == verdict["settlement"]["pool_before"]
        assert verdict["dealer"] == record["dealer"]
        assert_conserves(verdict, seats, record)
        total += sum(verdict["settlement"]["deltas"].values())
        pool = verdict["next"]["pool"]
    assert total + pool - header["pool"] == 0


@pytest.mark.parametrize("name", RULE_NAMES)
def test_every_rule_set_produces_played_deals(name):
    """Fixed seed per rule set: 40 deals in a session, some played out, all valid."""
    rules = RULES[name]
    seats = list(NAMES[:5])
    ended = set()
    for dealt in session_deals(rules, seats, 40, random.Random(name)):
        verdict = replay(dealt.record, rules, first_of_series=dealt.first_of_series)
        assert verdict["status"] == "valid"
        ended.add(verdict["ended"])
    assert "played" in ended


def test_hands_are_shown_only_when_the_plays_cannot_show_them():
    """A flush ends the deal before any play, so the flush holder's hand is in the record."""
    rules = RULES["five-card"]
    seats = list(NAMES[:5])
    rng = random.Random(7)
    shown = plain = 0
    for _ in range(3000):
        record = play_random_deal(rules, seats, "eve", pool=10, rng=rng).record
        flushers = {a["player"] for a in record["actions"] if a["action"] == "flush"}
        assert set(record.get("hands", {})) == flushers
        shown += bool(flushers)
        plain += not flushers
        if shown and plain > 10:
            break
    assert shown and plain


@given(tables(), st.sampled_from([0, 6, 9]), st.data())
def test_two_plays_swapped_within_a_trick_are_played_out_of_turn(table, pool, data):
    """The second of two neighbours in a trick plays first: that player, that trick, that rule."""
    rules, seats, dealer, rng = table
    record = play_random_deal(rules, seats, dealer, pool=pool, rng=rng).record
    actions = record["actions"]
    plays = _plays(actions)
    width = len({actions[k]["player"] for k in plays})
    assume(width > 1)
    pairs = [n for n in range(len(plays) - 1) if n % width != width - 1
             and "say" not in actions[plays[n]] and plays[n + 1] == plays[n] + 1]
    assume(pairs)
    n = data.draw(st.sampled_from(pairs))
    trick = 1 + n // width
    early = actions[plays[n + 1]]
    bad = json.loads(json.dumps(record))
    bad["actions"][plays[n]], bad["actions"][plays[n + 1]] = early, actions[plays[n]]

    verdict = replay(bad, rules)

    assert verdict["status"] == "irregular"
    found = [(v["player"], v["rule"], v["trick"]) for v in verdict["violations"]]
    assert min(v[2] for v in found) == trick, found
    # a card played out of turn is judged for that alone (it does not lead the trick)
    assert [v for v in found if v[0] == early["player"] and v[2] == trick] == [
        (early["player"], "played-out-of-turn", trick)]
    assert verdict["settlement"]["loo_payments"].get(early["player"], 0) > 0 \
        or verdict["settlement"]["pool"] == 0
    assert_conserves(verdict, seats)


@given(tables(), st.sampled_from([0, 6, 9]), st.sampled_from(["looked-out-of-turn",
                                                              "looked-at-stock"]), st.data())
def test_a_pre_play_irregularity_costs_a_single_loo_into_this_pool(table, pool, kind, data):
    """Noted before the declarations: reported without a trick, the single loo is paid into the
    pool played for (so P grows by it), the play itself is judged as before."""
    rules, seats, dealer, rng = table
    dealt = play_random_deal(rules, seats, dealer, pool=pool, rng=rng, with_hands=True)
    offender = data.draw(st.sampled_from(seats))
    record = json.loads(json.dumps(dealt.record))
    record["actions"].insert(0, {"player": offender, "action": "irregularity", "kind": kind})

    verdict = replay(record, rules)

    assert verdict["status"] == "irregular"
    # where nobody declares (a simple pool, poker-Loo's first deal) play starts at once: trick 1;
    # not where a flush may still be shown first (club law with the redeal flush)
    trick = 1 if _state_before(rules, dealt.record, 0).phase == "play" else None
    assert [(v["player"], v["rule"], v["trick"], v["penalty"]) for v in verdict["violations"]] \
        == [(offender, kind, trick, "single-loo")]
    settlement, before = verdict["settlement"], dealt.verdict["settlement"]
    assert settlement["penalties"] == {offender: rules.single_loo}
    assert settlement["pool"] == before["pool"] + rules.single_loo
    assert verdict["tricks"] == dealt.verdict["tricks"]
    assert_conserves(verdict, seats)


SUIT_SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}


def _respell(card: str, how: int) -> str:
    """Another spelling the record format accepts: `10` for T, lower case, suit symbols."""
    rank, suit = card[0], card[1]
    rank = "10" if rank == "T" and how & 1 else rank
    suit = SUIT_SYMBOLS[suit] if how & 2 else suit
    return (rank + suit).lower() if how & 4 else rank + suit


def _respelled(value: Any, rng: random.Random) -> Any:
    if isinstance(value, str) and len(value) == 2 and value[1] in SUIT_SYMBOLS \
            and value[0] in "23456789TJQKA":
        return _respell(value, rng.randrange(8))
    if isinstance(value, list):
        return [_respelled(v, rng) for v in value]
    if isinstance(value, dict):
        return {k: v if k in ("player", "action", "format", "dealer") else _respelled(v, rng)
                for k, v in value.items()}
    return value


@given(tables(), st.integers(0, 2**32))
def test_cards_spelled_any_accepted_way_give_the_same_verdict(table, seed):
    rules, seats, dealer, rng = table
    record = play_random_deal(rules, seats, dealer, pool=6, rng=rng, with_hands=True).record
    verdict = replay(record, rules)
    assert replay(_respelled(record, random.Random(seed)), rules) == verdict
    bare = {k: v for k, v in record.items() if k not in ("hands", "miss")}
    if not any(a["action"] == "flush" for a in record["actions"]):
        assert replay(bare, rules) == verdict  # hands given or inferred: one verdict
