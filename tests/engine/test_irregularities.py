"""The irregularity table (loo-rules.md section 6): every offence, its penalty, where the
penalty goes, "looed once per deal", penalty_and_loo "both", and the defending dealer."""
import pytest

from tests.engine.dealkit import (
    assert_settled,
    play,
    record,
    record_errors,
    violations,
    winners,
)
from tests.engine.test_three_card_double import DECLARE, MISS, SEATS, TRICK1, TRICK2, TRICK3
from tests.engine.test_three_card_options import CLUB_PLAYS
from tests.engine.test_three_card_simple import RETRO

# The standard double pool of test_three_card_double: ann AD 9H 4C stands, bob takes the miss
# KD 3H 8C, cat QS 5S 2H stands, dan passes; winners ann, ann, bob.
# P = 9: ann 6, bob 3, cat looed 3 -> next pool 3.

def deal(*parts: str, pool: int = 6, **options) -> dict:
    return record(SEATS, "dan", turnup="7D", pool=pool, miss=MISS, actions="\n".join(parts),
                  rules={"game": "three-card", **options})


# --- before play ----------------------------------------------------------------------------
@pytest.mark.parametrize("single, fine", [(None, 3), (2, 2)])
def test_misdeal_dealer_pays_a_single_loo_and_deals_again(single, fine):
    options = {} if single is None else {"single_loo": single}
    v = play(record(SEATS, "dan", pool=6, actions="dan ! misdeal",
                    rules={"game": "three-card", **options}))
    assert v["tricks"] == [] and v["status"] == "irregular"
    assert violations(v) == [("dan", "misdeal", None, None, "single-loo")]
    # the dealer pays a single loo (loo_amount 3, or single_loo) into the pool; the void deal
    # takes no ante (the redeal by the same dealer antes): 6 + fine carried, dan -fine
    assert_settled(v, payouts={}, penalties={"dan": fine}, pool_after=6 + fine,
                   deltas={"dan": -fine})
    assert not any(v["settlement"]["antes"].values())
    assert (v["next"]["dealer"], v["next"]["pool"]) == ("dan", 6 + fine)



def test_looking_at_the_miss_needs_a_miss_dealt():
    # "looking at the miss without taking it" (s.6) cannot happen where no miss is dealt: a
    # default simple pool (pool 0) or a final deal is a record error (1.1.0 charged the single
    # loo). Under club law the miss is dealt and then not used, so it can still be looked at.
    for extra in ({"pool": 0}, {"pool": 6, "final": True}):
        rec = record(SEATS, "dan", turnup="8S", actions="bob ! looked-at-miss\n" + RETRO, **extra)
        errors = record_errors(rec)
        assert [(e["index"], e["player"], e["field"]) for e in errors] == [(0, "bob", "kind")]
    v = play(record(SEATS, "dan", turnup="7C", pool=6, rules={"game": "three-card",
                    "club_law": True}, actions="bob ! looked-at-miss\n" + CLUB_PLAYS))
    assert [(x["player"], x["rule"], x["penalty"]) for x in v["violations"]] == [
        ("bob", "looked-at-miss", "single-loo")]
    # P = 6 + 3 + bob's single loo 3 = 12, a trick 4: ann, bob, dan 4 each; cat looed 3
    assert_settled(v, pool=12, payouts={"ann": 4, "bob": 4, "dan": 4}, loos={"cat": 3},
                   penalties={"bob": 3}, pool_after=3,
                   deltas={"ann": 4, "bob": 1, "cat": -3, "dan": 1})

def test_a_misdeal_in_a_simple_pool_is_at_no_trick():
    # pool 0: a simple pool, where everybody plays and the play begins with the deal, yet a
    # misdeal is the deal's, before any card: trick null as in a double pool (1.1.0 said 1).
    # dan pays a single loo (3) into the empty pool and deals again: pool 3, dan -3.
    v = play(record(SEATS, "dan", pool=0, actions="dan ! misdeal", rules={"game": "three-card"}))
    assert v["tricks"] == [] and v["ended"] == "misdeal"
    assert violations(v) == [("dan", "misdeal", None, None, "single-loo")]
    assert_settled(v, payouts={}, penalties={"dan": 3}, pool_after=3, deltas={"dan": -3})


