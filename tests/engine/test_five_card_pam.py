"""Pam (loo-rules.md s.4): wins any trick, exempt from following, Pam led, "Pam be civil" in
every mode, pam_follows_trump, running Pam, Pam turned up, Pam as the leader's only trump.

Four players ann bob cat dan, dan deals and passes; spades are trumps (turn-up 4S) unless said
otherwise. With two standers P = 5 carried + 5 ante = 10 and a trick is worth 2; an offender's
winnings stay in the pool and the offender pays a full loo (5) instead of the ordinary loo.
"""
import pytest

from tests.engine.dealkit import deal_at, record, record_errors
from tests.engine.outcome import FIVE, clean, offended, outcome, play_own_turnup, replayed

SEATS = "ann bob cat dan"
TWO_STAND = "ann stand; bob stand; cat pass; dan pass\n"


# ann 2S AH 7H KD QC | bob JC 3S 5H 9H 8D. Trick 4: bob holds 9H yet plays Pam on a heart lead.
PAM_EXEMPT = TWO_STAND + """
    ann 2S; bob 3S
    bob 5H; ann AH
    ann KD; bob 8D
    ann 7H; bob JC
    bob 9H; ann QC
"""


def test_pam_wins_any_trick_and_is_exempt_from_following_suit():
    # ann 2 tricks = 4, bob 3 = 6; pool empty after.
    assert replayed(PAM_EXEMPT) == clean(["bob", "ann", "ann", "bob", "bob"],
                                         {"ann": 4, "bob": 6}, 0, {"ann": 4, "bob": 6, "dan": -5})


def test_the_eldest_stander_leads_when_eldest_passes():
    # cat deals, dan (eldest) passes: ann, the first stander after him, leads; cat antes 5.
    rotated = PAM_EXEMPT.replace(TWO_STAND, "dan pass; ann stand; bob stand; cat pass\n")
    assert replayed(rotated, dealer="cat") == clean(
        ["bob", "ann", "ann", "bob", "bob"], {"ann": 4, "bob": 6}, 0,
        {"ann": 4, "bob": 6, "cat": -5}, next_dealer="dan")


# Three standers (P = 10 + 5 = 15, a trick 3). ann JC AS 2D 3D 4D | bob 6H 5S KH 7C 8C |
# cat 6S 7S QD TC 9H. ann leads Pam; bob holds 5S but plays 6H.
PAM_LED = """
    ann stand; bob stand; cat stand; dan pass
    ann JC; bob 6H; cat 6S
    ann AS; bob 5S; cat 7S
    ann 2D; bob KH; cat QD
    cat TC; ann 3D; bob 7C
    cat 9H; ann 4D; bob 8C
"""
PAM_LED_WINNERS = ["ann", "ann", "cat", "cat", "cat"]
PAM_LED_OFFENCE = ("bob", "failed-to-play-trump-to-pam", 1, "6H", "full-loo")


def test_pam_led_the_others_must_play_trumps():
    # ann 2 tricks = 6, cat 3 = 9; bob took none: his full loo (5) replaces the ordinary loo.
    # Pool after 15 - 15 + 5 = 5.
    assert replayed(PAM_LED, pool=10) == offended(
        PAM_LED_WINNERS, PAM_LED_OFFENCE, {"ann": 6, "cat": 9}, 5,
        {"ann": 6, "bob": -5, "cat": 9, "dan": -5})


# ann AS KH AD 3C 4C | bob JC 5S 9H 8D 7D. ann leads the ace of trumps; bob, holding another
# trump (5S), plays Pam on it.
CIVIL = TWO_STAND + """
    ann AS civil; bob JC
    bob 5S; ann 3C
    bob 9H; ann KH
    ann AD; bob 8D
    ann 4C; bob 7D
"""
CIVIL_WINNERS = ["bob", "bob", "ann", "ann", "ann"]
NOT_CIVIL = ("bob", "pam-not-civil", 1, "JC", "full-loo")
# Offence: ann 3 tricks = 6, bob's 4 stays, bob pays 5: pool 10 - 6 + 5 = 9.
CIVIL_BROKEN = offended(CIVIL_WINNERS, NOT_CIVIL, {"ann": 6}, 9, {"ann": 6, "bob": -5, "dan": -5})
CIVIL_IGNORED = clean(CIVIL_WINNERS, {"ann": 6, "bob": 4}, 0, {"ann": 6, "bob": 4, "dan": -5})


