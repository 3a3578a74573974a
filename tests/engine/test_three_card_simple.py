"""Three-card Loo, simple pool (loo-rules.md section 2): nobody passes, trumps are turned after
trick 1 and apply to it retroactively; option simple_pool "miss-and-trump"."""
from tests.engine.dealkit import assert_settled, play, record, record_errors, violations, winners

SEATS = "ann bob cat dan"

# Hands: ann 9H QC 2D, bob KH 5C 7D, cat 4S JD 3C, dan AH TC 6D; 8S turned after trick 1.
# T1 ann 9H, bob KH (heads), cat 4S (void; trumps unknown, any card), dan AH (heads):
#    AH is highest of the suit led, but the spades turned afterwards make cat's 4S win.
# T2 cat JD (no spade left: any lead), dan 6D, ann 2D, bob 7D (none can head JD) -> cat
# T3 cat 3C, dan TC (heads), ann QC (heads), bob 5C -> ann
RETRO = """ann 9H; bob KH; cat 4S; dan AH
cat JD; dan 6D; ann 2D; bob 7D
cat 3C; dan TC; ann QC; bob 5C"""


def test_simple_pool_trump_applies_to_the_first_trick():
    v = play(record(SEATS, "dan", turnup="8S", pool=0, actions=RETRO))
    assert v["pool_kind"] == "simple" and v["trumps"] == "S" and v["status"] == "valid"
    assert v["standers"] == ["ann", "bob", "cat", "dan"]
    assert winners(v) == ["cat", "cat", "ann"]
    assert [t["leader"] for t in v["tricks"]] == ["ann", "cat", "cat"]
    # P = 0 + 3 = 3, trick = 1: cat 2, ann 1; bob and dan looed 3 each -> next pool 6
    assert_settled(v, pool=3, payouts={"cat": 2, "ann": 1}, loos={"bob": 3, "dan": 3},
                   pool_after=6, deltas={"ann": 1, "bob": -3, "cat": 2, "dan": -6})
    assert (v["next"]["dealer"], v["next"]["pool"]) == ("ann", 6)


def test_simple_pool_first_trick_has_no_trump_duty_then_double_pool_rules_apply():
    # Same hands. T1 cat discards 3C while holding 4S (trumps not yet known: no violation);
    # dan's AH wins T1 on its suit.
    # T2 dan TC (no spade), ann QC (heads), bob 5C, cat 4S (void in clubs: must trump, does) -> cat
    # T3 cat JD, dan 6D, ann 2D, bob 7D -> cat
    rec = record(SEATS, "dan", turnup="8S", pool=0, actions="""ann 9H; bob KH; cat 3C; dan AH
        dan TC; ann QC; bob 5C; cat 4S
        cat JD; dan 6D; ann 2D; bob 7D""")
    v = play(rec)
    assert v["status"] == "valid" and violations(v) == []
    assert winners(v) == ["dan", "cat", "cat"]
    # P = 3: cat 2, dan 1 (dan -3 + 1 = -2); ann and bob looed 3
    assert_settled(v, payouts={"cat": 2, "dan": 1}, loos={"ann": 3, "bob": 3}, pool_after=6,
                   deltas={"ann": -3, "bob": -3, "cat": 2, "dan": -2})


def test_simple_pool_second_lead_must_be_a_trump():
    # cat holds 4S 5S 3C; after winning T1 with 4S (retroactive trump) cat leads 3C at T2 holding
    # 5S: failed-to-lead-trump at trick 2 (double-pool rules from trick 2).
    # T1 ann 9H, bob KH, cat 4S, dan AH -> cat (spades)
    # T2 cat 3C, dan TC, ann QC, bob 5C -> ann;  T3 ann 2D, bob 7D, cat 5S (void, trumps), dan 6D -> cat
    rec = record(SEATS, "dan", turnup="8S", pool=0, actions="""ann 9H; bob KH; cat 4S; dan AH
        cat 3C; dan TC; ann QC; bob 5C
        ann 2D; bob 7D; cat 5S; dan 6D""")
    v = play(rec)
    assert winners(v) == ["cat", "ann", "cat"]
    assert violations(v) == [("cat", "failed-to-lead-trump", 2, "3C", "full-loo")]
    # P = 3: ann 1; cat's 2 tricks (2) stay in the pool; cat pays a full loo 3; bob, dan looed 3
    assert_settled(v, payouts={"ann": 1}, loos={"bob": 3, "dan": 3, "cat": 3},
                   pool_after=2 + 9, deltas={"ann": 1, "bob": -3, "cat": -3, "dan": -6})


