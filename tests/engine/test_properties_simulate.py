"""The simulator itself: a real deck dealt as the game deals it, reproducible, sessions chained."""
from __future__ import annotations

import itertools
import json
import random
from collections import Counter

import pytest

from games.rules import RuleSet, replay, replay_session
from games.rules.simulate import (
    DECK,
    deal_cards,
    eager,
    play_random_deal,
    random_deal,
    random_session,
    session_deals,
    session_header,
)

SEATS = ["ann", "bob", "cat", "dan", "eve"]


def test_the_deck_is_52_distinct_cards():
    assert len(DECK) == len(set(DECK)) == 52
    assert {"AS", "TH", "2C", "JC"} <= set(DECK)


@pytest.mark.parametrize(("options", "pool", "size", "miss", "stock"), [
    ({"game": "three-card"}, 0, 3, False, 52 - 15 - 1),          # simple pool: no miss
    ({"game": "three-card"}, 6, 3, True, 52 - 15 - 3 - 1),       # double pool: a miss
    ({"game": "three-card", "simple_pool": "miss-and-trump"}, 0, 3, True, 52 - 15 - 3 - 1),
    ({"game": "irish"}, 6, 3, False, 52 - 15 - 1),
    ({"game": "five-card"}, 6, 5, False, 52 - 25 - 1),
    ({"game": "poker-loo"}, 0, 5, False, 52 - 25 - 1),
])
def test_cards_are_dealt_as_the_game_deals_them(options, pool, size, miss, stock):
    rules = RuleSet.from_options(options)
    cards = deal_cards(rules, SEATS, "eve", pool, random.Random(3))
    assert list(cards["hands"]) == ["ann", "bob", "cat", "dan", "eve"]  # eldest first
    assert all(len(hand) == size for hand in cards["hands"].values())
    assert (cards["miss"] is not None) == miss
    assert len(cards["stock"]) == stock
    everything = [c for h in cards["hands"].values() for c in h] + (cards["miss"] or []) \
        + [cards["turnup"]] + cards["stock"]
    assert sorted(everything) == sorted(DECK)


def test_trumps_led_deal_no_turnup():
    rules = RuleSet.from_options({"game": "irish", "trump_turned": "first-lead"})
    cards = deal_cards(rules, SEATS, "eve", 6, random.Random(3))
    assert cards["turnup"] is None and len(cards["stock"]) == 52 - 15
    record = random_deal(rules, SEATS, "eve", pool=6, rng=random.Random(4))
    assert "turnup" not in record
    assert replay(record, rules)["status"] == "valid"


def test_the_same_seed_gives_the_same_deal_and_another_seed_another():
    rules = RuleSet.from_options({"preset": "five-card"})
    one = random_deal(rules, SEATS, "eve", pool=10, rng=random.Random(11))
    two = random_deal(rules, SEATS, "eve", pool=10, rng=random.Random(11))
    other = random_deal(rules, SEATS, "eve", pool=10, rng=random.Random(12))
    assert one == two
    assert one != other


def test_with_hands_shows_every_dealt_hand_and_the_miss():
    rules = RuleSet.from_options({"preset": "three-card"})
    record = random_deal(rules, SEATS, "eve", pool=6, rng=random.Random(5), with_hands=True)
    assert set(record["hands"]) == set(SEATS)
    assert len(record["miss"]) == 3
    assert replay(record, rules)["status"] == "valid"


def test_a_plain_deal_shows_no_hands():
    rules = RuleSet.from_options({"preset": "three-card"})
    records = [random_deal(rules, SEATS, "eve", pool=6, rng=random.Random(k)) for k in range(20)]
    assert all("hands" not in r and "miss" not in r for r in records)


def test_eager_plays_every_five_card_deal_out():
    rules = RuleSet.from_options({"preset": "five-card"})
    ended = Counter(d.verdict["ended"] for d in session_deals(
        rules, SEATS, 60, random.Random(2), choose=eager))
    assert set(ended) <= {"played", "flush"}
    assert ended["played"] > 50
    dealt = play_random_deal(rules, SEATS, "eve", pool=10, rng=random.Random(9), choose=eager)
    assert dealt.verdict["standers"] == SEATS


