"""Poker-Loo (loo-rules.md s.5): five-card Loo without Pam or flushes, played as a series.

First deal: everybody must stand (declarations omitted), every player antes 5 and the dealer
6; a stander with 0 or 1 trick is burned and matches the pot P (capped by loo_cap); three
tricks take the pot. Later deals: no antes, simultaneous stand/fold.
Hearts are trumps (turn-up 2H) unless said otherwise; JC is an ordinary club here.
"""
import re

import pytest

from games.rules import RecordError, replay_session
from tests.engine.dealkit import (
    assert_conserved,
    deal_at,
    nonzero,
    play,
    record,
    record_errors,
)
from tests.engine.outcome import clean, outcome

POKER = {"game": "poker-loo"}
FOUR = "ann bob cat dan"
FIVE_SEATS = "ann bob cat dan eve"
SEVEN = "ann bob cat dan eve fay gus"
EIGHT = "ann bob cat dan eve fay gus hal"


def series_deal(actions, *, seats=FOUR, dealer="dan", pool=0, number=1, rules=POKER,
                turnup="2H", **fields):
    """Replay one poker-Loo deal; returns the verdict (conservation checked)."""
    return play(record(seats, dealer, rules=rules, pool=pool, number=number, turnup=turnup,
                       actions=actions, **fields))


# ann AH KH QH 3C 4C | bob AS KS 5D 6D 7D | cat 2S 3S 4S 8D 9D | dan 5S 6S 7S TD KC
FIRST_THREE_ONE_ONE = """
    ann AH; bob 5D; cat 8D; dan 5S
    ann KH; bob 6D; cat 9D; dan TD
    ann QH; bob 7D; cat 2S; dan 6S
    ann 3C; bob AS; cat 3S; dan KC
    dan 7S; ann 4C; bob KS; cat 4S
"""


def test_first_deal_forced_antes_three_tricks_take_the_pot_and_the_rest_burn():
    # P = 6 + 3 x 5 = 21. ann 3 tricks takes 21; bob 1, cat 0, dan 1: burned 21 each -> 63.
    v = series_deal(FIRST_THREE_ONE_ONE)
    assert v["standers"] == ["ann", "bob", "cat", "dan"]
    assert v["settlement"]["antes"] == {"ann": 5, "bob": 5, "cat": 5, "dan": 6}
    assert outcome(v) == clean(
        ["ann", "ann", "ann", "dan", "bob"], {"ann": 21}, 63,
        {"ann": 16, "bob": -26, "cat": -26, "dan": -27}, loos={"bob": 21, "cat": 21, "dan": 21})
    assert v["next"] == {"dealer": "ann", "pool": 63, "first_of_series": False}


@pytest.mark.parametrize("rules", [{**POKER, "loo_cap": 10},
                                   {**POKER, "loo": "mixed", "loo_cap": 10}])
def test_burn_is_capped_by_loo_cap(rules):
    # Cap 10: each burn is min(21, 10) = 10 -> pool 30.
    v = series_deal(FIRST_THREE_ONE_ONE, rules=rules)
    assert outcome(v) == clean(
        ["ann", "ann", "ann", "dan", "bob"], {"ann": 21}, 30,
        {"ann": 16, "bob": -15, "cat": -15, "dan": -16}, loos={"bob": 10, "cat": 10, "dan": 10})


def test_first_deal_two_trick_player_beside_a_three_trick_winner_neither_wins_nor_burns():
    # ann AH KH QH 2S 3S | bob AS KS QC 6D 7D | cat 4S 5S 8D 9D TD | dan 6S 7S JD 2C AC
    # ann 3 takes 21; bob 2: nothing either way; cat and dan burned 21 -> pool 42.
    v = series_deal("""
        ann AH; bob 6D; cat 8D; dan JD
        ann KH; bob 7D; cat 9D; dan 2C
        ann QH; bob QC; cat TD; dan AC
        ann 2S; bob AS; cat 4S; dan 6S
        bob KS; cat 5S; dan 7S; ann 3S
    """)
    assert outcome(v) == clean(
        ["ann", "ann", "ann", "bob", "bob"], {"ann": 21}, 42,
        {"ann": 16, "bob": -5, "cat": -26, "dan": -27}, loos={"cat": 21, "dan": 21})


def test_first_deal_without_three_tricks_the_two_trick_players_share():
    # Five players, eve deals: P = 6 + 4 x 5 = 26. ann 2, bob 2 share 13 each; cat (1 trick),
    # dan, eve (0) burned 26 each -> pool 78.
    # ann AS KS 9H 2C 3C | bob AH KH 5C 6C 7C | cat 3S 6S 2H 5H AC | dan 4S 7S 3H 6H 8C |
    # eve 5S 8S 4H 7H 9C; diamonds trumps (2D).
    v = series_deal("""
        ann AS; bob 5C; cat 3S; dan 4S; eve 5S
        ann KS; bob 6C; cat 6S; dan 7S; eve 8S
        ann 9H; bob AH; cat 2H; dan 3H; eve 4H
        bob KH; cat 5H; dan 6H; eve 7H; ann 2C
        bob 7C; cat AC; dan 8C; eve 9C; ann 3C
    """, seats=FIVE_SEATS, dealer="eve", turnup="2D")
    assert outcome(v) == clean(
        ["ann", "ann", "bob", "bob", "cat"], {"ann": 13, "bob": 13}, 78,
        {"ann": 8, "bob": 8, "cat": -31, "dan": -31, "eve": -32},
        loos={"cat": 26, "dan": 26, "eve": 26})


def test_first_deal_five_single_tricks_burn_all_five():
    # P = 26 stays and every player burns 26: pool 26 + 130 = 156.
    # ann AS 2H 5C 8H 7C | bob 2S AH 2C 9H 8C | cat 3S 3H AC 6H 9C | dan 4S 4H 3C KH 6C |
    # eve 5S 5H 4C 7H KC; diamonds trumps (2D).
    v = series_deal("""
        ann AS; bob 2S; cat 3S; dan 4S; eve 5S
        ann 2H; bob AH; cat 3H; dan 4H; eve 5H
        bob 2C; cat AC; dan 3C; eve 4C; ann 5C
        cat 6H; dan KH; eve 7H; ann 8H; bob 9H
        dan 6C; eve KC; ann 7C; bob 8C; cat 9C
    """, seats=FIVE_SEATS, dealer="eve", turnup="2D")
    burned = {p: 26 for p in FIVE_SEATS.split()}
    assert outcome(v) == clean(
        ["ann", "bob", "cat", "dan", "eve"], {}, 156,
        {"ann": -31, "bob": -31, "cat": -31, "dan": -31, "eve": -32}, loos=burned)


