"""Three-card Loo, double pool (loo-rules.md section 2): declarations, the dealer's special cases,
defending the pool, division, the loo modes and the antes. Every figure is worked out by hand."""
import pytest

from tests.engine.dealkit import (
    assert_settled,
    deal_at,
    nonzero,
    play,
    record,
    record_errors,
    violations,
    winners,
)

SEATS = "ann bob cat dan"

# The standard double pool (shared by the other three-card test modules): dan deals, 6 carried, diamonds trumps (7D turned).
# ann stands on AD 9H 4C, bob takes the miss KD 3H 8C, cat stands on QS 5S 2H, dan passes.
#   T1 ann AD (must lead the trump ace), bob KD (follows, cannot head), cat 5S (void, no trump) -> ann
#   T2 ann 9H (no trump left), bob 3H (cannot head), cat 2H                                  -> ann
#   T3 ann 4C, bob 8C (heads), cat QS (void, no trump)                                        -> bob
DECLARE = "ann stand; bob miss; cat stand; dan pass"
TRICK1 = "ann AD; bob KD; cat 5S"
TRICK2 = "ann 9H; bob 3H; cat 2H"
TRICK3 = "ann 4C; bob 8C; cat QS"
BASE = f"{DECLARE}\n{TRICK1}\n{TRICK2}\n{TRICK3}"
MISS = ["KD", "3H", "8C"]


def base(pool: int = 6, **rules) -> dict:
    return record(SEATS, "dan", turnup="7D", pool=pool, miss=MISS, actions=BASE,
                  rules={"game": "three-card", **rules})


def test_stand_take_miss_pass_plays_and_divides():
    v = play(base())
    assert v["status"] == "valid" and v["pool_kind"] == "double" and v["trumps"] == "D"
    assert v["standers"] == ["ann", "bob", "cat"]
    assert winners(v) == ["ann", "ann", "bob"]
    assert [t["leader"] for t in v["tricks"]] == ["ann", "ann", "ann"]
    assert v["tricks"][0]["cards"] == {"ann": "AD", "bob": "KD", "cat": "5S"}
    assert v["tricks_won"].get("cat", 0) == 0 and v["tricks_won"]["ann"] == 2
    # P = 6 carried + 3 ante = 9; trick = 3; ann 2 tricks = 6, bob 1 = 3; nothing stays;
    # cat looed 3 -> next pool 3
    assert_settled(v, pool=9, payouts={"ann": 6, "bob": 3}, loos={"cat": 3}, pool_after=3,
                   deltas={"ann": 6, "bob": 3, "cat": -3, "dan": -3})
    assert nonzero(v["settlement"]["antes"]) == {"dan": 3}
    assert v["dealer"] == "dan"
    assert (v["next"]["dealer"], v["next"]["pool"]) == ("ann", 3)


def test_second_miss_taker_is_a_record_error():
    rec = record(SEATS, "dan", turnup="7D", pool=6, actions="ann miss; bob miss; cat pass; dan pass")
    errors = record_errors(rec)
    assert any(e["index"] == 1 and e["player"] == "bob" for e in errors), errors


def test_everyone_passes_and_the_dealer_takes_the_pool():
    rec = record(SEATS, "dan", turnup="7D", pool=6, actions="ann pass; bob pass; cat pass")
    v = play(rec)
    assert v["tricks"] == [] and v["standers"] == [] and v["violations"] == []
    # P = 6 + 3 = 9 all to dan: dan -3 ante +9 = +6; next pool 0 (a simple pool)
    assert_settled(v, payouts={"dan": 9}, pool_after=0, deltas={"dan": 6})
    assert v["next"]["dealer"] == "ann" and v["next"]["pool"] == 0


def test_dealer_stands_against_a_lone_stander():
    # ann stands on 9D KH 2C, dan stands on his own 4D AH 3C.
    # T1 ann 9D, dan 4D -> ann; T2 ann KH (no trump), dan AH -> dan; T3 dan 3C, ann 2C -> dan
    rec = record(SEATS, "dan", turnup="7D", pool=6, actions="""ann stand; bob pass; cat pass; dan stand
        ann 9D; dan 4D; ann KH; dan AH; dan 3C; ann 2C""")
    v = play(rec)
    assert winners(v) == ["ann", "dan", "dan"] and v["standers"] == ["ann", "dan"]
    # P = 9, trick 3: ann 3, dan 6 (a standing dealer wins like anyone): dan -3 + 6 = +3
    assert_settled(v, payouts={"ann": 3, "dan": 6}, pool_after=0, deltas={"ann": 3, "dan": 3})


