"""Three-card Loo play duties (loo-rules.md section 2, "Play"): leading trumps (lead_trump,
lead_trump_ace, lead_highest_trump), following, heading (must_head), trumping (must_trump),
overtrumping and must_undertrump; replayed deals and Deal.legal_plays / play_violation."""
import pytest

from tests.engine.dealkit import assert_settled, deal_at, play, record, violations, winners

SEATS = "ann bob cat dan"
TWO = "ann stand; bob stand; cat pass; dan pass\n"     # ann and bob play, 7D turned, pool 6
THREE = "ann stand; bob stand; cat stand; dan pass\n"


def two(actions: str, turnup: str = "7D", **rules) -> dict:
    return record(SEATS, "dan", turnup=turnup, pool=6, actions=TWO + actions,
                  rules={"game": "three-card", **rules})


def three(actions: str, **rules) -> dict:
    return record(SEATS, "dan", turnup="7D", pool=6, actions=THREE + actions,
                  rules={"game": "three-card", **rules})


# --- lead_trump -----------------------------------------------------------------------------
# Second lead: ann 2D 9H 8C, bob AD TH 4D.
# T1 ann 2D, bob AD -> bob; T2 bob TH (holds 4D!), ann 9H -> bob; T3 bob 4D, ann 8C -> bob
SECOND_LEAD = "ann 2D; bob AD; bob TH; ann 9H; bob 4D; ann 8C"
# Opening lead: ann 9H 2D 8C, bob AD TH 4D.
# T1 ann 9H (holds 2D!), bob TH -> bob; T2 bob AD, ann 2D -> bob; T3 bob 4D, ann 8C -> bob
OPENING_LEAD = "ann 9H; bob TH; bob AD; ann 2D; bob 4D; ann 8C"


@pytest.mark.parametrize("mode, flagged", [
    ("every-trick", True), ("first-two-tricks", True), ("first-trick", False), ("none", False)])
def test_lead_trump_on_the_second_lead(mode, flagged):
    v = play(two(SECOND_LEAD, lead_trump=mode))
    assert winners(v) == ["bob", "bob", "bob"]
    if flagged:
        assert violations(v) == [("bob", "failed-to-lead-trump", 2, "TH", "full-loo")]
        assert "4D" in v["violations"][0]["evidence"]
        # bob's three tricks (all P = 9) stay in the pool; bob pays a full loo 3 and ann,
        # looed, 3: next pool 9 + 3 + 3 = 15
        assert v["status"] == "irregular"
        assert_settled(v, payouts={}, loos={"ann": 3, "bob": 3}, pool_after=15,
                       deltas={"ann": -3, "bob": -3, "dan": -3})
    else:
        assert v["status"] == "valid" and violations(v) == []
        # bob takes all P = 9; ann looed 3
        assert_settled(v, payouts={"bob": 9}, loos={"ann": 3}, pool_after=3,
                       deltas={"ann": -3, "bob": 9, "dan": -3})


@pytest.mark.parametrize("mode, flagged", [
    ("every-trick", True), ("first-two-tricks", True), ("first-trick", True), ("none", False)])
def test_lead_trump_on_the_opening_lead(mode, flagged):
    v = play(two(OPENING_LEAD, lead_trump=mode))
    assert winners(v) == ["bob", "bob", "bob"]
    assert violations(v) == ([("ann", "failed-to-lead-trump", 1, "9H", "full-loo")] if flagged else [])
    # bob takes all 9 either way; ann is looed once (the penalty replaces the loo): 3
    assert_settled(v, payouts={"bob": 9}, loos={"ann": 3}, pool_after=3,
                   deltas={"ann": -3, "bob": 9, "dan": -3})


# --- lead_trump_ace, lead_highest_trump ------------------------------------------------------
# ann X 3D 9H, bob Y 5S TH: T1 ann 3D, bob Y (heads) -> bob; T2 bob TH, ann 9H -> bob;
# T3 bob 5S, ann X (void, trumps) -> ann.  Offender ann: her 3 stays, she pays 3; bob 6.
ACE_DEAL = "ann 3D; bob {y}; bob TH; ann 9H; bob 5S; ann {x}"