@pytest.mark.parametrize("evidence, said", [
    ("dealt bob four cards", "dealt bob four cards"),  # the table's own words, kept as written
    ("", "recorded by the table: dan misdeal"),         # blank: the engine says who and what
    ("   ", "recorded by the table: dan misdeal"),
])
def test_a_recorded_irregularity_carries_the_tables_evidence(evidence, said):
    rec = record(SEATS, "dan", pool=6, rules={"game": "three-card"},
                 actions=[{"player": "dan", "action": "irregularity", "kind": "misdeal",
                           "evidence": evidence}])
    assert [x["evidence"] for x in play(rec)["violations"]] == [said]


@pytest.mark.parametrize("evidence", [7, True, ["bob", 4], {"cards": 4}])
def test_evidence_that_is_not_text_is_a_record_error(evidence):
    # a verdict's evidence is text (deal-record.md): 1.2.0 passed a number or a list straight
    # into the verdict (and the service stored its repr)
    rec = record(SEATS, "dan", pool=6, rules={"game": "three-card"},
                 actions=[{"player": "dan", "action": "irregularity", "kind": "misdeal",
                           "evidence": evidence}])
    assert [(e["index"], e["player"], e["field"]) for e in record_errors(rec)] == [
        (0, "dan", "evidence")]


def test_a_misdeal_is_the_dealers_and_another_player_named_is_a_record_error():
    errors = record_errors(record(SEATS, "dan", pool=6, actions="ann ! misdeal",
                                  rules={"game": "three-card"}))
    assert [(e["index"], e["player"], e["message"]) for e in errors] == [
        (0, "ann", "misdeal: the dealer (dan) misdeals and pays for it, not ann")]


def test_a_misdealt_first_deal_is_dealt_again_as_the_first_deal():
    # number 1 (the first deal) misdealt: the same dealer deals the first deal again, so a
    # rule that looks at the first deal (ante_first_deal_only) still sees it
    v = play(record(SEATS, "dan", pool=0, number=1, actions="dan ! misdeal",
                    rules={"game": "three-card"}))
    assert v["next"] == {"dealer": "dan", "pool": 3, "first_of_series": True}


@pytest.mark.parametrize("kind", [
    "looked-out-of-turn", "declared-out-of-turn", "looked-at-miss", "looked-at-discards"])
def test_single_loo_irregularities_go_into_the_pool_played_for(kind):
    v = play(deal(f"cat ! {kind}", DECLARE, TRICK1, TRICK2, TRICK3))
    assert v["status"] == "irregular" and winners(v) == ["ann", "ann", "bob"]
    assert violations(v) == [("cat", kind, None, None, "single-loo")]
    # cat's single loo 3 is paid at once into this deal's pool: P = 6 + 3 + 3 = 12, trick 4:
    # ann 8, bob 4; cat still takes part and, looed, pays 3 more into the next pool
    assert_settled(v, pool=12, payouts={"ann": 8, "bob": 4}, loos={"cat": 3},
                   penalties={"cat": 3}, pool_after=3,
                   deltas={"ann": 8, "bob": 4, "cat": -6, "dan": -3})


def test_single_loo_option():
    v = play(deal("cat ! looked-at-miss", DECLARE, TRICK1, TRICK2, TRICK3, single_loo=2))
    # P = 6 + 3 + 2 = 11, trick 3: ann 6, bob 3, 2 stay; cat looed 3 -> 5
    assert_settled(v, pool=11, payouts={"ann": 6, "bob": 3}, loos={"cat": 3},
                   penalties={"cat": 2}, pool_after=5,
                   deltas={"ann": 6, "bob": 3, "cat": -5, "dan": -3})


@pytest.mark.parametrize("declarations", [
    "ann stand; bob miss; cat ! looked-at-hand; cat pass; dan pass",
    "ann stand; bob miss; cat ! looked-at-hand; dan pass",   # the forced pass left out
])
def test_looked_at_hand_before_declaring_full_loo_and_throws_up(declarations):
    v = play(deal(declarations, "ann AD; bob KD", "ann 9H; bob 3H", "ann 4C; bob 8C"))
    assert v["standers"] == ["ann", "bob"] and winners(v) == ["ann", "ann", "bob"]
    assert violations(v) == [("cat", "looked-at-hand", None, None, "full-loo")]
    # P = 9: ann 6, bob 3; cat's full loo (3) goes to the next pool like every full loo
    assert_settled(v, pool=9, payouts={"ann": 6, "bob": 3}, loos={"cat": 3}, pool_after=3,
                   deltas={"ann": 6, "bob": 3, "cat": -3, "dan": -3})


