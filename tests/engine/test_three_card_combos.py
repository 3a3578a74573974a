"""Three-card Loo's house options in pairs (loo-rules.md s.2, "Options that clubs play", with
the lead/follow duties, the miss, defended pools and the loo modes): hand-worked deals.

Each option alone is tested in test_three_card_options.py; these pin what two of them do
together, the arithmetic in a comment beside each expectation.
"""
from __future__ import annotations

import pytest

from tests.engine import dealkit as kit
from tests.engine.test_three_card_double import SEATS

#: trumps diamonds (turn-up 8D); ann wins tricks 1-2 with AD, KD, cat trick 3 with 8S
HANDS = {"ann": ["AD", "KD", "2S"], "bob": ["QH", "3H", "4S"], "cat": ["9C", "6C", "8S"],
         "dan": ["TS", "JS", "QS"]}
MISS = ["5D", "6D", "7D"]
TWO_ONE = """ann stand; bob stand; cat stand; dan pass
             ann AD; bob QH; cat 6C
             ann KD; bob 3H; cat 9C
             ann 2S; bob 4S; cat 8S"""


def _two_one(rules: dict, pool: int = 6) -> dict:
    return kit.play(kit.record(SEATS, "dan", pool=pool, turnup="8D", hands=HANDS, miss=MISS,
                       rules=rules, actions=TWO_ONE))


def test_undivided_with_an_unlimited_loo_the_looed_stander_matches_the_pool_that_stays():
    v = _two_one({"game": "three-card", "undivided": True, "loo": "unlimited"})
    assert kit.winners(v) == ["ann", "ann", "cat"]
    # P = 6 + dan's ante 3 = 9; nobody took three tricks: nothing is paid out, the 9 stays;
    # bob, trickless, matches P: 9 into the next pool -> 9 + 9 = 18
    kit.assert_settled(v, payouts={}, loos={"bob": 9}, pool_after=18, pool=9,
                   deltas={"bob": -9, "dan": -3})


def test_undivided_with_a_mixed_loo_the_cap_applies():
    v = _two_one({"game": "three-card", "undivided": True, "loo": "mixed", "loo_cap": 5})
    # P = 9 stays whole; bob pays min(9, 5) = 5 -> 14
    kit.assert_settled(v, payouts={}, loos={"bob": 5}, pool_after=14,
                   deltas={"bob": -5, "dan": -3})


@pytest.mark.parametrize(("loo", "full"), [({"loo": "unlimited"}, 9),
                                           ({"loo": "mixed", "loo_cap": 5}, 5)])
def test_both_under_an_unlimited_or_mixed_loo_charges_a_trickless_offender_twice(loo, full):
    hands = {**HANDS, "bob": ["QH", "3D", "4S"]}
    rec = kit.record(SEATS, "dan", pool=6, turnup="8D", hands=hands, miss=MISS,
                     rules={"game": "three-card", "penalty_and_loo": "both", **loo},
                     actions="""ann stand; bob stand; cat stand; dan pass
                     ann AD; bob 4S; cat 6C
                     ann KD; bob 3D; cat 9C
                     ann 2S; bob QH; cat 8S""")
    v = kit.play(rec)
    assert kit.winners(v) == ["ann", "ann", "cat"]
    # bob kept 3D back from the diamond lead: a revoke, a full loo (unlimited: P = 9;
    # mixed: min(9, 5) = 5)
    assert kit.violations(v) == [("bob", "revoke", 1, "4S", "full-loo")]
    # P = 9: ann 2 x 3 = 6, cat 3; bob took no trick: penalty + loo = 2 x full (18 or 10)
    # pool_after = 9 - 9 paid + 2 x full
    kit.assert_settled(v, payouts={"ann": 6, "cat": 3}, loos={"bob": 2 * full},
                       pool_after=2 * full, deltas={"ann": 6, "cat": 3, "bob": -2 * full,
                                                    "dan": -3})


