"""Three-card Loo club options (loo-rules.md section 2, "Options that clubs play"): flush and its
redeal form, club law, undivided, bold stand, trump_turned and trump_ace_first_trick."""
import pytest

from tests.engine.dealkit import (
    assert_settled,
    deal_at,
    play,
    record,
    record_errors,
    violations,
    winners,
)
from tests.engine.test_three_card_double import BASE, MISS
from tests.engine.test_three_card_simple import RETRO

SEATS = "ann bob cat dan"


def rules(**options) -> dict:
    return {"game": "three-card", **options}


# --- flush ----------------------------------------------------------------------------------
def test_three_trump_flush_takes_the_pool_and_loos_every_other_stander():
    rec = record(SEATS, "dan", turnup="7D", pool=6, hands={"cat": ["AD", "9D", "2D"]},
                 rules=rules(flush="three-trumps"),
                 actions="ann stand; bob stand; cat stand; dan pass; cat flush")
    v = play(rec)
    assert v["tricks"] == []
    # P = 9 to cat; ann and bob looed 3 each (even if they might have won tricks) -> next pool 6
    assert_settled(v, payouts={"cat": 9}, loos={"ann": 3, "bob": 3}, pool_after=6,
                   deltas={"ann": -3, "bob": -3, "cat": 9, "dan": -3})


def test_two_flushes_first_from_eldest_wins_regardless_of_rank():
    # bob deals, so eldest is cat: cat's 2D 3D 4D beats ann's AD KD QD; ann neither pays nor gets
    rec = record(SEATS, "bob", turnup="7D", pool=6,
                 hands={"cat": ["2D", "3D", "4D"], "ann": ["AD", "KD", "QD"]},
                 rules=rules(flush="three-trumps"),
                 actions="cat stand; dan stand; ann stand; bob pass; cat flush; ann flush")
    v = play(rec)
    # P = 9 to cat; dan looed 3; bob paid the ante
    assert_settled(v, payouts={"cat": 9}, loos={"dan": 3}, pool_after=3,
                   deltas={"cat": 9, "dan": -3, "bob": -3})
    assert v["next"]["dealer"] == "cat"


def test_flush_is_refused_without_three_trumps():
    rec = record(SEATS, "dan", turnup="7D", pool=6, hands={"cat": ["AD", "9D", "2H"]},
                 rules=rules(flush="three-trumps"),
                 actions="ann stand; bob stand; cat stand; dan pass; cat flush")
    errors = record_errors(rec)
    assert any(e["player"] == "cat" and e["index"] == 4 for e in errors), errors



@pytest.mark.parametrize("flush", ["three-trumps", "three-trumps-redeal"])
def test_no_flush_in_a_simple_pool_whose_trumps_are_not_yet_turned(flush):
    # pool 0: a simple pool, trumps turned only after trick 1, so nobody can hold "three trumps"
    # before the play; the refusal says so (1.1.0 asked for the turn-up, which was given, or
    # said "after the declarations" of a deal that has none)
    rec = record(SEATS, "dan", turnup="7D", pool=0, hands={"ann": ["2D", "3D", "4D"]},
                 rules=rules(flush=flush), actions="ann flush")
    errors = record_errors(rec)
    assert [(e["index"], e["player"], e["field"]) for e in errors] == [(0, "ann", None)]
    assert "simple pool" in errors[0]["message"], errors

# A flush held but never shown (docs/engine.md interpretation 18): cat holds 2D 3D 4D with 7D
# turned, stands and plays. The seeds have the holder announce or show it ("اعلام میکند",
# 000:89; "вскрывает его", 001:57; the Russian redeal form "если игроку сдали три козыря",
# 001:39) and name nothing for one kept back, so the deal is settled as it was played.
# ann AD KH 5C, bob 8S 9S TS; dan passes.
# T1 ann AD (the trump ace must lead), bob 8S (no diamond, no trump), cat 2D (cannot head) -> ann
# T2 ann KH (no trump left), bob 9S, cat 3D (void in hearts: must trump) -> cat
# T3 cat 4D, ann 5C, bob TS -> cat
UNSHOWN = """ann stand; bob stand; cat stand; dan pass
ann AD; bob 8S; cat 2D
ann KH; bob 9S; cat 3D
cat 4D; ann 5C; bob TS"""