@pytest.mark.parametrize(("mode", "expected"), [
    ("binding", CIVIL_BROKEN),
    ("request", CIVIL_IGNORED),
    # ann holds no king of trumps: her call has no effect (and the holder may ignore it anyway)
    ("request-if-next-trump", CIVIL_IGNORED),
    ("none", CIVIL_IGNORED),
])
def test_pam_be_civil_called_by_a_leader_without_the_next_trump(mode, expected):
    assert replayed(CIVIL, {**FIVE, "pam_be_civil": mode}) == expected


def test_binding_is_the_default_and_without_a_call_pam_may_take_the_ace():
    assert replayed(CIVIL) == CIVIL_BROKEN
    assert replayed(CIVIL.replace(" civil", "")) == CIVIL_IGNORED


@pytest.mark.parametrize("say", ["pam be civil", "Pam-be-civil", True, ""])
def test_a_call_the_record_misspells_is_refused_not_taken_for_silence(say):
    # read as no call, CIVIL would settle as CIVIL_IGNORED (bob keeps his 4 and pays nothing)
    # where the call binds him (CIVIL_BROKEN: bob pays 5, his 4 stays): the difference is 9
    rec = record(SEATS, "dan", rules=FIVE, pool=5, turnup="4S", actions=CIVIL)
    rec["actions"][4]["say"] = say  # ann AS, the lead after the four declarations
    assert [(e["index"], e["player"], e["card"], e["field"]) for e in record_errors(rec)] == [
        (4, "ann", "AS", "say")]


def test_automatic_civility_needs_no_call():
    silent = CIVIL.replace(" civil", "")
    assert replayed(silent, {**FIVE, "pam_be_civil": "automatic"}) == CIVIL_BROKEN


# bob JC 9H 8D 7D 6C holds no other trump: he may play Pam on the called ace.
CIVIL_LONE_PAM = TWO_STAND + """
    ann AS civil; bob JC
    bob 9H; ann KH
    ann AD; bob 8D
    ann 3C; bob 6C
    bob 7D; ann 4C
"""


@pytest.mark.parametrize("mode", ["binding", "automatic"])
def test_pam_holder_without_another_trump_may_play_pam_on_the_ace(mode):
    # ann 2 tricks = 4, bob 3 = 6.
    assert replayed(CIVIL_LONE_PAM, {**FIVE, "pam_be_civil": mode}) == clean(
        ["bob", "ann", "ann", "bob", "bob"], {"ann": 4, "bob": 6}, 0,
        {"ann": 4, "bob": 6, "dan": -5})


def test_a_call_on_any_lead_but_the_ace_of_trumps_binds_nobody():
    # ann leads the king of trumps (KS for AS) and calls: bob may take it with Pam.
    king_lead = CIVIL.replace("ann AS civil", "ann KS civil")
    assert replayed(king_lead) == CIVIL_IGNORED


# ann AS KS AD 3C 4C holds the next trump (KS) and calls; bob JC 5S 9H 8D 7D ignores it.
CIVIL_WITH_KING = TWO_STAND + """
    ann AS civil; bob JC
    bob 5S; ann KS
    ann AD; bob 8D
    ann 3C; bob 7D
    ann 4C; bob 9H
"""
KING_WINNERS = ["bob", "ann", "ann", "ann", "ann"]


def test_request_if_next_trump_is_a_request_the_holder_may_ignore():
    # ann 4 tricks = 8, bob 1 = 2.
    assert replayed(CIVIL_WITH_KING, {**FIVE, "pam_be_civil": "request-if-next-trump"}) == clean(
        KING_WINNERS, {"ann": 8, "bob": 2}, 0, {"ann": 8, "bob": 2, "dan": -5})
    # The same call under the default (binding) rule is an offence: bob's 2 stays, pool 10-8+5.
    assert replayed(CIVIL_WITH_KING) == offended(
        KING_WINNERS, NOT_CIVIL, {"ann": 8}, 7, {"ann": 8, "bob": -5, "dan": -5})