@pytest.mark.parametrize("turnup, x, y", [("7D", "AD", "KD"), ("AD", "KD", "QD")])
def test_lead_trump_ace_or_king_under_a_turned_ace(turnup, x, y):
    v = play(two(ACE_DEAL.format(x=x, y=y), turnup=turnup))
    assert winners(v) == ["bob", "bob", "ann"]
    assert violations(v) == [("ann", "failed-to-lead-trump-ace", 1, "3D", "full-loo")]
    # P = 9: bob 6; ann's 3 stays and she pays 3 -> 9 - 6 + 3 = 6
    assert_settled(v, payouts={"bob": 6}, loos={"ann": 3}, pool_after=6,
                   deltas={"ann": -3, "bob": 6, "dan": -3})


def test_lead_trump_ace_off_allows_any_trump():
    v = play(two(ACE_DEAL.format(x="AD", y="KD"), lead_trump_ace=False))
    assert v["status"] == "valid"
    assert_settled(v, payouts={"bob": 6, "ann": 3}, pool_after=0,
                   deltas={"ann": 3, "bob": 6, "dan": -3})


def test_leading_the_king_under_a_turned_ace_is_correct():
    # ann KD 3D 9H with AD turned: T1 ann KD, bob QD -> ann; T2 ann 3D, bob 5S (void) -> ann;
    # T3 ann 9H, bob TH -> bob
    v = play(two("ann KD; bob QD; ann 3D; bob 5S; ann 9H; bob TH", turnup="AD"))
    assert v["status"] == "valid" and winners(v) == ["ann", "ann", "bob"]
    assert_settled(v, payouts={"ann": 6, "bob": 3}, pool_after=0,
                   deltas={"ann": 6, "bob": 3, "dan": -3})


@pytest.mark.parametrize("on", [True, False])
def test_lead_highest_trump(on):
    # ann QD 3D 9H, bob KD 5S TH: T1 ann 3D with QD held
    v = play(two(ACE_DEAL.format(x="QD", y="KD"), lead_highest_trump=on))
    assert winners(v) == ["bob", "bob", "ann"]
    if on:
        assert violations(v) == [("ann", "failed-to-lead-highest-trump", 1, "3D", "full-loo")]
        assert_settled(v, payouts={"bob": 6}, loos={"ann": 3}, pool_after=6,
                       deltas={"ann": -3, "bob": 6, "dan": -3})
    else:
        assert violations(v) == []
        assert_settled(v, payouts={"bob": 6, "ann": 3}, pool_after=0,
                       deltas={"ann": 3, "bob": 6, "dan": -3})


# --- must_head / must_trump ------------------------------------------------------------------
# must_head: ann 5D 9H 8C, bob KD 2D QH.
# T1 ann 5D, bob 2D (holds KD: failed to head) -> ann; T2 ann 9H, bob QH -> bob; T3 bob KD, ann 8C -> bob
HEAD = "ann 5D; bob 2D; ann 9H; bob QH; bob KD; ann 8C"
# must_trump: ann AH 5H 8C, bob 2D 6S 7S.
# T1 ann AH, bob 6S (void in hearts, holds 2D: failed to trump) -> ann; T2 ann 5H, bob 2D -> bob;
# T3 bob 7S, ann 8C -> bob
TRUMP = "ann AH; bob 6S; ann 5H; bob 2D; bob 7S; ann 8C"


@pytest.mark.parametrize("plays, option, rule, card", [
    (HEAD, "must_head", "failed-to-head", "2D"), (TRUMP, "must_trump", "failed-to-trump", "6S")])
def test_heading_and_trumping_duties(plays, option, rule, card):
    v = play(two(plays))
    assert winners(v) == ["ann", "bob", "bob"]
    assert violations(v) == [("bob", rule, 1, card, "full-loo")]
    # P = 9: ann 3; bob's 6 stays, bob pays 3 -> 9 - 3 + 3 = 9
    assert_settled(v, payouts={"ann": 3}, loos={"bob": 3}, pool_after=9,
                   deltas={"ann": 3, "bob": -3, "dan": -3})
    off = play(two(plays, **{option: False}))
    assert off["status"] == "valid"
    assert_settled(off, payouts={"ann": 3, "bob": 6}, pool_after=0,
                   deltas={"ann": 3, "bob": 6, "dan": -3})