@pytest.mark.parametrize("flush", ["three-trumps", "three-trumps-redeal"])
def test_a_flush_nobody_shows_is_settled_as_played(flush):
    rec = record(SEATS, "dan", turnup="7D", pool=6, rules=rules(flush=flush), actions=UNSHOWN,
                 hands={"ann": ["AD", "KH", "5C"], "bob": ["8S", "9S", "TS"],
                        "cat": ["2D", "3D", "4D"]})
    v = play(rec)
    assert v["ended"] == "played" and "flushes" not in v and violations(v) == []
    assert winners(v) == ["ann", "cat", "cat"]
    # P = 6 + 3 = 9, a trick 3: ann 3, cat 6; bob looed 3 -> next pool 3 (shown, the flush
    # would have taken all 9 and looed ann and bob, or thrown the cards in under the redeal form)
    assert_settled(v, payouts={"ann": 3, "cat": 6}, loos={"bob": 3}, pool_after=3,
                   deltas={"ann": 3, "bob": -3, "cat": 6, "dan": -3})


def test_three_trumps_redeal_same_dealer_again():
    rec = record(SEATS, "dan", turnup="7D", pool=6, hands={"ann": ["AD", "9D", "2D"]},
                 rules=rules(flush="three-trumps-redeal"), actions="ann flush")
    v = play(rec)
    assert v["tricks"] == []
    # ann takes P = 9; nobody is looed; the cards are thrown in and dan deals again
    assert_settled(v, payouts={"ann": 9}, pool_after=0, deltas={"ann": 9, "dan": -3})
    assert (v["next"]["dealer"], v["next"]["pool"]) == ("dan", 0)


# --- club law -------------------------------------------------------------------------------
# 7C turned in a double pool: no declarations, no miss, all four play their own hands.
# ann AC 5H 9S, bob 2C KH 3S, cat 4H 8S JD, dan QH TS 6D.
# T1 ann AC, bob 2C, cat 4H, dan 6D -> ann; T2 ann 5H, bob KH, cat JD (void), dan QH -> bob
# T3 bob 3S, cat 8S, dan TS, ann 9S -> dan
CLUB_PLAYS = """ann AC; bob 2C; cat 4H; dan 6D
ann 5H; bob KH; cat JD; dan QH
bob 3S; cat 8S; dan TS; ann 9S"""


def test_club_law_everyone_plays():
    v = play(record(SEATS, "dan", turnup="7C", pool=6, rules=rules(club_law=True),
                    actions=CLUB_PLAYS))
    assert v["standers"] == ["ann", "bob", "cat", "dan"] and v["status"] == "valid"
    assert winners(v) == ["ann", "bob", "dan"]
    # P = 9: ann, bob, dan 3 each (dan -3 + 3 = 0); cat looed 3
    assert_settled(v, payouts={"ann": 3, "bob": 3, "dan": 3}, loos={"cat": 3}, pool_after=3,
                   deltas={"ann": 3, "bob": 3, "cat": -3})


def test_club_law_overrides_bold_stand_in_an_empty_always_double_pool():
    # always-double, bold_stand and club_law, the pool empty: a club turned makes everyone
    # play (not only the last player and the dealer). CLUB_PLAYS on P = 0 + 3 = 3: a trick is
    # worth 1; ann, bob, dan 1 each; cat looed 3 -> pool after 3.
    v = play(record(SEATS, "dan", turnup="7C", pool=0, actions=CLUB_PLAYS,
                    rules=rules(club_law=True, bold_stand=True, pools="always-double")))
    assert v["standers"] == ["ann", "bob", "cat", "dan"] and winners(v) == ["ann", "bob", "dan"]
    assert_settled(v, pool=3, payouts={"ann": 1, "bob": 1, "dan": 1}, loos={"cat": 3},
                   pool_after=3, deltas={"ann": 1, "bob": 1, "cat": -3, "dan": -2})


@pytest.mark.parametrize("declaration", ["ann pass", "ann miss"])
def test_club_law_refuses_pass_and_miss(declaration):
    rec = record(SEATS, "dan", turnup="7C", pool=6, rules=rules(club_law=True),
                 actions=declaration + "\n" + CLUB_PLAYS)
    errors = record_errors(rec)
    assert any(e["index"] == 0 and e["player"] == "ann" for e in errors), errors


def test_without_a_club_turned_club_law_allows_passing():
    # same option, diamonds turned: the all-pass rule applies as usual
    v = play(record(SEATS, "dan", turnup="7D", pool=6, rules=rules(club_law=True),
                    actions="ann pass; bob pass; cat pass"))
    assert_settled(v, payouts={"dan": 9}, pool_after=0, deltas={"dan": 6})


