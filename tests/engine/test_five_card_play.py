"""Five-card Loo play and payment (loo-rules.md s.4, s.6): the trump lead, following suit,
the optional heading and trumping duties, revoke, the loo modes and the offence penalties.

Four players ann bob cat dan, dan deals and passes; spades trumps (turn-up 4S). Two standers:
P = 5 carried + 5 ante = 10, a trick is worth floor(10/5) = 2; an offender's winnings stay in
the pool and the offender pays one full loo instead of the ordinary loo.
"""
import pytest

from games.rules import replay
from tests.engine.dealkit import assert_conserved, assert_settled, parse_actions, play, record
from tests.engine.outcome import FIVE, clean, offended, play_own_turnup, replayed
from tests.engine.test_five_card_declare import EXCHANGE_DEAL
from tests.engine.test_five_card_pam import PAM_LED, PAM_LED_OFFENCE, PAM_LED_WINNERS

TWO_STAND = "ann stand; bob stand; cat pass; dan pass\n"

# ann AS KS AH 3D 2C | bob 5S 6H 7H 8D 9C
TRUMP_FIRST = TWO_STAND + """
    ann AS; bob 5S
    ann AH; bob 6H
    ann 3D; bob 8D
    bob 7H; ann KS
    ann 2C; bob 9C
"""
PLAIN_FIRST = TWO_STAND + """
    ann AH; bob 6H
    ann AS; bob 5S
    ann 3D; bob 8D
    bob 7H; ann KS
    ann 2C; bob 9C
"""
LEAD_WINNERS = ["ann", "ann", "bob", "ann", "bob"]


def test_trump_lead_is_due_on_the_first_trick_only_by_default():
    # ann leads AH at trick 2 holding KS: allowed. ann 3 tricks = 6, bob 2 = 4.
    assert replayed(TRUMP_FIRST) == clean(LEAD_WINNERS, {"ann": 6, "bob": 4}, 0,
                                          {"ann": 6, "bob": 4, "dan": -5})


def test_opening_lead_of_a_plain_card_while_holding_trumps_is_an_offence():
    # ann's 6 stays, bob 4 paid, ann pays 5: pool 10 - 4 + 5 = 11.
    assert replayed(PLAIN_FIRST) == offended(
        LEAD_WINNERS, ("ann", "failed-to-lead-trump", 1, "AH", "full-loo"),
        {"bob": 4}, 11, {"ann": -5, "bob": 4, "dan": -5})


def test_lead_trump_every_trick_makes_the_later_plain_leads_offences():
    # ann still holds KS when she leads AH (trick 2) and 3D (trick 3): two offences, one loo.
    assert replayed(TRUMP_FIRST, {**FIVE, "lead_trump": "every-trick"}) == offended(
        LEAD_WINNERS, ("ann", "failed-to-lead-trump", 2, "AH", "full-loo"),
        {"bob": 4}, 11, {"ann": -5, "bob": 4, "dan": -5},
        more=(("ann", "failed-to-lead-trump", 3, "3D", "full-loo"),))


# dan deals, turns up AS and stands: he takes it (discarding 2D, drawing nothing) and so holds
# the ace of trumps. ann 9S 2S AH KH QH | dan TS 3S AS KD QD.
DEALER_TAKES_THE_ACE = """
    ann stand; bob pass; cat pass; dan stand
    dan exchange 2D >
    ann 9S; dan TS
    dan 3S; ann 2S
    dan AS; ann AH
    dan KD; ann KH
    dan QD; ann QH
"""


def test_the_dealer_who_took_the_turned_up_ace_must_lead_it():
    # lead_trump_ace: "the ace of trumps, or the king when the ace is the turn-up card". The
    # dealer took that ace, so he holds it: leading 3S with it at trick 2 is the offence. P = 10
    # + 5 = 15; dan's five tricks' 15 stay in the pool; dan is looed 5 (in place of nothing
    # else), ann (no trick) 5: pool 15 + 10 = 25; dan -5 ante -5, ann -5.
    rules = {**FIVE, "lead_trump": "every-trick", "lead_trump_ace": True}
    v = play_own_turnup(record("ann bob cat dan", "dan", turnup="AS", pool=10, rules=rules,
                               actions=DEALER_TAKES_THE_ACE))
    assert [(x["player"], x["rule"], x["trick"], x["card"]) for x in v["violations"]] == [
        ("dan", "failed-to-lead-trump-ace", 2, "3S")]
    assert_settled(v, payouts={}, loos={"dan": 5, "ann": 5}, pool_after=25,
                   deltas={"ann": -5, "dan": -10})