CLUBS = {"ann": ["AD", "KD", "2S"], "bob": ["QC", "3C", "4C"], "cat": ["9H", "6H", "8S"],
         "dan": ["TS", "JS", "QS"]}


def test_club_law_with_a_flush_loos_every_other_player_all_of_whom_stood():
    rec = kit.record(SEATS, "dan", pool=6, turnup="8C", hands=CLUBS, miss=MISS,
                 rules={"game": "three-card", "club_law": True, "flush": "three-trumps"},
                 actions="bob flush")
    v = kit.play(rec)
    assert v["ended"] == "flush"
    # club law: clubs turned in a double pool, all four stand (no declarations, no miss);
    # bob shows three clubs: P = 6 + 3 = 9 is his; ann, cat and dan (standers) are looed 3
    # each -> pool_after 9; dan also paid the ante: -3 - 3 = -6
    kit.assert_settled(v, payouts={"bob": 9}, loos={"ann": 3, "cat": 3, "dan": 3}, pool_after=9,
                   deltas={"ann": -3, "bob": 9, "cat": -3, "dan": -6})


def test_club_law_with_the_redeal_flush_takes_the_pool_and_the_same_dealer_deals_again():
    rec = kit.record(SEATS, "dan", pool=6, turnup="8C", hands=CLUBS, miss=MISS,
                 rules={"game": "three-card", "club_law": True,
                        "flush": "three-trumps-redeal"},
                 actions="bob flush")
    v = kit.play(rec)
    assert v["ended"] == "redeal"
    # bob was dealt three clubs: he takes P = 9, nobody is looed; dan deals again into an
    # empty pool (a simple pool next)
    kit.assert_settled(v, payouts={"bob": 9}, pool_after=0, deltas={"bob": 9, "dan": -3})
    assert v["next"]["dealer"] == "dan"


def test_club_law_does_not_reach_a_miss_and_trump_simple_pool():
    # s.2: club law is for "a club turned up in a double pool"; a miss-and-trump simple pool
    # is dealt like one but is a simple pool: eldest may still take the miss
    deal = kit.deal_at({"game": "three-card", "simple_pool": "miss-and-trump", "club_law": True},
                   "ann bob cat", "cat", pool=0, turnup="7C",
                   hands={"ann": ["AH", "2D", "3S"], "bob": ["KH", "4D", "5S"],
                          "cat": ["QH", "6D", "8S"]}, miss=["9C", "TC", "JC"])
    assert deal.legal_actions() == [{"player": "ann", "action": "stand"},
                                    {"player": "ann", "action": "take-miss"}]


VOID = {"ann": ["5H", "6D", "8S"], "bob": ["QD", "3D", "4S"], "cat": ["9H", "KC", "2C"]}


def _void_deal(trick_2_lead: str, trick_3_lead: str, lead_trump: str = "every-trick") -> dict:
    return kit.play(kit.record(SEATS, "dan", pool=6, turnup="AC", hands=VOID,
                       rules={"game": "three-card", "trump_turned": "on-first-void",
                              "lead_trump": lead_trump},
                       actions=f"""ann stand; bob stand; cat stand; dan pass
                       ann 5H; bob 3D; cat 9H
                       cat {trick_2_lead}; ann 6D; bob QD
                       cat {trick_3_lead}; ann 8S; bob 4S"""))


@pytest.mark.parametrize("lead_trump", ["every-trick", "first-two-tricks"])
def test_on_first_void_the_turned_ace_puts_the_king_duty_on_the_next_leader(lead_trump):
    # bob cannot follow hearts: trumps are turned then, the ace of clubs; cat heads with 9H
    # and wins trick 1; leading trick 2 he must lead a trump, the king as the ace is turned
    # (first-two-tricks binds that lead too: the pair plays, unlike first-trick, refused)
    deal = kit.deal_at({"game": "three-card", "trump_turned": "on-first-void",
                    "lead_trump": lead_trump}, SEATS, "dan",
                   "ann stand; bob stand; cat stand; dan pass; ann 5H; bob 3D; cat 9H",
                   pool=6, turnup="AC", hands=VOID)
    assert deal.legal_plays("cat") == ["KC"]
    v = _void_deal("KC", "2C", lead_trump)
    assert kit.winners(v) == ["cat", "cat", "cat"] and v["violations"] == []
    # P = 6 + 3 = 9, all three tricks: cat takes 9; ann and bob looed 3 each -> 6
    kit.assert_settled(v, payouts={"cat": 9}, loos={"ann": 3, "bob": 3}, pool_after=6,
                   deltas={"cat": 9, "ann": -3, "bob": -3, "dan": -3})


