"""Property tests for poker-Loo's series (loo-rules.md s.5): first and later deals, redeals
with a player sitting out, 2-8 seats, exchanges and revokes.

`test_properties.py` and `test_properties_oracle.py` play poker-Loo among every rule set;
these add what is poker-Loo's own: the antes of a series' first deal only, the exchange limits
of its first deal at seven and eight, the redeal after an offence (no antes, the offender
out), and who deals next in which kind of deal. Each deal's tricks and payment are also
re-judged by the oracle's independent reading.
"""
from __future__ import annotations

import json
import random

from hypothesis import assume, event, given
from hypothesis import strategies as st

from games.rules import Deal, RuleSet, replay
from games.rules.simulate import eager, play_random_deal, uniform
from tests.engine.test_properties import assert_conserves
from tests.engine.test_properties_oracle import check_poker_payment, check_tricks

NAMES = ("ann", "bob", "cat", "dan", "eve", "fay", "gus", "hal")
RULES = [RuleSet.from_options({"game": "poker-loo"}),
         RuleSet.from_options({"game": "poker-loo", "loo_cap": 20})]


def exchange_limit(first: bool, dealt: int) -> int:
    """0-3 cards; on a series' first deal at most 2 with seven dealt in, none with eight."""
    if first and dealt >= 8:
        return 0
    return 2 if first and dealt == 7 else 3


@st.composite
def poker_tables(draw: st.DrawFn) -> dict:
    """Rules, 2-8 seats, a dealer, the deal's place in the series and (maybe) who sits out."""
    seats = list(NAMES[:draw(st.integers(2, 8))])
    out = draw(st.sampled_from([None, *seats]))
    first = draw(st.booleans())
    return {"rules": draw(st.sampled_from(RULES)), "seats": seats,
            "dealer": draw(st.sampled_from(seats)), "first": first,
            "pool": draw(st.sampled_from([0, 21, 40] if first else [21, 40])),
            "redeal": None if out is None else {"sits_out": [out]},
            "rng": random.Random(draw(st.integers(0, 2**32)))}


@given(poker_tables(), st.booleans())
def test_a_poker_loo_deal_keeps_the_series_rules(table, stand):
    rules, seats, dealer, first = table["rules"], table["seats"], table["dealer"], table["first"]
    redeal, pool = table["redeal"], table["pool"]
    dealt = play_random_deal(rules, seats, dealer, pool=pool, rng=table["rng"],
                             first_of_series=first, redeal=redeal,
                             choose=eager if stand else uniform)
    record, verdict = dealt.record, dealt.verdict
    ended = verdict["ended"]
    event(f"{'first' if first else 'later'}{' redeal' if redeal else ''}: {ended}")
    assert verdict["status"] == "valid"
    assert replay(record, rules, pool=pool, first_of_series=first) == verdict
    assert_conserves(verdict, seats, record)
    out = redeal["sits_out"] if redeal else []
    dealt_in = [s for s in seats if s not in out]
    antes = verdict["settlement"]["antes"]
    if first and not redeal:
        assert antes == {s: 6 if s == dealer else 5 for s in seats}
    else:
        assert antes == {}
    assert not set(out) & set(verdict["standers"])
    assert all(verdict["settlement"]["deltas"][s] == 0 for s in out)
    if first and len(dealt_in) > 1:
        assert verdict["standers"] == [s for s in _order(seats, dealer) if s in dealt_in]
    limit = exchange_limit(first, len(dealt_in))
    for action in record["actions"]:
        if action["action"] == "exchange":
            assert len(action["discard"]) <= limit, action
    left = seats[(seats.index(dealer) + 1) % len(seats)]
    pool_after = verdict["settlement"]["pool_after"]
    expected_next = {
        "nobody-stands": {"dealer": dealer, "pool": pool_after, "first_of_series": False},
        "lone-stander": {"dealer": left, "pool": 0, "first_of_series": True},
        "played": {"dealer": left, "pool": pool_after, "first_of_series": pool_after == 0},
    }[ended]
    assert verdict["next"] == expected_next
    if ended == "played":
        check_tricks(rules, record, verdict)
        check_poker_payment(rules, verdict, first)


def _order(seats: list[str], dealer: str) -> list[str]:
    """Eldest round to the dealer."""
    start = seats.index(dealer) + 1
    return [seats[(start + i) % len(seats)] for i in range(len(seats))]