# ann 9S KH AD 3C 4C | bob JC 5H 8D 7D 6C: a trump (not the ace) is led, bob's only trump is
# Pam and he plays 5H.
PAM_ONLY_TRUMP = TWO_STAND + """
    ann 9S; bob 5H
    ann KH; bob 6C
    ann AD; bob 8D
    ann 3C; bob 7D
    ann 4C; bob JC
"""
# ann 9S KH AD 3C 4C | bob JC 2S 5H 8D 7D: bob plays Pam to a heart lead holding 5H.
PAM_ON_PLAIN = TWO_STAND + """
    ann 9S; bob 2S
    ann KH; bob JC
    bob 5H; ann 3C
    bob 8D; ann AD
    ann 4C; bob 7D
"""


def test_by_default_pam_need_not_follow_a_trump_lead_nor_keep_off_a_plain_one():
    assert replayed(PAM_ONLY_TRUMP) == clean(
        ["ann", "ann", "ann", "ann", "bob"], {"ann": 8, "bob": 2}, 0,
        {"ann": 8, "bob": 2, "dan": -5})
    assert replayed(PAM_ON_PLAIN) == clean(
        ["ann", "bob", "bob", "ann", "ann"], {"ann": 6, "bob": 4}, 0,
        {"ann": 6, "bob": 4, "dan": -5})


def test_pam_follows_trump_obliges_pam_on_a_trump_lead_and_bars_it_from_a_plain_one():
    rules = {**FIVE, "pam_follows_trump": True}
    # bob must play Pam to ann's 9S: revoke. ann 8 paid, bob's 2 stays, +5: pool 7.
    assert replayed(PAM_ONLY_TRUMP, rules) == offended(
        ["ann", "ann", "ann", "ann", "bob"], ("bob", "revoke", 1, "5H", "full-loo"),
        {"ann": 8}, 7, {"ann": 8, "bob": -5, "dan": -5})
    # bob may not play Pam to the heart lead while holding 5H: revoke. pool 10 - 6 + 5 = 9.
    assert replayed(PAM_ON_PLAIN, rules) == offended(
        ["ann", "bob", "bob", "ann", "ann"], ("bob", "revoke", 2, "JC", "full-loo"),
        {"ann": 6}, 9, {"ann": 6, "bob": -5, "dan": -5})


def test_running_pam_is_the_jack_of_trumps_and_the_jack_of_clubs_is_plain():
    # Hearts trumps (3H). ann AH QC 6D 7S 8S | bob JH JC 9D 2S 3S. JH beats the ace of trumps;
    # bob's JC loses to ann's QC. ann 3 tricks = 6, bob 2 = 4.
    actions = TWO_STAND + """
        ann AH; bob JH
        bob JC; ann QC
        ann 6D; bob 9D
        bob 2S; ann 7S
        ann 8S; bob 3S
    """
    got = replayed(actions, {**FIVE, "pam": "jack-of-trumps"}, turnup="3H")
    assert got == clean(["bob", "ann", "bob", "ann", "ann"], {"ann": 6, "bob": 4}, 0,
                        {"ann": 6, "bob": 4, "dan": -5})


def test_pam_turned_up_makes_clubs_trumps_and_goes_to_the_standing_dealer():
    # Turn-up JC: clubs are trumps. dan stands, takes Pam, discards 2D and draws nothing.
    # ann AC AH 5H 6D AD | dan KS QS 3H 9D + JC. P = 10 + 5 = 15, a trick 3: dan 9, ann 6.
    actions = """
        ann stand; bob pass; cat pass; dan stand
        dan exchange 2D >
        ann AC; dan JC
        dan KS; ann 5H
        dan QS; ann 6D
        dan 3H; ann AH
        ann AD; dan 9D
    """
    v = play_own_turnup(record(SEATS, "dan", rules=FIVE, pool=10, turnup="JC", actions=actions))
    assert v["trumps"] == "C"
    assert outcome(v) == clean(["dan", "dan", "dan", "ann", "ann"], {"ann": 6, "dan": 9}, 0,
                               {"ann": 6, "dan": 4})