def test_a_dealer_who_looked_at_a_hand_is_thrown_up_when_the_play_begins():
    # dan looks before his turn; the record goes straight to the play: dan passed perforce.
    v = play(deal("ann stand; bob miss; cat pass; dan ! looked-at-hand",
                  "ann AD; bob KD", "ann 9H; bob 3H", "ann 4C; bob 8C"))
    assert v["standers"] == ["ann", "bob"] and winners(v) == ["ann", "ann", "bob"]
    assert violations(v) == [("dan", "looked-at-hand", None, None, "full-loo")]
    # P = 6 + dan's ante 3 = 9: ann 6, bob 3; dan's full loo (3) to the next pool; cat passed
    assert_settled(v, pool=9, payouts={"ann": 6, "bob": 3}, loos={"dan": 3}, pool_after=3,
                   deltas={"ann": 6, "bob": 3, "dan": -6})


def test_looked_at_hand_when_committed_plays_on_and_forfeits_winnings():
    v = play(deal(DECLARE, TRICK1, "ann 9H; bob ! looked-at-hand; bob 3H; cat 2H", TRICK3))
    assert winners(v) == ["ann", "ann", "bob"]
    assert violations(v) == [("bob", "looked-at-hand", 2, None, "full-loo")]
    # bob's trick (3) stays; bob pays 3; cat looed 3: 9 - 6 + 3 + 3 = 9
    assert_settled(v, payouts={"ann": 6}, loos={"cat": 3, "bob": 3}, pool_after=9,
                   deltas={"ann": 6, "bob": -3, "cat": -3, "dan": -3})


# --- play offences --------------------------------------------------------------------------
# Revoke: bob plays 3H to ann's AD while holding KD.
# T1 ann AD, bob 3H, cat 5S -> ann; T2 ann 9H, bob KD (void now: trumps), cat 2H -> bob
# T3 bob 8C, cat QS, ann 4C -> bob
REVOKE = (DECLARE, "ann AD; bob 3H; cat 5S", "ann 9H; bob KD; cat 2H", "bob 8C; cat QS; ann 4C")


@pytest.mark.parametrize("mode, full, cat_loo", [
    ({}, 3, 3), ({"loo": "unlimited"}, 9, 9), ({"loo": "mixed", "loo_cap": 5}, 5, 5)])
def test_revoke_full_loo_into_next_pool_and_winnings_stay(mode, full, cat_loo):
    v = play(deal(*REVOKE, **mode))
    assert winners(v) == ["ann", "bob", "bob"]
    assert violations(v) == [("bob", "revoke", 1, "3H", "full-loo")]
    assert "KD" in v["violations"][0]["evidence"]
    # P = 9: ann 3; bob's two tricks (6) stay; bob pays the full loo of the mode, cat the loo:
    # pool_after = 9 - 3 + full + cat_loo
    assert_settled(v, pool=9, payouts={"ann": 3}, loos={"cat": cat_loo, "bob": full},
                   pool_after=6 + full + cat_loo,
                   deltas={"ann": 3, "bob": -full, "cat": -cat_loo, "dan": -3})


def test_played_out_of_turn():
    # cat plays 5S to trick 1 before bob; nothing else changes; cat, looed anyway, pays once
    v = play(deal(DECLARE, "ann AD; cat 5S; bob KD", TRICK2, TRICK3))
    assert winners(v) == ["ann", "ann", "bob"]
    assert violations(v) == [("cat", "played-out-of-turn", 1, "5S", "full-loo")]
    assert_settled(v, payouts={"ann": 6, "bob": 3}, loos={"cat": 3}, pool_after=3,
                   deltas={"ann": 6, "bob": 3, "cat": -3, "dan": -3})


@pytest.mark.parametrize("kind, card", [("exposed-card", "8C"), ("threw-up-after-lead", None)])
def test_play_irregularities_noted_by_the_table(kind, card):
    note = f"bob ! {kind}" + (f" {card}" if card else "")
    v = play(deal(DECLARE, TRICK1, f"ann 9H; {note}; bob 3H; cat 2H", TRICK3))
    assert winners(v) == ["ann", "ann", "bob"]
    [(player, rule, trick, got_card, penalty)] = violations(v)
    assert (player, rule, trick, penalty) == ("bob", kind, 2, "full-loo")
    assert got_card == card
    # as revoke: bob's trick (3) stays, bob pays 3; cat looed 3 -> 9 - 6 + 6 = 9
    assert_settled(v, payouts={"ann": 6}, loos={"cat": 3, "bob": 3}, pool_after=9,
                   deltas={"ann": 6, "bob": -3, "cat": -3, "dan": -3})