def test_first_deal_a_lone_two_trick_player_takes_the_whole_pot():
    # "the player(s) with two share it": with one two-trick player and three single tricks he
    # takes all of P = 21; bob, cat, dan (1 trick each) burn 21 -> 63.
    # ann AS KS 2C 3C 4C | bob 2S AC 5D 6D 7D | cat 3S 5C AD 8D 9D | dan 4S 6C TD JD AH
    v = series_deal("""
        ann AS; bob 2S; cat 3S; dan 4S
        ann KS; bob 5D; cat 5C; dan 6C
        ann 2C; bob AC; cat 8D; dan TD
        bob 7D; cat AD; dan JD; ann 3C
        cat 9D; dan AH; ann 4C; bob 6D
    """)
    assert outcome(v) == clean(
        ["ann", "ann", "bob", "cat", "dan"], {"ann": 21}, 63,
        {"ann": 16, "bob": -26, "cat": -26, "dan": -27}, loos={"bob": 21, "cat": 21, "dan": 21})


# ann AS KS 2C 3C 4C | bob 2S 3S AC KC 5D | cat 4S 5C 6C AD 6D | dan 5S 7C 8C 7D 8D: ann and
# bob two tricks each, cat one, dan none (hearts trumps)
TWO_TWO_ONE = """
    ann AS; bob 2S; cat 4S; dan 5S
    ann KS; bob 3S; cat 5C; dan 7D
    ann 2C; bob AC; cat 6C; dan 7C
    bob KC; cat 6D; dan 8C; ann 3C
    bob 5D; cat AD; dan 8D; ann 4C
"""


def test_first_deal_two_trick_players_share_and_an_odd_unit_stays_in_the_pot():
    # P = 21 between ann and bob (2 tricks each): 10 each, the odd unit stays (the white-chip
    # rule, docs/engine.md interpretation 14); cat (1) and dan (0) burn 21 -> 1 + 42 = 43.
    v = series_deal(TWO_TWO_ONE)
    assert outcome(v) == clean(
        ["ann", "ann", "bob", "bob", "cat"], {"ann": 10, "bob": 10}, 43,
        {"ann": 5, "bob": 5, "cat": -26, "dan": -27}, loos={"cat": 21, "dan": 21})


def test_two_players_first_deal_won_three_two_empties_the_pot_and_a_new_series_begins():
    # P = 6 + 5 = 11. ann 3 tricks takes 11; bob's 2 beside her neither win nor burn (the
    # first deal's rule: "exactly two standers" is a later deal's). Nothing is left to play
    # for, so ann deals a new series (docs/engine.md interpretation 14, not settled).
    # ann AS KS QS 2C 3C | bob 2S 3S 4S AC KC
    v = series_deal("""
        ann AS; bob 2S
        ann KS; bob 3S
        ann QS; bob 4S
        ann 2C; bob AC
        bob KC; ann 3C
    """, seats="ann bob", dealer="bob")
    assert outcome(v) == clean(["ann", "ann", "ann", "bob", "bob"], {"ann": 11}, 0,
                               {"ann": 6, "bob": -6})
    assert v["next"] == {"dealer": "ann", "pool": 0, "first_of_series": True}


def test_a_void_player_need_not_trump():
    # Later deal, pot 30; cat and dan fold. bob, void in spades, keeps his trump AH back and
    # throws clubs to ann's spades: no violation (s.5 "otherwise any card"). ann 4 tricks takes
    # 30; bob (1 trick, and one of exactly two standers) burns 30 -> pot 30.
    # ann AS KS QS JS TS | bob AH 2C 3C 4C 5C
    v = series_deal("""
        ann stand; bob stand; cat pass; dan pass
        ann AS; bob 2C
        ann KS; bob 3C
        ann QS; bob 4C
        ann JS; bob 5C
        ann TS; bob AH
    """, pool=30, number=2)
    assert outcome(v) == clean(["ann", "ann", "ann", "ann", "bob"], {"ann": 30}, 30,
                               {"ann": 30, "bob": -30}, loos={"bob": 30})


def test_later_deal_all_fold_same_dealer_deals_again_and_the_pot_stays():
    v = series_deal("ann pass; bob pass; cat pass; dan pass", pool=42, number=2)
    assert v["settlement"]["antes"] in ({}, {"ann": 0, "bob": 0, "cat": 0, "dan": 0})
    assert outcome(v) == clean([], {}, 42, {}, next_dealer="dan")
    assert v["next"] == {"dealer": "dan", "pool": 42, "first_of_series": False}


def test_later_deal_lone_stander_takes_the_pot_and_the_series_ends():
    v = series_deal("ann stand; bob pass; cat pass; dan pass", pool=42, number=2)
    assert outcome(v) == clean([], {"ann": 42}, 0, {"ann": 42})
    assert v["next"] == {"dealer": "ann", "pool": 0, "first_of_series": True}


def test_later_deal_nobody_three_the_pot_stays_plus_the_burns():
    # dan folds. ann exchanges 3 (9C TC JC -> 2C 5C 7D). ann AS KS 2C 5C 7D |
    # bob 2S 4S AC KC 6D | cat 3S 5S 3C 4C AD. ann 2, bob 2 (neither), cat 1: burned 42.
    v = series_deal("""
        ann stand; bob stand; cat stand; dan pass
        ann exchange 9C TC JC > 2C 5C 7D
        ann AS; bob 2S; cat 3S
        ann KS; bob 4S; cat 5S
        ann 2C; bob AC; cat 3C
        bob KC; cat 4C; ann 5C
        bob 6D; cat AD; ann 7D
    """, pool=42, number=2)
    assert outcome(v) == clean(["ann", "ann", "bob", "bob", "cat"], {}, 84, {"cat": -42},
                               loos={"cat": 42})
    assert v["next"] == {"dealer": "ann", "pool": 84, "first_of_series": False}


def test_later_deal_with_two_standers_the_one_without_three_is_burned():
    # ann AS KS QS 2C 3D | bob 2S AC KC 4D 5D: bob 3 tricks takes 42, ann (2 tricks) burns 42.
    v = series_deal("""
        ann stand; bob stand; cat pass; dan pass
        ann AS; bob 2S
        ann KS; bob AC
        ann 2C; bob KC
        bob 4D; ann 3D
        bob 5D; ann QS
    """, pool=42, number=2)
    assert outcome(v) == clean(["ann", "ann", "bob", "bob", "bob"], {"bob": 42}, 42,
                               {"ann": -42, "bob": 42}, loos={"ann": 42})
    assert v["next"]["first_of_series"] is False