def test_pam_counts_as_a_trump_for_the_opening_lead():
    # ann JC AH KD 3C 2H holds no spade but Pam, and leads AH: failed to lead trump.
    # bob 5S 6H 7D 8C 9C. ann 4 tricks (8 stays in the pool), bob 1 = 2; pool 10 - 2 + 5 = 13.
    actions = TWO_STAND + """
        ann AH; bob 6H
        ann JC; bob 5S
        ann KD; bob 7D
        ann 2H; bob 8C
        ann 3C; bob 9C
    """
    assert replayed(actions) == offended(
        ["ann", "ann", "ann", "ann", "bob"], ("ann", "failed-to-lead-trump", 1, "AH", "full-loo"),
        {"bob": 2}, 13, {"ann": -5, "bob": 2, "dan": -5})


# The state machine gives the same answers mid-deal (one definition of "legal").
def pam_table(hands, actions):
    """A five-card Deal (spades trumps, ann and bob standing) after the given actions."""
    return deal_at(FIVE, SEATS, "dan", TWO_STAND + actions, hands=hands, turnup="4S")


CIVIL_HANDS = {"ann": ["AS", "KH", "AD", "3C", "4C"], "bob": ["JC", "5S", "9H", "8D", "7D"]}


def test_legal_plays_after_a_binding_call_keep_pam_back():
    deal = pam_table(CIVIL_HANDS, "ann AS civil")
    assert deal.legal_plays("bob") == ["5S"]
    assert deal.play_violation("bob", "JC") == "pam-not-civil"
    assert deal.play_violation("bob", "9H") == "revoke"
    uncalled = pam_table(CIVIL_HANDS, "ann AS")
    assert set(uncalled.legal_plays("bob")) == {"JC", "5S"}


def test_legal_plays_to_a_pam_lead_are_trumps():
    deal = pam_table({"ann": ["JC", "AS", "2D", "3D", "4D"], "bob": ["6H", "5S", "KH", "7C", "8C"]},
                     "ann JC")
    assert deal.legal_plays("bob") == ["5S"]
    assert deal.play_violation("bob", "6H") == "failed-to-play-trump-to-pam"


def test_legal_opening_leads_count_pam_as_a_trump_and_pam_may_always_be_played():
    # after the (empty) exchanges ann is to lead the first trick, holding no spade but Pam
    deal = pam_table({"ann": ["JC", "AH", "KD", "3C", "2H"], "bob": ["5S", "6H", "7D", "8C", "9C"]},
                     "ann exchange; bob exchange")
    assert deal.legal_actions() == [{"player": "ann", "action": "play", "card": "JC"}]
    assert deal.legal_plays("ann") == ["JC"]
    assert deal.play_violation("ann", "AH") == "failed-to-lead-trump"
    exempt = pam_table({"ann": ["7H", "AH", "KD", "QC", "2D"],
                        "bob": ["JC", "3S", "5H", "9H", "8D"]}, "ann 7H")
    assert set(exempt.legal_plays("bob")) == {"JC", "5H", "9H"}
    assert exempt.play_violation("bob", "8D") == "revoke"


def test_must_trump_counts_pam_as_the_trump_a_void_player_must_play():
    # must_trump: bob, void in hearts, holds no spade but Pam: he must play it to ann's 9H.
    deal = deal_at({**FIVE, "must_trump": True}, SEATS, "dan",
                   TWO_STAND + "ann exchange; bob exchange; ann 9H", turnup="4S",
                   hands={"ann": ["9H", "2D", "3D", "4C", "5C"],
                          "bob": ["JC", "6D", "7D", "8C", "9C"]})
    assert deal.legal_plays("bob") == ["JC"]
    assert deal.play_violation("bob", "6D") == "failed-to-trump"


@pytest.mark.parametrize(("mode", "text", "evidence"), [
    ("binding", CIVIL, 'played Pam after "Pam be civil" holding the trump 5S'),
    ("automatic", CIVIL.replace(" civil", ""),
     "played Pam to the led ace of trumps (Pam must be civil) holding the trump 5S"),
])
def test_the_evidence_says_why_pam_had_to_be_civil(mode, text, evidence):
    from games.rules import replay

    verdict = replay(record("ann bob cat dan", "dan", rules={**FIVE, "pam_be_civil": mode},
                            pool=10, turnup="2S", actions=text))
    assert [v["evidence"] for v in verdict["violations"]] == [evidence]