# --- overtrump / must_undertrump -------------------------------------------------------------
def test_failed_to_overtrump():
    # ann AH KS 3C, bob 4D QS 5C, cat 9D 2D JS.
    # T1 ann AH, bob 4D (trumps), cat 2D (holds 9D, could overtrump) -> bob
    # T2 bob QS (no trump), cat JS, ann KS -> ann; T3 ann 3C, bob 5C, cat 9D -> cat
    v = play(three("ann AH; bob 4D; cat 2D; bob QS; cat JS; ann KS; ann 3C; bob 5C; cat 9D"))
    assert winners(v) == ["bob", "ann", "cat"]
    assert violations(v) == [("cat", "failed-to-overtrump", 1, "2D", "full-loo")]
    # P = 9: ann 3, bob 3; cat's 3 stays, cat pays 3 -> 3 + 3 = 6
    assert_settled(v, payouts={"ann": 3, "bob": 3}, loos={"cat": 3}, pool_after=6,
                   deltas={"ann": 3, "bob": 3, "cat": -3, "dan": -3})


# ann AH KS 3C, bob 9D QS 5C, cat 2D JS 4C.
# T1 ann AH, bob 9D (trumps), cat 4C (cannot beat 9D: any card by default) -> bob
# T2 bob QS, cat JS, ann KS -> ann; T3 ann 3C, bob 5C, cat 2D (void, trumps) -> cat
UNDER = "ann AH; bob 9D; cat 4C; bob QS; cat JS; ann KS; ann 3C; bob 5C; cat 2D"


def test_unable_to_overtrump_may_play_any_card():
    v = play(three(UNDER))
    assert v["status"] == "valid" and winners(v) == ["bob", "ann", "cat"]
    assert_settled(v, payouts={"ann": 3, "bob": 3, "cat": 3}, pool_after=0,
                   deltas={"ann": 3, "bob": 3, "cat": 3, "dan": -3})


def test_must_undertrump():
    v = play(three(UNDER, must_undertrump=True))
    assert violations(v) == [("cat", "failed-to-trump", 1, "4C", "full-loo")]
    # cat's 3 stays, cat pays 3: 3 + 3 = 6
    assert_settled(v, payouts={"ann": 3, "bob": 3}, loos={"cat": 3}, pool_after=6,
                   deltas={"ann": 3, "bob": 3, "cat": -3, "dan": -3})


def test_trick_goes_to_highest_trump_else_highest_of_suit_led():
    # ann AH KS 3C, bob 9D QS 5C, cat 2D JS 4C: T2 KS beats QS and JS; T3 the 2D beats both clubs
    v = play(three(UNDER))
    assert [t["cards"] for t in v["tricks"]][2] == {"ann": "3C", "bob": "5C", "cat": "2D"}
    assert v["tricks"][1]["leader"] == "bob" and v["tricks"][2]["leader"] == "ann"


# --- Deal.legal_plays / play_violation on mid-deal states -----------------------------------
HANDS = {"ann": ["AH", "5H", "3C"], "bob": ["9D", "QS", "5C"],
         "cat": ["2D", "9H", "4H"], "dan": ["KD", "2S", "6C"]}
RULES = {"game": "three-card"}


def mid(actions: str, rules=None, hands=None, turnup="7D"):
    return deal_at(rules or RULES, SEATS, "dan", actions, pool=6, hands=hands or HANDS,
                   miss=["8S", "8H", "8C"], turnup=turnup)


def test_leader_must_lead_a_trump_and_the_ace():
    deal = mid("ann stand; bob stand; cat stand; dan stand")
    assert deal.phase == "play" and deal.to_act == "ann"
    assert sorted(deal.legal_plays("ann")) == ["3C", "5H", "AH"]   # ann has no trump
    deal = mid("ann stand; bob stand; cat stand; dan stand; ann AH; bob 9D; cat 4H; dan KD")
    assert deal.to_act == "dan"                                    # KD overtrumps 9D
    assert sorted(deal.legal_plays("dan")) == ["2S", "6C"]         # no trump left: any lead
    hands = dict(HANDS, ann=["AD", "5D", "3C"], bob=["JH", "QS", "5C"])
    deal = mid("ann stand; bob stand; cat stand; dan stand", hands=hands)
    assert deal.legal_plays("ann") == ["AD"]
    assert deal.play_violation("ann", "5D") == "failed-to-lead-trump-ace"
    assert deal.play_violation("ann", "3C") in ("failed-to-lead-trump", "failed-to-lead-trump-ace")
    deal = mid("ann stand; bob stand; cat stand; dan stand", hands=hands,
               rules={"game": "three-card", "lead_trump_ace": False})
    assert sorted(deal.legal_plays("ann")) == ["5D", "AD"]
    assert deal.play_violation("ann", "3C") == "failed-to-lead-trump"
    hands = dict(HANDS, ann=["QD", "5D", "3C"], bob=["JH", "QS", "5C"])
    deal = mid("ann stand; bob stand; cat stand; dan stand", hands=hands,
               rules={"game": "three-card", "lead_highest_trump": True})
    assert deal.legal_plays("ann") == ["QD"]
    assert deal.play_violation("ann", "5D") == "failed-to-lead-highest-trump"