# --- undivided ------------------------------------------------------------------------------
# The standard double pool of test_three_card_double (BASE): ann 2 tricks, bob 1, cat looed.


def test_undivided_pool_stays_when_nobody_takes_three():
    v = play(record(SEATS, "dan", turnup="7D", pool=6, miss=MISS, actions=BASE,
                    rules=rules(undivided=True, loo_amount=6)))
    assert winners(v) == ["ann", "ann", "bob"]
    # nothing is paid out: 9 stays, cat looed 6 -> 15
    assert_settled(v, payouts={}, loos={"cat": 6}, pool_after=15, deltas={"cat": -6, "dan": -3})


def test_undivided_pool_goes_to_three_tricks():
    # dan takes the miss against ann alone and wins all three (see test_three_card_double)
    rec = record(SEATS, "dan", turnup="7D", pool=6, miss=["AD", "5S", "6S"],
                 rules=rules(undivided=True, loo_amount=6),
                 actions="""ann stand; bob pass; cat pass; dan miss
                 ann KD; dan AD; dan 5S; ann 2C; dan 6S; ann QH""")
    v = play(rec)
    assert_settled(v, payouts={"dan": 9}, loos={"ann": 6}, pool_after=6,
                   deltas={"ann": -6, "dan": 6})


# --- bold stand -----------------------------------------------------------------------------
# Only the dealer's ante in the pool (always-double so that passing is possible at all); all
# others pass, so cat (last in the round) and dan (dealer) must play: cat KD 5H 2S, dan 3D AH 4S.
# T1 cat KD, dan 3D -> cat; T2 cat 5H, dan AH -> dan; T3 dan 4S, cat 2S -> dan
BOLD = "ann pass; bob pass; cat pass\ncat KD; dan 3D; cat 5H; dan AH; dan 4S; cat 2S"


def test_bold_stand_dealer_and_last_player_must_play():
    v = play(record(SEATS, "dan", turnup="7D", pool=0,
                    rules=rules(pools="always-double", bold_stand=True), actions=BOLD))
    assert v["standers"] == ["cat", "dan"] and winners(v) == ["cat", "dan", "dan"]
    # P = 3, trick 1: cat 1, dan 2 (dan -3 + 2 = -1)
    assert_settled(v, payouts={"cat": 1, "dan": 2}, pool_after=0, deltas={"cat": 1, "dan": -1})


def test_bold_stand_holds_when_the_dealer_stood_out_of_turn():
    # always-double, pool empty: dan stands before his turn (single loo 3, paid at once), then
    # everyone passes: bold stand still makes cat, the last player, play him (not dealer-takes).
    # cat AD 9H 3C takes all three from dan's KD 5S 2C: P = 0 + 3 + 3 = 6; dan looed 3.
    v = play(record(SEATS, "dan", turnup="7D", pool=0,
                    rules=rules(bold_stand=True, pools="always-double"),
                    actions="""dan stand; ann pass; bob pass; cat pass
                    cat AD; dan KD; cat 9H; dan 5S; cat 3C; dan 2C"""))
    assert v["standers"] == ["cat", "dan"] and winners(v) == ["cat", "cat", "cat"]
    assert_settled(v, pool=6, payouts={"cat": 6}, loos={"dan": 3}, penalties={"dan": 3},
                   pool_after=3, deltas={"cat": 6, "dan": -9})


def test_bold_stand_makes_a_last_player_thrown_up_for_looking_at_a_hand_play():
    # Pins docs/engine.md interpretation 25 (sources: not settled): cat looked at another hand
    # (full loo, 3) and must throw up, but is the last in the round of an empty always-double
    # pool: bold stand makes him play the dealer, as one "already committed"; his trick's share
    # stays in the pool. The deal is BOLD's: P = 3, a trick 1; cat T1 (1 stays), dan T2-T3 (2).
    # Pool after 3 - 2 + 3 = 4; cat -3, dan -3 ante + 2 = -1.
    v = play(record(SEATS, "dan", turnup="7D", pool=0,
                    rules=rules(pools="always-double", bold_stand=True),
                    actions="cat ! looked-at-hand; " + BOLD))
    assert v["standers"] == ["cat", "dan"] and winners(v) == ["cat", "dan", "dan"]
    assert violations(v) == [("cat", "looked-at-hand", None, None, "full-loo")]
    assert_settled(v, payouts={"dan": 2}, loos={"cat": 3}, pool_after=4,
                   deltas={"cat": -3, "dan": -1})


