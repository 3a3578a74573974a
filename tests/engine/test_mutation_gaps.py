"""Hand-worked tests for the gaps a mutation audit of the engine found (docs/engine-tests.md,
"Mutation audit (5 Dec 2026)"): each fails on a plausible wrong engine that every other test
let through. Grouped by the rule of loo-rules.md they pin.
"""
import pytest

from games.rules import end_pool_split
from tests.engine import dealkit as kit
from tests.engine.outcome import FIVE
from tests.engine.test_five_card_declare import TURNUP_DEAL
from tests.engine.test_five_card_flush import FIVE_SEATS, TIE_ACTIONS, no_play, settled

SEATS = "ann bob cat dan"


# --- s.2 trump_turned "on-first-void" ---------------------------------------------------------
def test_on_first_void_a_led_suit_turned_trumps_keeps_its_best_card_best():
    # ann 5H 4S KC, bob QH 8S 2C, cat 3C AD 6C, dan 2H 9S 5D; dan deals, pool 6, all stand.
    # T1 ann 5H (no trumps yet: no lead duty), bob QH heads it; cat has no heart: the 7H is
    # turned, so hearts are trumps and the cards already played are trumps too. dan's 2H is a
    # trump below bob's QH: bob wins T1 (judged with stale strengths the 2H, a trump, would
    # beat the QH, still counted a plain heart).
    # T2 bob 8S (no trump to lead), cat AD (void, no trump), dan 9S heads, ann 4S -> dan
    # T3 dan 5D, ann KC, bob 2C, cat 6C (none can follow, no trumps) -> dan
    # P = 6 + 3 = 9, 3 a trick: bob 3, dan 6; ann and cat looed 3 each -> pool 6.
    rec = kit.record(SEATS, "dan", turnup="7H", pool=6,
                     rules={"game": "three-card", "trump_turned": "on-first-void"},
                     hands={"ann": ["5H", "4S", "KC"], "bob": ["QH", "8S", "2C"],
                            "cat": ["3C", "AD", "6C"], "dan": ["2H", "9S", "5D"]},
                     actions="""ann stand; bob stand; cat stand; dan stand
                     ann 5H; bob QH; cat 3C; dan 2H
                     bob 8S; cat AD; dan 9S; ann 4S
                     dan 5D; ann KC; bob 2C; cat 6C""")
    v = kit.play(rec)
    assert v["trumps"] == "H" and kit.winners(v) == ["bob", "dan", "dan"]
    assert kit.violations(v) == []
    kit.assert_settled(v, payouts={"bob": 3, "dan": 6}, loos={"ann": 3, "cat": 3},
                       pool_after=6, deltas={"ann": -3, "bob": 3, "cat": -3, "dan": 3})


# --- s.4 turnup_to_dealer: the standing dealer discards at least one card -------------------
@pytest.mark.parametrize("draw", [None, []], ids=["draw-not-written", "draws-none"])
def test_a_dealer_taking_the_turnup_without_a_discard_is_refused_by_that_rule(draw):
    # TURNUP_DEAL with dan's exchange (action 4) discarding nothing: taking the QS he would
    # hold six cards. Refused, whether or not the record writes his (empty) draw, and for that
    # reason, not for a draw that does not add up.
    actions = kit.parse_actions(TURNUP_DEAL)
    actions[4] = {"player": "dan", "action": "exchange", "discard": []}
    if draw is not None:
        actions[4]["draw"] = draw
    errors = kit.record_errors(kit.record(SEATS, "dan", rules=FIVE, turnup="QS", actions=actions))
    assert [(e["index"], e["player"], e["message"]) for e in errors if e["index"] == 4] == [
        (4, "dan", "dan: the dealer takes the turn-up and must discard at least one card")]


# --- s.4 flushes: flush_ties "high-card-then-split" -----------------------------------------
def test_high_card_then_split_goes_by_the_top_card_not_the_lower_ones():
    # Five players, bob deals; from eldest: cat, dan, eve, ann, bob. dan's spades are ace high
    # but otherwise low (2 3 4 5 A); ann's diamonds are king high and otherwise high
    # (9 T J Q K). "The higher top card wins" (001:58): dan's ace beats ann's king, so dan
    # takes P = 10 + 5 = 15; cat stood without a flush, looed 5; bob antes 5 -> pool 5.
    got = settled({**FIVE, "flush_ties": "high-card-then-split"},
                  {"dan": ["2S", "3S", "4S", "5S", "AS"], "ann": ["9D", "TD", "JD", "QD", "KD"]},
                  TIE_ACTIONS, seats=FIVE_SEATS, dealer="bob")
    assert got == no_play({"dan": 15}, {"cat": 5}, 5, {"dan": 15, "cat": -5, "bob": -5},
                          next_dealer="cat")


# --- s.7 end_pool "split" ---------------------------------------------------------------------
def test_end_pool_split_gives_the_odd_units_from_eldest_in_seat_order():
    # 11 among four: 2 each and 3 odd units. Eldest (left of the next dealer) is bob, so the odd
    # units go to bob, cat, dan; ann gets 2. 3+3+3+2 = 11.
    assert end_pool_split(11, ["ann", "bob", "cat", "dan"], "bob") == {
        "ann": 2, "bob": 3, "cat": 3, "dan": 3}
    # eldest dan: the odd units go round the table to dan, ann, bob
    assert end_pool_split(11, ["ann", "bob", "cat", "dan"], "dan") == {
        "ann": 3, "bob": 3, "cat": 2, "dan": 3}