def test_revoke_burns_the_offender_at_once_and_the_same_dealer_deals_again():
    # Later deal, pot 42. bob holds 2S but plays 2C to ann's AS: burned 42 at once, the hand
    # is thrown in (nothing else is paid): pool 84, dan deals again.
    hands = {"ann": ["AS", "KS", "QS", "3D", "4D"], "bob": ["2S", "2C", "AC", "5D", "6D"],
             "cat": ["3S", "5S", "3C", "4C", "AD"]}
    v = series_deal("ann stand; bob stand; cat stand; dan pass; ann AS; bob 2C",
                    pool=42, number=2, hands=hands)
    assert [(x["player"], x["rule"], x["trick"], x["card"]) for x in v["violations"]] == [
        ("bob", "revoke", 1, "2C")]
    s = v["settlement"]
    assert {k: x for k, x in s["deltas"].items() if x} == {"bob": -42}
    assert s["pool_after"] == 84 and not any(s["payouts"].values())
    assert v["next"] == {"dealer": "dan", "pool": 84, "first_of_series": False}


def exchange_refused(seats, dealer, exchange):
    """Errors of a first deal whose eldest opens with the given exchange."""
    return record_errors(record(seats, dealer, rules=POKER, turnup="2H", number=1,
                                actions=[exchange]))


def test_exchange_limits_three_cards_two_with_seven_on_the_first_deal_none_with_eight():
    three = {"player": "ann", "action": "exchange", "discard": ["2C", "3C", "4C"],
             "draw": ["5C", "6C", "7C"]}
    two = {**three, "discard": ["2C", "3C"], "draw": ["5C", "6C"]}
    one = {**three, "discard": ["2C"], "draw": ["5C"]}
    four = {**three, "discard": ["2C", "3C", "4C", "8C"], "draw": ["5C", "6C", "7C", "9C"]}
    seven_three = exchange_refused(SEVEN, "gus", three)
    assert any(e["index"] == 0 and e["player"] == "ann" for e in seven_three), seven_three
    eight_one = exchange_refused(EIGHT, "hal", one)
    assert any(e["index"] == 0 and e["player"] == "ann" for e in eight_one), eight_one
    four_four = exchange_refused(FOUR, "dan", four)
    assert any(e["index"] == 0 and e["player"] == "ann" for e in four_four), four_four
    # Two cards with seven players is allowed: the record is refused only for stopping early.
    seven_two = exchange_refused(SEVEN, "gus", two)
    assert not any(e["index"] == 0 for e in seven_two), seven_two


def test_no_pam_in_poker_loo_the_jack_of_clubs_must_follow_clubs():
    # Later deal, pot 20. ann AS 9C 3D 4D 5D | bob JC 2S 6D 7D 8D. ann leads 9C; bob plays 2S
    # holding JC, an ordinary club here: revoke, burned 20 -> pool 40.
    hands = {"ann": ["AS", "9C", "3D", "4D", "5D"], "bob": ["JC", "2S", "6D", "7D", "8D"]}
    v = series_deal("ann stand; bob stand; cat pass; dan pass; ann 9C; bob 2S",
                    pool=20, number=2, hands=hands)
    assert [(x["player"], x["rule"], x["trick"]) for x in v["violations"]] == [
        ("bob", "revoke", 1)]
    assert v["settlement"]["pool_after"] == 40


def test_later_deal_decisions_are_simultaneous_so_their_order_is_free():
    v = series_deal("dan pass; cat pass; bob pass; ann stand", pool=42, number=2)
    assert outcome(v) == clean([], {"ann": 42}, 0, {"ann": 42})


def test_a_lone_stander_who_looked_at_another_hand_takes_nothing_and_the_series_ends():
    # Pot 40: bob stands, then looks at another hand: committed, he is burned 40 and takes
    # nothing (docs/engine.md interpretation 27), so the pot holds 40 + 40 = 80; one stood, so
    # the series ends all the same and ann deals a first deal, antes on top (interpretation 14).
    v = series_deal("ann pass; bob stand; bob ! looked-at-hand; cat pass; dan pass",
                    pool=40, number=2)
    assert (v["ended"], v["standers"], v["settlement"]["payouts"]) == ("lone-stander", ["bob"], {})
    assert nonzero(v["settlement"]["deltas"]) == {"bob": -40}
    assert v["next"] == {"dealer": "ann", "pool": 80, "first_of_series": True}


def test_anyone_undecided_may_decide_at_once_on_a_later_deal():
    # Decisions are simultaneous, so declaration_options answers for every player in the deal
    # who has not decided, not for eldest alone (1.2.0 offered nothing to bob, cat and dan,
    # though push took their decisions in any order); dan deals a redeal with bob sitting out,
    # cat has stood, and dan, who looked at another hand, may only fold.
    deal = deal_at(POKER, FOUR, "dan", "cat stand; dan ! looked-at-hand", pool=40,
                   turnup="2H", first_of_series=False, redeal=True, sits_out=["bob"])
    assert {p: deal.declaration_options(p) for p in FOUR.split()} == {
        "ann": ["stand", "pass"], "bob": [], "cat": [], "dan": ["pass"]}
    assert deal.legal_actions() == [{"player": "ann", "action": "stand"},
                                    {"player": "ann", "action": "pass"}]


def test_nobody_may_fold_on_the_first_deal():
    rec = record(FOUR, "dan", rules=POKER, turnup="2H", number=1,
                 actions="ann pass; bob stand; cat stand; dan stand")
    errors = record_errors(rec)
    assert any(e["index"] == 0 and e["player"] == "ann" for e in errors), errors


def renamed(actions, names):
    """The same plays with the players renamed (``names``: old -> new, all at once)."""
    return re.sub(r"\b(" + "|".join(names) + r")\b", lambda m: names[m.group(1)], actions)


#: FIRST_THREE_ONE_ONE one seat on: bob deals a new series' first deal; cat (eldest) takes
#: tricks 1-3, bob trick 4, dan trick 5, ann none
NEW_SERIES_BY_BOB = renamed(FIRST_THREE_ONE_ONE,
                            {"ann": "cat", "bob": "dan", "cat": "ann", "dan": "bob"})


def replay_series(*deals: tuple[str, str, str], rules=POKER) -> list[dict]:
    """A poker-Loo session of (seats, dealer, actions) deals from an empty pot, the first
    dealer the first deal's; the verdicts, each checked for conservation."""
    seats = deals[0][0]
    header = {"format": "loo-session/1", "seats": seats.split(), "rules": rules,
              "first_dealer": deals[0][1], "pool": 0}
    lines = [{"dealer": dealer, "turnup": "2H", "actions": record(seats, dealer, actions=acts)[
        "actions"]} for seats, dealer, acts in deals]
    verdicts = list(replay_session([header, *lines]))
    for v in verdicts:
        assert_conserved(v, seats.split())
    return verdicts