def test_on_first_void_leading_the_small_trump_under_a_turned_ace_is_an_offence():
    v = _void_deal("2C", "KC")
    assert kit.winners(v) == ["cat", "cat", "cat"]
    assert kit.violations(v) == [("cat", "failed-to-lead-trump-ace", 2, "2C", "full-loo")]
    # the offender takes nothing: P = 9 stays; cat pays the penalty 3, ann and bob are
    # looed 3 each -> 9 + 9 = 18
    kit.assert_settled(v, payouts={}, loos={"ann": 3, "bob": 3, "cat": 3}, pool_after=18,
                   deltas={"ann": -3, "bob": -3, "cat": -3, "dan": -3})


SIMPLE = {"ann": ["5H", "6D", "2C"], "bob": ["QH", "KC", "3C"], "cat": ["9H", "4S", "8S"]}
FIRST_TWO = {"game": "three-card", "lead_trump": "first-two-tricks"}


def test_simple_pool_first_two_tricks_puts_the_king_duty_on_the_second_lead():
    # simple pool: trick 1 has no lead duty (trumps unknown); the ace of clubs is turned
    # after it, so bob, leading trick 2 under first-two-tricks, must lead the king
    deal = kit.deal_at(FIRST_TWO, "ann bob cat", "cat", "ann 5H; bob QH; cat 9H", pool=0,
                   turnup="AC", hands=SIMPLE)
    assert deal.legal_plays("bob") == ["KC"]
    v = kit.play(kit.record("ann bob cat", "cat", pool=0, turnup="AC", hands=SIMPLE,
                            rules=FIRST_TWO, actions="""ann 5H; bob QH; cat 9H
                    bob 3C; cat 4S; ann 2C
                    bob KC; cat 8S; ann 6D"""))
    assert kit.winners(v) == ["bob", "bob", "bob"]
    # only trick 2's lead is bound: the 3C there is the offence, trick 3 is free
    assert kit.violations(v) == [("bob", "failed-to-lead-trump-ace", 2, "3C", "full-loo")]
    # P = cat's ante 3; bob took all three but takes nothing (offender): penalty 3;
    # ann and cat are looed 3 each -> 3 + 9 = 12
    kit.assert_settled(v, payouts={}, loos={"ann": 3, "bob": 3, "cat": 3}, pool_after=12,
                   deltas={"ann": -3, "bob": -3, "cat": -6})


BOLD = {"game": "three-card", "pools": "always-double", "bold_stand": True,
        "loo": "unlimited"}


@pytest.mark.parametrize("single_stander", ["defend", "concede"])
def test_bold_stand_dealer_may_take_the_miss_but_not_pass_or_defend(single_stander):
    # under either single_stander mode: the last player did not stand, bold stand made him
    deal = kit.deal_at({**BOLD, "single_stander": single_stander}, SEATS, "dan", "ann pass; bob pass; cat pass", pool=0, turnup="8C",
                   hands={"cat": ["QS", "TS", "JS"], "dan": ["3H", "4H", "5H"]},
                   miss=["AD", "KD", "2S"])
    assert deal.legal_actions() == [{"player": "dan", "action": "stand"},
                                    {"player": "dan", "action": "take-miss"}]
    v = kit.play(kit.record(SEATS, "dan", pool=0, turnup="8C", miss=["AD", "KD", "2S"],
                    hands={"cat": ["QS", "TS", "JS"]}, rules=BOLD,
                    actions="""ann pass; bob pass; cat pass; dan miss
                    cat QS; dan 2S
                    cat TS; dan AD
                    cat JS; dan KD"""))
    assert kit.winners(v) == ["cat", "cat", "cat"] and v["violations"] == []
    # P = dan's ante 3 (always-double: ante_double unset, so the ante); cat takes all 3;
    # dan, looed, matches P = 3 -> pool_after 3; dan -3 ante -3 loo
    kit.assert_settled(v, payouts={"cat": 3}, loos={"dan": 3}, pool_after=3,
                   deltas={"cat": 3, "dan": -6})


