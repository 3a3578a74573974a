"""Section 6 of loo-rules.md across the games and their interactions (a rules audit): misdeals
at Irish and five-card Loo, play offences at Irish Loo (a defending dealer's too), looking at
another hand once committed (a simple pool, an Irish or five-card stander before the exchange)
or after passing, the full loo "P as it stood" under unlimited and mixed loo, one player's
several offences, `penalty_and_loo: both` beside a defence, a flush and at poker-Loo, and a
play offence by the player sitting a poker-Loo redeal out. Every figure is worked out by hand
in the comment beside it; `play` checks conservation."""
import pytest

from tests.engine.dealkit import assert_settled, play, record, record_errors, violations, winners
from tests.engine.outcome import offended, replayed
from tests.engine.test_five_card_flush import PLAIN_SPADES
from tests.engine.test_five_card_play import LEAD_WINNERS, TRUMP_FIRST, TWO_STAND
from tests.engine.test_irish import DECLARE as IRISH_DECLARE
from tests.engine.test_irish import EXCHANGE as IRISH_EXCHANGE
from tests.engine.test_irish import PLAYS as IRISH_PLAYS
from tests.engine.test_irish import irish
from tests.engine.test_poker_loo import FIRST_THREE_ONE_ONE
from tests.engine.test_three_card_double import DECLARE, MISS, SEATS, TRICK1, TRICK3
from tests.engine.test_three_card_simple import RETRO


def three(*parts: str, pool: int = 6, **options) -> dict:
    """The standard double pool (test_three_card_double): ann AD 9H 4C, bob the miss KD 3H 8C,
    cat QS 5S 2H, dan passes; winners ann, ann, bob."""
    return record(SEATS, "dan", turnup="7D", pool=pool, miss=MISS, actions="\n".join(parts),
                  rules={"game": "three-card", **options})


# --- misdeals -------------------------------------------------------------------------------
@pytest.mark.parametrize(("game", "pool", "single"), [("irish", 6, 3), ("five-card", 10, 5)])
def test_a_misdeal_at_irish_and_five_card_loo(game, pool, single):
    # The dealer pays a single loo (loo_amount: 3 at Irish, 5 at five-card) into the pool and
    # deals again; the void deal takes no ante: pool + single carried, dan -single.
    v = play(record(SEATS, "dan", turnup="7D", pool=pool, rules={"game": game},
                    actions="dan ! misdeal"))
    assert v["ended"] == "misdeal" and v["tricks"] == []
    assert violations(v) == [("dan", "misdeal", None, None, "single-loo")]
    assert_settled(v, payouts={}, penalties={"dan": single}, pool_after=pool + single,
                   deltas={"dan": -single})
    assert v["settlement"]["antes"] == {}
    assert (v["next"]["dealer"], v["next"]["pool"]) == ("dan", pool + single)


def test_a_single_loo_paid_before_a_misdeal_stays_in_the_pool():
    # cat looks at his cards out of turn (3, paid at once), then dan misdeals (3): the deal is
    # void, no ante; both single loos stay for the redeal: 6 + 3 + 3 = 12.
    v = play(three("cat ! looked-out-of-turn; dan ! misdeal"))
    assert violations(v) == [("cat", "looked-out-of-turn", None, None, "single-loo"),
                             ("dan", "misdeal", None, None, "single-loo")]
    assert_settled(v, payouts={}, penalties={"cat": 3, "dan": 3}, pool_after=12,
                   deltas={"cat": -3, "dan": -3})
    assert v["next"]["dealer"] == "dan"


# --- Irish Loo ------------------------------------------------------------------------------
# After the exchange ann holds KD QD AS, cat 4D 9S JH, dan AD 5H 6S; 7D turned (diamonds).
# dan revokes: 5H to ann's KD lead holding AD.
# T1 ann KD, cat 4D, dan 5H -> ann; T2 ann QD (a trump is due), cat 9S, dan AD -> dan;
# T3 dan 6S, ann AS, cat JH -> ann
IRISH_REVOKE = "ann KD; cat 4D; dan 5H\nann QD; cat 9S; dan AD\ndan 6S; ann AS; cat JH"