def test_a_series_in_a_session_file_carries_pot_dealer_and_the_first_deal_rule():
    # 1: dan deals the forced first deal (P 21; pot 63). 2: ann deals, all fold: pot 63 stays
    # and ann deals again. 3: bob alone stands and takes 63: the series ends. 4: bob deals a new
    # series: antes again (bob 6, the others 5 = 21); cat (eldest) takes 21, the rest burn 21.
    verdicts = replay_series(
        (FOUR, "dan", FIRST_THREE_ONE_ONE),
        (FOUR, "ann", "bob pass; cat pass; dan pass; ann pass"),
        (FOUR, "ann", "bob stand; cat pass; dan pass; ann pass"),
        (FOUR, "bob", NEW_SERIES_BY_BOB))
    got = [(v["dealer"], v["settlement"]["pool_before"], sum(v["settlement"]["antes"].values()),
            v["settlement"]["pool_after"], nonzero(v["settlement"]["deltas"]),
            v["next"]["dealer"], v["next"]["first_of_series"]) for v in verdicts]
    assert got == [
        ("dan", 0, 21, 63, {"ann": 16, "bob": -26, "cat": -26, "dan": -27}, "ann", False),
        ("ann", 63, 0, 63, {}, "ann", False),
        ("ann", 63, 0, 0, {"bob": 63}, "bob", True),
        ("bob", 0, 21, 63, {"cat": 16, "dan": -26, "ann": -26, "bob": -27}, "cat", False),
    ]


def test_a_lone_stander_ends_the_series_even_when_a_folders_burn_refills_the_pot():
    # s.5 "One stands: that player takes the pot and the series ends". 1: the forced first deal
    # (P 21; pot 63). 2: ann deals; bob looks at another hand and must fold: burned 63 into the
    # next pot; cat stands alone and takes 63. The pot holds bob's 63 again, but the series is
    # over: 1.2.0 carried on with no antes and simultaneous decisions. 3: bob deals a new
    # series: everybody stands and antes (bob 6, the others 5 = 21) on top of the 63: P = 84.
    # cat (eldest) takes three tricks, 84; bob, dan (1 trick) and ann (0) burn 84 each -> 252.
    # cat +84 - 5 = 79; dan and ann -5 - 84 = -89; bob -6 - 84 = -90 (sum -189 = 63 - 252).
    verdicts = replay_series(
        (FOUR, "dan", FIRST_THREE_ONE_ONE),
        (FOUR, "ann", "bob ! looked-at-hand; bob pass; cat stand; dan pass; ann pass"),
        (FOUR, "bob", NEW_SERIES_BY_BOB))
    lone = verdicts[1]
    assert (lone["ended"], lone["standers"]) == ("lone-stander", ["cat"])
    assert nonzero(lone["settlement"]["deltas"]) == {"bob": -63, "cat": 63}
    assert lone["next"] == {"dealer": "bob", "pool": 63, "first_of_series": True}
    new = verdicts[2]
    assert new["settlement"]["antes"] == {"ann": 5, "bob": 6, "cat": 5, "dan": 5}
    assert outcome(new) == clean(
        ["cat", "cat", "cat", "bob", "dan"], {"cat": 84}, 252,
        {"ann": -89, "bob": -90, "cat": 79, "dan": -89},
        loos={"ann": 84, "bob": 84, "dan": 84}, next_dealer="cat")


def test_after_a_revoke_the_same_dealer_deals_again_and_the_offender_sits_out():
    # 1: forced first deal, pot 63. 2: ann deals; bob and cat stand; cat plays 2C to bob's AS
    # holding 2S: burned 63 at once, pot 126, ann deals again. 3: cat sits it out; bob alone
    # stands and takes 126: the series ends.
    header = {"format": "loo-session/1", "seats": FOUR.split(), "rules": POKER,
              "first_dealer": "dan", "pool": 0, "banker": "club", "chip_value": 1,
              "buy_ins": {p: 200 for p in FOUR.split()}}
    first = {"dealer": "dan", "turnup": "2H", "actions": record(FOUR, "dan",
                                                                 actions=FIRST_THREE_ONE_ONE)["actions"]}
    revoke = {"dealer": "ann", "turnup": "2H",
              "hands": {"bob": ["AS", "KS", "QS", "3D", "4D"],
                        "cat": ["2S", "2C", "AC", "5D", "6D"]},
              "actions": record(FOUR, "ann", actions="bob stand; cat stand; dan pass; ann pass;"
                                                     "bob AS; cat 2C")["actions"]}
    redeal = {"dealer": "ann", "turnup": "5H",
              "actions": record(FOUR, "ann", actions="bob stand; dan pass; ann pass")["actions"]}
    verdicts = list(replay_session([header, first, revoke, redeal]))
    for v in verdicts:
        assert_conserved(v, FOUR.split())
    got = [(v["dealer"], v["settlement"]["pool_after"], nonzero(v["settlement"]["deltas"]),
            v["next"]["dealer"], v["next"]["first_of_series"]) for v in verdicts[1:]]
    assert got == [("ann", 126, {"cat": -63}, "ann", False),
                   ("ann", 0, {"bob": 126}, "bob", True)]
    assert [(x["player"], x["rule"], x["trick"]) for x in verdicts[1]["violations"]] == [
        ("cat", "revoke", 1)]
    standing = {**redeal, "actions": record(FOUR, "ann", actions="bob stand; cat stand; dan pass;"
                                                                 "ann pass")["actions"]}
    with pytest.raises(RecordError) as caught:
        list(replay_session([header, first, revoke, standing]))
    assert any(e["player"] == "cat" for e in caught.value.errors), caught.value.errors


@pytest.mark.parametrize(("deal_3", "field"), [
    ({"redeal": False}, "redeal"),                      # the antes would be charged again
    ({"sits_out": []}, "sits_out"),                     # cat would play the redeal
    ({"redeal": True, "sits_out": ["dan"]}, "sits_out"),
])
def test_a_session_record_cannot_undo_the_redeal_the_ledger_knows(deal_3, field):
    # Deals 1 and 2 of the test above: cat revoked, so deal 3 is ann's redeal with cat out. A
    # record saying otherwise disagrees with the ledger, like a wrong dealer or pool (1.2.0's
    # replay_session took the record's word: no redeal charged the antes again, an empty
    # sits_out dealt cat in).
    header = {"format": "loo-session/1", "seats": FOUR.split(), "rules": POKER,
              "first_dealer": "dan", "pool": 0}
    first = {"turnup": "2H", "actions": record(FOUR, "dan", actions=FIRST_THREE_ONE_ONE)["actions"]}
    revoke = {"turnup": "2H", "hands": {"bob": ["AS", "KS", "QS", "3D", "4D"],
                                        "cat": ["2S", "2C", "AC", "5D", "6D"]},
              "actions": record(FOUR, "ann", actions="bob stand; cat stand; dan pass; ann pass;"
                                                     "bob AS; cat 2C")["actions"]}
    redeal = {"turnup": "5H", **deal_3,
              "actions": record(FOUR, "ann", actions="bob stand; dan pass; ann pass")["actions"]}
    with pytest.raises(RecordError) as caught:
        list(replay_session([header, first, revoke, redeal]))
    assert [(e["field"], e["line"], e["deal"]) for e in caught.value.errors] == [(field, 4, 3)]
    # and a first deal that is no redeal cannot claim to be one (its antes would go unpaid)
    with pytest.raises(RecordError) as caught:
        list(replay_session([header, {**first, "redeal": True, "sits_out": ["bob"]}]))
    assert [(e["field"], e["deal"]) for e in caught.value.errors] == [("redeal", 1)]