# ann 9H 2D 3D 4C 5C (no trump) | bob KH 3H 6D 7C 8C: bob plays under the 9H holding KH.
UNDER = TWO_STAND + """
    ann 9H; bob 3H
    ann 2D; bob 6D
    bob KH; ann 3D
    bob 7C; ann 4C
    bob 8C; ann 5C
"""
# ann 9H 2D 3D 4C 5C | bob KH 3H 5S 7C 8C: bob, void in diamonds, discards 7C holding 5S.
NO_TRUMP = TWO_STAND + """
    ann 9H; bob 3H
    ann 2D; bob 7C
    ann 3D; bob 5S
    bob KH; ann 4C
    bob 8C; ann 5C
"""


def test_no_duty_to_head_or_to_trump_by_default():
    # UNDER: ann's 9H wins trick 1 only (2), bob 4 tricks = 8.
    assert replayed(UNDER) == clean(["ann", "bob", "bob", "bob", "bob"], {"ann": 2, "bob": 8},
                                    0, {"ann": 2, "bob": 8, "dan": -5})
    # NO_TRUMP: ann 2 tricks = 4, bob 3 = 6.
    assert replayed(NO_TRUMP) == clean(["ann", "ann", "bob", "bob", "bob"],
                                       {"ann": 4, "bob": 6}, 0, {"ann": 4, "bob": 6, "dan": -5})


def test_must_head_makes_playing_under_an_offence():
    # bob's 8 stays, ann 2 paid, bob pays 5: pool 10 - 2 + 5 = 13.
    assert replayed(UNDER, {**FIVE, "must_head": True}) == offended(
        ["ann", "bob", "bob", "bob", "bob"], ("bob", "failed-to-head", 1, "3H", "full-loo"),
        {"ann": 2}, 13, {"ann": 2, "bob": -5, "dan": -5})


def test_must_trump_makes_discarding_while_holding_a_trump_an_offence():
    # bob's 6 stays, ann 4 paid, bob pays 5: pool 10 - 4 + 5 = 11.
    assert replayed(NO_TRUMP, {**FIVE, "must_trump": True}) == offended(
        ["ann", "ann", "bob", "bob", "bob"], ("bob", "failed-to-trump", 2, "7C", "full-loo"),
        {"ann": 4}, 11, {"ann": 4, "bob": -5, "dan": -5})


# ann AS 5H KD 3C 2C | bob 6S 7H 8H 9D TC: bob discards 9D on the heart lead holding 7H and
# 8H (both played later).
REVOKE = TWO_STAND + """
    ann AS; bob 6S
    ann 5H; bob 9D
    ann KD; bob 7H
    ann 3C; bob TC
    bob 8H; ann 2C
"""


def test_revoke_is_found_from_the_later_plays_and_costs_a_full_loo():
    # ann 3 tricks = 6; bob's 4 stays; pool 10 - 6 + 5 = 9.
    assert replayed(REVOKE) == offended(["ann", "ann", "ann", "bob", "bob"],
                                        ("bob", "revoke", 2, "9D", "full-loo"),
                                        {"ann": 6}, 9, {"ann": 6, "bob": -5, "dan": -5})


def test_revoke_evidence_names_the_card_held():
    v = play(record("ann bob cat dan", "dan", rules=FIVE, pool=5, turnup="4S", actions=REVOKE))
    evidence = v["violations"][0]["evidence"]
    assert "7H" in evidence or "8H" in evidence, evidence