def test_bold_stand_does_not_apply_to_a_looed_pool():
    # 3 carried from a loo: the pool is not the dealer's ante alone, so dan takes P = 6
    v = play(record(SEATS, "dan", turnup="7D", pool=3,
                    rules=rules(pools="always-double", bold_stand=True),
                    actions="ann pass; bob pass; cat pass"))
    assert v["tricks"] == []
    assert_settled(v, payouts={"dan": 6}, pool_after=0, deltas={"dan": 3})


def test_bold_stand_changes_nothing_where_an_empty_pool_is_a_simple_pool():
    """Under ``pools: simple-and-double`` a pool holding only the dealer's ante is a simple
    pool, where nobody may pass anyway (000:33, "فرصتی برای انصراف ندارند"); the Portuguese
    source of the option deals the miss on every deal (003:23, 003:31), so the option is
    accepted and bites only at always-double tables (docs/engine.md interpretation 10)."""
    passing = record(SEATS, "dan", turnup="8S", pool=0, rules=rules(bold_stand=True),
                     actions="ann pass\n" + RETRO)
    assert record_errors(passing) == record_errors(passing, rules())
    # the simple pool of test_three_card_simple, played alike: P = 3, cat 2, ann 1; bob, dan
    # looed 3
    v = play(record(SEATS, "dan", turnup="8S", pool=0, rules=rules(bold_stand=True),
                    actions=RETRO))
    assert v["pool_kind"] == "simple" and winners(v) == ["cat", "cat", "ann"]
    assert_settled(v, payouts={"cat": 2, "ann": 1}, loos={"bob": 3, "dan": 3}, pool_after=6,
                   deltas={"ann": 1, "bob": -3, "cat": 2, "dan": -6})


def test_without_bold_stand_play_after_all_pass_is_a_record_error():
    errors = record_errors(record(SEATS, "dan", turnup="7D", pool=0,
                                  rules=rules(pools="always-double"), actions=BOLD))
    assert any(e["index"] == 3 for e in errors), errors


# --- trump_turned ---------------------------------------------------------------------------
# on-first-void: ann 9H 4S KC, bob JH 8S 2C, cat 3S AD 6C; dan passes. Nothing is turned until
# cat cannot follow hearts at T1; then 7S is turned: spades. ann's 9H lead while holding 4S is
# no offence (no trumps yet).
# T1 ann 9H, bob JH, cat 3S (must trump under the new trumps) -> cat
# T2 cat AD (no spade left), ann 4S (void, trumps), bob 8S (overtrumps) -> bob
# T3 bob 2C, cat 6C, ann KC -> ann
FIRST_VOID = """ann stand; bob stand; cat stand; dan pass
ann 9H; bob JH; cat 3S
cat AD; ann 4S; bob 8S
bob 2C; cat 6C; ann KC"""


def test_trumps_turned_on_first_void():
    v = play(record(SEATS, "dan", turnup="7S", pool=6,
                    rules=rules(trump_turned="on-first-void"), actions=FIRST_VOID))
    assert v["trumps"] == "S" and v["status"] == "valid"
    assert winners(v) == ["cat", "bob", "ann"]
    assert [t["leader"] for t in v["tricks"]] == ["ann", "cat", "bob"]
    assert_settled(v, payouts={"ann": 3, "bob": 3, "cat": 3}, pool_after=0,
                   deltas={"ann": 3, "bob": 3, "cat": 3, "dan": -3})


def test_same_play_with_trumps_at_deal_flags_the_opening_lead():
    v = play(record(SEATS, "dan", turnup="7S", pool=6, actions=FIRST_VOID))
    assert ("ann", "failed-to-lead-trump", 1, "9H", "full-loo") in violations(v)


