"""Five-card Loo flushes and blazes (loo-rules.md s.4): no cards are played, the best one
takes the pool, standers without one are looed, a beaten flush neither wins nor pays.

Hearts are trumps (turn-up 3H) throughout; the flush holders' hands are given (plays cannot
show them). Four players ann bob cat dan with dan dealing unless said otherwise.
"""
import pytest

from tests.engine.dealkit import deal_at, nonzero, play, record, record_errors
from tests.engine.outcome import FIVE, clean, replayed

SEATS = "ann bob cat dan"
FIVE_SEATS = "ann bob cat dan eve"
PLAIN_SPADES = ["2S", "5S", "8S", "TS", "KS"]
FIVE_TRUMPS = ["4H", "6H", "9H", "QH", "AH"]
PAM_DIAMONDS = ["JC", "2D", "7D", "9D", "KD"]
BLAZE = ["KS", "QS", "JD", "KH", "QD"]


def settled(rules, hands, actions, *, seats=SEATS, dealer="dan", pool=10):
    """Replay a no-play flush deal (hearts trumps) and return its outcome."""
    return replayed(actions, rules, seats=seats, dealer=dealer, pool=pool, turnup="3H",
                    hands=hands)


def no_play(payouts, loos, pool_after, deltas, next_dealer="ann"):
    """The outcome of a deal settled by a flush or blaze (no trick, no violation)."""
    return clean([], payouts, pool_after, deltas, loos=loos, next_dealer=next_dealer)


@pytest.mark.parametrize("flush", [PLAIN_SPADES, ["JC", "2S", "5S", "8S", "KS"]],
                         ids=["five-of-a-suit", "four-plus-pam"])
def test_a_flush_takes_the_pool_and_loos_every_other_stander(flush):
    # P = 10 + 5 = 15 to bob; ann and cat stood without a flush: looed 5 each -> pool 10.
    got = settled(FIVE, {"bob": flush},
                  "ann stand; bob stand; cat stand; dan pass; bob flush")
    assert got == no_play({"bob": 15}, {"ann": 5, "cat": 5}, 10,
                          {"ann": -5, "bob": 15, "cat": -5, "dan": -5})


def test_a_flush_is_declared_after_the_exchange():
    # bob was dealt four spades and a diamond; he exchanges 4D for TS and shows the flush.
    got = settled(FIVE, {"bob": ["2S", "5S", "8S", "KS", "4D"]},
                  "ann stand; bob stand; cat stand; dan pass; bob exchange 4D > TS; bob flush")
    assert got == no_play({"bob": 15}, {"ann": 5, "cat": 5}, 10,
                          {"ann": -5, "bob": 15, "cat": -5, "dan": -5})


def test_pam_flush_beats_five_trumps_beats_a_plain_flush():
    # Five players, eve deals. ann plain, bob five trumps, cat four diamonds + Pam: cat wins 15.
    # dan stood without a flush: looed 5. ann and bob neither win nor pay. Pool 15-15+5 = 5.
    got = settled(FIVE, {"ann": PLAIN_SPADES, "bob": FIVE_TRUMPS, "cat": PAM_DIAMONDS},
                  "ann stand; bob stand; cat stand; dan stand; eve pass;"
                  "ann flush; bob flush; cat flush", seats=FIVE_SEATS, dealer="eve")
    assert got == no_play({"cat": 15}, {"dan": 5}, 5, {"cat": 15, "dan": -5, "eve": -5})


def test_five_trumps_beat_an_earlier_plain_flush():
    got = settled(FIVE, {"ann": PLAIN_SPADES, "bob": FIVE_TRUMPS},
                  "ann stand; bob stand; cat stand; dan stand; eve pass; ann flush; bob flush",
                  seats=FIVE_SEATS, dealer="eve")
    # bob 15; cat and dan looed 5 each -> pool 10.
    assert got == no_play({"bob": 15}, {"cat": 5, "dan": 5}, 10,
                          {"bob": 15, "cat": -5, "dan": -5, "eve": -5})