# --- Pam rules in combination -----------------------------------------------------------------
# Running Pam with pam_follows_trump: hearts trumps (3H), Pam is JH and JC a plain club.
# ann 9H 5H 2D 3D 4D | bob JH JC 7C 8S 9S: bob's only trump is Pam.
RUNNING = {**FIVE, "pam": "jack-of-trumps", "pam_follows_trump": True}


def test_running_pam_must_follow_a_trump_lead_when_it_is_the_only_trump():
    # T1 ann 9H, bob JH (due) -> bob; T2-T4 bob JC 7C 8S, ann discards diamonds -> bob;
    # T5 bob 9S, ann 5H (trumps) -> ann. P = 10: bob 4 x 2 = 8, ann 2.
    assert replayed(TWO_STAND + """ann 9H; bob JH; bob JC; ann 2D; bob 7C; ann 3D
                    bob 8S; ann 4D; bob 9S; ann 5H""", RUNNING, turnup="3H") == clean(
        ["bob", "bob", "bob", "bob", "ann"], {"ann": 2, "bob": 8}, 0,
        {"ann": 2, "bob": 8, "dan": -5})
    # bob keeps Pam back with 8S: revoke at T1 -> ann; T2 ann 5H, bob JH -> bob; bob takes the
    # rest. ann's trick 2; bob's four stay and he pays 5 -> 10 - 2 + 5 = 13.
    assert replayed(TWO_STAND + """ann 9H; bob 8S; ann 5H; bob JH; bob JC; ann 2D
                    bob 7C; ann 3D; bob 9S; ann 4D""", RUNNING, turnup="3H") == offended(
        ["ann", "bob", "bob", "bob", "bob"], ("bob", "revoke", 1, "8S", "full-loo"),
        {"ann": 2}, 13, {"ann": 2, "bob": -5, "dan": -5})


def test_a_valid_request_if_next_trump_call_spares_pam_for_that_trick_only():
    # pam_be_civil request-if-next-trump + pam_follows_trump; spades trumps (4S). ann AS KS 2D
    # 3D 4D | bob JC 5H 6H 7H 8H. T1 ann AS "civil", holding the next trump KS: a call, so bob
    # (Pam his only trump) may keep Pam back: 5H -> ann. T2 ann KS, no call: Pam is due -> bob;
    # bob leads hearts, ann discards diamonds. P = 10: ann 2, bob 8.
    rules = {**FIVE, "pam_be_civil": "request-if-next-trump", "pam_follows_trump": True}
    assert replayed(TWO_STAND + """ann AS civil; bob 5H; ann KS; bob JC; bob 6H; ann 2D
                    bob 7H; ann 3D; bob 8H; ann 4D""", rules) == clean(
        ["ann", "bob", "bob", "bob", "bob"], {"ann": 2, "bob": 8}, 0,
        {"ann": 2, "bob": 8, "dan": -5})


def test_the_next_trump_is_the_queen_when_the_king_is_turned_up_and_out_of_play():
    # As above, but KS is the turn-up and dan passes, so nobody takes it: below the ace the next
    # trump in play is the queen. ann AS QS 2D 3D 4D leads AS "civil" holding QS: a valid call
    # (Hoyle 1830, 000:179: the leader can win another trick, "e.g." ace and king), so bob, Pam
    # his only trump, may keep Pam back. 1.1.0 asked for the king alone and judged bob's 5H a
    # revoke (full loo 5, his four tricks' 8 left in the pool).
    rules = {**FIVE, "pam_be_civil": "request-if-next-trump", "pam_follows_trump": True}
    plays = "ann AS civil; bob 5H; ann QS; bob JC; bob 6H; ann 2D; bob 7H; ann 3D; bob 8H; ann 4D"
    assert replayed(TWO_STAND + plays, rules, turnup="KS") == clean(
        ["ann", "bob", "bob", "bob", "bob"], {"ann": 2, "bob": 8}, 0,
        {"ann": 2, "bob": 8, "dan": -5})
    # with 4S turned, the king is in play: holding the queen the call has no effect
    assert replayed(TWO_STAND + plays, rules)["violations"] == [
        ("bob", "revoke", 1, "5H", "full-loo")]