def test_first_void_player_is_judged_under_the_new_trumps():
    # cat discards AD instead of trumping with 3S: failed-to-trump at T1 -> bob's JH wins.
    # T2 bob 8S (trump lead), cat 3S, ann 4S -> bob; T3 bob 2C, cat 6C, ann KC -> ann
    v = play(record(SEATS, "dan", turnup="7S", pool=6, rules=rules(trump_turned="on-first-void"),
                    actions="""ann stand; bob stand; cat stand; dan pass
                    ann 9H; bob JH; cat AD
                    bob 8S; cat 3S; ann 4S
                    bob 2C; cat 6C; ann KC"""))
    assert winners(v) == ["bob", "bob", "ann"]
    assert violations(v) == [("cat", "failed-to-trump", 1, "AD", "full-loo")]
    # P = 9: bob 6, ann 3; cat (no trick) pays once: 3
    assert_settled(v, payouts={"ann": 3, "bob": 6}, loos={"cat": 3}, pool_after=3,
                   deltas={"ann": 3, "bob": 6, "cat": -3, "dan": -3})


def test_a_revoke_turns_trumps_as_the_table_sees_it():
    # ann 9H 4C KC, bob JH 3S 2H, cat TH 6C 5D; 7S the turn-up.
    # T1 ann 9H; bob, holding hearts, plays 3S: the table sees a player not following and turns
    # the 7S, so bob's 3S is a trump and wins (cat's TH follows; no heart beats a trump). The
    # revoke is bob's offence; trumps are not un-turned. (1.1 turned nothing, gave T1 to cat's
    # TH and then flagged bob's lead to T2 as out of turn, an offence nobody committed.)
    # T2 bob JH (no spade to lead), cat 6C, ann 4C -> bob; T3 bob 2H, cat 5D, ann KC -> bob
    v = play(record(SEATS, "dan", turnup="7S", pool=6, rules=rules(trump_turned="on-first-void"),
                    actions="""ann stand; bob stand; cat stand; dan pass
                    ann 9H; bob 3S; cat TH
                    bob JH; cat 6C; ann 4C
                    bob 2H; cat 5D; ann KC"""))
    assert v["trumps"] == "S" and winners(v) == ["bob", "bob", "bob"]
    assert violations(v) == [("bob", "revoke", 1, "3S", "full-loo")]
    # P = 6 + 3 = 9: bob's three tricks stay in the pool, bob pays a full loo (3), ann and cat
    # are looed 3 each -> 9 + 3 + 6 = 18
    assert_settled(v, payouts={}, loos={"ann": 3, "bob": 3, "cat": 3}, pool_after=18,
                   deltas={"ann": -3, "bob": -3, "cat": -3, "dan": -3})


# --- trump_ace_first_trick ------------------------------------------------------------------
# ann 9H KS 2C, bob AD 3D 4S, cat TH 5S 6C; 7D turned.
# T1 ann 9H, bob 3D (void: trumps, but keeps back AD), cat TH -> bob
# T2 bob AD, cat 5S, ann KS -> bob; T3 bob 4S, cat 6C, ann 2C -> bob
ACE_FIRST = """ann stand; bob stand; cat stand; dan pass
ann 9H; bob 3D; cat TH
bob AD; cat 5S; ann KS
bob 4S; cat 6C; ann 2C"""


def test_trump_ace_must_be_played_to_the_first_trick():
    v = play(record(SEATS, "dan", turnup="7D", pool=6, rules=rules(trump_ace_first_trick=True),
                    actions=ACE_FIRST))
    assert winners(v) == ["bob", "bob", "bob"]
    # the contract's list has no name for a follower keeping back the ace; the engine adds
    # "failed-to-play-trump-ace" (deal-record.md lets the project add names)
    assert violations(v) == [("bob", "failed-to-play-trump-ace", 1, "3D", "full-loo")]
    assert "AD" in v["violations"][0]["evidence"]
    # bob's three tricks (9) stay, bob pays 3; ann and cat looed 3 -> 9 + 3 + 6 = 18
    assert_settled(v, payouts={}, loos={"ann": 3, "cat": 3, "bob": 3}, pool_after=18,
                   deltas={"ann": -3, "bob": -3, "cat": -3, "dan": -3})


def test_trump_ace_first_trick_off_by_default():
    v = play(record(SEATS, "dan", turnup="7D", pool=6, actions=ACE_FIRST))
    assert v["status"] == "valid"
    assert_settled(v, payouts={"bob": 9}, loos={"ann": 3, "cat": 3}, pool_after=6,
                   deltas={"ann": -3, "bob": 9, "cat": -3, "dan": -3})