# Five players, bob deals: seat order from eldest is cat, dan, eve, ann, bob.
TIE_ACTIONS = "cat stand; dan stand; eve pass; ann stand; bob pass; dan flush; ann flush"
KING_SPADES = ["2S", "4S", "6S", "8S", "KS"]


@pytest.mark.parametrize(("ties", "winner"), [("seat-order", "dan"),
                                              ("high-card-then-split", "ann")])
def test_equal_plain_flushes_by_seat_order_or_by_top_card(ties, winner):
    # dan (K high) sits before ann (A high) counting from eldest cat. P = 15 to the winner,
    # cat looed 5, bob antes 5 -> pool 5.
    got = settled({**FIVE, "flush_ties": ties},
                  {"dan": KING_SPADES, "ann": ["3D", "5D", "7D", "9D", "AD"]},
                  TIE_ACTIONS, seats=FIVE_SEATS, dealer="bob")
    assert got == no_play({winner: 15}, {"cat": 5}, 5, {winner: 15, "cat": -5, "bob": -5},
                          next_dealer="cat")


def test_identical_plain_flushes_split_the_pool_under_high_card_then_split():
    # P = 15 + 5 = 20: dan and ann 10 each; cat looed 5 -> pool 5.
    got = settled({**FIVE, "flush_ties": "high-card-then-split"},
                  {"dan": KING_SPADES, "ann": ["2D", "4D", "6D", "8D", "KD"]},
                  TIE_ACTIONS, seats=FIVE_SEATS, dealer="bob", pool=15)
    assert got == no_play({"dan": 10, "ann": 10}, {"cat": 5}, 5,
                          {"dan": 10, "ann": 10, "cat": -5, "bob": -5}, next_dealer="cat")


@pytest.mark.parametrize("ties", ["seat-order", "high-card-then-split"])
def test_two_five_trump_flushes_go_by_seat_order_under_either_tie_rule(ties):
    # dan (2H 5H 7H 8H KH, king high) sits before ann (4H 6H 9H QH AH, ace high) counting
    # from eldest cat. The Russian high card is for plain flushes only (001:58); two trump
    # flushes go to the first in seat order, "ranks do not matter" (000:135): dan takes
    # P = 15, cat looed 5, bob antes 5 -> pool 5. (1.1.0 gave ann the pool under
    # high-card-then-split.)
    got = settled({**FIVE, "flush_ties": ties},
                  {"dan": ["2H", "5H", "7H", "8H", "KH"], "ann": FIVE_TRUMPS},
                  TIE_ACTIONS, seats=FIVE_SEATS, dealer="bob")
    assert got == no_play({"dan": 15}, {"cat": 5}, 5, {"dan": 15, "cat": -5, "bob": -5},
                          next_dealer="cat")


def test_flush_pays_everyone_pays_the_holder_and_nothing_is_carried():
    # Peel: bob takes P = 15 and every other player, standing or not, pays him a loo of 5
    # directly: bob +30, dan -5 ante -5 loo. The next deal is a single: pool after 0.
    v = play(record(SEATS, "dan", rules={**FIVE, "flush_pays": "everyone-pays-holder"},
                    pool=10, turnup="3H", hands={"bob": PLAIN_SPADES},
                    actions="ann stand; bob stand; cat pass; dan pass; bob flush"))
    s = v["settlement"]
    assert s["deltas"] == {"ann": -5, "bob": 30, "cat": -5, "dan": -10}
    assert s["pool_after"] == 0 and v["next"]["pool"] == 0 and v["tricks"] == []


def test_blaze_alone_wins_like_a_flush():
    # ann's five court cards: 15; bob looed 5 -> pool 5.
    got = settled({**FIVE, "blaze": True}, {"ann": BLAZE},
                  "ann stand; bob stand; cat pass; dan pass; ann flush")
    assert got == no_play({"ann": 15}, {"bob": 5}, 5, {"ann": 15, "bob": -5, "dan": -5})