def test_on_first_void_with_must_undertrump_the_next_void_player_plays_the_lower_trump():
    hands = {"ann": ["5H", "6H", "7H"], "bob": ["3D", "9S", "TS"], "cat": ["2D", "4S", "JC"]}
    before = "ann stand; bob stand; cat stand; dan pass; ann 5H"
    # bob cannot follow: trumps turn (8D, diamonds), and he must trump with 3D at once
    deal = kit.deal_at({"game": "three-card", "trump_turned": "on-first-void",
                    "must_undertrump": True}, SEATS, "dan", before, pool=6, turnup="8D",
                   hands=hands)
    assert deal.legal_plays("bob") == ["3D"]
    deal.push({"player": "bob", "action": "play", "card": "3D"})
    # cat is void too and cannot overtrump 3D: under must_undertrump he still plays 2D ...
    assert deal.legal_plays("cat") == ["2D"]
    # ... without it he may play any card
    free = kit.deal_at({"game": "three-card", "trump_turned": "on-first-void"}, SEATS, "dan",
                   before + "; bob 3D", pool=6, turnup="8D", hands=hands)
    assert free.legal_plays("cat") == ["2D", "4S", "JC"]


def test_trump_ace_first_trick_binds_nobody_in_a_simple_pools_first_trick():
    # diamonds are turned only after trick 1: ann's AD was no known trump then, so keeping it
    # back is no offence (as the lead duties, interpretation 7)
    rec = kit.record("ann bob cat", "cat", pool=0, turnup="8D",
                 rules={"game": "three-card", "trump_ace_first_trick": True},
                 hands={"ann": ["5H", "AD", "2S"], "bob": ["6H", "3S", "4S"],
                        "cat": ["7H", "9S", "TS"]},
                 actions="""ann 5H; bob 6H; cat 7H
                 cat 9S; ann 2S; bob 3S
                 cat TS; ann AD; bob 4S""")
    v = kit.play(rec)
    assert kit.winners(v) == ["cat", "cat", "ann"] and v["violations"] == []
    # P = cat's ante 3: a trick is worth 1; cat 2, ann 1; bob looed 3 -> 3 - 3 + 3 = 3
    kit.assert_settled(v, payouts={"cat": 2, "ann": 1}, loos={"bob": 3}, pool_after=3,
                   deltas={"ann": 1, "bob": -3, "cat": -1})


def test_a_defending_dealer_shows_a_three_trump_flush_from_the_miss_and_the_pool_stays():
    rec = kit.record(SEATS, "dan", pool=6, turnup="7C",
                 hands={"ann": ["AH", "KH", "2S"]}, miss=["5C", "4C", "3C"],
                 rules={"game": "three-card", "flush": "three-trumps"},
                 actions="ann stand; bob pass; cat pass; dan defend; dan flush")
    v = kit.play(rec)
    assert v["ended"] == "flush" and v["defender"] == "dan"
    # the defender wins nothing and pays nothing: his flush keeps P = 9 whole in the pool,
    # as if he had taken all three tricks; ann, the other stander, is looed 3 -> 12
    kit.assert_settled(v, payouts={}, loos={"ann": 3}, pool_after=12,
                   deltas={"ann": -3, "dan": -3})