def test_dealer_takes_the_miss_against_a_lone_stander_and_loos_him():
    # ann KD QH 2C; dan takes the miss AD 5S 6S.
    # T1 ann KD, dan AD -> dan; T2 dan 5S, ann 2C (void, no trump) -> dan; T3 dan 6S, ann QH -> dan
    rec = record(SEATS, "dan", turnup="7D", pool=6, miss=["AD", "5S", "6S"],
                 actions="""ann stand; bob pass; cat pass; dan miss
                 ann KD; dan AD; dan 5S; ann 2C; dan 6S; ann QH""")
    v = play(rec)
    assert winners(v) == ["dan", "dan", "dan"]
    # all three tricks take all P = 9; ann looed 3 -> next pool 3; dan -3 + 9 = +6
    assert_settled(v, payouts={"dan": 9}, loos={"ann": 3}, pool_after=3,
                   deltas={"ann": -3, "dan": 6})


DEFENDED = "ann stand; bob pass; cat pass; dan defend\n"


def defended(miss: list[str], plays: str, pool: int = 6, **rules) -> dict:
    """ann stands alone, dan defends the pool with the miss."""
    return play(record(SEATS, "dan", turnup="7D", pool=pool, miss=miss,
                       rules={"game": "three-card", **rules}, actions=DEFENDED + plays))


# ann AD KD QD v. miss 2S 3S 4S: ann leads trumps and wins all three
NO_TRICK = (["2S", "3S", "4S"], "ann AD; dan 2S; ann KD; dan 3S; ann QD; dan 4S")


@pytest.mark.parametrize("miss, plays, won, payouts, loos, pool_after, ann", [
    # dealer takes no trick: ann takes all P = 9; the dealer is not looed; next pool 0 (simple)
    (*NO_TRICK, ["ann", "ann", "ann"], {"ann": 9}, {}, 0, 9),
    # ann 2D 5H 6C v. AD KH KC: T1 ann 2D, dan AD; T2 dan KH, ann 5H; T3 dan KC, ann 6C.
    # dealer takes all three: the pool stays whole (9), ann looed 3 -> 12
    (["AD", "KH", "KC"], "ann 2D; dan AD; dan KH; ann 5H; dan KC; ann 6C",
     ["dan", "dan", "dan"], {}, {"ann": 3}, 12, -3),
    # ann AD 5H 6C v. 3D KH KC: T1 ann AD, dan 3D; T2 ann 5H, dan KH; T3 dan KC, ann 6C.
    # mixed: ann 1 trick = floor(9/3) = 3; the dealer's two shares (6) stay
    (["3D", "KH", "KC"], "ann AD; dan 3D; ann 5H; dan KH; dan KC; ann 6C",
     ["ann", "dan", "dan"], {"ann": 3}, {}, 6, 3),
])
def test_defended_pool(miss, plays, won, payouts, loos, pool_after, ann):
    v = defended(miss, plays)
    assert winners(v) == won and v["standers"] == ["ann", "dan"]
    assert_settled(v, payouts=payouts, loos=loos, pool_after=pool_after,
                   deltas={"ann": ann, "dan": -3})
    assert v["next"]["pool"] == pool_after


def test_dealer_may_not_pass_against_a_lone_stander():
    rec = record(SEATS, "dan", turnup="7D", pool=6, actions="ann stand; bob pass; cat pass; dan pass")
    errors = record_errors(rec)
    assert any(e["index"] == 3 and e["player"] == "dan" for e in errors), errors


def test_single_stander_concede_gives_the_pool_without_play():
    rec = record(SEATS, "dan", turnup="7D", pool=6, actions="ann stand; bob pass; cat pass; dan pass",
                 rules={"game": "three-card", "single_stander": "concede"})
    v = play(rec)
    assert v["tricks"] == []
    # P = 9 to ann; dan paid the ante
    assert_settled(v, payouts={"ann": 9}, pool_after=0, deltas={"ann": 9, "dan": -3})


LONE_MISS = "ann pass; bob miss; cat pass; "