@pytest.mark.parametrize(("rank", "winner"), [("below-plain-flush", "bob"),
                                              ("above-flush", "ann")])
def test_blaze_ranks_below_a_plain_flush_or_above_flushes(rank, winner):
    # ann blaze, bob plain club flush, cat stands with neither: looed 5. Winner takes 15.
    got = settled({**FIVE, "blaze": True, "blaze_rank": rank},
                  {"ann": BLAZE, "bob": ["2C", "4C", "6C", "8C", "TC"]},
                  "ann stand; bob stand; cat stand; dan pass; ann flush; bob flush")
    assert got == no_play({winner: 15}, {"cat": 5}, 5, {winner: 15, "cat": -5, "dan": -5})


def test_blaze_with_pam_beats_every_flush():
    # ann's Pam blaze beats bob's five trumps and cat's plain flush: ann 15, nobody looed.
    got = settled({**FIVE, "blaze": True},
                  {"ann": ["JC", "KS", "QD", "KH", "QS"], "bob": FIVE_TRUMPS,
                   "cat": ["2D", "4D", "6D", "8D", "TD"]},
                  "ann stand; bob stand; cat stand; dan pass; ann flush; bob flush; cat flush")
    assert got == no_play({"ann": 15}, {}, 0, {"ann": 15, "dan": -5})


@pytest.mark.parametrize(("immune", "loos"), [(False, {"bob": 5, "cat": 5}), (True, {"cat": 5})])
def test_pam_immune_stander_holding_pam_is_not_looed_by_a_flush(immune, loos):
    # ann's flush takes 15; bob holds Pam (JC): looed 5 unless pam_immune.
    got = settled({**FIVE, "pam_immune": immune},
                  {"ann": PLAIN_SPADES, "bob": ["JC", "2H", "5D", "9C", "4C"]},
                  "ann stand; bob stand; cat stand; dan pass; ann flush")
    deltas = {"ann": 15, "dan": -5, **{p: -5 for p in loos}}
    assert got == no_play({"ann": 15}, loos, sum(loos.values()), deltas)


def test_standers_looed_by_a_flush_pay_the_pool_in_unlimited_loo():
    # P = 15 to bob; ann and cat each pay the full pool P = 15 -> pool 30.
    got = settled({**FIVE, "loo": "unlimited"}, {"bob": PLAIN_SPADES},
                  "ann stand; bob stand; cat stand; dan pass; bob flush")
    assert got == no_play({"bob": 15}, {"ann": 15, "cat": 15}, 30,
                          {"ann": -15, "bob": 15, "cat": -15, "dan": -5})


@pytest.mark.parametrize(("rules", "hand"), [
    (FIVE, BLAZE),                                   # blaze is off by default
    ({**FIVE, "blaze": True}, ["2S", "5S", "8S", "TS", "KH"]),   # four spades, no Pam
])
def test_showing_a_hand_that_is_no_flush_is_a_record_error(rules, hand):
    rec = record(SEATS, "dan", rules=rules, pool=10, turnup="3H", hands={"ann": hand},
                 actions="ann stand; bob stand; cat pass; dan pass; ann flush")
    errors = record_errors(rec)
    assert (errors[0]["index"], errors[0]["player"]) == (4, "ann"), errors
    assert errors[0]["message"] == f"ann shows {' '.join(hand)}, which is not a flush"


def test_the_dealer_completes_a_trump_flush_with_the_turnup():
    # dan stands, takes the turn-up 3H, discards 2C: 4H 6H 9H QH 3H, five trumps. P = 15 to dan
    # (+10 after his ante); ann stood without a flush: looed 5 -> pool 5.
    got = settled(FIVE, {"dan": ["4H", "6H", "9H", "QH", "2C"]},
                  "ann stand; bob pass; cat pass; dan stand; dan exchange 2C >; dan flush")
    assert got == no_play({"dan": 15}, {"ann": 5}, 5, {"ann": -5, "dan": 10})