def test_an_irish_revoke_costs_a_full_loo_and_the_winnings_stay():
    v = play(irish(IRISH_DECLARE, IRISH_EXCHANGE, IRISH_REVOKE, pool=6))
    assert winners(v) == ["ann", "dan", "ann"]
    assert violations(v) == [("dan", "revoke", 1, "5H", "full-loo")]
    assert v["violations"][0]["evidence"] == "held AD when KD was led"
    # P = 6 + 3 = 9, a trick 3: ann 6; dan's trick stays; dan pays the full loo 3, cat (no
    # trick) is looed 3: 9 - 6 + 3 + 3 = 9. dan -3 ante -3 = -6.
    assert_settled(v, pool=9, payouts={"ann": 6}, loos={"dan": 3, "cat": 3}, pool_after=9,
                   deltas={"ann": 6, "cat": -3, "dan": -6})


def test_an_irish_stander_who_looks_at_a_hand_before_his_exchange_is_committed():
    # ann stood; before the exchange she looks at another hand. Standing commits her ("a player
    # who stands must take part", 000:127): she exchanges and plays on (docs/engine.md
    # interpretation 5). Winners dan, ann, ann: P = 9, dan 3; ann's two tricks (6) stay; ann's
    # full loo 3, cat looed 3: 9 - 3 + 6 = 12. dan -3 + 3 = 0.
    v = play(irish(IRISH_DECLARE, "ann ! looked-at-hand", IRISH_EXCHANGE, IRISH_PLAYS, pool=6))
    assert winners(v) == ["dan", "ann", "ann"] and v["standers"] == ["ann", "cat", "dan"]
    assert violations(v) == [("ann", "looked-at-hand", None, None, "full-loo")]
    assert_settled(v, pool=9, payouts={"dan": 3}, loos={"ann": 3, "cat": 3}, pool_after=12,
                   deltas={"ann": -3, "cat": -3})


@pytest.mark.parametrize("both", [False, True])
def test_an_irish_dealer_defending_with_his_own_hand_who_revokes_pays_too(both):
    # ann AD 5H 6C stands alone; dan defends with his own 3D KH KC and plays KC to AD holding
    # 3D. T1 ann AD, dan KC -> ann; T2 ann 5H, dan KH -> dan; T3 dan 3D, ann 6C -> dan.
    # P = 9: ann 3; the defender's shares stay; dan pays the full loo 3 (a defender is never
    # looed, so `both` charges him once too): 9 - 3 + 3 = 9; dan -6.
    options = {"penalty_and_loo": "both"} if both else {}
    v = play(irish("ann stand; bob pass; cat pass; dan defend", "ann exchange; dan exchange",
                   "ann AD; dan KC; ann 5H; dan KH; dan 3D; ann 6C", pool=6,
                   hands={"ann": ["AD", "5H", "6C"], "dan": ["3D", "KH", "KC"]}, **options))
    assert v["defender"] == "dan" and winners(v) == ["ann", "dan", "dan"]
    assert violations(v) == [("dan", "revoke", 1, "KC", "full-loo")]
    assert_settled(v, payouts={"ann": 3}, loos={"dan": 3}, pool_after=9,
                   deltas={"ann": 3, "dan": -6})


# --- looking at another hand ----------------------------------------------------------------
def test_looking_at_a_hand_in_a_simple_pool_plays_on_and_the_winnings_stay():
    # Nobody may pass in a simple pool, so "throw up" is impossible: cat, who looked at another
    # hand, is committed from the deal. RETRO: winners cat, cat, ann. P = 3, a trick 1: ann 1;
    # cat's 2 stay; cat's full loo 3, bob and dan looed 3: 3 - 1 + 9 = 11.
    v = play(record(SEATS, "dan", turnup="8S", pool=0, actions="cat ! looked-at-hand\n" + RETRO))
    assert v["pool_kind"] == "simple" and winners(v) == ["cat", "cat", "ann"]
    assert violations(v) == [("cat", "looked-at-hand", 1, None, "full-loo")]
    assert_settled(v, pool=3, payouts={"ann": 1}, loos={"cat": 3, "bob": 3, "dan": 3},
                   pool_after=11, deltas={"ann": 1, "bob": -3, "cat": -3, "dan": -6})
    errors = record_errors(record(SEATS, "dan", turnup="8S", pool=0,
                                  actions="cat ! looked-at-hand; cat pass\n" + RETRO))
    assert [(e["index"], e["player"]) for e in errors][:1] == [(1, "cat")], errors