def test_lone_miss_taker_dealer_stands():
    # bob takes the miss AD 4S 9H; dan stands on KD 5S 2H.
    # T1 bob AD, dan KD -> bob; T2 bob 9H, dan 2H -> bob; T3 bob 4S, dan 5S -> dan
    rec = record(SEATS, "dan", turnup="7D", pool=6, miss=["AD", "4S", "9H"],
                 actions=LONE_MISS + "dan stand; bob AD; dan KD; bob 9H; dan 2H; bob 4S; dan 5S")
    v = play(rec)
    assert winners(v) == ["bob", "bob", "dan"] and v["tricks"][0]["leader"] == "bob"
    # P = 9: bob 6, dan 3 (dan -3 ante + 3 = 0)
    assert_settled(v, payouts={"bob": 6, "dan": 3}, pool_after=0, deltas={"bob": 6})


def test_lone_miss_taker_dealer_concedes():
    rec = record(SEATS, "dan", turnup="7D", pool=6, actions=LONE_MISS + "dan pass")
    v = play(rec)
    assert v["tricks"] == []
    assert_settled(v, payouts={"bob": 9}, pool_after=0, deltas={"bob": 9, "dan": -3})


def test_lone_miss_taker_cannot_be_defended_against():
    rec = record(SEATS, "dan", turnup="7D", pool=6, actions=LONE_MISS + "dan defend")
    errors = record_errors(rec)
    assert any(e["index"] == 3 and e["player"] == "dan" for e in errors), errors


def test_remainder_carries():
    v = play(base(pool=7))
    # P = 7 + 3 = 10; trick = 3: ann 6, bob 3, 1 stays; cat looed 3 -> next pool 4
    assert_settled(v, pool=10, payouts={"ann": 6, "bob": 3}, loos={"cat": 3}, pool_after=4,
                   deltas={"ann": 6, "bob": 3, "cat": -3, "dan": -3})


@pytest.mark.parametrize("pool, ann, bob", [
    (10, 9, 4),   # P 13 pays 5/4/4: ann tricks 1+2 = 5+4, bob trick 3 = 4
    (11, 10, 4),  # P 14 pays 5/5/4: ann 5+5, bob 4
])
def test_remainder_early_tricks(pool, ann, bob):
    v = play(base(pool=pool, remainder="early-tricks"))
    # everything is paid out; only cat's loo (3) is left for the next pool
    assert_settled(v, payouts={"ann": ann, "bob": bob}, loos={"cat": 3}, pool_after=3,
                   deltas={"ann": ann, "bob": bob, "cat": -3, "dan": -3})


def test_all_three_tricks_take_the_odd_units_too():
    v = defended(*NO_TRICK, pool=7)
    # P = 10: three tricks take all 10, not 3 x 3
    assert_settled(v, payouts={"ann": 10}, pool_after=0, deltas={"ann": 10, "dan": -3})


def test_unlimited_loo_matches_the_pool():
    v = play(base(loo="unlimited"))
    # cat pays P = 9 -> next pool 9
    assert_settled(v, payouts={"ann": 6, "bob": 3}, loos={"cat": 9}, pool_after=9,
                   deltas={"ann": 6, "bob": 3, "cat": -9, "dan": -3})


@pytest.mark.parametrize("cap, loo", [(5, 5), (30, 9)])
def test_mixed_loo_is_capped(cap, loo):
    v = play(base(loo="mixed", loo_cap=cap))
    # min(P = 9, cap)
    assert_settled(v, payouts={"ann": 6, "bob": 3}, loos={"cat": loo}, pool_after=loo,
                   deltas={"ann": 6, "bob": 3, "cat": -loo, "dan": -3})


def test_limited_loo_amount_is_an_option():
    v = play(base(loo_amount=4))
    assert_settled(v, payouts={"ann": 6, "bob": 3}, loos={"cat": 4}, pool_after=4,
                   deltas={"ann": 6, "bob": 3, "cat": -4, "dan": -3})


def test_a_loo_of_nothing_is_no_payment():
    # a house plays without loos (loo_amount 0): cat takes no trick and pays nothing; the
    # verdict books no zero payment for him
    v = play(base(loo_amount=0))
    assert v["settlement"]["loo_payments"] == {}
    assert_settled(v, payouts={"ann": 6, "bob": 3}, pool_after=0,
                   deltas={"ann": 6, "bob": 3, "dan": -3})