def test_everyone_pays_holder_includes_a_beaten_flush():
    # Peel's rule replaces "a beaten flush neither wins nor pays": every other player, standing
    # or not, pays the best flush a loo. bob's five trumps beat ann's plain flush: bob takes
    # P = 15 and 5 from each of ann, cat, dan = 30; dan -5 ante -5; nothing carried.
    v = play(record(SEATS, "dan", rules={**FIVE, "flush_pays": "everyone-pays-holder"},
                    pool=10, turnup="3H", hands={"ann": PLAIN_SPADES, "bob": FIVE_TRUMPS},
                    actions="ann stand; bob stand; cat pass; dan pass; ann flush; bob flush"))
    assert v["settlement"]["deltas"] == {"ann": -5, "bob": 30, "cat": -5, "dan": -10}
    assert v["settlement"]["pool_after"] == 0


DECLARED = "ann stand; bob stand; cat pass; dan pass"


@pytest.mark.parametrize(("rules", "hands", "actions", "index", "player", "says"), [
    ({**FIVE, "flush": "none"}, {"ann": PLAIN_SPADES}, DECLARED + "; ann flush", 4, "ann",
     "ann: flushes are not played under these rules"),
    (FIVE, {"ann": PLAIN_SPADES}, "ann stand; ann flush", 1, "ann",
     "ann: flushes are shown after the declarations"),
    (FIVE, {"ann": PLAIN_SPADES, "cat": FIVE_TRUMPS}, DECLARED + "; cat flush", 4, "cat",
     "cat is not standing and cannot show a flush"),
    (FIVE, {"ann": PLAIN_SPADES}, DECLARED + "; ann flush; ann flush", 5, "ann",
     "ann has already shown a flush"),
    (FIVE, {}, DECLARED + "; ann flush", 4, "ann",
     "ann shows a flush: the hand must be given to check it"),
])
def test_a_flush_shown_when_it_cannot_be_is_a_record_error(rules, hands, actions, index,
                                                           player, says):
    rec = record(SEATS, "dan", rules=rules, pool=10, turnup="3H", hands=hands, actions=actions)
    errors = record_errors(rec)
    assert (errors[0]["index"], errors[0]["player"], errors[0]["message"]) == (index, player,
                                                                                says), errors


def test_a_flush_after_the_first_card_is_played_is_a_record_error():
    # nobody shows a flush at the table; ann leads 2S, then bob claims one: too late
    rec = record(SEATS, "dan", rules=FIVE, pool=10, turnup="3H",
                 hands={"ann": PLAIN_SPADES, "bob": ["3S", "4S", "6S", "7S", "9S"]},
                 actions=DECLARED + "; ann 2S; bob flush")
    errors = record_errors(rec)
    assert (errors[0]["index"], errors[0]["player"]) == (5, "bob"), errors
    assert errors[0]["message"] == "bob: a flush is shown before the play"


def test_the_cards_shown_must_be_the_hand_held():
    rec = record(SEATS, "dan", rules=FIVE, pool=10, turnup="3H", hands={"ann": PLAIN_SPADES},
                 actions=DECLARED + "; ann flush")
    rec["actions"][4]["cards"] = ["2S", "5S", "8S", "TS", "AS"]
    errors = record_errors(rec)
    assert (errors[0]["index"], errors[0]["player"]) == (4, "ann"), errors
    assert errors[0]["message"] == "ann shows 2S 5S 8S TS AS but holds 2S 5S 8S TS KS"


def test_cards_shown_with_the_flush_stand_for_a_hand_the_record_does_not_give():
    # no hands in the record: ann's flush is judged on the cards she shows. P = 15 to ann,
    # bob stood without a flush: looed 5 -> pool 5 (dan antes 5, pool 10 before).
    rec = record(SEATS, "dan", rules=FIVE, pool=10, turnup="3H",
                 actions=DECLARED + "; ann flush")
    rec["actions"][4]["cards"] = PLAIN_SPADES
    got = replayed(rec["actions"], FIVE, seats=SEATS, dealer="dan", pool=10, turnup="3H")
    assert got == no_play({"ann": 15}, {"bob": 5}, 5, {"ann": 15, "bob": -5, "dan": -5})