# The exchange deal of test_five_card_declare: hearts trumps, ann 2 tricks, bob 3, cat looed.
@pytest.mark.parametrize(("rules", "pool", "expected"), [
    # limited: P = 23, a trick 4: ann 8, bob 12; cat pays 5; pool 23 - 20 + 5 = 8
    (FIVE, 18, ({"ann": 8, "bob": 12}, 5, 8)),
    # unlimited: cat pays P = 23; pool 3 + 23 = 26
    ({**FIVE, "loo": "unlimited"}, 18, ({"ann": 8, "bob": 12}, 23, 26)),
    ({"preset": "five-card-unlimited"}, 18, ({"ann": 8, "bob": 12}, 23, 26)),
    # mixed, cap 25, P = 23: cat pays min(23, 25) = 23
    ({**FIVE, "loo": "mixed", "loo_cap": 25}, 18, ({"ann": 8, "bob": 12}, 23, 26)),
    # mixed, cap 25, P = 28 + 5 = 33, a trick 6: ann 12, bob 18; cat pays min(33, 25) = 25;
    # pool 33 - 30 + 25 = 28
    ({**FIVE, "loo": "mixed", "loo_cap": 25}, 28, ({"ann": 12, "bob": 18}, 25, 28)),
], ids=["limited", "unlimited", "unlimited-preset", "mixed-under-cap", "mixed-capped"])
def test_loo_modes(rules, pool, expected):
    payouts, loo, pool_after = expected
    got = replayed(EXCHANGE_DEAL, rules, pool=pool, turnup="9H")
    assert got == clean(["ann", "ann", "bob", "bob", "bob"], payouts, pool_after,
                        {**payouts, "cat": -loo, "dan": -5}, loos={"cat": loo})


def test_full_loo_penalty_in_unlimited_loo_is_the_pool():
    # The Pam-led deal (P = 15): bob's penalty is the full loo P = 15; pool 15 - 15 + 15 = 15.
    got = replayed(PAM_LED, {**FIVE, "loo": "unlimited"}, pool=10)
    assert got == offended(PAM_LED_WINNERS, PAM_LED_OFFENCE, {"ann": 6, "cat": 9}, 15,
                           {"ann": 6, "bob": -15, "cat": 9, "dan": -5}, penalty=15)


def test_penalty_and_loo_both_charges_an_offender_without_a_trick_twice():
    # bob took no trick: full loo 5 for the offence and 5 for the loo; pool 15 - 15 + 10 = 10.
    got = replayed(PAM_LED, {**FIVE, "penalty_and_loo": "both"}, pool=10)
    assert got == offended(PAM_LED_WINNERS, PAM_LED_OFFENCE, {"ann": 6, "cat": 9}, 10,
                           {"ann": 6, "bob": -10, "cat": 9, "dan": -5}, penalty=10)


def test_result_only_record_is_settled_unverified():
    # The exchange deal noted as trick counts only: ann 2, bob 3, cat (stood) none.
    # P = 23, a trick 4: ann 8, bob 12, cat looed 5 -> pool 8.
    declarations = [a for a in parse_actions(EXCHANGE_DEAL) if a["action"] in ("stand", "pass")]
    rec = {**record("ann bob cat dan", "dan", rules=FIVE, pool=18, turnup="9H",
                    actions=declarations), "result": {"tricks": {"ann": 2, "bob": 3}}}
    v = replay(rec)
    assert_conserved(v, ["ann", "bob", "cat", "dan"])
    assert v["status"] == "unverified" and v["violations"] == []
    assert_settled(v, payouts={"ann": 8, "bob": 12}, loos={"cat": 5}, pool_after=8,
                   deltas={"ann": 8, "bob": 12, "cat": -5, "dan": -5})


def test_early_tricks_remainder_divides_by_fifths_with_the_odd_units_first():
    # The exchange deal (winners ann ann bob bob bob) under remainder early-tricks: P = 18 + 5
    # = 23 = 5 + 5 + 5 + 4 + 4. ann (tricks 1, 2) 10, bob (3, 4, 5) 5 + 4 + 4 = 13; cat looed 5
    # -> pool after 23 - 23 + 5 = 5 (with carry, floor(23/5) = 4 a trick left 3 and pool 8).
    got = replayed(EXCHANGE_DEAL, {**FIVE, "remainder": "early-tricks"}, pool=18, turnup="9H")
    assert got == clean(["ann", "ann", "bob", "bob", "bob"], {"ann": 10, "bob": 13}, 5,
                        {"ann": 10, "bob": 13, "cat": -5, "dan": -5}, loos={"cat": 5})