def test_ante_each_britannica():
    v = play(base(ante={"dealer": 6, "each": 3}))
    # antes 3+3+3 + dealer 6 = 15; P = 21, trick 7: ann 14, bob 7; cat looed 3
    assert {k: a for k, a in v["settlement"]["antes"].items() if a} == {
        "ann": 3, "bob": 3, "cat": 3, "dan": 6}
    assert_settled(v, pool=21, payouts={"ann": 14, "bob": 7}, loos={"cat": 3}, pool_after=3,
                   deltas={"ann": 11, "bob": 4, "cat": -6, "dan": -6})


def test_an_ante_object_keeps_the_dealers_ante_where_it_names_only_the_others():
    # loo-rules.md s.2: "ante.dealer, default 3; ante.each ... default 0": {"each": 1} adds the
    # others' ante to the dealer's 3 (it took the dealer's away: P 9, ann +5, dan 0)
    v = play(base(ante={"each": 1}))
    # antes ann, bob, cat 1 each + dan 3 = 6; P = 6 + 6 = 12, trick 4: ann 8, bob 4; cat looed 3
    assert nonzero(v["settlement"]["antes"]) == {"ann": 1, "bob": 1, "cat": 1, "dan": 3}
    assert_settled(v, pool=12, payouts={"ann": 8, "bob": 4}, loos={"cat": 3}, pool_after=3,
                   deltas={"ann": 7, "bob": 3, "cat": -4, "dan": -3})
    assert v["engine"]["rules"]["ante"] == {"dealer": 3, "each": 1}  # as the verdict resolves it


def test_an_ante_double_object_takes_what_it_leaves_out_from_the_ante():
    # ante_double replaces the ante in a double pool; a part it leaves out is the ante's
    v = play(base(ante={"dealer": 3, "each": 1}, ante_double={"dealer": 6}))
    # double pool (6 carried): antes 1 + 1 + 1 + dan 6 = 9; P = 15, trick 5: ann 10, bob 5
    assert nonzero(v["settlement"]["antes"]) == {"ann": 1, "bob": 1, "cat": 1, "dan": 6}
    assert_settled(v, pool=15, payouts={"ann": 10, "bob": 5}, loos={"cat": 3}, pool_after=3,
                   deltas={"ann": 9, "bob": 4, "cat": -4, "dan": -6})


def test_ante_double_replaces_the_ante_in_a_double_pool():
    v = play(base(ante_double={"dealer": 3, "each": 3}))
    # Russian: everyone pays 3 when the miss is dealt: 12 in antes, P = 18, trick 6
    assert_settled(v, pool=18, payouts={"ann": 12, "bob": 6}, loos={"cat": 3}, pool_after=3,
                   deltas={"ann": 9, "bob": 3, "cat": -6, "dan": -3})


def test_always_double_plays_an_empty_pool_as_a_double_pool():
    v = play(base(pool=0, pools="always-double"))
    assert v["pool_kind"] == "double" and v["violations"] == []
    # P = 0 + 3 = 3, trick 1: ann 2, bob 1; cat looed 3
    assert_settled(v, pool=3, payouts={"ann": 2, "bob": 1}, loos={"cat": 3}, pool_after=3,
                   deltas={"ann": 2, "bob": 1, "cat": -3, "dan": -3})


def test_passing_is_refused_when_the_empty_pool_is_simple():
    # the same declarations with an empty pool and default pools: a simple pool, so bob's
    # take-miss (index 1) and dan's pass (index 3) are both refused
    errors = record_errors(base(pool=0))
    assert {1, 3} <= {e["index"] for e in errors}, errors


def test_play_by_a_player_who_passed_is_a_record_error():
    rec = base()
    rec["actions"][4:4] = [{"player": "dan", "action": "play", "card": "2D"}]
    errors = record_errors(rec)
    assert any(e["player"] == "dan" and e["index"] == 4 for e in errors), errors


def test_violations_none_in_a_clean_deal():
    assert violations(play(base())) == []


def test_early_tricks_in_a_defended_pool():
    # ann AD 5H 6C; dan defends with 3D KH KC: winners ann, dan, dan (see above).
    v = defended(["3D", "KH", "KC"], "ann AD; dan 3D; ann 5H; dan KH; dan KC; ann 6C", pool=10,
                 remainder="early-tricks")
    # P = 13 pays 5/4/4: ann's first trick is worth 5; the dealer's 4 + 4 stay
    assert_settled(v, payouts={"ann": 5}, pool_after=8, deltas={"ann": 5, "dan": -3})