def test_a_session_passes_the_deal_to_the_left_and_numbers_the_deals():
    rules = RuleSet.from_options({"preset": "three-card"})
    lines = random_session(rules, SEATS, 8, random.Random(1), first_dealer="cat")
    header, records = lines[0], lines[1:]
    assert header == {
        "format": "loo-session/1", "seats": SEATS, "rules": rules.to_options(),
        "first_dealer": "cat", "pool": 0, "banker": "club", "chip_value": 1,
        "buy_ins": dict.fromkeys(SEATS, 20)}
    assert [r["number"] for r in records] == list(range(1, 9))
    assert [r["dealer"] for r in records] == ["cat", "dan", "eve", "ann", "bob", "cat", "dan",
                                              "eve"]
    assert records[0]["pool"] == 0
    verdicts = list(replay_session(lines))
    assert [v["settlement"]["pool_before"] for v in verdicts] == [r["pool"] for r in records]


@pytest.mark.parametrize("options", [
    {"game": "three-card", "end_pool": "final-deal"},
    {"game": "three-card", "end_pool": "final-deal", "trump_turned": "first-lead"},
    {"game": "irish", "end_pool": "final-deal"},
    {"game": "five-card", "end_pool": "final-deal"},
    {"game": "poker-loo", "end_pool": "final-deal"},
])
def test_a_final_deal_is_dealt_without_a_miss_and_played_without_antes(options):
    """`final=True`: the final deal of `end_pool: "final-deal"`, marked in the record, which
    replays to the simulator's own verdict: everybody stands, no miss, no ante."""
    rules = RuleSet.from_options(options)
    for k, pool in enumerate([0, 4, 9] * 4):
        dealt = play_random_deal(rules, SEATS, "eve", pool=pool, rng=random.Random(k),
                                 first_of_series=k % 2 == 0, final=True)
        assert dealt.record["final"] is True and "miss" not in dealt.record
        verdict = replay(dealt.record, rules, pool=pool, first_of_series=k % 2 == 0)
        assert verdict == dealt.verdict and verdict["status"] == "valid"
        assert verdict["settlement"]["antes"] == {}
        if verdict["ended"] == "played":
            assert verdict["standers"] == SEATS


def test_poker_loo_sessions_start_a_new_series_after_the_pot_is_taken():
    rules = RuleSet.from_options({"preset": "poker-loo"})
    deals = list(session_deals(rules, SEATS, 30, random.Random(8)))
    assert deals[0].first_of_series
    for earlier, later in itertools.pairwise(deals):
        assert later.first_of_series == (earlier.verdict["next"]["pool"] == 0)
        assert later.pool == earlier.verdict["next"]["pool"]


def test_the_command_line_prints_a_session_that_replays(capsys):
    from games.rules.simulate import main

    assert main(["--preset", "five-card", "--seats", "ann,bob,cat,dan", "--deals", "6",
                 "--seed", "3", "--rules", '{"blaze": true}']) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 7
    header = json.loads(lines[0])
    assert header["seats"] == ["ann", "bob", "cat", "dan"] and header["rules"]["blaze"] is True
    assert [v["status"] for v in replay_session(lines)] == ["valid"] * 6


def test_the_command_line_refuses_a_table_the_game_cannot_seat(capsys):
    from games.rules.simulate import main

    assert main(["--preset", "five-card", "--seats", "ann,bob,cat"]) == 2
    out = capsys.readouterr()
    assert out.out == "" and "seats: five-card Loo is played by 4 to 7 players, not 3" in out.err
    assert main(["--rules", '{"loo": "sometimes"}']) == 2
    assert "loo:" in capsys.readouterr().err


@pytest.mark.parametrize(("game", "seats", "chips"), [
    ("three-card", "ann bob cat", 20), ("irish", "ann bob cat", 20),
    ("five-card", "ann bob cat dan", 50), ("poker-loo", "ann bob cat", 50)])
def test_a_session_file_buys_in_as_the_game_is_customary(game, seats, chips):
    # s.7: "20 red chips is the customary three-card buy-in, 50 for five-card" (Irish Loo is
    # three-card Loo, poker-Loo five-card): each seat of a simulated session buys in with that
    header = session_header(RuleSet.from_options({"game": game}), seats.split(), "ann")
    assert header["buy_ins"] == dict.fromkeys(seats.split(), chips)
    assert (header["banker"], header["pool"]) == ("club", 0)