# The king of spades is turned up and dan stands, so he takes it (turnup_to_dealer); he then
# discards it (drawing one fewer: none) or keeps it and discards 9C. ann AS QS 2D 3D 4D | bob
# JC 5H 6H 7H 8H | dan 9C TC 2H 3H 4H (+ KS).
NEXT_TRUMP_RULES = {**FIVE, "pam_be_civil": "request-if-next-trump", "pam_follows_trump": True}
NEXT_TRUMP_HANDS = {"ann": ["AS", "QS", "2D", "3D", "4D"], "bob": ["JC", "5H", "6H", "7H", "8H"],
                    "dan": ["9C", "TC", "2H", "3H", "4H"]}
DAN_STANDS = "ann stand; bob stand; cat pass; dan stand\n"


def test_the_next_trump_is_the_queen_when_the_dealer_discards_the_turned_up_king():
    # dan discards KS: it is out of play, so ann's QS is the next trump and her call on AS is
    # valid; bob (Pam his only trump) may keep Pam back. 1.2.0 before this fix counted a turn-up
    # the dealer had taken as in play even once discarded, and judged bob's 5H a revoke.
    # T1 ann AS civil, bob 5H, dan 2H -> ann. T2 ann QS (no call): Pam is due -> bob. T3-T5
    # bob leads hearts over dan's lower ones -> bob. P = 5 + 5 = 10, a trick 2: ann 2, bob 8;
    # dan, trickless, is looed 5: pool after 5; dan -5 ante -5 loo.
    plays = """dan exchange KS >
               ann AS civil; bob 5H; dan 2H
               ann QS; bob JC; dan 3H
               bob 6H; dan 4H; ann 2D
               bob 7H; dan 9C; ann 3D
               bob 8H; dan TC; ann 4D"""
    assert replayed(DAN_STANDS + plays, NEXT_TRUMP_RULES, turnup="KS",
                    hands=NEXT_TRUMP_HANDS) == clean(
        ["ann", "bob", "bob", "bob", "bob"], {"ann": 2, "bob": 8}, 5,
        {"ann": 2, "bob": 8, "dan": -10}, loos={"dan": 5})


@pytest.mark.parametrize(("discard", "bob_5h"), [("KS", None), ("9C", "revoke")])
def test_a_turned_up_king_the_dealer_keeps_is_still_the_next_trump(discard, bob_5h):
    # Kept, the king is in play: ann (AS QS) has no next trump, her call has no effect, and
    # bob, Pam his only trump, must play Pam to the ace (pam_follows_trump): 5H is a revoke.
    deal = deal_at(NEXT_TRUMP_RULES, SEATS, "dan", DAN_STANDS + f"dan exchange {discard} >\n"
                   "ann AS civil", hands=NEXT_TRUMP_HANDS, turnup="KS", pool=5)
    assert deal.play_violation("bob", "5H") == bob_5h


def test_trump_ace_first_trick_makes_pam_due_at_the_first_trick():
    # five-card trump_ace_first_trick: Pam must be played to trick 1. ann 9S AH 7H KD QC |
    # bob JC 5S 5H 9H 8D. T1 ann 9S, bob 5S (keeps Pam back) -> ann; T2 ann AH, bob 5H; T3 ann
    # KD, bob 8D -> ann; T4 ann 7H, bob 9H; T5 bob JC, ann QC -> bob.
    # P = 10: ann 3 x 2 = 6; bob's two tricks stay, he pays 5 -> 10 - 6 + 5 = 9.
    assert replayed(TWO_STAND + """ann 9S; bob 5S; ann AH; bob 5H; ann KD; bob 8D
                    ann 7H; bob 9H; bob JC; ann QC""",
                    {**FIVE, "trump_ace_first_trick": True}) == offended(
        ["ann", "ann", "ann", "bob", "bob"],
        ("bob", "failed-to-play-trump-ace", 1, "5S", "full-loo"), {"ann": 6}, 9,
        {"ann": 6, "bob": -5, "dan": -5})