# Pam turned up (JC: clubs trumps) goes to the standing dealer; ann exchanges into five trumps.
# ann 2C 4C 6C 5H 6D draws 8C TC; dan KH QH KD QS 2S takes JC for 2S: KH QH KD QS JC.
PAM_TURNED = """ann stand; bob stand; cat pass; dan stand
    ann exchange 5H 6D > 8C TC; dan exchange 2S >; ann flush"""
PAM_TURNED_HANDS = {"ann": ["2C", "4C", "6C", "5H", "6D"], "dan": ["KH", "QH", "KD", "QS", "2S"]}


@pytest.mark.parametrize(("blaze", "shows", "payouts", "loos", "pool_after", "deltas"), [
    # blaze: dan's court cards with Pam, a Pam blaze, beat ann's five trumps: dan takes
    # P = 10 + 5 = 15; bob looed 5; ann's beaten flush neither wins nor pays -> pool after 5.
    (True, "; dan flush", {"dan": 15}, {"bob": 5}, 5, {"bob": -5, "dan": 10}),
    # no blaze: dan holds no flush, so ann's five trumps take 15 and dan, a stander without a
    # flush, is looed with bob: 5 each -> 10; dan -5 ante -5 loo.
    (False, "", {"ann": 15}, {"bob": 5, "dan": 5}, 10, {"ann": 15, "bob": -5, "dan": -10}),
])
def test_pam_turned_up_completes_the_dealers_blaze_after_the_exchanges(blaze, shows, payouts,
                                                                       loos, pool_after, deltas):
    rules = {**FIVE, "blaze": True} if blaze else FIVE
    got = replayed(PAM_TURNED + shows, rules, seats=SEATS, dealer="dan", pool=10, turnup="JC",
                   hands=PAM_TURNED_HANDS)
    assert got == no_play(payouts, loos, pool_after, deltas)


# --- everyone-pays-holder beside other rules: readings pinned (docs/engine.md interpretation 26,
# sources not settled): "nothing carried" is the flush's own settlement; a split's odd unit and
# a pre-play offender's full loo still go to the next pool, and pam_immune spares a Pam holder
# from being looed, not from paying the flush holder.
PAYS = {**FIVE, "flush_pays": "everyone-pays-holder"}
PLAIN_DIAMONDS = ["2D", "5D", "8D", "TD", "KD"]  # the same ranks as PLAIN_SPADES


def test_everyone_pays_two_split_flushes_and_the_odd_unit_is_carried():
    # P = 10 + 5 = 15 split by ann and bob: 7 each, 1 stays. cat and dan pay each winner a loo
    # (5): cat -10, dan -10 - 5 ante = -15; ann and bob 7 + 10 = 17. Pool after 15 - 14 = 1.
    v = play(record(SEATS, "dan", rules={**PAYS, "flush_ties": "high-card-then-split"}, pool=10,
                    turnup="3H", hands={"ann": PLAIN_SPADES, "bob": PLAIN_DIAMONDS},
                    actions="ann stand; bob stand; cat pass; dan pass; ann flush; bob flush"))
    assert v["settlement"]["deltas"] == {"ann": 17, "bob": 17, "cat": -10, "dan": -15}
    assert v["settlement"]["pool_after"] == 1