def _revoke_swap(record: dict, rng: random.Random) -> tuple[dict, str, int] | None:
    """The record with one follower's card at trick k swapped for a later card of another
    suit: he held the suit led (he followed with it), so that is a revoke at trick k."""
    actions = record["actions"]
    plays = [i for i, a in enumerate(actions) if a["action"] == "play"]
    width = len({actions[i]["player"] for i in plays})
    choices = []
    for n, i in enumerate(plays):
        if n % width == 0:
            continue  # a lead cannot revoke
        led = actions[plays[n - n % width]]["card"][1]
        player, card = actions[i]["player"], actions[i]["card"]
        if card[1] != led:
            continue
        choices += [(i, j, player, 1 + n // width) for j in plays[n + 1:]
                    if actions[j]["player"] == player and actions[j]["card"][1] != led]
    if not choices:
        return None
    i, j, player, trick = rng.choice(choices)
    bad = json.loads(json.dumps(record))
    bad["actions"][i]["card"], bad["actions"][j]["card"] = actions[j]["card"], actions[i]["card"]
    return bad, player, trick


@given(poker_tables(), st.booleans())
def test_a_revoke_burns_at_once_and_the_same_dealer_deals_again_without_the_offender(table,
                                                                                   looked):
    """``looked``: the revoker looked at another hand once committed (burned, playing on):
    still burned once, and the revoke still throws the hand in."""
    rules, seats, dealer, first = table["rules"], table["seats"], table["dealer"], table["first"]
    pool, redeal, rng = table["pool"], table["redeal"], table["rng"]
    dealt = play_random_deal(rules, seats, dealer, pool=pool, rng=rng, first_of_series=first,
                             redeal=redeal, choose=eager, with_hands=True)
    assume(dealt.verdict["ended"] == "played")
    swapped = _revoke_swap(dealt.record, rng)
    assume(swapped is not None)
    bad, player, trick = swapped
    offences = [(player, "revoke", trick, "burn")]
    if looked:  # just after the declarations (none on a first deal): he stands already
        at = next(i for i, a in enumerate(bad["actions"]) if a["action"] in ("exchange", "play"))
        bad["actions"].insert(at, {"player": player, "action": "irregularity",
                                   "kind": "looked-at-hand"})
        offences.insert(0, (player, "looked-at-hand", "burn"))
    event(f"{'first' if first else 'later'}{' redeal' if redeal else ''}: revoke"
          f"{' after looking at a hand' if looked else ''}")

    verdict = replay(bad, rules, pool=pool, first_of_series=first)

    assert_conserves(verdict, seats)
    assert [(v["player"], v["rule"], v["trick"], v["penalty"])
            if v["rule"] == "revoke" else (v["player"], v["rule"], v["penalty"])
            for v in verdict["violations"]] == offences
    settlement = verdict["settlement"]
    full = rules.full_loo(settlement["pool"])
    assert (verdict["ended"], verdict["redeal"]) == ("thrown-in", {"sits_out": [player]})
    assert settlement["payouts"] == {}
    assert settlement["loo_payments"] == ({player: full} if full else {})
    assert verdict["next"] == {"dealer": dealer, "pool": settlement["pool"] + full,
                               "first_of_series": first}
    # the redeal: same dealer, no antes, the offender out (the first offender of a redeal
    # comes back: docs/engine.md question 10)
    again = play_random_deal(rules, seats, dealer, pool=verdict["next"]["pool"], rng=rng,
                             first_of_series=first, redeal=verdict["redeal"])
    assert again.verdict["status"] == "valid"
    assert again.verdict["settlement"]["antes"] == {}
    assert player not in again.verdict["standers"]
    assert again.verdict["settlement"]["deltas"][player] == 0
    assert_conserves(again.verdict, seats, again.record)


def test_legal_actions_never_offer_an_exchange_beyond_the_first_deals_limit():
    """Seven and eight at a first deal: the simulator (which plays only what `legal_actions`
    offers) never discards more than 2, or exchanges at all at eight."""
    rules = RULES[0]
    for count, limit in ((7, 2), (8, 0)):
        seats = list(NAMES[:count])
        rng = random.Random(count)
        most = 0
        for _ in range(40):
            deal = play_random_deal(rules, seats, seats[-1], rng=rng, first_of_series=True)
            most = max([most, *(len(a["discard"]) for a in deal.record["actions"]
                                if a["action"] == "exchange")])
        assert most == limit
        # nobody declares on a first deal: it opens with the exchange, or at eight with the play
        assert Deal(rules, seats, seats[-1], pool=0).phase == ("exchange" if limit else "play")