def test_early_tricks_with_offenders_the_offenders_larger_share_stays():
    rec = kit.record(SEATS, "dan", pool=7, turnup="8D", miss=MISS,
                 hands={"ann": ["AD", "KD", "2S"], "bob": ["QH", "3D", "4S"],
                        "cat": ["9C", "6C", "8S"]},
                 rules={"game": "three-card", "remainder": "early-tricks"},
                 actions="""ann stand; bob stand; cat stand; dan pass
                 ann 2S; bob 4S; cat 6C
                 bob 3D; cat 9C; ann KD
                 ann AD; bob QH; cat 8S""")
    v = kit.play(rec)
    assert kit.winners(v) == ["bob", "ann", "ann"]
    # ann led 2S holding trumps; cat kept 8S back from the spade lead
    assert kit.violations(v) == [("ann", "failed-to-lead-trump", 1, "2S", "full-loo"),
                             ("cat", "revoke", 1, "6C", "full-loo")]
    # P = 7 + 3 = 10 -> 4/3/3: bob's trick 1 is worth 4; ann's 3 + 3 stay (offender);
    # ann and cat pay the full loo 3 each -> 10 - 4 + 6 = 12
    kit.assert_settled(v, payouts={"bob": 4}, loos={"ann": 3, "cat": 3}, pool_after=12,
                   deltas={"ann": -3, "bob": 4, "cat": -3, "dan": -3})


def test_trump_ace_first_trick_binds_nobody_before_a_void_turns_trumps():
    rec = kit.record(SEATS, "dan", pool=6, turnup="8D",
                 rules={"game": "three-card", "trump_ace_first_trick": True,
                        "trump_turned": "on-first-void"},
                 hands={"ann": ["5H", "AD", "2S"], "bob": ["6H", "3S", "4S"],
                        "cat": ["7H", "9S", "TS"]},
                 actions="""ann stand; bob stand; cat stand; dan pass
                 ann 5H; bob 6H; cat 7H
                 cat 9S; ann 2S; bob 3S
                 cat TS; ann AD; bob 4S""")
    v = kit.play(rec)
    # everybody followed in tricks 1-2: trumps turn only at ann's AD in trick 3 (she is void
    # in spades), so keeping the ace back from trick 1 broke nothing; AD wins trick 3
    assert kit.winners(v) == ["cat", "cat", "ann"] and v["violations"] == []
    # P = 6 + 3 = 9: cat 2 x 3 = 6, ann 3; bob looed 3 -> 9 - 9 + 3 = 3
    kit.assert_settled(v, payouts={"cat": 6, "ann": 3}, loos={"bob": 3}, pool_after=3,
                   deltas={"ann": 3, "bob": -3, "cat": 6, "dan": -3})


@pytest.mark.parametrize("undivided", [False, True])
def test_two_flushes_the_miss_takers_goes_first_by_seat_even_shown_second(undivided):
    rec = kit.record(SEATS, "dan", pool=6, turnup="7C",
                 hands={"ann": ["AH", "KH", "2S"], "bob": ["QH", "3H", "4S"],
                        "cat": ["9C", "6C", "8C"], "dan": ["TS", "JS", "QS"]},
                 miss=["5C", "4C", "3C"],
                 rules={"game": "three-card", "flush": "three-trumps", "undivided": undivided},
                 actions="ann pass; bob miss; cat stand; dan stand; cat flush; bob flush")
    v = kit.play(rec)
    assert v["ended"] == "flush"
    # bob (the miss: 5C 4C 3C) sits before cat: his flush wins whatever the ranks or the order
    # shown; a flush takes the whole P = 6 + 3 = 9 undivided or not; cat, beaten, neither
    # pays nor receives; dan, a stander without one, is looed 3 -> 9 - 9 + 3 = 3
    kit.assert_settled(v, payouts={"bob": 9}, loos={"dan": 3}, pool_after=3,
                   deltas={"bob": 9, "dan": -6})


FINAL_HANDS = {"ann": ["AC", "4H", "JS"], "bob": ["2C", "5H", "KS"], "cat": ["3C", "6H", "QS"]}
FINAL_PLAY = """ann AC; bob 2C; cat 3C
                ann 4H; bob 5H; cat 6H
                cat QS; ann JS; bob KS"""