def test_first_deal_a_lone_two_trick_player_takes_the_pot():
    # ann AS KS 2C 4D 6C | bob 2S 5S AC 2D 7C | cat 3S 6S 3C AD 5C | dan 4S 7S 4C 3D KC.
    # ann 2 tricks, bob, cat, dan 1 each: nobody has three, so ann (the only two) takes 21;
    # the one-trick players burn 21 each -> pool 63. A record without "number" is deal 1.
    rec = record(FOUR, "dan", rules=POKER, turnup="2H", actions="""
        ann AS; bob 2S; cat 3S; dan 4S
        ann KS; bob 5S; cat 6S; dan 7S
        ann 2C; bob AC; cat 3C; dan 4C
        bob 2D; cat AD; dan 3D; ann 4D
        cat 5C; dan KC; ann 6C; bob 7C
    """)
    assert outcome(play(rec)) == clean(
        ["ann", "ann", "bob", "cat", "dan"], {"ann": 21}, 63,
        {"ann": 16, "bob": -26, "cat": -26, "dan": -27}, loos={"bob": 21, "cat": 21, "dan": 21})


def test_later_deal_two_trick_player_beside_a_three_trick_winner_neither_wins_nor_burns():
    # Pot 42, dan folds. ann AS KS QS 2C 5C | bob 2S 4S 6S AC KC | cat 3S 5S 7S 3C 4C.
    # ann 3 tricks takes 42, bob (2) nothing, cat (0) burns 42 -> pool 42.
    v = series_deal("""
        ann stand; bob stand; cat stand; dan pass
        ann AS; bob 2S; cat 3S
        ann KS; bob 4S; cat 5S
        ann QS; bob 6S; cat 7S
        ann 2C; bob AC; cat 3C
        bob KC; cat 4C; ann 5C
    """, pool=42, number=2)
    assert outcome(v) == clean(["ann", "ann", "ann", "bob", "bob"], {"ann": 42}, 42,
                               {"ann": 42, "cat": -42}, loos={"cat": 42})


def test_no_duty_to_lead_trumps_or_to_head():
    # Pot 42. ann AH 5S KS 3C 4C leads 5S holding the trump AH; bob KH 2S QS AC 2C plays 2S
    # under it holding QS. Both allowed. ann 4 tricks takes 42; bob (1) burns 42.
    v = series_deal("""
        ann stand; bob stand; cat pass; dan pass
        ann 5S; bob 2S
        ann KS; bob QS
        ann 3C; bob AC
        bob 2C; ann 4C
        ann AH; bob KH
    """, pool=42, number=2)
    assert outcome(v) == clean(["ann", "ann", "bob", "ann", "ann"], {"ann": 42}, 42,
                               {"ann": 42, "bob": -42}, loos={"bob": 42})


def test_later_deals_allow_three_cards_even_with_seven_or_eight_players():
    # The first-deal limits (2 with seven, none with eight) do not apply on later deals: the
    # record below is refused only because it stops after the exchange.
    for seats, dealer in ((SEVEN, "gus"), (EIGHT, "hal")):
        others = "; ".join(f"{p} pass" for p in seats.split()[2:])
        rec = record(seats, dealer, rules=POKER, turnup="2H", number=2, pool=42,
                     actions=f"ann stand; bob stand; {others}; ann exchange 2C 3C 4C > 5C 6C 7C")
        exchange_at = len(seats.split())
        errors = record_errors(rec)
        assert not any(e["index"] == exchange_at for e in errors), errors


def test_a_first_deal_thrown_in_for_a_revoke_is_dealt_again_without_new_antes():
    # 1: forced first deal, P = 21; bob plays 2C to ann's AS holding 2S: burned 21, pot 42.
    # 2: dan deals the first deal again: everybody but bob must play, no antes; ann 3 tricks
    # takes 42, cat and dan (1 each) burn 42 -> pot 84.
    # ann AH KH QH 2C 3C | cat 4S 5S 6S AC 7D | dan 8S 9S TS 4C KD
    header = {"format": "loo-session/1", "seats": FOUR.split(), "rules": POKER,
              "first_dealer": "dan", "pool": 0, "banker": "club", "chip_value": 1,
              "buy_ins": {p: 200 for p in FOUR.split()}}
    thrown = {"dealer": "dan", "turnup": "2H",
              "hands": {"ann": ["AS", "KS", "QS", "3D", "4D"],
                        "bob": ["2S", "2C", "AC", "5D", "6D"]},
              "actions": record(FOUR, "dan", actions="ann AS; bob 2C")["actions"]}
    again = {"dealer": "dan", "turnup": "2H", "actions": record(FOUR, "dan", actions="""
        ann AH; cat 4S; dan 8S
        ann KH; cat 5S; dan 9S
        ann QH; cat 6S; dan TS
        ann 2C; cat AC; dan 4C
        cat 7D; dan KD; ann 3C
    """)["actions"]}
    verdicts = list(replay_session([header, thrown, again]))
    for v in verdicts:
        assert_conserved(v, FOUR.split())
    got = [(sum(v["settlement"]["antes"].values()), v["settlement"]["pool_after"],
            nonzero(v["settlement"]["deltas"]), v["next"]["dealer"]) for v in verdicts]
    assert got == [(21, 42, {"ann": -5, "bob": -26, "cat": -5, "dan": -6}, "dan"),
                   (0, 84, {"ann": 42, "cat": -42, "dan": -42}, "ann")]
    assert verdicts[1]["standers"] == ["ann", "cat", "dan"]
    assert verdicts[1]["next"]["first_of_series"] is False