def test_a_five_card_stander_who_looks_at_a_hand_before_the_exchange_is_committed():
    # ann and bob stand (TRUMP_FIRST of test_five_card_play); ann then looks at another hand:
    # committed, she plays on. Winners ann, ann, bob, ann, bob: P = 5 + 5 = 10, a trick 2:
    # bob 4; ann's three tricks (6) stay; ann's full loo 5: 10 - 4 + 5 = 11.
    actions = TWO_STAND + "ann ! looked-at-hand\n" + TRUMP_FIRST[len(TWO_STAND):]
    assert replayed(actions) == offended(
        LEAD_WINNERS, ("ann", "looked-at-hand", None, None, "full-loo"), {"bob": 4}, 11,
        {"ann": -5, "bob": 4, "dan": -5})


def test_a_passer_who_looks_at_another_hand_pays_a_full_loo():
    # "any time": cat has passed already (nothing to throw up) and still pays the full loo 3.
    # ann and bob play: P = 9, ann 6, bob 3; next pool 3.
    v = play(three("ann stand; bob miss; cat pass; cat ! looked-at-hand; dan pass",
                   "ann AD; bob KD", "ann 9H; bob 3H", "ann 4C; bob 8C"))
    assert violations(v) == [("cat", "looked-at-hand", None, None, "full-loo")]
    assert_settled(v, payouts={"ann": 6, "bob": 3}, loos={"cat": 3}, pool_after=3,
                   deltas={"ann": 6, "bob": 3, "cat": -3, "dan": -3})


@pytest.mark.parametrize(("mode", "full"), [({"loo": "unlimited"}, 12),
                                            ({"loo": "mixed", "loo_cap": 10}, 10)])
def test_a_full_loo_for_looking_at_a_hand_is_p_as_it_stood(mode, full):
    # bob looks at his cards out of turn (single loo 3, paid into this pool at once), then cat
    # looks at another hand before declaring and throws up. P = 6 + 3 ante + 3 = 12 (ann 8,
    # bob 4); cat's full loo is P = 12 unlimited, min(12, 10) = 10 mixed, into the next pool.
    v = play(three("ann stand; bob ! looked-out-of-turn; bob miss; cat ! looked-at-hand",
                   "dan pass", "ann AD; bob KD", "ann 9H; bob 3H", "ann 4C; bob 8C", **mode))
    assert violations(v) == [("bob", "looked-out-of-turn", None, None, "single-loo"),
                             ("cat", "looked-at-hand", None, None, "full-loo")]
    assert_settled(v, pool=12, payouts={"ann": 8, "bob": 4}, loos={"cat": full},
                   penalties={"bob": 3}, pool_after=full,
                   deltas={"ann": 8, "bob": 1, "cat": -full, "dan": -3})


# --- one player, several offences -----------------------------------------------------------
def test_looking_at_a_hand_then_revoking_is_looed_once():
    # bob (the miss) looks at another hand at trick 1, then plays 3H to AD holding KD. Winners
    # ann, bob, bob: P = 9, ann 3; bob's 6 stay; bob pays one full loo 3 for both offences;
    # cat looed 3: 9 - 3 + 6 = 12.
    v = play(three(DECLARE, "bob ! looked-at-hand", "ann AD; bob 3H; cat 5S",
                   "ann 9H; bob KD; cat 2H", "bob 8C; cat QS; ann 4C"))
    assert winners(v) == ["ann", "bob", "bob"]
    assert violations(v) == [("bob", "looked-at-hand", 1, None, "full-loo"),
                             ("bob", "revoke", 1, "3H", "full-loo")]
    assert_settled(v, payouts={"ann": 3}, loos={"bob": 3, "cat": 3}, pool_after=12,
                   deltas={"ann": 3, "bob": -3, "cat": -3, "dan": -3})


@pytest.mark.parametrize(("how", "loo"), [("replace", 3), ("both", 6)])
def test_single_loos_are_separate_from_the_one_full_loo(how, loo):
    # cat looks at the miss (single loo 3, into P = 12, a trick 4: ann 8, bob 4), stands, then
    # looks at another hand at trick 2 and takes no trick: one full loo 3 (replace), or that and
    # the ordinary loo, 6 (both); the single loo is paid either way. Pool after 12 - 12 + loo.
    v = play(three("ann stand; bob miss; cat ! looked-at-miss; cat stand; dan pass", TRICK1,
                   "ann 9H; bob 3H; cat ! looked-at-hand; cat 2H", TRICK3,
                   penalty_and_loo=how))
    assert violations(v) == [("cat", "looked-at-miss", None, None, "single-loo"),
                             ("cat", "looked-at-hand", 2, None, "full-loo")]
    assert_settled(v, pool=12, payouts={"ann": 8, "bob": 4}, loos={"cat": loo},
                   penalties={"cat": 3}, pool_after=loo,
                   deltas={"ann": 8, "bob": 4, "cat": -3 - loo, "dan": -3})