def test_given_hands_are_checked_against_the_plays():
    short = base()
    short["hands"] = {"ann": ["AD", "9H"]}
    assert any(e["player"] == "ann" or e["field"] == "hands" for e in record_errors(short))
    wrong = base()
    wrong["hands"] = {"ann": ["AD", "9H", "5C"]}          # ann plays 4C at index 10
    assert any(e["player"] == "ann" for e in record_errors(wrong))
    miss = base()
    miss["miss"] = ["KD", "3H", "9C"]                      # bob plays 8C from the miss at index 11
    assert any(e["player"] == "bob" for e in record_errors(miss))


def test_pool_given_twice_must_agree():
    from games.rules import RecordError, replay

    with pytest.raises(RecordError):
        replay(base(pool=6), {"game": "three-card"}, pool=9)
    assert replay(base(pool=6), {"game": "three-card"}, pool=6)["settlement"]["pool_after"] == 3


def _declare_options(actions: str, **rules) -> set[str]:
    deal = deal_at({"game": "three-card", **rules}, SEATS, "dan", actions, pool=6, turnup="7D")
    return {a["action"] for a in deal.legal_actions() if a["player"] == deal.to_act}


def test_legal_declarations_follow_the_dealer_special_cases():
    assert _declare_options("") == {"stand", "pass", "take-miss"}
    assert _declare_options("ann miss") == {"stand", "pass"}                 # one miss only
    assert _declare_options("ann stand; bob pass; cat pass") == {"stand", "take-miss", "defend"}
    assert _declare_options("ann stand; bob pass; cat pass", single_stander="concede") == {
        "stand", "take-miss", "defend", "pass"}
    assert _declare_options("ann pass; bob miss; cat pass") == {"stand", "pass"}
    assert _declare_options("ann stand; bob miss; cat pass") == {"stand", "pass"}


def test_a_looed_simple_pool_is_followed_by_a_double_pool_in_a_session():
    from games.rules import replay_session

    header = {"format": "loo-session/1", "seats": SEATS.split(), "rules": {"game": "three-card"},
              "first_dealer": "dan", "pool": 0, "banker": "club", "chip_value": 1,
              "buy_ins": {s: 60 for s in SEATS.split()}}
    first = record(SEATS, "dan", turnup="8S", number=1, actions="""ann 9H; bob KH; cat 4S; dan AH
        cat JD; dan 6D; ann 2D; bob 7D
        cat 3C; dan TC; ann QC; bob 5C""")
    second = record(SEATS, "ann", turnup="7D", number=2, actions="bob pass; cat pass; dan pass")
    for rec in (first, second):
        del rec["pool"], rec["rules"]
    v1, v2 = list(replay_session([header, first, second]))
    # deal 1: simple pool, P 3: cat 2, ann 1; bob and dan looed -> 6 carried, ann deals
    assert v1["pool_kind"] == "simple" and v1["next"] == {**v1["next"], "dealer": "ann", "pool": 6}
    # deal 2: double pool (6 carried + ann's 3); all pass before ann, who takes 9
    assert v2["pool_kind"] == "double" and v2["settlement"]["pool_before"] == 6
    assert_settled(v2, payouts={"ann": 9}, pool_after=0, deltas={"ann": 6})


def test_verdict_shape_and_the_state_machine_agree_with_replay():
    from games.rules import ENGINE_VERSION, Deal, RuleSet

    rec = base()
    v = play(rec)
    assert [t["number"] for t in v["tricks"]] == [1, 2, 3]
    rules = RuleSet.from_options({"game": "three-card"})
    assert v["engine"] == {"version": ENGINE_VERSION, "rules": rules.to_options()}
    hands = {"ann": ["AD", "9H", "4C"], "bob": ["2C", "3C", "5C"], "cat": ["QS", "5S", "2H"],
             "dan": ["6C", "7C", "9C"]}
    deal = Deal(rules, SEATS.split(), "dan", pool=6, hands=hands, miss=MISS, turnup="7D")
    for action in rec["actions"]:
        deal.push(action)
    assert deal.phase == "over" and deal.to_act is None
    assert deal.verdict() == v