@pytest.mark.parametrize("spelt_out", ["", "ann stand"])
def test_a_redeal_that_leaves_one_player_is_a_lone_stander_taking_the_pot(spelt_out):
    # Two players, bob deals the first deal: P = 6 + 5 = 11. bob plays 3C to ann's 5D holding
    # 4D: burned 11 at once, pot 22, and bob deals again sitting out. Everybody must stand on
    # the first deal, and everybody is ann alone: one stands, so she takes the pot without
    # play and the series ends (1.2.0 had her play five tricks by herself). Her forced stand
    # may be written or left out.
    header = {"format": "loo-session/1", "seats": ["ann", "bob"], "rules": POKER,
              "first_dealer": "bob", "pool": 0}
    thrown = {"turnup": "2H", "hands": {"ann": ["5D", "6D", "7D", "8D", "9D"],
                                        "bob": ["3C", "4D", "AS", "KS", "QS"]},
              "actions": record("ann bob", "bob", actions="ann 5D; bob 3C")["actions"]}
    again = {"turnup": "2H", "actions": record("ann bob", "bob", actions=spelt_out)["actions"]}
    verdicts = list(replay_session([header, thrown, again]))
    for v in verdicts:
        assert_conserved(v, ["ann", "bob"])
    assert verdicts[0]["redeal"] == {"sits_out": ["bob"]}
    assert nonzero(verdicts[0]["settlement"]["deltas"]) == {"ann": -5, "bob": -17}
    lone = verdicts[1]
    assert (lone["ended"], lone["standers"], lone["tricks"]) == ("lone-stander", ["ann"], [])
    assert (lone["settlement"]["antes"], nonzero(lone["settlement"]["deltas"])) == ({}, {"ann": 22})
    assert lone["next"] == {"dealer": "ann", "pool": 0, "first_of_series": True}
    assert "redeal" not in lone


# --- irregularities in poker-Loo (loo-rules.md s.6 read with s.5) ----------------------------
# ann AH KH QH 3C 4C | bob 5D 6D 7D AC KC | cat 2H 3H 4H 5C 6C; spades trumps (turn-up 2S).
# ann takes tricks 1-3, bob tricks 4-5, cat none.
THREE = "ann bob cat"
THREE_HANDS = """
    ann AH; bob 5D; cat 2H
    ann KH; bob 6D; cat 3H
    ann QH; bob 7D; cat 4H
    ann 3C; bob AC; cat 5C
    bob KC; cat 6C; ann 4C
"""


def test_a_hand_given_for_the_player_sitting_out_is_a_record_error():
    # bob sits the redeal out and is dealt nothing: a hand for him describes no real deal
    # (1.2.0 took it and judged the deal without it).
    rec = record(THREE, "cat", rules=POKER, pool=40, number=2, turnup="2H", redeal=True,
                 sits_out=["bob"], hands={"bob": ["AS", "KS", "QS", "JS", "TS"]},
                 actions="ann stand; cat pass")
    assert [(e["index"], e["player"], e["field"], e["message"]) for e in record_errors(rec)] == [
        (None, "bob", "hands", "hands: bob sits this deal out and is dealt no cards")]


def test_a_misdealt_first_deal_is_dealt_again_as_the_first_deal():
    # 1: cat misdeals the first deal: no antes, cat pays a single loo (loo_amount 5) -> pot 5,
    # cat deals again and it is still the series' first deal. 2: everybody must stand and
    # antes 6 + 5 + 5 on top: P = 21. ann 3 tricks takes 21; bob 2 beside her neither wins nor
    # burns; cat 0 burns 21 -> pot 21.
    header = {"format": "loo-session/1", "seats": THREE.split(), "rules": POKER,
              "first_dealer": "cat", "pool": 0}
    misdeal = {"turnup": "2S", "actions": record(THREE, "cat", actions="cat ! misdeal")["actions"]}
    again = {"turnup": "2S", "actions": record(THREE, "cat", actions=THREE_HANDS)["actions"]}
    verdicts = list(replay_session([header, misdeal, again]))
    for v in verdicts:
        assert_conserved(v, THREE.split())
    assert verdicts[0]["ended"] == "misdeal"
    assert verdicts[0]["next"] == {"dealer": "cat", "pool": 5, "first_of_series": True}
    assert verdicts[1]["settlement"]["antes"] == {"ann": 5, "bob": 5, "cat": 6}
    assert verdicts[1]["standers"] == ["ann", "bob", "cat"]
    assert outcome(verdicts[1]) == clean(
        ["ann", "ann", "ann", "bob", "bob"], {"ann": 21}, 21,
        {"ann": 16, "bob": -5, "cat": -27}, loos={"cat": 21})


def test_a_misdealt_redeal_is_dealt_again_as_that_redeal():
    # A redeal after a revoke (bob sits out, no antes) that cat misdeals: cat pays 5 into the
    # pot of 40; the next deal is the same redeal, bob still out.
    v = series_deal("cat ! misdeal", seats=THREE, dealer="cat", pool=40, number=3,
                    turnup="2S", redeal=True, sits_out=["bob"])
    assert (v["settlement"]["antes"], v["settlement"]["pool_after"]) == ({}, 45)
    assert v["redeal"] == {"sits_out": ["bob"]}
    assert v["next"] == {"dealer": "cat", "pool": 45, "first_of_series": False}


@pytest.mark.parametrize("decisions", [
    "ann ! looked-at-hand; ann pass; bob stand; cat stand",
    # her fold left out, the last decision still owed when the play begins (1.2.0 refused the
    # first card: "the deal is already over", the exchange the fold opened was never closed)
    "bob stand; cat stand; ann ! looked-at-hand",
])
def test_looking_at_another_hand_burns_and_throws_up_but_the_others_play_on(decisions):
    # Later deal, pot 20. ann looks at another hand before deciding: burned 20 and must fold
    # (the hand is not thrown in, that is for offences "as revoke"). bob and cat stand and play:
    # bob 3 tricks takes 20, cat (two standers, not three) is burned 20. Pot 20 - 20 + 40 = 40.
    # bob AH KH QH 3C 4C | cat 2H 3H 4H AC KC
    v = series_deal(decisions + """
        bob AH; cat 2H
        bob KH; cat 3H
        bob QH; cat 4H
        bob 3C; cat AC
        cat KC; bob 4C
    """, seats=THREE, dealer="cat", pool=20, number=2, turnup="2S")
    assert v["ended"] == "played" and "redeal" not in v
    assert [(x["player"], x["rule"], x["penalty"]) for x in v["violations"]] == [
        ("ann", "looked-at-hand", "burn")]
    assert v["standers"] == ["bob", "cat"]
    assert v["settlement"]["payouts"] == {"bob": 20}
    assert v["settlement"]["loo_payments"] == {"ann": 20, "cat": 20}
    assert v["settlement"]["pool_after"] == 40
    assert nonzero(v["settlement"]["deltas"]) == {"ann": -20, "bob": 20, "cat": -20}


def test_one_who_looked_at_another_hand_may_not_stand():
    errors = record_errors(record(THREE, "cat", rules=POKER, pool=20, number=2, turnup="2S",
                                  actions="ann ! looked-at-hand; ann stand; bob stand; cat stand"))
    assert [(e["index"], e["player"]) for e in errors][:1] == [(1, "ann")], errors
    assert "must throw up" in errors[0]["message"]