def test_corrected_revoke_noted_by_the_table_is_penalised_alike():
    # bob revoked at trick 1, the table made him take it back and follow with KD; the record
    # names the offence, the plays are the standard ones
    v = play(deal(DECLARE, "ann AD; bob ! revoke; bob KD; cat 5S", TRICK2, TRICK3))
    assert winners(v) == ["ann", "ann", "bob"]
    [(player, rule, trick, _card, penalty)] = violations(v)
    assert (player, rule, trick, penalty) == ("bob", "revoke", 1, "full-loo")
    assert_settled(v, payouts={"ann": 6}, loos={"cat": 3, "bob": 3}, pool_after=9,
                   deltas={"ann": 6, "bob": -3, "cat": -3, "dan": -3})


# Two offences, no trick: ann 5H 4H 6S and bob 9H 3H 2C stand, 7D turned (no trumps held).
# T1 ann 5H, bob 3H (holds 9H: failed-to-head) -> ann; T2 ann 4H, bob 2C (holds 9H: revoke) -> ann
# T3 ann 6S, bob 9H -> ann
TWICE = "ann stand; bob stand; cat pass; dan pass\nann 5H; bob 3H; ann 4H; bob 2C; ann 6S; bob 9H"


def test_offender_is_looed_once_per_deal():
    v = play(record(SEATS, "dan", turnup="7D", pool=6, actions=TWICE))
    assert winners(v) == ["ann", "ann", "ann"]
    got = violations(v)
    assert [g[:4] for g in got] == [("bob", "failed-to-head", 1, "3H"), ("bob", "revoke", 2, "2C")]
    assert got[0][4] == "full-loo"
    # ann takes all 9; bob pays one loo of 3 in all (the penalty replaces the loo)
    assert_settled(v, payouts={"ann": 9}, loos={"bob": 3}, pool_after=3,
                   deltas={"ann": 9, "bob": -3, "dan": -3})


def test_penalty_and_loo_both():
    v = play(record(SEATS, "dan", turnup="7D", pool=6, actions=TWICE,
                    rules={"game": "three-card", "penalty_and_loo": "both"}))
    # bob, offender without a trick, pays twice: loo 3 + penalty 3 (not once per offence)
    assert_settled(v, payouts={"ann": 9}, loos={"bob": 6}, pool_after=6,
                   deltas={"ann": 9, "bob": -6, "dan": -3})


def test_defending_dealer_who_revokes_pays_too():
    # ann AD 5H 6C; dan defends with 3D KH KC and plays KC to AD holding 3D (revoke).
    # T1 ann AD, dan KC -> ann; T2 ann 5H, dan KH -> dan; T3 dan 3D, ann 6C -> dan
    rec = record(SEATS, "dan", turnup="7D", pool=6, miss=["3D", "KH", "KC"],
                 actions="""ann stand; bob pass; cat pass; dan defend
                 ann AD; dan KC; ann 5H; dan KH; dan 3D; ann 6C""")
    v = play(rec)
    assert winners(v) == ["ann", "dan", "dan"]
    assert violations(v) == [("dan", "revoke", 1, "KC", "full-loo")]
    # ann 3; the dealer's shares stay as in any defence; dan pays a full loo 3 -> 9 - 3 + 3 = 9
    assert_settled(v, payouts={"ann": 3}, loos={"dan": 3}, pool_after=9,
                   deltas={"ann": 3, "dan": -6})


def test_violation_evidence_names_the_card_held_and_the_lead():
    # like the contract's "held 5H when TH was led": bob held KD when AD was led
    evidence = play(deal(*REVOKE))["violations"][0]["evidence"]
    assert "KD" in evidence and "AD" in evidence, evidence


# --- record errors are not violations -------------------------------------------------------
def test_card_played_twice_is_a_record_error_naming_the_action():
    rec = deal(DECLARE, TRICK1, TRICK2, "ann 4C; bob AD; cat QS")
    errors = record_errors(rec)
    assert any(e["index"] == 11 and e["player"] == "bob" and e["card"] == "AD" for e in errors)