@pytest.mark.parametrize(("game", "seats", "dealer", "actions", "index", "player"), [
    ("three-card", "ann bob cat", "cat", "ann pass", 0, "ann"),
    ("irish", "ann bob cat", "cat", "ann stand; bob pass", 1, "bob"),
    ("five-card", "ann bob cat dan", "dan", "ann stand; bob stand; cat pass", 2, "cat"),
    ("poker-loo", "ann bob cat", "cat", "ann pass", 0, "ann"),
])
def test_nobody_may_pass_in_a_final_deal_in_any_game(game, seats, dealer, actions, index,
                                                     player):
    # s.7: the pool left at the end is "played off by a final deal in which everybody stands"
    # (a carried pool of 10, deal number 3 so poker-Loo's forced first deal is not the reason)
    turnup = {} if game == "poker-loo" else {"turnup": "9H"}
    rec = kit.record(seats, dealer, pool=10, number=3, final=True, actions=actions,
                     rules={"game": game, "end_pool": "final-deal"}, **turnup)
    [err] = kit.record_errors(rec)
    assert (err["index"], err["player"]) == (index, player)
    assert err["message"] == f"{player}: pass is not allowed, every player must play here"


@pytest.mark.parametrize("extra", [{}, {"simple_pool": "miss-and-trump"}, {"club_law": True},
                                   {"pools": "always-double", "bold_stand": True}])
def test_the_final_deal_has_no_miss_whatever_the_pool_options(extra):
    rules = {"game": "three-card", "end_pool": "final-deal", **extra}

    def final(**fields):
        return kit.record("ann bob cat", "cat", pool=10, turnup="7C", final=True, rules=rules,
                      hands=FINAL_HANDS, **fields)

    [err] = kit.record_errors(final(actions="ann miss"))
    assert err["index"] == 0 and "take-miss is not allowed" in err["message"]
    [err] = kit.record_errors(final(miss=["2D", "3D", "4D"], actions=FINAL_PLAY))
    assert err["field"] == "miss"
    v = kit.play(final(actions=FINAL_PLAY))
    assert kit.winners(v) == ["ann", "cat", "bob"] and v["standers"] == ["ann", "bob", "cat"]
    # no ante: P = 10, a trick is worth 3, 1 unit stays
    kit.assert_settled(v, payouts={"ann": 3, "bob": 3, "cat": 3}, pool_after=1,
                   deltas={"ann": 3, "bob": 3, "cat": 3})


def test_an_undivided_final_deal_without_three_tricks_leaves_the_pool_whole():
    v = kit.play(kit.record("ann bob cat", "cat", pool=10, turnup="7C", final=True,
                    rules={"game": "three-card", "end_pool": "final-deal", "undivided": True},
                    hands=FINAL_HANDS, actions=FINAL_PLAY))
    # one trick each: nobody takes the undivided pool and nobody is looed -> 10 stays
    # (question 33: the service then splits it, question 13)
    kit.assert_settled(v, payouts={}, pool_after=10, deltas={})


def test_bold_stand_with_ante_double_everyones_antes_still_make_an_empty_pool():
    rules = {"game": "three-card", "pools": "always-double", "bold_stand": True,
             "ante_double": {"dealer": 6, "each": 1}}
    rec = kit.record(SEATS, "dan", pool=0, turnup="8C", miss=["AD", "KD", "2S"],
                     hands={"cat": ["QS", "TS", "JS"], "dan": ["3S", "4H", "5H"]}, rules=rules,
                     actions="""ann pass; bob pass; cat pass; dan stand
                     cat QS; dan 3S
                     cat TS; dan 4H
                     cat JS; dan 5H""")
    v = kit.play(rec)
    # the pool was empty before the deal (question 4): this deal's antes alone, dan 6 and
    # 1 each from ann, bob, cat, so bold stand makes cat (last) and dan play for P = 9
    assert kit.winners(v) == ["cat", "cat", "cat"] and v["violations"] == []
    # cat takes all 9; dan, looed, pays 3 -> pool_after 3; cat +9 - 1 ante = 8; dan -6 - 3
    kit.assert_settled(v, payouts={"cat": 9}, loos={"dan": 3}, pool_after=3, pool=9,
                       deltas={"ann": -1, "bob": -1, "cat": 8, "dan": -9})