def test_looking_at_another_hand_when_committed_burns_and_the_winnings_stay():
    # First deal: everybody must stand, so ann is committed. P = 6 + 5 + 5 = 16. She looks at
    # another hand, is burned 16 and plays on; her three tricks' pot stays in the pool. bob (2
    # tricks beside a three) neither wins nor burns; cat (0) burns 16. Pot 16 + 32 = 48.
    v = series_deal("ann ! looked-at-hand\n" + THREE_HANDS, seats=THREE, dealer="cat",
                    turnup="2S")
    assert [(x["player"], x["rule"], x["penalty"]) for x in v["violations"]] == [
        ("ann", "looked-at-hand", "burn")]
    assert v["settlement"]["payouts"] == {}
    assert v["settlement"]["loo_payments"] == {"ann": 16, "cat": 16}
    assert v["settlement"]["pool_after"] == 48
    assert nonzero(v["settlement"]["deltas"]) == {"ann": -21, "bob": -5, "cat": -22}
    assert v["next"] == {"dealer": "ann", "pool": 48, "first_of_series": False}


def test_a_revoke_by_one_burned_already_for_looking_at_a_hand_still_throws_the_hand_in():
    # First deal, P = 21. bob looks at another hand: burned 21, and, committed, plays on. He
    # then plays 5D to ann's AS holding 2S: a revoke, which throws the hand in and has him sit
    # out the redeal (1.2.0 let the hand be played out: he was an offender already). Burned
    # once a deal: pot 21 + 21 = 42; ann -5, bob -5 - 21 = -26, cat -5, dan -6.
    hands = {"ann": ["AS", "KS", "QS", "3D", "4D"], "bob": ["2S", "5D", "AC", "6D", "7D"]}
    v = series_deal("bob ! looked-at-hand; ann AS; bob 5D; cat 3S; dan 4S", hands=hands)
    assert [(x["player"], x["rule"], x["trick"], x["card"], x["penalty"])
            for x in v["violations"]] == [("bob", "looked-at-hand", None, None, "burn"),
                                          ("bob", "revoke", 1, "5D", "burn")]
    assert (v["ended"], v["redeal"]) == ("thrown-in", {"sits_out": ["bob"]})
    assert nonzero(v["settlement"]["loo_payments"]) == {"bob": 21}
    assert nonzero(v["settlement"]["deltas"]) == {"ann": -5, "bob": -26, "cat": -5, "dan": -6}
    assert v["next"] == {"dealer": "dan", "pool": 42, "first_of_series": True}


def test_an_exposed_card_on_the_first_deal_burns_at_once_and_the_first_deal_is_dealt_again():
    # s.6: exposing a card is "as revoke"; at poker-Loo a revoke burns the offender at once and
    # throws the hand in. bob exposes 7D at trick 2 of the first deal: P = 6 + 15 = 21, bob
    # burned 21 -> pool 42, nothing paid out; dan deals again, still the series' first deal
    # (so no new antes: the redeal), bob sitting out.
    v = series_deal(FIRST_THREE_ONE_ONE.replace("ann KH; bob 6D",
                                                "ann KH; bob ! exposed-card 7D; bob 6D"))
    assert [(x["player"], x["rule"], x["trick"], x["card"], x["penalty"])
            for x in v["violations"]] == [("bob", "exposed-card", 2, "7D", "burn")]
    assert v["ended"] == "thrown-in" and v["redeal"] == {"sits_out": ["bob"]}
    assert nonzero(v["settlement"]["deltas"]) == {"ann": -5, "bob": -26, "cat": -5, "dan": -6}
    assert v["next"] == {"dealer": "dan", "pool": 42, "first_of_series": True}


@pytest.mark.parametrize(("card", "accepted"), [
    ("JD", True),    # nobody plays it: bob, whose hand is thrown in, may hold it
    ("7D", True),    # bob's own card, never played once the hand is thrown in
    ("9D", False),   # cat played it to trick 2
])
def test_an_exposed_card_of_a_hand_thrown_in_may_be_one_nobody_plays(card, accepted):
    # the deal of the test above, the record stopping where the hand is thrown in: bob's hand
    # is known only by his two plays (5D 6D), so a card placed nowhere else may be his
    actions = "\n".join(FIRST_THREE_ONE_ONE.strip().splitlines()[:2]) + \
        f"\nbob ! exposed-card {card}"
    if accepted:
        v = series_deal(actions)
        assert [(x["player"], x["rule"], x["trick"], x["card"]) for x in v["violations"]] == [
            ("bob", "exposed-card", 3, card)]
        assert v["ended"] == "thrown-in"
    else:
        assert [(e["index"], e["player"], e["card"], e["message"])
                for e in record_errors(record(FOUR, "dan", rules=POKER, turnup="2H",
                                              actions=actions))] == [
            (8, "bob", "9D", "exposed-card: bob cannot hold 9D: cat played it to trick 2")]


def test_a_single_loo_before_the_play_is_in_the_pot_the_burns_match():
    # cat looks at the stock: a single loo (loo_amount 5) into the pot at once, so P = 21 + 5
    # = 26 (docs/engine.md, Interpretations 1). ann's three tricks take 26; bob, cat, dan
    # burned 26 each -> 78. cat: -5 ante -5 single loo -26 burn = -36.
    v = series_deal("cat ! looked-at-stock\n" + FIRST_THREE_ONE_ONE)
    assert outcome(v)["penalties"] == {"cat": 5}
    assert {k: x for k, x in outcome(v).items() if k not in ("violations", "penalties")} == {
        "winners": ["ann", "ann", "ann", "dan", "bob"], "payouts": {"ann": 26},
        "loos": {"bob": 26, "cat": 26, "dan": 26}, "pool_after": 78,
        "deltas": {"ann": 21, "bob": -31, "cat": -36, "dan": -32}, "next_dealer": "ann"}


def test_a_capped_series_first_forced_deal_then_the_two_stander_burn():
    # loo_cap 50. 1: the forced first deal as above (burns min(21, 50) = 21 each: pot 63).
    # 2: ann deals; bob and cat stand, dan and ann fold. bob AH KH QH 3C 4C, cat AS KS AC KC 7D
    # (hearts trumps): bob takes T1-T3 with his hearts, cat T4 (AC over 3C) and T5 (KC).
    # bob's three tricks take 63; with exactly two standers cat, without three, is burned
    # though he took two: min(63, 50) = 50 -> pot 50, the series goes on (no antes).
    rules = {**POKER, "loo_cap": 50}
    header = {"format": "loo-session/1", "seats": FOUR.split(), "rules": rules,
              "first_dealer": "dan", "pool": 0}
    second = record(FOUR, "ann", rules=rules, turnup="2H", actions="""
        bob stand; cat stand; dan pass; ann pass
        bob AH; cat AS; bob KH; cat KS; bob QH; cat 7D; bob 3C; cat AC; cat KC; bob 4C""")
    deals = [record(FOUR, "dan", rules=rules, turnup="2H", actions=FIRST_THREE_ONE_ONE), second]
    for deal in deals:
        del deal["pool"], deal["rules"], deal["seats"]
    verdicts = list(replay_session([header, *deals]))
    got = [(nonzero(v["settlement"]["loo_payments"]), v["settlement"]["pool_after"],
            nonzero(v["settlement"]["deltas"]), v["next"]["dealer"], v["next"]["first_of_series"])
           for v in verdicts]
    assert got == [
        ({"bob": 21, "cat": 21, "dan": 21}, 63, {"ann": 16, "bob": -26, "cat": -26, "dan": -27},
         "ann", False),
        ({"cat": 50}, 50, {"bob": 63, "cat": -50}, "bob", False)]