def test_follower_must_follow_and_head():
    deal = mid("ann stand; bob stand; cat stand; dan pass; ann 5H; bob 9D")
    # bob trumped (void in hearts): cat holds 9H 4H; neither can beat a trump -> either heart
    assert sorted(deal.legal_plays("cat")) == ["4H", "9H"]
    assert deal.play_violation("cat", "2D") == "revoke"
    deal = mid("ann stand; bob pass; cat stand; dan pass; ann 5H")
    assert deal.to_act == "cat"
    assert deal.legal_plays("cat") == ["9H"]                       # must head 5H
    assert deal.play_violation("cat", "4H") == "failed-to-head"
    assert deal.play_violation("cat", "2D") == "revoke"
    assert deal.play_violation("cat", "9H") is None
    no_head = mid("ann stand; bob pass; cat stand; dan pass; ann 5H",
                  rules={"game": "three-card", "must_head": False})
    assert sorted(no_head.legal_plays("cat")) == ["4H", "9H"]


def test_void_follower_must_trump_and_overtrump():
    deal = mid("ann stand; bob stand; cat pass; dan pass; ann AH")
    assert deal.legal_plays("bob") == ["9D"]
    assert deal.play_violation("bob", "QS") == "failed-to-trump"
    hands = dict(HANDS, cat=["2D", "JD", "4S"])
    deal = mid("ann stand; bob stand; cat stand; dan pass; ann AH; bob 9D", hands=hands)
    assert deal.legal_plays("cat") == ["JD"]
    assert deal.play_violation("cat", "2D") == "failed-to-overtrump"
    assert deal.play_violation("cat", "4S") in ("failed-to-overtrump", "failed-to-trump")
    hands = dict(HANDS, cat=["2D", "4S", "6S"])
    deal = mid("ann stand; bob stand; cat stand; dan pass; ann AH; bob 9D", hands=hands)
    assert sorted(deal.legal_plays("cat")) == ["2D", "4S", "6S"]   # cannot beat 9D: any card
    deal = mid("ann stand; bob stand; cat stand; dan pass; ann AH; bob 9D", hands=hands,
               rules={"game": "three-card", "must_undertrump": True})
    assert deal.legal_plays("cat") == ["2D"]
    assert deal.play_violation("cat", "4S") == "failed-to-trump"
    no_trump = mid("ann stand; bob stand; cat pass; dan pass; ann AH",
                   rules={"game": "three-card", "must_trump": False})
    assert sorted(no_trump.legal_plays("bob")) == ["5C", "9D", "QS"]


def test_simple_pool_first_trick_has_no_trump_duty_in_legal_plays():
    hands = {"ann": ["9H", "QC", "2D"], "bob": ["KH", "5C", "7D"],
             "cat": ["4S", "JD", "3C"], "dan": ["AH", "TC", "6D"]}
    deal = deal_at(RULES, SEATS, "dan", "ann 9H; bob KH", pool=0, hands=hands, turnup="8S")
    assert deal.to_act == "cat"
    assert sorted(deal.legal_plays("cat")) == ["3C", "4S", "JD"]
    assert deal.play_violation("cat", "3C") is None
    deal.push({"player": "cat", "action": "play", "card": "3C"})
    assert deal.legal_plays("dan") == ["AH"]                       # must head KH


def test_simple_pool_first_trick_heading_ignores_the_trumps_still_unknown():
    # cat's 4S will be a trump once 8S is turned, but while trick 1 is played the best card is
    # bob's KH, so dan must still head it with AH
    hands = {"ann": ["9H", "QC", "2D"], "bob": ["KH", "5C", "7D"],
             "cat": ["4S", "JD", "3C"], "dan": ["AH", "6H", "6D"]}
    deal = deal_at(RULES, SEATS, "dan", "ann 9H; bob KH; cat 4S", pool=0, hands=hands,
                   turnup="8S")
    assert deal.legal_plays("dan") == ["AH"]
    assert deal.play_violation("dan", "6H") == "failed-to-head"