def test_no_pass_in_a_simple_pool():
    rec = record(SEATS, "dan", turnup="8S", pool=0, actions="ann pass\n" + RETRO)
    errors = record_errors(rec)
    assert any(e["index"] == 0 and e["player"] == "ann" for e in errors), errors


def test_no_miss_in_a_default_simple_pool():
    rec = record(SEATS, "dan", turnup="8S", pool=0, actions="ann miss\n" + RETRO)
    errors = record_errors(rec)
    assert any(e["index"] == 0 and e["player"] == "ann" for e in errors), errors


def test_simple_pool_ante_each():
    v = play(record(SEATS, "dan", turnup="8S", pool=0, actions=RETRO,
                    rules={"game": "three-card", "ante": {"dealer": 6, "each": 3}}))
    assert v["pool_kind"] == "simple"
    # antes 3 x 3 + 6 = 15 = P, trick 5: cat 10, ann 5; bob, dan looed 3
    assert_settled(v, pool=15, payouts={"cat": 10, "ann": 5}, loos={"bob": 3, "dan": 3},
                   pool_after=6, deltas={"ann": 2, "bob": -6, "cat": 7, "dan": -9})


def test_simple_pool_uses_ante_not_ante_double():
    v = play(record(SEATS, "dan", turnup="8S", pool=0, actions=RETRO,
                    rules={"game": "three-card", "ante_double": {"dealer": 3, "each": 3}}))
    # simple pool: only the dealer's 3
    assert_settled(v, pool=3, payouts={"cat": 2, "ann": 1}, loos={"bob": 3, "dan": 3},
                   pool_after=6, deltas={"ann": 1, "bob": -3, "cat": 2, "dan": -6})


# simple_pool "miss-and-trump": miss dealt and 8S turned at once; eldest ann takes the miss
# AS 2H 3H; bob KH 5C 7D, cat 4S JD 3C, dan AH TC 6D stand (nobody may pass).
# T1 ann AS (trump ace lead), bob 5C (void, no trump), cat 4S (follows), dan 6D -> ann
# T2 ann 2H (no trump left), bob KH, cat 3C (void, no trump), dan AH -> dan
# T3 dan TC, ann 3H, bob 7D, cat JD -> dan
MISS_AND_TRUMP = {"game": "three-card", "simple_pool": "miss-and-trump"}
MAT_PLAYS = """ann AS; bob 5C; cat 4S; dan 6D
ann 2H; bob KH; cat 3C; dan AH
dan TC; ann 3H; bob 7D; cat JD"""


def test_miss_and_trump_simple_pool_eldest_takes_the_miss():
    rec = record(SEATS, "dan", turnup="8S", pool=0, miss=["AS", "2H", "3H"], rules=MISS_AND_TRUMP,
                 actions="ann miss; bob stand; cat stand; dan stand\n" + MAT_PLAYS)
    v = play(rec)
    assert v["pool_kind"] == "simple" and v["trumps"] == "S" and v["status"] == "valid"
    assert winners(v) == ["ann", "dan", "dan"]
    # P = 3: ann 1, dan 2 (dan -3 + 2 = -1); bob, cat looed 3
    assert_settled(v, payouts={"ann": 1, "dan": 2}, loos={"bob": 3, "cat": 3}, pool_after=6,
                   deltas={"ann": 1, "bob": -3, "cat": -3, "dan": -1})