@pytest.mark.parametrize(("actions", "rule", "card"), [
    ("bob AS; ann 2S", "played-out-of-turn", "AS"),          # bob leads before ann, eldest
    ("ann AS; bob ! threw-up-after-lead", "threw-up-after-lead", None),
])
def test_other_offences_as_revoke_burn_at_once_and_throw_the_hand_in(actions, rule, card):
    # s.6 penalises them "as revoke"; at poker-Loo a revoke burns the offender at once and the
    # same dealer deals again without him. Later deal, pot 40, dan folds: bob burns 40 -> 80,
    # nothing is paid out, dan deals the redeal with bob sitting out.
    v = series_deal(f"ann stand; bob stand; cat stand; dan pass; {actions}", pool=40, number=2)
    assert [(x["player"], x["rule"], x["trick"], x["card"], x["penalty"])
            for x in v["violations"]] == [("bob", rule, 1, card, "burn")]
    assert (v["ended"], v["redeal"]) == ("thrown-in", {"sits_out": ["bob"]})
    assert nonzero(v["settlement"]["payouts"]) == {}
    assert nonzero(v["settlement"]["deltas"]) == {"bob": -40}
    assert v["next"] == {"dealer": "dan", "pool": 80, "first_of_series": False}


@pytest.mark.parametrize(("seats", "dealer", "allowed"), [
    (EIGHT, "hal", 2),   # eight seated, bob out of the redeal: seven are dealt in
    (SEVEN, "gus", 3),   # seven seated, bob out: six dealt in, no first-deal limit
])
def test_the_first_deals_exchange_limit_counts_the_players_dealt_in(seats, dealer, allowed):
    # A first deal thrown in for bob's revoke is dealt again as the first deal with bob sitting
    # out (docs/engine.md interpretation 16): the limit follows the cards dealt, as the
    # source's reason for it is the stock running short (000:211).
    def errors(n):
        discard, draw = ["2C", "3C", "4C"][:n], ["5C", "6C", "7C"][:n]
        rec = record(seats, dealer, rules=POKER, turnup="2H", pool=80, number=1, redeal=True,
                     sits_out=["bob"], actions=[{"player": "ann", "action": "exchange",
                                                 "discard": discard, "draw": draw}])
        return [e for e in record_errors(rec) if e["index"] == 0]
    assert errors(allowed) == []  # (refused only for stopping after the exchange)
    if allowed < 3:
        assert [(e["player"], e["message"]) for e in errors(allowed + 1)] == [
            ("ann", f"ann exchanges {allowed + 1} cards; at most {allowed}")]


# --- readings left to the rules owner (docs/engine.md, questions 16-22) ----------------------
def test_question_16_remainder_early_tricks_leaves_the_shares_odd_unit_in_the_pot():
    # P = 21: ann and bob 10 each under early-tricks too (ann won trick 1); 1 + 42 = 43 after.
    v = series_deal(TWO_TWO_ONE, rules={**POKER, "remainder": "early-tricks"})
    assert (v["settlement"]["payouts"], v["settlement"]["pool_after"]) == (
        {"ann": 10, "bob": 10}, 43)


def test_question_17_a_final_deal_in_a_series_under_way_is_settled_as_a_later_deal():
    # Pot 40, everybody stands, no antes: nobody took three, so the two-trick players get
    # nothing (a later deal) and cat and dan burn 40 each: 40 + 80 = 120 left.
    v = series_deal(TWO_TWO_ONE, pool=40, number=3, final=True,
                    rules={**POKER, "end_pool": "final-deal"})
    assert v["standers"] == FOUR.split()
    assert outcome(v) == clean(["ann", "ann", "bob", "bob", "cat"], {}, 120,
                               {"cat": -40, "dan": -40}, loos={"cat": 40, "dan": 40})


@pytest.mark.parametrize("kind", ["declared-out-of-turn", "looked-out-of-turn"])
def test_question_20_out_of_turn_where_nobody_has_a_turn_costs_a_single_loo(kind):
    # A later deal: pot 40 + cat's single loo 5 = 45, which bob, standing alone, takes.
    v = series_deal(f"cat ! {kind}; ann pass; bob stand; cat pass; dan pass", pool=40, number=2)
    assert [(x["player"], x["rule"], x["penalty"]) for x in v["violations"]] == [
        ("cat", kind, "single-loo")]
    assert nonzero(v["settlement"]["deltas"]) == {"bob": 45, "cat": -5}
    # A first deal: P = 21 + 5 = 26, ann's three tricks take it; bob, cat, dan burn 26.
    v = series_deal(f"cat ! {kind}\n" + FIRST_THREE_ONE_ONE)
    assert (v["settlement"]["penalties"], v["settlement"]["payouts"]) == ({"cat": 5}, {"ann": 26})


def test_question_21_a_later_deal_number_with_an_empty_pot_is_judged_a_later_deal():
    v = series_deal("ann stand; bob pass; cat pass; dan pass", pool=0, number=5)
    assert (v["settlement"]["antes"], v["ended"], nonzero(v["settlement"]["deltas"])) == (
        {}, "lone-stander", {})


def test_question_22_an_empty_exchange_on_a_first_deal_of_eight_is_refused():
    errors = exchange_refused(EIGHT, "hal", {"player": "ann", "action": "exchange",
                                             "discard": [], "draw": []})
    assert (errors[0]["index"], errors[0]["player"], errors[0]["message"]) == (
        0, "ann", "ann: no exchange now (play)")


def test_five_of_a_suit_is_no_flush_at_poker_loo():
    # s.5: "Five-card Loo without Pam, flushes or blazes": ann's five spades on a later deal
    # (pot 20) cannot be shown to take the pot without play; the hand must be played out
    rec = record(FOUR, "dan", rules=POKER, pool=20, number=2, turnup="2H",
                 hands={"ann": ["2S", "5S", "8S", "TS", "KS"]},
                 actions="ann stand; bob stand; cat pass; dan pass; ann flush")
    assert [(e["index"], e["player"], e["message"]) for e in record_errors(rec)] == [
        (4, "ann", "ann: flushes are not played under these rules")]