def test_deal_stopping_before_its_last_trick_is_a_record_error():
    errors = record_errors(deal(DECLARE, TRICK1, TRICK2))
    assert errors


def test_action_by_unknown_seat_is_a_record_error():
    errors = record_errors(deal("eve stand; " + DECLARE, TRICK1, TRICK2, TRICK3))
    assert any(e["index"] == 0 and e["player"] == "eve" for e in errors), errors


def test_every_error_is_reported_at_once():
    rec = deal(DECLARE, TRICK1, TRICK2, "ann 4C; bob 9H; cat QS")
    rec["actions"][6]["card"] = "ZZ"
    errors = record_errors(rec)
    # a card that is not a card (index 6) and a card played twice (9H, index 11)
    assert {6, 11} <= {e["index"] for e in errors}, errors


def test_single_loo_goes_to_the_dealer_when_everyone_passes():
    v = play(deal("cat ! looked-at-miss; ann pass; bob pass; cat pass"))
    # P = 6 + 3 ante + 3 single loo = 12, all to dan: dan -3 + 12 = +9, cat -3
    assert_settled(v, pool=12, payouts={"dan": 12}, penalties={"cat": 3}, pool_after=0,
                   deltas={"cat": -3, "dan": 9})


def test_lone_stander_revoking_against_a_defence():
    # ann 2D 5H 6C; dan defends with AD KH 4H.
    # T1 ann 2D, dan AD -> dan; T2 dan KH, ann 6C (holds 5H: revoke) -> dan; T3 dan 4H, ann 5H -> ann
    rec = record(SEATS, "dan", turnup="7D", pool=6, miss=["AD", "KH", "4H"],
                 actions="""ann stand; bob pass; cat pass; dan defend
                 ann 2D; dan AD; dan KH; ann 6C; dan 4H; ann 5H""")
    v = play(rec)
    assert winners(v) == ["dan", "dan", "ann"]
    assert violations(v) == [("ann", "revoke", 2, "6C", "full-loo")]
    # nothing paid: the dealer wins nothing, ann's trick stays; ann's full loo 3 -> 9 + 3 = 12
    assert_settled(v, payouts={}, loos={"ann": 3}, pool_after=12, deltas={"ann": -3, "dan": -3})


def test_single_loo_is_the_loo_amount_even_when_loo_is_unlimited():
    v = play(deal("cat ! looked-at-miss", DECLARE, TRICK1, TRICK2, TRICK3, loo="unlimited"))
    # single loo = loo_amount 3 -> P = 12, trick 4: ann 8, bob 4; cat looed: matches P = 12
    assert_settled(v, pool=12, payouts={"ann": 8, "bob": 4}, loos={"cat": 12},
                   penalties={"cat": 3}, pool_after=12,
                   deltas={"ann": 8, "bob": 4, "cat": -15, "dan": -3})


def test_offenders_early_trick_shares_stay_in_the_pool():
    v = play(deal(*REVOKE, pool=10, remainder="early-tricks"))
    # P = 13 pays 5/4/4: ann's trick 1 = 5; bob's tricks 2 and 3 (4 + 4) stay; bob's full loo 3
    # and cat's loo 3 -> 13 - 5 + 6 = 14
    assert_settled(v, pool=13, payouts={"ann": 5}, loos={"bob": 3, "cat": 3}, pool_after=14,
                   deltas={"ann": 5, "bob": -3, "cat": -3, "dan": -3})


@pytest.mark.parametrize("thrown_up", ["; dan pass", ""])
def test_a_dealer_thrown_up_against_a_lone_stander_concedes_the_pool(thrown_up):
    # dan may not pass against ann alone, but looking at another hand makes him throw up: ann
    # takes P = 6 + 3 = 9 without play; dan pays the ante and a full loo (3) -> pool after 3.
    # The forced pass may be left out even where nothing follows it (1.1.0 said the record
    # stopped during the declarations).
    v = play(record(SEATS, "dan", turnup="7D", pool=6,
                    actions="ann stand; bob pass; cat pass; dan ! looked-at-hand" + thrown_up))
    assert v["ended"] == "conceded" and v["tricks"] == []
    assert violations(v) == [("dan", "looked-at-hand", None, None, "full-loo")]
    assert_settled(v, payouts={"ann": 9}, loos={"dan": 3}, pool_after=3,
                   deltas={"ann": 9, "dan": -6})