def test_dealer_standing_on_his_own_cards_can_be_looed():
    # unlike a defence: ann AD KD QD v. dan standing on 2S 3S 4S; ann takes all three
    rec = record(SEATS, "dan", turnup="7D", pool=6, actions="""ann stand; bob pass; cat pass; dan stand
        ann AD; dan 2S; ann KD; dan 3S; ann QD; dan 4S""")
    v = play(rec)
    # ann takes all P = 9; dan looed 3 -> next pool 3; dan -3 ante -3 loo
    assert_settled(v, payouts={"ann": 9}, loos={"dan": 3}, pool_after=3,
                   deltas={"ann": 9, "dan": -6})


def test_action_after_the_deal_is_over_is_a_record_error():
    rec = base()
    rec["actions"].append({"player": "ann", "action": "play", "card": "2S"})
    assert any(e["index"] == 13 for e in record_errors(rec))


# --- combinations: the dealer's special cases with other rules --------------------------------
def test_conceded_pool_holds_a_passers_single_loo():
    # single_stander: concede; bob looked at his cards out of turn (single loo 3, paid at once
    # into the pool played for), then passed. P = 6 + 3 ante + 3 = 12, all to ann: bob -3.
    v = play(record(SEATS, "dan", turnup="7D", pool=6,
                    rules={"game": "three-card", "single_stander": "concede"},
                    actions="bob ! looked-out-of-turn; ann stand; bob pass; cat pass; dan pass"))
    assert v["ended"] == "conceded" and v["tricks"] == []
    assert_settled(v, pool=12, payouts={"ann": 12}, penalties={"bob": 3}, pool_after=0,
                   deltas={"ann": 12, "bob": -3, "dan": -3})


@pytest.mark.parametrize(("miss", "plays", "tricks", "payouts", "pool_after", "deltas"), [
    # ann takes all three from the defender: the undivided pool (P = 6 + 3 = 9) is hers.
    (["KD", "5S", "2C"], "ann AD; dan KD; ann 9H; dan 5S; ann 3C; dan 2C",
     ["ann", "ann", "ann"], {"ann": 9}, 0, {"ann": 9, "dan": -3}),
    # T2 dan heads 9H with TH and leads 5S (no trump left): 1-2. Undivided: nobody is paid, the
    # pool stays (9); ann took a trick, so she is not looed; the defender pays nothing.
    (["KD", "5S", "TH"], "ann AD; dan KD; ann 9H; dan TH; dan 5S; ann 3C",
     ["ann", "dan", "dan"], {}, 9, {"dan": -3}),
])
def test_undivided_pool_against_a_defending_dealer(miss, plays, tricks, payouts, pool_after,
                                                    deltas):
    v = play(record(SEATS, "dan", turnup="7D", pool=6, rules={"preset": "undivided"}, miss=miss,
                    hands={"ann": ["AD", "9H", "3C"]},
                    actions="ann stand; bob pass; cat pass; dan defend; " + plays))
    assert winners(v) == tricks and v["defender"] == "dan"
    assert_settled(v, payouts=payouts, pool_after=pool_after, deltas=deltas)


def test_a_miss_taker_must_play_the_miss_and_is_looed_without_a_trick():
    # s.2: whoever takes the miss "must play it whatever it holds". bob takes a miss of
    # 2S 3H 4C (no trump, nothing high) against ann's AD KH QC; cat and dan pass.
    #   T1 ann AD (the trump ace, due), bob 2S (void in trumps)  -> ann
    #   T2 ann KH, bob 3H (follows, cannot head)                 -> ann
    #   T3 ann QC, bob 4C (follows, cannot head)                 -> ann
    rec = record(SEATS, "dan", turnup="7D", pool=6, miss=["2S", "3H", "4C"],
                 actions="""ann stand; bob miss; cat pass; dan pass
                 ann AD; bob 2S; ann KH; bob 3H; ann QC; bob 4C""")
    v = play(rec)
    assert v["status"] == "valid" and v["standers"] == ["ann", "bob"]
    assert winners(v) == ["ann", "ann", "ann"]
    # P = 6 + 3 = 9: ann's three tricks take all 9; bob, trickless, is looed 3 -> next pool 3
    assert_settled(v, pool=9, payouts={"ann": 9}, loos={"bob": 3}, pool_after=3,
                   deltas={"ann": 9, "bob": -3, "dan": -3})
    # having taken the miss he cannot pass out of it: the record is refused at that pass
    rec = record(SEATS, "dan", turnup="7D", pool=6, miss=["2S", "3H", "4C"],
                 actions="ann stand; bob miss; bob pass; cat pass; dan pass")
    assert [(e["index"], e["player"]) for e in record_errors(rec)] == [(2, "bob")]