def test_everyone_pays_an_offenders_full_loo_is_carried():
    # cat looked at another hand: a full loo (5) into the next pool, and throws up. ann's flush
    # takes P = 15 and 5 from each of bob, cat, dan: ann +30, bob -5, cat -5 - 5 = -10,
    # dan -5 - 5 ante = -10. Pool after 15 - 15 + 5 = 5.
    v = play(record(SEATS, "dan", rules=PAYS, pool=10, turnup="3H",
                    hands={"ann": PLAIN_SPADES},
                    actions="cat ! looked-at-hand; ann stand; bob stand; cat pass; dan pass; "
                            "ann flush"))
    assert v["settlement"]["loo_payments"] == {"cat": 5}
    assert v["settlement"]["deltas"] == {"ann": 30, "bob": -5, "cat": -10, "dan": -10}
    assert v["settlement"]["pool_after"] == 5


def test_everyone_pays_a_pam_immune_stander_still_pays_the_flush_holder():
    # bob stands holding Pam (JC) under pam_immune: not looed, but pays ann's flush 5 like
    # everyone else: ann 15 + 3 x 5 = 30, bob -5, cat -5, dan -5 - 5 ante = -10; pool after 0.
    v = play(record(SEATS, "dan", rules={**PAYS, "pam_immune": True}, pool=10, turnup="3H",
                    hands={"ann": PLAIN_SPADES, "bob": ["JC", "2D", "3D", "4D", "6C"]},
                    actions="ann stand; bob stand; cat pass; dan pass; ann flush"))
    assert v["settlement"]["loo_payments"] == {}
    assert v["settlement"]["deltas"] == {"ann": 30, "bob": -5, "cat": -5, "dan": -10}
    assert v["settlement"]["pool_after"] == 0


def test_after_a_flush_is_shown_legal_actions_offer_the_flushes_still_to_show():
    # ann shows her plain spade flush first; bob, holding four diamonds and Pam, may still show
    # his (it beats ann's) and cat, who stood without a flush, may show nothing. legal_actions
    # must say so, as push takes bob's flush: it said [] once the first flush ended the deal.
    # A verdict asked for after ann's flush is ann's; after bob's it is bob's (1.1.0 kept
    # giving the first): P = 10 + 5 = 15 to bob, cat looed 5, ann neither wins nor pays.
    deal = deal_at(FIVE, SEATS, "dan", "ann stand; bob stand; cat stand; dan pass", pool=10,
                   turnup="3H", hands={"ann": PLAIN_SPADES, "bob": PAM_DIAMONDS})
    deal.push({"player": "ann", "action": "exchange", "discard": [], "draw": []})
    deal.push({"player": "bob", "action": "exchange", "discard": [], "draw": []})
    deal.push({"player": "cat", "action": "exchange", "discard": [], "draw": []})
    deal.push({"player": "ann", "action": "flush"})
    assert deal.over and deal.verdict()["settlement"]["payouts"] == {"ann": 15}
    assert deal.legal_actions() == [{"player": "bob", "action": "flush"}]
    deal.push({"player": "bob", "action": "flush"})
    assert deal.legal_actions() == []
    settlement = deal.verdict()["settlement"]
    assert (settlement["payouts"], settlement["loo_payments"], settlement["pool_after"],
            nonzero(settlement["deltas"])) == ({"bob": 15}, {"cat": 5}, 5,
                                               {"bob": 15, "cat": -5, "dan": -5})