def test_two_single_loos_by_one_player_are_two_payments():
    # cat looks at his cards out of turn, later at the thrown-up cards, and passes: 3 + 3 into
    # P = 6 + 3 + 6 = 15, a trick 5: ann 10, bob 5; nothing left.
    v = play(three("cat ! looked-out-of-turn; ann stand; bob miss; cat ! looked-at-discards",
                   "cat pass; dan pass", "ann AD; bob KD", "ann 9H; bob 3H", "ann 4C; bob 8C"))
    assert [x[1] for x in violations(v)] == ["looked-out-of-turn", "looked-at-discards"]
    assert_settled(v, pool=15, payouts={"ann": 10, "bob": 5}, penalties={"cat": 6},
                   pool_after=0, deltas={"ann": 10, "bob": 5, "cat": -6, "dan": -3})


# --- penalty_and_loo: both ------------------------------------------------------------------
def test_both_and_a_defending_dealer_without_a_trick_pays_the_penalty_once():
    # ann AD KD AH stands alone; dan defends with the miss 2D 3H 4C and plays 3H to AD holding
    # 2D, then takes no trick. A defender "wins nothing and pays nothing", so he is not looed:
    # under `both` too he pays the full loo 3 once. ann takes all: P = 9. Pool after 3.
    v = play(record(SEATS, "dan", turnup="7D", pool=6, miss=["2D", "3H", "4C"],
                    rules={"game": "three-card", "penalty_and_loo": "both"},
                    actions="""ann stand; bob pass; cat pass; dan defend
                    ann AD; dan 3H; ann KD; dan 2D; ann AH; dan 4C"""))
    assert winners(v) == ["ann", "ann", "ann"]
    assert violations(v) == [("dan", "revoke", 1, "3H", "full-loo")]
    assert_settled(v, payouts={"ann": 9}, loos={"dan": 3}, pool_after=3,
                   deltas={"ann": 9, "dan": -6})


@pytest.mark.parametrize(("how", "burn"), [("replace", 21), ("both", 42)])
def test_both_at_poker_loo_burns_twice_an_offender_the_tricks_burn(how, burn):
    # First deal (everybody stands and is committed), P = 6 + 5 + 5 + 5 = 21. dan looks at
    # another hand (burned 21) and plays on; he takes one trick, which burns him as well: under
    # `both` he pays 42 (docs/engine.md question 27). ann's three tricks take 21; bob (1) and
    # cat (0) burn 21. Pool after 21 - 21 + 42 + burn.
    v = play(record(SEATS, "dan", turnup="2H", pool=0, number=1,
                    rules={"game": "poker-loo", "penalty_and_loo": how},
                    actions="dan ! looked-at-hand\n" + FIRST_THREE_ONE_ONE))
    assert v["tricks_won"] == {"ann": 3, "bob": 1, "cat": 0, "dan": 1}
    assert violations(v) == [("dan", "looked-at-hand", None, None, "burn")]
    assert_settled(v, pool=21, payouts={"ann": 21}, loos={"bob": 21, "cat": 21, "dan": burn},
                   pool_after=42 + burn,
                   deltas={"ann": 16, "bob": -26, "cat": -26, "dan": -6 - burn})


# --- poker-Loo: the player sitting a redeal out -------------------------------------------
@pytest.mark.parametrize("offence", ["exposed-card 7D", "exposed-card", "threw-up-after-lead",
                                     "revoke"])
def test_a_play_offence_by_the_player_sitting_a_redeal_out_is_a_record_error(offence):
    # bob sits the redeal out and is dealt no cards: he can expose, throw up or revoke none.
    # 1.2.0 took the offence, burned him the pot (40) and threw the redeal in again.
    errors = record_errors(record("ann bob cat", "cat", rules={"game": "poker-loo"}, pool=40,
                                  number=3, turnup="2S", redeal=True, sits_out=["bob"],
                                  actions=f"ann stand; cat stand; bob ! {offence}\n"
                                  "ann AH; cat 2H"))
    assert [(e["index"], e["player"], e["field"]) for e in errors] == [(2, "bob", "kind")]
    assert errors[0]["message"].endswith("bob sits this deal out and holds no cards")