def test_a_card_played_out_of_turn_that_does_not_follow_turns_trumps():
    # ann 9H 4C KC, bob JH 8H 2C, cat 3S AD 6C; 7S the turn-up; dan passes.
    # T1 ann 9H; cat, before bob, plays 3S: the table sees a card not follow and turns the 7S,
    # so cat's 3S is a trump and wins (bob's JH follows). Playing out of turn is cat's offence.
    # (1.1 turned nothing then: bob's JH took T1, and cat's and ann's leads after were each
    # flagged as out of turn, ann's an offence nobody committed.)
    # T2 cat AD (no trump left), ann 4C, bob 2C -> cat; T3 cat 6C, ann KC, bob 8H -> ann
    v = play(record(SEATS, "dan", turnup="7S", pool=6, rules=rules(trump_turned="on-first-void"),
                    actions="""ann stand; bob stand; cat stand; dan pass
                    ann 9H; cat 3S; bob JH
                    cat AD; ann 4C; bob 2C
                    cat 6C; ann KC; bob 8H"""))
    assert v["trumps"] == "S" and winners(v) == ["cat", "cat", "ann"]
    assert violations(v) == [("cat", "played-out-of-turn", 1, "3S", "full-loo")]
    # P = 6 + 3 = 9, a trick 3: ann 3; cat's two tricks stay and cat pays 3; bob looed 3
    # -> 9 - 3 + 3 + 3 = 12
    assert_settled(v, payouts={"ann": 3}, loos={"bob": 3, "cat": 3}, pool_after=12,
                   deltas={"ann": 3, "bob": -3, "cat": -3, "dan": -3})


def test_trump_ace_first_trick_binds_followers_once_a_void_turns_trumps_in_trick_1():
    # on-first-void + trump_ace_first_trick: ann 9H 4C KC, bob 3S JD 2C, cat TH AS 6C; 7S.
    # T1 ann 9H; bob void: spades turned, bob trumps 3S; cat, judged under spades like every
    # later card, keeps back AS for TH: failed-to-play-trump-ace (1.x missed it) -> bob
    # T2 bob 2C (no trump left), cat 6C, ann KC -> ann; T3 ann 4C, bob JD, cat AS -> cat
    v = play(record(SEATS, "dan", turnup="7S", pool=6,
                    rules=rules(trump_turned="on-first-void", trump_ace_first_trick=True),
                    actions="""ann stand; bob stand; cat stand; dan pass
                    ann 9H; bob 3S; cat TH
                    bob 2C; cat 6C; ann KC
                    ann 4C; bob JD; cat AS"""))
    assert winners(v) == ["bob", "ann", "cat"]
    assert violations(v) == [("cat", "failed-to-play-trump-ace", 1, "TH", "full-loo")]
    # P = 6 + 3 = 9, a trick 3: bob 3, ann 3; cat's trick stays, cat pays 3 -> 9 - 6 + 3 = 6
    assert_settled(v, payouts={"ann": 3, "bob": 3}, loos={"cat": 3}, pool_after=6,
                   deltas={"ann": 3, "bob": 3, "cat": -3, "dan": -3})


def test_trumps_turned_on_a_void_in_the_second_trick():
    # ann 9H 5C KS, bob JH 2H 3S. T1 ann 9H, bob JH -> bob (no void, nothing turned);
    # T2 bob 2H (no trumps known: any lead), ann void -> 7C turned, ann must trump: 5C -> ann
    # T3 ann KS, bob 3S -> ann
    v = play(record(SEATS, "dan", turnup="7C", pool=6, rules=rules(trump_turned="on-first-void"),
                    actions="""ann stand; bob stand; cat pass; dan pass
                    ann 9H; bob JH; bob 2H; ann 5C; ann KS; bob 3S"""))
    assert v["trumps"] == "C" and v["status"] == "valid"
    assert winners(v) == ["bob", "ann", "ann"]
    assert_settled(v, payouts={"ann": 6, "bob": 3}, pool_after=0,
                   deltas={"ann": 6, "bob": 3, "dan": -3})


def test_trumps_never_turned_when_nobody_is_void():
    # ann 9H 4H KS, bob JH 2H 3S: everyone follows throughout, so no card is ever turned.
    # T1 ann 9H, bob JH -> bob; T2 bob 2H, ann 4H -> ann; T3 ann KS, bob 3S -> ann
    v = play(record(SEATS, "dan", pool=6, rules=rules(trump_turned="on-first-void"),
                    actions="""ann stand; bob stand; cat pass; dan pass
                    ann 9H; bob JH; bob 2H; ann 4H; ann KS; bob 3S"""))
    assert v["trumps"] is None and v["status"] == "valid"
    assert winners(v) == ["bob", "ann", "ann"]
    assert_settled(v, payouts={"ann": 6, "bob": 3}, pool_after=0,
                   deltas={"ann": 6, "bob": 3, "dan": -3})