# ann JC AS 2D 3D 4D | bob 5H 6H 7H 8H 9H; spades trumps. ann, to lead trick 1, holds Pam and
# the ace of trumps: lead_trump_ace asks for the ace, lead_highest_trump (Pam is the highest
# trump) and trump_ace_first_trick (Pam to trick 1) for Pam. 1.1.0 refused both leads, so no
# lead was legal (and the simulator failed); Pam, above the ace, now meets the ace duty there.
ACE_AND_PAM = {"ann": ["JC", "AS", "2D", "3D", "4D"], "bob": ["5H", "6H", "7H", "8H", "9H"]}


@pytest.mark.parametrize(("extra", "legal", "ace_lead"), [
    ({}, ["AS"], None),                          # the ace duty alone: the ace, as written
    ({"lead_highest_trump": True}, ["JC"], "failed-to-lead-highest-trump"),
    ({"trump_ace_first_trick": True}, ["JC"], "failed-to-play-trump-ace"),
])
def test_pam_meets_the_ace_duty_where_another_duty_asks_for_pam(extra, legal, ace_lead):
    rules = {**FIVE, "lead_trump_ace": True, **extra}
    deal = deal_at(rules, SEATS, "dan", TWO_STAND, hands=ACE_AND_PAM, turnup="4S", pool=5)
    assert deal.legal_plays("ann") == legal
    assert deal.play_violation("ann", "AS") == ace_lead
    if not extra:
        assert deal.play_violation("ann", "JC") == "failed-to-lead-trump-ace"
        return
    # T1 ann JC (Pam led: bob has no trump) -> ann, then ann AS and her diamonds take the rest:
    # all five tricks take all P = 5 + 5 = 10; bob, trickless, is looed 5 -> pool after 5.
    assert replayed(TWO_STAND + """ann JC; bob 5H; ann AS; bob 6H; ann 2D; bob 7H
                    ann 3D; bob 8H; ann 4D; bob 9H""", rules, hands=ACE_AND_PAM) == clean(
        ["ann"] * 5, {"ann": 10}, 5, {"ann": 10, "bob": -5, "dan": -5}, loos={"bob": 5})


@pytest.mark.parametrize(("civility", "say"), [("binding", " civil"), ("automatic", "")])
def test_trump_ace_first_trick_overrides_pam_be_civil_on_trick_1(civility, say):
    # Pins docs/engine.md interpretation 28 (sources: not settled): ann leads the ace of
    # trumps (AH, hearts turned) to trick 1 with civility called (or automatic); bob holds Pam
    # and 4H. The trick-1 duty wins: Pam is bob's only legal card, keeping it back (4H) is
    # failed-to-play-trump-ace, and playing it is no pam-not-civil.
    deal = deal_at({**FIVE, "trump_ace_first_trick": True, "pam_be_civil": civility},
                   "ann bob cat dan", "dan", f"ann stand; bob stand; cat pass; dan pass; ann AH{say}",
                   turnup="3H", pool=10, hands={"ann": ["AH", "2S", "3S", "4S", "5S"],
                                                "bob": ["JC", "4H", "6S", "7S", "8S"]})
    assert deal.legal_plays("bob") == ["JC"]
    assert deal.play_violation("bob", "4H") == "failed-to-play-trump-ace"
    assert deal.play_violation("bob", "JC") is None


def test_pam_is_exempt_from_heading_a_trump_lead_but_not_from_overtrumping():
    # Pins a reading (docs/engine.md, questions for the rules owner 23): spades trumps (4S).
    # must_head: ann leads 9S; bob JC 3S 2D 3D 4D follows with 3S, under the 9S, though Pam
    # would head it: Pam is exempt from following suit and from heading (interpretation 8).
    heads = deal_at({**FIVE, "must_head": True}, SEATS, "dan", TWO_STAND + "ann 9S",
                    hands={"ann": ["9S", "2H", "3H", "4H", "5H"],
                           "bob": ["JC", "3S", "2D", "3D", "4D"]}, turnup="4S", pool=5)
    assert heads.legal_plays("bob") == ["JC", "3S"]
    assert heads.play_violation("bob", "2D") == "revoke"
    # must_trump: ann leads 2H, bob (void) trumps with 9S; cat, void in hearts with JC 3S,
    # must overtrump if able, and Pam, counted as a trump, is the one card that can: 3S is
    # failed-to-overtrump.
    over = deal_at({**FIVE, "must_trump": True}, SEATS, "dan",
                   "ann stand; bob stand; cat stand; dan pass\nann 2H; bob 9S",
                   hands={"ann": ["2H", "3H", "4H", "5H", "6H"],
                          "bob": ["9S", "2C", "3C", "4C", "5C"],
                          "cat": ["JC", "3S", "2D", "3D", "4D"]}, turnup="4S", pool=5)
    assert over.legal_plays("cat") == ["JC"]
    assert over.play_violation("cat", "3S") == "failed-to-overtrump"