@pytest.mark.parametrize(("how", "loo"), [("replace", 5), ("both", 10)])
def test_both_and_a_flush_loos_a_committed_offender_twice(how, loo):
    # Five-card: bob stands, looks at another hand (full loo 5) and plays on; ann shows a plain
    # flush and takes P = 10 + 5 = 15. bob, a stander without a flush, is looed by it as well:
    # once under replace (5), twice under both (10), like an offender without a trick.
    # Pool after 15 - 15 + loo.
    v = play(record(SEATS, "dan", rules={"game": "five-card", "penalty_and_loo": how},
                    pool=10, turnup="3H", hands={"ann": PLAIN_SPADES},
                    actions="ann stand; bob stand; cat pass; dan pass; bob ! looked-at-hand; "
                            "ann flush"))
    assert v["ended"] == "flush"
    assert violations(v) == [("bob", "looked-at-hand", None, None, "full-loo")]
    assert_settled(v, pool=15, payouts={"ann": 15}, loos={"bob": loo}, pool_after=loo,
                   deltas={"ann": 15, "bob": -loo, "dan": -5})


@pytest.mark.parametrize("look", ["ann ! looked-out-of-turn; ann stand",   # at her own turn
                                  "ann stand; ann ! looked-out-of-turn"])  # after declaring
def test_a_look_out_of_turn_is_the_tables_word_wherever_it_is_written(look):
    # Pins docs/engine.md question 28: the table's note is charged where the record places it,
    # though ann, eldest, may look at her cards at her turn (she may have looked while the
    # cards were still being dealt). Single loo 3 into P = 12, a trick 4: ann 8, bob 4;
    # cat looed 3.
    v = play(three(look, "bob miss; cat stand; dan pass", TRICK1,
                   "ann 9H; bob 3H; cat 2H", TRICK3))
    assert violations(v) == [("ann", "looked-out-of-turn", None, None, "single-loo")]
    assert_settled(v, pool=12, payouts={"ann": 8, "bob": 4}, loos={"cat": 3},
                   penalties={"ann": 3}, pool_after=3,
                   deltas={"ann": 5, "bob": 4, "cat": -3, "dan": -3})


# --- a corrected play offence needs a trick -------------------------------------------------
@pytest.mark.parametrize("kind", ["revoke", "failed-to-head", "failed-to-lead-trump",
                                  "threw-up-after-lead"])
def test_a_corrected_play_offence_before_the_play_is_a_record_error(kind):
    # The table's note of an offence done to a trick (a lead, a card following it, cards
    # thrown up after the lead) cannot come before anyone has played: 1.2.0 charged bob a full
    # loo, at no trick, for a "revoke" during the declarations.
    errors = record_errors(three(f"ann stand; bob ! {kind}; bob miss; cat stand; dan pass",
                                 TRICK1, "ann 9H; bob 3H; cat 2H", TRICK3))
    assert [(e["index"], e["player"], e["field"]) for e in errors] == [(1, "bob", "kind")]
    assert errors[0]["message"] == f"{kind}: bob cannot have done it, the play has not begun"


def test_a_card_played_out_of_turn_or_exposed_before_the_play_is_still_an_offence():
    # Playing a card while the others still declare, or exposing one, can happen before the
    # play: as revoke, bob pays one full loo 3, his trick's 3 stay. P = 9: ann 6; cat looed 3
    # -> 9 - 6 + 6 = 9.
    v = play(three("ann stand; bob ! played-out-of-turn; bob ! exposed-card; bob miss",
                   "cat stand; dan pass", TRICK1, "ann 9H; bob 3H; cat 2H", TRICK3))
    assert violations(v) == [("bob", "played-out-of-turn", None, None, "full-loo"),
                             ("bob", "exposed-card", None, None, "full-loo")]
    assert_settled(v, payouts={"ann": 6}, loos={"bob": 3, "cat": 3}, pool_after=9,
                   deltas={"ann": 6, "bob": -3, "cat": -3, "dan": -3})