def test_miss_taker_with_three_trumps_shows_a_flush():
    # bob takes the miss 2D 3D 4D: a flush; ann, the other stander, is looed
    rec = record(SEATS, "dan", turnup="7D", pool=6, miss=["2D", "3D", "4D"],
                 rules=rules(flush="three-trumps"),
                 actions="ann stand; bob miss; cat pass; dan pass; bob flush")
    v = play(rec)
    assert_settled(v, payouts={"bob": 9}, loos={"ann": 3}, pool_after=3,
                   deltas={"ann": -3, "bob": 9, "dan": -3})


def test_miss_taker_cannot_show_the_redeal_flush():
    # three-trumps-redeal is "если игроку сдали три козыря" (a player *dealt* three trumps,
    # 001:39; the digest: "a player dealt three trumps"): bob's 2D 3D 4D came with the miss,
    # so showing them is a record error (1.1.0 took the pool for him and threw the cards in).
    # Under "three-trumps" a stander holding three trumps shows them, miss-taker included
    # (test_miss_taker_with_three_trumps_shows_a_flush).
    rec = record(SEATS, "dan", turnup="7D", pool=6, miss=["2D", "3D", "4D"],
                 rules=rules(flush="three-trumps-redeal"),
                 actions="ann stand; bob miss; cat pass; dan pass; bob flush")
    errors = record_errors(rec)
    assert [(e["index"], e["player"], e["message"]) for e in errors] == [
        (4, "bob", ("bob took the miss: the three-trumps-redeal flush is three trumps dealt "
                    "to the player, not taken with the miss"))]
    deal = deal_at(rules(flush="three-trumps-redeal"), SEATS, "dan",
                   "ann stand; bob miss; cat pass; dan pass", turnup="7D",
                   pool=6, hands={"ann": ["AH", "KH", "QS"]}, miss=["2D", "3D", "4D"])
    assert {"player": "bob", "action": "flush"} not in deal.legal_actions()


def test_a_defending_dealer_cannot_show_the_redeal_flush_from_the_miss():
    # ann stands alone on AS KS QS, bob and cat pass, dan defends the pool: he plays the miss
    # 2D 3D 4D, three trumps with 7D turned, but not dealt to him (001:39), as with a
    # miss-taker. 1.1.0 threw the cards in (and the miss-taker's fix left the defender out):
    # P = 6 + 3 = 9 stayed in the pool, nobody paid, dan dealt again. It is a record error,
    # and no legal action.
    deal_rules = rules(flush="three-trumps-redeal")
    rec = record(SEATS, "dan", turnup="7D", pool=6, miss=["2D", "3D", "4D"], rules=deal_rules,
                 hands={"ann": ["AS", "KS", "QS"]},
                 actions="ann stand; bob pass; cat pass; dan defend; dan flush")
    errors = record_errors(rec)
    assert [(e["index"], e["player"], e["message"]) for e in errors] == [
        (4, "dan", ("dan defends the pool with the miss: the three-trumps-redeal flush is three "
                    "trumps dealt to the player, not taken with the miss"))]
    deal = deal_at(deal_rules, SEATS, "dan", "ann stand; bob pass; cat pass; dan defend",
                   turnup="7D", pool=6, hands={"ann": ["AS", "KS", "QS"]},
                   miss=["2D", "3D", "4D"])
    assert {"player": "dan", "action": "flush"} not in deal.legal_actions()
    # played out instead: ann AS, KS, QS against 2D 3D 4D (spades led, dan void: must trump)
    # T1 ann AS, dan 2D -> dan; T2 dan 3D (trump lead), ann KS -> dan; T3 dan 4D, ann QS -> dan
    # the defender takes all three: the pool of 9 stays whole and ann is looed 3 -> 12
    v = play(dict(rec, actions=rec["actions"][:4] + [
        {"player": p, "action": "play", "card": c}
        for p, c in [("ann", "AS"), ("dan", "2D"), ("dan", "3D"), ("ann", "KS"),
                     ("dan", "4D"), ("ann", "QS")]]))
    assert winners(v) == ["dan", "dan", "dan"] and v["defender"] == "dan"
    assert_settled(v, payouts={}, loos={"ann": 3}, pool_after=12,
                   deltas={"ann": -3, "dan": -3})