def test_miss_and_trump_trump_duty_from_the_first_trick():
    # trumps are known at once: cat discarding JD on ann's spade lead while holding 4S is a
    # revoke at trick 1 (in a default simple pool it would be fine, trumps being unknown).
    # T1 ann AS, bob 5C, cat JD, dan 6D -> ann
    # T2 ann 2H, bob KH, cat 4S (void, trumps), dan AH -> cat
    # T3 cat 3C, dan TC, ann 3H, bob 7D -> dan
    rec = record(SEATS, "dan", turnup="8S", pool=0, miss=["AS", "2H", "3H"], rules=MISS_AND_TRUMP,
                 actions="""ann miss; bob stand; cat stand; dan stand
                 ann AS; bob 5C; cat JD; dan 6D
                 ann 2H; bob KH; cat 4S; dan AH
                 cat 3C; dan TC; ann 3H; bob 7D""")
    v = play(rec)
    assert violations(v) == [("cat", "revoke", 1, "JD", "full-loo")]
    assert winners(v) == ["ann", "cat", "dan"]
    # P = 3: ann 1, dan 1; cat's 1 stays and cat pays a full loo 3; bob looed 3 -> 1 + 6
    assert_settled(v, payouts={"ann": 1, "dan": 1}, loos={"bob": 3, "cat": 3},
                   pool_after=7, deltas={"ann": 1, "bob": -3, "cat": -3, "dan": -2})


def test_miss_and_trump_only_eldest_may_take_the_miss():
    rec = record(SEATS, "dan", turnup="8S", pool=0, miss=["AS", "2H", "3H"], rules=MISS_AND_TRUMP,
                 actions="ann stand; bob miss; cat stand; dan stand")
    errors = record_errors(rec)
    assert any(e["index"] == 1 and e["player"] == "bob" for e in errors), errors


def test_miss_and_trump_still_nobody_passes():
    rec = record(SEATS, "dan", turnup="8S", pool=0, miss=["AS", "2H", "3H"], rules=MISS_AND_TRUMP,
                 actions="ann miss; bob pass; cat stand; dan stand")
    errors = record_errors(rec)
    assert any(e["index"] == 1 and e["player"] == "bob" for e in errors), errors


def test_miss_and_trump_eldest_who_looked_at_a_hand_is_committed_and_plays_on():
    # Nobody may pass in a simple pool, so eldest, who looked at another hand before
    # declaring, is "already committed" (loo-rules.md s.6): he plays on (still free to take
    # the miss), pays a full loo and his trick winnings stay. 1.1.0 made him throw up (pass).
    rec = record(SEATS, "dan", turnup="8S", pool=0, miss=["AS", "2H", "3H"], rules=MISS_AND_TRUMP,
                 actions="ann ! looked-at-hand; ann miss; bob stand; cat stand; dan stand\n"
                 + MAT_PLAYS)
    v = play(rec)
    assert violations(v) == [("ann", "looked-at-hand", None, None, "full-loo")]
    assert v["standers"] == ["ann", "bob", "cat", "dan"]
    assert winners(v) == ["ann", "dan", "dan"]
    # P = 3: ann's 1 stays, dan 2; ann pays the full loo 3, bob and cat are looed 3 each
    # -> pool 3 - 2 + 9 = 10
    assert_settled(v, payouts={"dan": 2}, loos={"ann": 3, "bob": 3, "cat": 3}, pool_after=10,
                   deltas={"ann": -3, "bob": -3, "cat": -3, "dan": -1})
    # or he stands on his own cards (RETRO; the miss 2S 3S 5S unused): winners cat, cat, ann;
    # P = 3: cat 2, ann's 1 stays; ann's full loo 3, bob and dan looed 3 -> 3 - 2 + 9 = 10
    v = play(record(SEATS, "dan", turnup="8S", pool=0, miss=["2S", "3S", "5S"],
                    rules=MISS_AND_TRUMP, actions="ann ! looked-at-hand; ann stand\n" + RETRO))
    assert winners(v) == ["cat", "cat", "ann"] and v["standers"] == ["ann", "bob", "cat", "dan"]
    assert_settled(v, payouts={"cat": 2}, loos={"ann": 3, "bob": 3, "dan": 3}, pool_after=10,
                   deltas={"ann": -3, "bob": -3, "cat": 2, "dan": -6})
    errors = record_errors(record(SEATS, "dan", turnup="8S", pool=0, miss=["AS", "2H", "3H"],
                                  rules=MISS_AND_TRUMP, actions="ann ! looked-at-hand; ann pass"))
    assert any(e["index"] == 1 and e["player"] == "ann" for e in errors), errors