def test_bold_stand_binds_even_where_no_ante_was_paid():
    # ante_first_deal_only, a later deal into an empty pool: nothing is in it, yet bold stand
    # (question 34) leaves the dealer no pass once ann, bob and cat have passed
    deal = kit.deal_at({"game": "three-card", "pools": "always-double", "bold_stand": True,
                        "ante_first_deal_only": True}, SEATS, "dan",
                       "ann pass; bob pass; cat pass", pool=0, first_of_series=False,
                       turnup="8C", miss=["AD", "KD", "2S"],
                       hands={"cat": ["QS", "TS", "JS"], "dan": ["3S", "4H", "5H"]})
    assert deal.legal_actions() == [{"player": "dan", "action": "stand"},
                                    {"player": "dan", "action": "take-miss"}]


def test_undivided_leaves_the_dealers_cases_whole_pool_payments_alone():
    undivided = {"game": "three-card", "undivided": True}
    # everyone before the dealer passes: dan takes P = 6 + 3 = 9 without play (question 35)
    v = kit.play(kit.record(SEATS, "dan", pool=6, turnup="8D", rules=undivided,
                            actions="ann pass; bob pass; cat pass"))
    assert v["ended"] == "dealer-takes"
    kit.assert_settled(v, payouts={"dan": 9}, pool_after=0, deltas={"dan": 6})
    # a lone stander conceded to (single_stander concede) takes the whole 9 likewise
    v = kit.play(kit.record(SEATS, "dan", pool=6, turnup="8D",
                            rules={**undivided, "single_stander": "concede"},
                            actions="ann stand; bob pass; cat pass; dan pass"))
    assert v["ended"] == "conceded"
    kit.assert_settled(v, payouts={"ann": 9}, pool_after=0, deltas={"ann": 9, "dan": -3})


def test_early_tricks_odd_units_go_to_a_simple_pools_retroactive_trump():
    rec = kit.record("ann bob cat", "cat", pool=0, turnup="8D",
                     rules={"game": "three-card", "remainder": "early-tricks",
                            "ante": {"dealer": 4, "each": 0}},
                     hands={"ann": ["5H", "AS", "2S"], "bob": ["2D", "3S", "4S"],
                            "cat": ["7H", "9C", "TC"]},
                     actions="""ann 5H; bob 2D; cat 7H
                     bob 3S; cat 9C; ann AS
                     ann 2S; bob 4S; cat TC""")
    v = kit.play(rec)
    # bob, void in hearts, played 2D to trick 1; diamonds turned after it win it for him
    assert kit.winners(v) == ["bob", "ann", "bob"] and v["violations"] == []
    # P = cat's ante 4 -> 2/1/1: bob 2 (trick 1, the odd unit) + 1, ann 1; cat looed 3
    # -> 4 - 4 + 3 = 3
    kit.assert_settled(v, payouts={"bob": 3, "ann": 1}, loos={"cat": 3}, pool_after=3,
                       deltas={"ann": 1, "bob": 3, "cat": -7})


ACE_HANDS = {"ann": ["5H", "6H", "7H"], "bob": ["9H", "AD", "4S"], "cat": ["TH", "6D", "8S"]}