def test_legal_actions_offer_the_redeal_flush_to_a_player_dealt_three_trumps():
    # three-trumps-redeal is three trumps dealt (001:39), shown whenever before the play, by a
    # player who passed too (push takes it then). legal_actions offered it only to a stander
    # after the declarations, never while declaring nor to one who passed. ann is dealt
    # 2D 3D 4D with 7D turned; dan deals.
    deal_rules = rules(flush="three-trumps-redeal")
    hands = {"ann": ["2D", "3D", "4D"], "bob": ["AS", "KS", "QS"]}
    flush = {"player": "ann", "action": "flush"}
    deal = deal_at(deal_rules, SEATS, "dan", turnup="7D", pool=6, hands=hands,
                   miss=["5C", "6C", "7C"])
    assert deal.legal_actions() == [{"player": "ann", "action": a}
                                    for a in ("stand", "pass", "take-miss")] + [flush]
    deal.push({"player": "ann", "action": "pass"})
    assert flush in deal.legal_actions()  # bob to declare; ann may still show
    for kind in ("stand", "stand", "pass"):
        deal.push({"player": deal.to_act, "action": kind})
    assert deal.phase == "flush" and deal.legal_actions()[0] == flush  # bob and cat stood
    deal.push(flush)
    # ann takes P = 6 + 3 = 9, nobody is looed, dan deals again
    v = deal.verdict()
    assert v["ended"] == "redeal" and v["next"]["dealer"] == "dan"
    assert (v["settlement"]["payouts"], v["settlement"]["pool_after"]) == ({"ann": 9}, 0)


def test_flush_against_a_defending_dealer_who_pays_nothing():
    # ann alone shows AD 9D 2D; dan, defending, is no stander and is never looed
    rec = record(SEATS, "dan", turnup="7D", pool=6, hands={"ann": ["AD", "9D", "2D"]},
                 rules=rules(flush="three-trumps"),
                 actions="ann stand; bob pass; cat pass; dan defend; ann flush")
    v = play(rec)
    assert v["tricks"] == []
    assert_settled(v, payouts={"ann": 9}, pool_after=0, deltas={"ann": 9, "dan": -3})


# --- ante_first_deal_only -------------------------------------------------------------------
@pytest.mark.parametrize("number, antes, pool", [(1, {"dan": 3}, 9), (2, {}, 6)])
def test_ante_first_deal_only_antes_on_the_first_deal_alone(number, antes, pool):
    # Everybody passes: dan takes the pool. Deal 1 antes 3 on the 6 carried (P 9); deal 2
    # antes nothing (P 6). dan's net is the carried 6 either way.
    v = play(record(SEATS, "dan", turnup="7D", pool=6, number=number,
                    rules=rules(ante_first_deal_only=True),
                    actions="ann pass; bob pass; cat pass"))
    assert v["settlement"]["antes"] == antes
    assert_settled(v, payouts={"dan": pool}, pool_after=0, deltas={"dan": 6})


def test_without_ante_first_deal_only_every_deal_antes():
    v = play(record(SEATS, "dan", turnup="7D", pool=6, number=2, rules=rules(),
                    actions="ann pass; bob pass; cat pass"))
    assert v["settlement"]["antes"] == {"dan": 3}


def test_ante_double_on_the_first_deal_only():
    # ante_double (Russian: everybody 3 for a double pool) with ante_first_deal_only: deal 1 is
    # a double pool (6 carried), so all four ante 3: P = 6 + 12 = 18, everyone passes, dan takes
    # it (+18 - 3 = +15). Deal 2 antes nothing: dan takes the 6 carried.
    opts = rules(ante_double={"dealer": 3, "each": 3}, ante_first_deal_only=True)
    first = play(record(SEATS, "dan", turnup="7D", pool=6, number=1, rules=opts,
                        actions="ann pass; bob pass; cat pass"))
    assert_settled(first, pool=18, payouts={"dan": 18}, pool_after=0,
                   deltas={"ann": -3, "bob": -3, "cat": -3, "dan": 15})
    later = play(record(SEATS, "dan", turnup="7D", pool=6, number=2, rules=opts,
                        actions="ann pass; bob pass; cat pass"))
    assert later["settlement"]["antes"] == {}
    assert_settled(later, pool=6, payouts={"dan": 6}, pool_after=0, deltas={"dan": 6})