def test_trump_ace_first_trick_asks_pam_of_its_holder_not_the_ace():
    # five-card trump_ace_first_trick: "the ace of trumps (in five-card Loo: Pam)". Spades
    # trumps (4S); ann leads 9S to trick 1. bob, holding the ace of trumps AS but not Pam, may
    # follow with any spade; with pam "none" the ace is the card due (and AS is bob's only
    # legal play).
    hands = {"ann": ["9S", "2H", "3H", "4H", "5H"], "bob": ["AS", "3S", "2D", "3D", "4D"]}
    rules = {**FIVE, "trump_ace_first_trick": True}
    with_pam = deal_at(rules, SEATS, "dan", TWO_STAND + "ann 9S", hands=hands, turnup="4S")
    assert with_pam.legal_plays("bob") == ["AS", "3S"]
    no_pam = deal_at({**rules, "pam": "none"}, SEATS, "dan", TWO_STAND + "ann 9S", hands=hands,
                     turnup="4S")
    assert no_pam.legal_plays("bob") == ["AS"]
    assert no_pam.play_violation("bob", "3S") == "failed-to-play-trump-ace"


def test_trump_ace_first_trick_overrides_pam_follows_trump_on_a_plain_lead_to_trick_1():
    # Pins docs/engine.md interpretation 28 (sources: not settled): ann leads 9H to trick 1;
    # bob holds Pam and 6H. pam_follows_trump bars Pam from a plain lead he can follow, the
    # trick-1 duty asks for Pam: the trick-1 duty wins (Pam his only legal card; 6H is
    # failed-to-play-trump-ace). Without trump_ace_first_trick, Pam is the revoke.
    hands = {"ann": ["9H", "2S", "3H", "4H", "5H"], "bob": ["JC", "6H", "2D", "3D", "4D"]}
    rules = {**FIVE, "pam_follows_trump": True}
    both = deal_at({**rules, "trump_ace_first_trick": True}, SEATS, "dan", TWO_STAND + "ann 9H",
                   hands=hands, turnup="4S")
    assert both.legal_plays("bob") == ["JC"]
    assert both.play_violation("bob", "6H") == "failed-to-play-trump-ace"
    follows = deal_at(rules, SEATS, "dan", TWO_STAND + "ann 9H", hands=hands, turnup="4S")
    assert follows.legal_plays("bob") == ["6H"]
    assert follows.play_violation("bob", "JC") == "revoke"


def test_lead_highest_trump_asks_for_pam_above_the_ace_on_the_first_trick_only():
    # lead_highest_trump alone (five-card: the trump lead is due on trick 1 only). ann holds
    # Pam, 9S and 2S (spades trumps): Pam is the highest trump, so it is her only legal lead;
    # 9S is failed-to-lead-highest-trump. T1 ann JC, bob 5S (a trump to Pam) -> ann. At trick
    # 2 no lead duty is left: any card will do.
    hands = {"ann": ["JC", "9S", "2S", "3D", "4D"], "bob": ["5S", "6H", "7H", "8H", "9H"]}
    deal = deal_at({**FIVE, "lead_highest_trump": True}, SEATS, "dan", TWO_STAND, hands=hands,
                   turnup="4S", pool=5)
    assert deal.legal_plays("ann") == ["JC"]
    assert deal.play_violation("ann", "9S") == "failed-to-lead-highest-trump"
    deal.push({"player": "ann", "action": "play", "card": "JC"})
    deal.push({"player": "bob", "action": "play", "card": "5S"})
    assert deal.legal_plays("ann") == ["9S", "2S", "3D", "4D"]