def test_penalty_and_loo_both_under_a_mixed_loo_pays_the_capped_loo_twice():
    # mixed, cap 5: P = 9 + 3 = 12, a full loo is min(12, 5) = 5. bob revokes at T1 (5S to AD
    # holding 2D) and takes no trick: penalty 5 + loo 5 = 10. ann takes all three: 12.
    # Pool after 12 - 12 + 10 = 10.
    v = play(record(SEATS, "dan", turnup="7D", pool=9, hands={"bob": ["5S", "2D", "3H"]},
                    rules={"game": "three-card", "loo": "mixed", "loo_cap": 5,
                           "penalty_and_loo": "both"},
                    actions="""ann stand; bob stand; cat pass; dan pass
                    ann AD; bob 5S; ann KD; bob 2D; ann 9H; bob 3H"""))
    assert violations(v) == [("bob", "revoke", 1, "5S", "full-loo")]
    assert_settled(v, payouts={"ann": 12}, loos={"bob": 10}, pool_after=10,
                   deltas={"ann": 12, "bob": -10, "dan": -3})


@pytest.mark.parametrize("declares", ["stand", "miss"])
def test_a_dealer_who_stood_out_of_turn_takes_the_pool_when_everyone_else_passes(declares):
    # dan stands (or takes the miss) before his turn: a single loo (3), paid at once. Everyone
    # before him then passes, so he takes the pool without play (1.1.0 left him to play alone
    # and refused the record). P = 6 + 3 ante + 3 = 12 to dan: +12 - 3 - 3 = +6.
    v = play(record(SEATS, "dan", turnup="7D", pool=6,
                    actions=f"dan {declares}; ann pass; bob pass; cat pass"))
    assert v["ended"] == "dealer-takes" and v["standers"] == [] and v["tricks"] == []
    assert violations(v) == [("dan", "declared-out-of-turn", None, None, "single-loo")]
    assert_settled(v, pool=12, payouts={"dan": 12}, penalties={"dan": 3}, pool_after=0,
                   deltas={"dan": 6})


@pytest.mark.parametrize(("others", "ended", "payouts", "pool_after", "ann"), [
    # everyone before him passes too: P = 6 + 3 ante + 3 single loo = 12 stays (dan passed, and
    # a passer "cannot win"); dan -3 ante -3 penalty = -6
    ("ann pass; bob pass; cat pass", "nobody-stands", {}, 12, 0),
    # ann alone stands: the dealer, who may not pass against a lone stander, has passed
    # already; his pass stands and concedes P = 12 to ann (as single_stander "concede" would)
    ("ann stand; bob pass; cat pass", "conceded", {"ann": 12}, 0, 12),
])
def test_a_dealers_pass_out_of_turn_stands(others, ended, payouts, pool_after, ann):
    # Pins docs/engine.md interpretation 24 (sources: not settled): a declaration out of turn
    # stands, a pass included; changing it must be deliberate.
    v = play(record(SEATS, "dan", turnup="7D", pool=6, actions=f"dan pass; {others}"))
    assert v["ended"] == ended and v["tricks"] == []
    assert violations(v) == [("dan", "declared-out-of-turn", None, None, "single-loo")]
    assert_settled(v, pool=12, payouts=payouts, penalties={"dan": 3}, pool_after=pool_after,
                   deltas={"ann": ann, "dan": -6})