@pytest.mark.parametrize(("turnup", "actions", "loos", "deltas"), [
    # bob draws Pam (JC for 2D): he holds it, though his hand is not given. cat is looed.
    ("3H", "ann stand; bob stand; cat stand; dan pass; ann exchange; bob exchange 2D > JC",
     {"cat": 5}, {"ann": 15, "cat": -5, "dan": -5}),
    # Pam turned up (clubs trumps, ann's spades a plain flush): the standing dealer takes it and
    # discards 2D, keeping Pam. bob is looed.
    ("JC", "ann stand; bob stand; cat pass; dan stand; dan exchange 2D >",
     {"bob": 5}, {"ann": 15, "bob": -5, "dan": -5}),
    # the dealer discards Pam itself: he no longer holds it and is looed with bob
    ("JC", "ann stand; bob stand; cat pass; dan stand; dan exchange JC >",
     {"bob": 5, "dan": 5}, {"ann": 15, "bob": -5, "dan": -10}),
])
def test_pam_immune_knows_pam_from_the_exchange_when_the_hand_is_not_given(turnup, actions,
                                                                           loos, deltas):
    # ann's plain spade flush takes P = 10 + 5 = 15; every other stander is looed 5 unless
    # the record shows Pam in his hand (pam_immune); dan antes 5. Pool after: the loos. (1.2.0
    # read Pam only from a given hand or a play, and looed the Pam holder too: bob -5 in the
    # first case, dan -10 and pool after 10 in the second.)
    got = replayed(actions + "; ann flush", {**FIVE, "pam_immune": True}, seats=SEATS,
                   dealer="dan", pool=10, turnup=turnup, hands={"ann": PLAIN_SPADES})
    assert got == no_play({"ann": 15}, loos, sum(loos.values()), deltas)


def test_everyone_pays_an_offenders_flush_still_collects_the_direct_loos():
    # Pins docs/engine.md question 24: ann stood, then looked at another hand (committed: full
    # loo 5 into the next pool) and shows the only flush. An offender takes nothing from the
    # pool (interpretation 27): P = 10 + 5 = 15 stays. bob, cat and dan each pay her the loo
    # (5) directly: ann +15 - 5 = 10, bob -5, cat -5, dan -5 ante -5 = -10; pool after 20.
    v = play(record(SEATS, "dan", rules=PAYS, pool=10, turnup="3H", hands={"ann": PLAIN_SPADES},
                    actions="ann stand; ann ! looked-at-hand; bob stand; cat pass; dan pass; "
                            "ann flush"))
    s = v["settlement"]
    assert (nonzero(s["payouts"]), s["loo_payments"], s["transfers"]) == (
        {}, {"ann": 5}, {"ann": 15, "bob": -5, "cat": -5, "dan": -5})
    assert s["deltas"] == {"ann": 10, "bob": -5, "cat": -5, "dan": -10}
    assert s["pool_after"] == 20


@pytest.mark.parametrize(("rank", "winner"), [("below-plain-flush", "bob"),
                                              ("above-flush", "ann")])
def test_a_blaze_above_flushes_beats_a_pam_flush_too(rank, winner):
    # Five players, eve deals. ann's blaze (no Pam), bob's four diamonds + Pam, cat's five
    # trumps; dan stands without either. below-plain-flush: the Pam flush is best; above-flush
    # (Russian, "блеск бьет флеш", 001:60): a blaze beats every flush, a Pam flush included
    # (interpretation 12). P = 10 + 5 = 15 to the winner; dan looed 5 -> pool 5; the beaten
    # flush and blaze neither win nor pay.
    got = settled({**FIVE, "blaze": True, "blaze_rank": rank},
                  {"ann": BLAZE, "bob": PAM_DIAMONDS, "cat": FIVE_TRUMPS},
                  "ann stand; bob stand; cat stand; dan stand; eve pass;"
                  "ann flush; bob flush; cat flush", seats=FIVE_SEATS, dealer="eve")
    assert got == no_play({winner: 15}, {"dan": 5}, 5, {winner: 15, "dan": -5, "eve": -5})


@pytest.mark.parametrize(("ties", "winner"), [("seat-order", "ann"),
                                              ("high-card-then-split", "bob")])
def test_two_blazes_by_seat_order_or_by_the_higher_cards(ties, winner):
    # ann KC QC JH KD JS (K K Q J J) sits before bob KS QS JD KH QD (K K Q Q J). Seat order:
    # ann; high card (001:60: a blaze ranks "аналогично флешам", like flushes): bob, whose
    # fourth card is the higher. P = 15 to the winner; cat stood without: looed 5 -> pool 5.
    got = settled({**FIVE, "blaze": True, "flush_ties": ties},
                  {"ann": ["KC", "QC", "JH", "KD", "JS"], "bob": BLAZE},
                  "ann stand; bob stand; cat stand; dan pass; ann flush; bob flush")
    assert got == no_play({winner: 15}, {"cat": 5}, 5, {winner: 15, "cat": -5, "dan": -5})