def test_trump_ace_first_trick_comes_before_following_suit():
    rules = {"game": "three-card", "trump_ace_first_trick": True}
    declared = "ann stand; bob stand; cat stand; dan pass"
    # hearts led to trick 1: bob holds 9H, yet the ace of trumps is due (question 36)
    deal = kit.deal_at(rules, SEATS, "dan", declared + "; ann 5H", pool=6, turnup="8D",
                       hands=ACE_HANDS)
    assert deal.legal_plays("bob") == ["AD"]
    v = kit.play(kit.record(SEATS, "dan", pool=6, turnup="8D", hands=ACE_HANDS, rules=rules,
                            actions=declared + """
                            ann 5H; bob AD; cat TH
                            bob 9H; cat 6D; ann 6H
                            cat 8S; ann 7H; bob 4S"""))
    # AD is no revoke; cat, void in hearts at trick 2, trumps; 8S wins trick 3
    assert kit.winners(v) == ["bob", "cat", "cat"] and v["violations"] == []
    # P = 6 + 3 = 9: bob 3, cat 6; ann looed 3 -> 9 - 9 + 3 = 3
    kit.assert_settled(v, payouts={"bob": 3, "cat": 6}, loos={"ann": 3}, pool_after=3,
                       deltas={"ann": -3, "bob": 3, "cat": 6, "dan": -3})
    # following suit with 9H instead keeps the ace back: the offence, not the revoke
    v = kit.play(kit.record(SEATS, "dan", pool=6, turnup="8D", hands=ACE_HANDS, rules=rules,
                            actions=declared + """
                            ann 5H; bob 9H; cat TH
                            cat 6D; ann 6H; bob AD
                            bob 4S; cat 8S; ann 7H"""))
    assert kit.winners(v) == ["cat", "bob", "cat"]
    assert kit.violations(v) == [("bob", "failed-to-play-trump-ace", 1, "9H", "full-loo")]
    # cat 6; bob's 3 stays and he pays 3; ann looed 3 -> 9 - 6 + 3 + 3 = 9
    kit.assert_settled(v, payouts={"cat": 6}, loos={"ann": 3, "bob": 3}, pool_after=9,
                       deltas={"ann": -3, "bob": -3, "cat": 6, "dan": -3})


MAT_HANDS = {"ann": ["5H", "KC", "2C"], "bob": ["QH", "AC", "4S"], "cat": ["9H", "6D", "8S"]}


@pytest.mark.parametrize(("simple_pool", "ann_may", "bob_may"), [
    # miss-and-trump turns clubs at the deal: eldest's opening lead owes a trump, and bob,
    # holding the ace of trumps, owes it to trick 1 though he holds a heart
    ("miss-and-trump", ["KC", "2C"], ["AC"]),
    # the standard simple pool turns trumps after trick 1: neither duty binds there
    ("standard", ["5H", "KC", "2C"], ["QH"]),
])
def test_first_trick_duties_in_the_two_kinds_of_simple_pool(simple_pool, ann_may, bob_may):
    rules = {"game": "three-card", "simple_pool": simple_pool, "lead_trump": "first-trick",
             "trump_ace_first_trick": True}
    dealt_miss = simple_pool == "miss-and-trump"
    deal = kit.deal_at(rules, "ann bob cat", "cat", "ann stand" if dealt_miss else "",
                       pool=0, turnup="7C", hands=MAT_HANDS,
                       miss=["2S", "3S", "5S"] if dealt_miss else None)
    assert deal.legal_plays("ann") == ann_may
    deal.push({"player": "ann", "action": "play", "card": "5H"})  # (an offence where owed)
    assert deal.legal_plays("bob") == bob_may


def test_bold_stand_last_player_made_to_stand_shows_a_flush():
    rec = kit.record(SEATS, "dan", pool=0, turnup="7C",
                     hands={"cat": ["9C", "6C", "8C"], "dan": ["TS", "JS", "QS"]},
                     miss=MISS,
                     rules={"game": "three-card", "pools": "always-double", "bold_stand": True,
                            "flush": "three-trumps"},
                     actions="ann pass; bob pass; cat pass; dan stand; cat flush")
    v = kit.play(rec)
    assert v["ended"] == "flush"
    # bold stand: cat (last, passed) and dan play for P = dan's ante 3; cat's three clubs take
    # it without play and dan, a stander, is looed 3 -> 3 - 3 + 3 = 3
    kit.assert_settled(v, payouts={"cat": 3}, loos={"dan": 3}, pool_after=3,
                       deltas={"cat": 3, "dan": -6})