@pytest.mark.parametrize(("rules", "turnup", "pool", "hands", "actions", "ended", "loos",
                          "penalties", "pool_after", "deltas"), [
    # five-card, P = 10 + 5 = 15: ann, committed, looks at another hand (full loo 5) and shows
    # a flush: it takes nothing, the 15 stay; bob, standing without a flush, is looed 5.
    # Pool after 15 + 5 + 5 = 25; ann -5, bob -5, dan -5 ante.
    ({"game": "five-card"}, "3H", 10, {"ann": ["2S", "5S", "8S", "TS", "KS"]},
     "ann stand; bob stand; cat pass; dan pass; ann ! looked-at-hand; ann flush", "flush",
     {"ann": 5, "bob": 5}, {}, 25, {"ann": -5, "bob": -5, "dan": -5}),
    # five-card, ann the lone stander and an offender: the 15 stay, and her loo 5: 20.
    ({"game": "five-card"}, "3H", 10, {},
     "ann stand; ann ! looked-at-hand; bob pass; cat pass; dan pass", "lone-stander",
     {"ann": 5}, {}, 20, {"ann": -5, "dan": -5}),
    # three-card, dan stands out of turn (single loo 3, paid at once: P = 6 + 3 + 3 = 12) and
    # looks at another hand (full loo 3); all pass: his P = 12 stays, + 3 = 15; dan -9.
    ({"game": "three-card"}, "7D", 6, {},
     "dan stand; dan ! looked-at-hand; ann pass; bob pass; cat pass", "dealer-takes",
     {"dan": 3}, {"dan": 3}, 15, {"dan": -9}),
])
def test_an_offender_takes_nothing_from_the_pool_without_play_either(
        rules, turnup, pool, hands, actions, ended, loos, penalties, pool_after, deltas):
    # Interpretation 27: 000:71, the offender "can take nothing from the pool" - a flush's
    # take, a lone stander's or the dealer's pool stay like trick winnings.
    v = play(record(SEATS, "dan", rules=rules, turnup=turnup, pool=pool, hands=hands,
                    actions=actions))
    assert v["ended"] == ended
    assert_settled(v, payouts={}, loos=loos, penalties=penalties, pool_after=pool_after,
                   deltas=deltas)


@pytest.mark.parametrize("looks", [
    "bob ! looked-at-miss; bob miss",                   # looked, then took it in turn
    "bob miss; bob ! looked-at-miss",                   # took it, then looked: his own cards
    "bob ! looked-at-miss; bob ! looked-at-miss; bob miss",
])
def test_looking_at_the_miss_and_taking_it_is_no_offence(looks):
    # s.6 penalises "looking at the miss without taking it" (001:35 "вскрыл «мисс», но не взял
    # ее": opened the miss but did not take it). bob looks at the miss and takes it: no single
    # loo (1.2.0 charged 3 and made P 12). The standard deal: P = 6 + 3 = 9, ann 6, bob 3,
    # cat looed 3 -> next pool 3.
    v = play(deal(f"ann stand; {looks}; cat stand; dan pass", TRICK1, TRICK2, TRICK3))
    assert v["status"] == "valid" and v["violations"] == []
    assert_settled(v, pool=9, payouts={"ann": 6, "bob": 3}, loos={"cat": 3}, penalties={},
                   pool_after=3, deltas={"ann": 6, "bob": 3, "cat": -3, "dan": -3})


def test_a_look_at_the_miss_by_one_who_does_not_take_it_is_still_paid():
    # cat looks at the miss, bob takes it: cat's single loo stands (3, into P = 12, a trick 4:
    # ann 8, bob 4); bob's own look before taking it is withdrawn, his look out of turn is not
    # (3 more: P = 15, a trick 5: ann 10, bob 5); cat, looed, pays 3 more.
    v = play(deal("cat ! looked-at-miss; bob ! looked-out-of-turn; bob ! looked-at-miss",
                  "ann stand; bob miss; cat stand; dan pass", TRICK1, TRICK2, TRICK3))
    assert violations(v) == [("cat", "looked-at-miss", None, None, "single-loo"),
                             ("bob", "looked-out-of-turn", None, None, "single-loo")]
    assert_settled(v, pool=15, payouts={"ann": 10, "bob": 5}, loos={"cat": 3},
                   penalties={"cat": 3, "bob": 3}, pool_after=3,
                   deltas={"ann": 10, "bob": 2, "cat": -6, "dan": -3})


@pytest.mark.parametrize("single", [None, 0])
def test_a_dealer_who_looked_at_the_miss_and_defends_with_it_pays_nothing(single):
    # ann AD KD AH stands alone; dan looks at the miss 2D 3H 4C and defends with it: he plays
    # the miss, so the look is no offence (with single_loo 0 as well: nothing was booked).
    # ann takes all three: P = 6 + 3 = 9 to ann; dan -3 (ante), pool after 0.
    options = {} if single is None else {"single_loo": single}
    v = play(record(SEATS, "dan", turnup="7D", pool=6, miss=["2D", "3H", "4C"],
                    rules={"game": "three-card", **options},
                    actions="""ann stand; dan ! looked-at-miss; bob pass; cat pass; dan defend
                    ann AD; dan 2D; ann KD; dan 3H; ann AH; dan 4C"""))
    assert v["violations"] == [] and v["defender"] == "dan"
    assert_settled(v, payouts={"ann": 9}, penalties={}, pool_after=0,
                   deltas={"ann": 9, "dan": -3})