def shown_record(actions, shown, **fields):
    """A flush deal (hearts trumps, pool 10) whose showers give their cards on the action."""
    rec = record(SEATS, "dan", rules=FIVE, pool=10, turnup="3H", actions=actions, **fields)
    for action in rec["actions"]:
        if action["action"] == "flush":
            action["cards"] = shown[action["player"]]
    return rec


STAND_THREE = "ann stand; bob stand; cat pass; dan stand; ann exchange; "


def test_cards_shown_for_a_hand_not_given_take_in_his_draws_and_the_turn_up_he_kept():
    # No hands given. bob draws 4S for 2D and shows 2S 4S 8S TS KS, a plain flush; dan takes
    # the turn-up 3H, discards 2C and shows 4H 6H 9H QH 3H, five trumps, the better flush:
    # P = 10 + 5 = 15 to dan (+10 after his ante); ann stood without one: looed 5 -> pool 5.
    rec = shown_record(STAND_THREE + "bob exchange 2D > 4S; dan exchange 2C >; bob flush; "
                       "dan flush", {"bob": ["2S", "4S", "8S", "TS", "KS"],
                                     "dan": ["4H", "6H", "9H", "QH", "3H"]})
    got = replayed(rec["actions"], FIVE, seats=SEATS, dealer="dan", pool=10, turnup="3H")
    assert got == no_play({"dan": 15}, {"ann": 5}, 5, {"ann": -5, "dan": 10})


@pytest.mark.parametrize(("actions", "shown", "hands", "index", "message"), [
    # the cards of another player's given hand
    (DECLARED + "; bob flush", {"bob": PLAIN_SPADES}, {"ann": PLAIN_SPADES}, 4,
     "bob shows 2S, which he cannot hold: it is in ann's hand"),
    # the turn-up, which no standing dealer took
    (DECLARED + "; bob flush", {"bob": ["3H", "5H", "8H", "TH", "KH"]}, None, 4,
     "bob shows 3H, which he cannot hold: it is the turn-up card"),
    # a card he discarded
    (DECLARED + "; ann exchange; bob exchange 2S > 4D; bob flush", {"bob": PLAIN_SPADES}, None,
     6, "bob shows 2S, which he cannot hold: it was discarded"),
    # without the card he drew
    (DECLARED + "; ann exchange; bob exchange 2D > 4S; bob flush", {"bob": PLAIN_SPADES}, None,
     6, "bob shows 2S 5S 8S TS KS without 4S, which he drew"),
    # the cards another player has just shown
    (DECLARED + "; ann flush; bob flush", {"ann": PLAIN_SPADES, "bob": PLAIN_SPADES}, None, 5,
     "bob shows 2S, which he cannot hold: it is in ann's hand"),
    # the standing dealer without the turn-up he took and kept
    (STAND_THREE + "dan exchange 2D >; dan flush", {"dan": PLAIN_SPADES}, None, 6,
     "dan shows 2S 5S 8S TS KS without 3H, which he took turned up"),
    # one card twice
    (DECLARED + "; bob flush", {"bob": ["2S", "2S", "8S", "TS", "KS"]}, None, 4,
     "bob shows 2S twice"),
], ids=["anothers-hand", "turn-up", "own-discard", "without-his-draw", "shown-already",
        "dealer-without-turn-up", "card-twice"])
def test_cards_shown_for_a_hand_not_given_must_be_ones_he_can_hold(actions, shown, hands,
                                                                   index, message):
    # 1.2.0 checked shown cards only against a given hand: each of these took the pool.
    rec = shown_record(actions, shown, **({"hands": hands} if hands else {}))
    errors = record_errors(rec)
    assert (errors[0]["index"], errors[0]["message"]) == (index, message), errors