def test_simple_pool_highest_retroactive_trump_takes_the_first_trick():
    # ann 9H QC 2D, bob 2S 5C 7D, cat 5S JD 3C, dan AH TC 6D; 8S turned after trick 1.
    # T1 ann 9H, bob 2S, cat 5S (both void), dan AH -> cat (5S is the highest spade)
    # T2 cat JD, dan 6D, ann 2D, bob 7D -> cat; T3 cat 3C, dan TC, ann QC, bob 5C -> ann
    v = play(record(SEATS, "dan", turnup="8S", pool=0, actions="""ann 9H; bob 2S; cat 5S; dan AH
        cat JD; dan 6D; ann 2D; bob 7D
        cat 3C; dan TC; ann QC; bob 5C"""))
    assert winners(v) == ["cat", "cat", "ann"] and v["status"] == "valid"
    assert_settled(v, payouts={"cat": 2, "ann": 1}, loos={"bob": 3, "dan": 3}, pool_after=6,
                   deltas={"ann": 1, "bob": -3, "cat": 2, "dan": -6})


def test_unlimited_loo_in_a_simple_pool_with_antes_each():
    v = play(record(SEATS, "dan", turnup="8S", pool=0, actions=RETRO,
                    rules={"game": "three-card", "loo": "unlimited",
                           "ante": {"dealer": 6, "each": 3}}))
    # P = 15, trick 5: cat 10, ann 5; bob and dan each match the pool: 15 + 15 = 30 next
    assert_settled(v, pool=15, payouts={"cat": 10, "ann": 5}, loos={"bob": 15, "dan": 15},
                   pool_after=30, deltas={"ann": 2, "bob": -18, "cat": 7, "dan": -21})


def test_miss_and_trump_declarations_may_be_left_out_when_nobody_takes_the_miss():
    # eldest may stand or take the miss, the others must stand: a record that goes straight to
    # the play (RETRO's cards; the miss 2S 3S 5S lies unused; 8S turned at once) is judged as
    # if everybody had written "stand".
    # T1 ann 9H, bob KH, cat 4S (void in hearts: must trump, does), dan AH -> cat (trump)
    # T2 cat JD, dan 6D, ann 2D, bob 7D -> cat; T3 cat 3C, dan TC, ann QC, bob 5C -> ann
    def replayed(actions):
        return play(record(SEATS, "dan", turnup="8S", pool=0, miss=["2S", "3S", "5S"],
                           rules=MISS_AND_TRUMP, actions=actions))

    silent = replayed(RETRO)
    assert silent == replayed("ann stand; bob stand; cat stand; dan stand\n" + RETRO)
    assert silent["status"] == "valid" and silent["standers"] == ["ann", "bob", "cat", "dan"]
    assert winners(silent) == ["cat", "cat", "ann"]
    # P = 3 (dan's ante): cat 1 + 1, ann 1; bob and dan won nothing: looed 3 each -> pool 6
    assert_settled(silent, payouts={"ann": 1, "cat": 2}, loos={"bob": 3, "dan": 3},
                   pool_after=6, deltas={"ann": 1, "bob": -3, "cat": 2, "dan": -6})
