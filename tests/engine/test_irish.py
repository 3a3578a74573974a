"""Irish Loo (loo-rules.md section 3): no miss, no simple pool, stand or pass, then an exchange of
0-3 cards; a player who exchanged must play; the Portuguese first-lead trumps; club law."""
import pytest

from tests.engine.dealkit import assert_settled, play, record, record_errors, winners

SEATS = "ann bob cat dan"
IRISH = {"game": "irish"}
# Empty pool (Irish has no simple pool: passing is allowed), dan deals, 7D turned.
# ann stands and exchanges 2C 3H for AS QD (keeps KD); bob passes; cat stands on 4D 9S JH and
# exchanges nothing; dan stands and exchanges all three 2S 3S 4C for AD 5H 6S.
DECLARE = "ann stand; bob pass; cat stand; dan stand"
EXCHANGE = "ann exchange 2C 3H > AS QD; cat exchange; dan exchange 2S 3S 4C > AD 5H 6S"
# T1 ann KD, cat 4D, dan AD -> dan; T2 dan 6S, ann AS, cat 9S -> ann; T3 ann QD, cat JH, dan 5H -> ann
PLAYS = "ann KD; cat 4D; dan AD\ndan 6S; ann AS; cat 9S\nann QD; cat JH; dan 5H"


def irish(*parts: str, pool: int = 0, turnup: str | None = "7D", hands: dict | None = None,
          **options) -> dict:
    extra = {"hands": hands} if hands else {}
    return record(SEATS, "dan", turnup=turnup, pool=pool, actions="\n".join(parts),
                  rules={**IRISH, **options}, **extra)


def test_irish_exchange_and_play():
    v = play(irish(DECLARE, EXCHANGE, PLAYS))
    assert v["status"] == "valid" and v["trumps"] == "D"
    assert v["standers"] == ["ann", "cat", "dan"]
    assert winners(v) == ["dan", "ann", "ann"]
    # P = 0 + 3 = 3, trick 1: ann 2, dan 1 (dan -3 + 1 = -2); cat looed 3 -> next pool 3
    assert_settled(v, pool=3, payouts={"ann": 2, "dan": 1}, loos={"cat": 3}, pool_after=3,
                   deltas={"ann": 2, "cat": -3, "dan": -2})
    assert (v["next"]["dealer"], v["next"]["pool"]) == ("ann", 3)


def test_irish_carried_pool_divides_as_a_double_pool():
    v = play(irish(DECLARE, EXCHANGE, PLAYS, pool=6))
    # P = 9, trick 3: ann 6, dan 3 (dan -3 + 3 = 0); cat looed 3
    assert_settled(v, pool=9, payouts={"ann": 6, "dan": 3}, loos={"cat": 3}, pool_after=3,
                   deltas={"ann": 6, "cat": -3})


def test_irish_has_no_miss():
    errors = record_errors(irish("ann miss; bob pass; cat stand; dan stand"))
    assert any(e["index"] == 0 and e["player"] == "ann" for e in errors), errors


def test_player_who_exchanged_must_play():
    errors = record_errors(irish(DECLARE, EXCHANGE, "dan pass", PLAYS))
    assert any(e["index"] == 7 and e["player"] == "dan" for e in errors), errors


def test_exchanged_player_who_stops_playing_is_a_record_error():
    errors = record_errors(irish(DECLARE, EXCHANGE, "ann KD; cat 4D"))
    assert errors


def test_discarded_card_cannot_be_played():
    # ann discarded 2C; playing it at trick 3 (index 13) is a card she cannot hold
    errors = record_errors(irish(DECLARE, EXCHANGE,
                                 "ann KD; cat 4D; dan AD\ndan 6S; ann AS; cat 9S\nann 2C; cat JH; dan 5H"))
    assert any(e["index"] == 13 and e["player"] == "ann" and e["card"] == "2C" for e in errors)


def test_exchange_of_four_cards_is_refused():
    errors = record_errors(irish(DECLARE, "ann exchange 2C 3H KD 9C > AS QD TC 8C"))
    assert any(e["index"] == 4 and e["player"] == "ann" for e in errors), errors


def test_irish_first_lead_makes_trumps():
    # no turn-up: ann's 9H opening lead makes hearts trumps. ann 9H 2S KC, bob JH 5S 3C,
    # cat 4D AS 7C stand (no exchange), dan passes.
    # T1 ann 9H, bob JH, cat 4D (no heart) -> bob; T2 bob 5S (no heart), cat AS, ann 2S -> cat
    # T3 cat 7C, ann KC, bob 3C -> ann
    v = play(irish("ann stand; bob stand; cat stand; dan pass",
                   "ann exchange; bob exchange; cat exchange",
                   "ann 9H; bob JH; cat 4D\nbob 5S; cat AS; ann 2S\ncat 7C; ann KC; bob 3C",
                   turnup=None, trump_turned="first-lead"))
    assert v["trumps"] == "H" and v["status"] == "valid"
    assert winners(v) == ["bob", "cat", "ann"]
    assert_settled(v, payouts={"ann": 1, "bob": 1, "cat": 1}, pool_after=0,
                   deltas={"ann": 1, "bob": 1, "cat": 1, "dan": -3})


# first-lead: ann 9H AH KC (9H QH KC) leads 9H, making hearts trumps; bob JH 5S 3C,
# cat 4D AS 7C, dan passes. T1 ann 9H, bob JH, cat 4D -> bob; T2 bob 5S, cat AS, ann AH (void
# in spades, must trump) -> ann; T3 ann KC, bob 3C, cat 7C -> ann. P = 3: ann 2, bob 1; cat looed.
FIRST_LEAD = ("ann stand; bob stand; cat stand; dan pass", "ann exchange; bob exchange; cat exchange",
              "ann 9H; bob JH; cat 4D\nbob 5S; cat AS; ann AH\nann KC; bob 3C; cat 7C")


@pytest.mark.parametrize("duty", [{"lead_trump_ace": True}, {"lead_highest_trump": True},
                                  {"trump_ace_first_trick": True}])
def test_the_lead_that_makes_trumps_carries_no_lead_duty(duty):
    # docs/engine.md interpretation 7: lead duties bind only where trumps are known, and the
    # leader chose the suit with none known. ann was charged a full loo for leading 9H while
    # holding AH (under lead_trump_ace, the default, and trump_ace_first_trick) or
    # QH (lead_highest_trump) of the suit her lead made trumps.
    hand = ["9H", "QH" if "lead_highest_trump" in duty else "AH", "KC"]
    plays = FIRST_LEAD[2].replace("ann AH", f"ann {hand[1]}")
    v = play(irish(*FIRST_LEAD[:2], plays, turnup=None, trump_turned="first-lead",
                   hands={"ann": hand, "bob": ["JH", "5S", "3C"], "cat": ["4D", "AS", "7C"]},
                   **duty))
    assert (v["trumps"], v["status"], v["violations"]) == ("H", "valid", [])
    assert winners(v) == ["bob", "ann", "ann"]
    assert_settled(v, payouts={"ann": 2, "bob": 1}, loos={"cat": 3}, pool_after=3,
                   deltas={"ann": 2, "bob": 1, "cat": -3, "dan": -3})


def test_after_the_lead_made_trumps_the_followers_duties_bind():
    # trump_ace_first_trick: bob holds AH of the trumps ann's 9H made and heads with TH instead.
    # T1 -> bob; T2 bob AH, cat 7C, ann KC -> bob; T3 bob 5S, cat AS, ann 2S -> cat
    v = play(irish("ann stand; bob stand; cat stand; dan pass",
                   "ann exchange; bob exchange; cat exchange",
                   "ann 9H; bob TH; cat 4D\nbob AH; cat 7C; ann KC\nbob 5S; cat AS; ann 2S",
                   turnup=None, trump_turned="first-lead", trump_ace_first_trick=True,
                   hands={"ann": ["9H", "2S", "KC"], "bob": ["TH", "AH", "5S"],
                          "cat": ["4D", "AS", "7C"]}))
    assert [(x["player"], x["rule"], x["trick"], x["card"]) for x in v["violations"]] == [
        ("bob", "failed-to-play-trump-ace", 1, "TH")]
    assert winners(v) == ["bob", "bob", "cat"]


# Club law (Russian source): 7C turned, everyone plays. ann AC 5H 9S, bob 2C KH 3S,
# cat 4H 8S JD, dan QH TS 6D (see test_three_card_options): winners ann, bob, dan; cat looed.
CLUB_PLAYS = "ann AC; bob 2C; cat 4H; dan 6D\nann 5H; bob KH; cat JD; dan QH\nbob 3S; cat 8S; dan TS; ann 9S"


def test_irish_club_law_everyone_plays():
    v = play(irish("ann stand; bob stand; cat stand; dan stand",
                   "ann exchange; bob exchange; cat exchange; dan exchange", CLUB_PLAYS,
                   turnup="7C", club_law=True))
    assert winners(v) == ["ann", "bob", "dan"]
    # P = 3, trick 1: ann, bob, dan 1 each; cat looed 3
    assert_settled(v, payouts={"ann": 1, "bob": 1, "dan": 1}, loos={"cat": 3}, pool_after=3,
                   deltas={"ann": 1, "bob": 1, "cat": -3, "dan": -2})


@pytest.mark.parametrize("club_law, refused", [(True, True), (False, False)])
def test_irish_club_law_refuses_a_pass_under_clubs(club_law, refused):
    rec = irish("ann pass; bob pass; cat pass", turnup="7C", club_law=club_law)
    if refused:
        errors = record_errors(rec)
        assert any(e["index"] == 0 and e["player"] == "ann" for e in errors), errors
    else:
        # all pass before the dealer: dan takes P = 3
        v = play(rec)
        assert_settled(v, payouts={"dan": 3}, pool_after=0, deltas={})


def test_only_standers_exchange():
    errors = record_errors(irish(DECLARE, "bob exchange 2C > 9C"))
    assert any(e["index"] == 4 and e["player"] == "bob" for e in errors), errors


def test_discarding_a_card_not_held_is_a_record_error():
    rec = irish(DECLARE, "ann exchange 9C > AS", hands={"ann": ["2C", "3H", "KD"]})
    assert any(e["index"] == 4 and e["player"] == "ann" for e in record_errors(rec))


def test_drawing_a_card_another_player_holds_is_a_record_error():
    # ann draws 4D, which cat plays to trick 1
    rec = irish(DECLARE, "ann exchange 2C 3H > AS 4D; cat exchange; dan exchange 2S 3S 4C > AD 5H 6S",
                "ann KD; cat 4D; dan AD; dan 6S; ann AS; cat 9S; ann QD; cat JH; dan 5H")
    assert any(e["player"] in ("ann", "cat") for e in record_errors(rec))


def test_irish_lone_stander_against_a_dealer_defending_with_his_own_exchanged_hand():
    # No miss at Irish Loo: dan defends with his own cards, and (a player in the deal) may
    # exchange like any stander (docs/engine.md, Interpretations 11). ann 2C 9H 8C draws AD for
    # 2C; dan 3S 4S 5H draws KD QD for the spades. T1 ann AD, dan KD -> ann; T2 ann 9H (no trump
    # left), dan 5H -> ann; T3 ann 8C, dan QD (void: trumps) -> dan.
    # P = 6 + 3 = 9, a trick 3: ann 6; the defender's trick stays -> pool after 3.
    v = play(irish("ann stand; bob pass; cat pass; dan defend",
                   "ann exchange 2C > AD; dan exchange 3S 4S > KD QD",
                   "ann AD; dan KD; ann 9H; dan 5H; ann 8C; dan QD", pool=6,
                   hands={"ann": ["2C", "9H", "8C"], "dan": ["3S", "4S", "5H"]}))
    assert winners(v) == ["ann", "ann", "dan"] and v["defender"] == "dan"
    assert_settled(v, payouts={"ann": 6}, pool_after=3, deltas={"ann": 6, "dan": -3})


def test_irish_everyone_passing_gives_the_dealer_the_pool_and_a_lone_stander_is_played():
    # Interpretations 11: all pass before dan -> he takes P = 6 + 3 = 9 without play; against
    # a lone stander he may not pass (he stands, or defends with his own cards).
    v = play(irish("ann pass; bob pass; cat pass", pool=6))
    assert v["ended"] == "dealer-takes" and v["tricks"] == []
    assert_settled(v, payouts={"dan": 9}, pool_after=0, deltas={"dan": 6})
    errors = record_errors(irish("ann stand; bob pass; cat pass; dan pass", pool=6))
    assert any(e["player"] == "dan" and "may not pass" in e["message"] for e in errors), errors


SIXTEEN = " ".join(f"p{i}" for i in range(16))
SIXTEEN_DECLARE = "p0 stand; p1 stand; " + "; ".join(f"p{i} pass" for i in range(2, 16))


@pytest.mark.parametrize(("turned", "turnup", "p1_draw", "p1_first"), [
    ("at-deal", "2S", "3C 4C", "8D"),
    ("on-first-void", "2S", "3C 4C", "8D"),
    ("first-lead", None, "2S 3C", "2S"),
])
def test_irish_sixteen_players_exhaust_the_stock_and_draw_from_the_discards(turned, turnup,
                                                                            p1_draw, p1_first):
    # 16 x 3 = 48 cards dealt. With a trump card (turned at the deal, or set aside until the
    # first void: "не вскрывается", is not revealed, 001:38) the stock holds 52 - 48 - 1 = 3:
    # p0 draws all three (AS KS QS for 3C 4C 5C) and p1's draws for 6D 7D come from p0's
    # discards (3C 4C). first-lead has no trump card: 4 in the stock, p1 draws its last (2S),
    # then 3C. (1.2.0 counted the on-first-void trump card in the stock and refused p1's 3C.)
    # T1 p0 AS (spades trumps: turned, turned at p1's void 8D, or led), p1 8D or 2S -> p0;
    # T2 p0 KS, p1 (no spade) a club -> p0; T3 the same. p0 takes all three: P = 6 + 3 = 9;
    # p1 looed 3 -> next pool 3; p15 antes 3.
    second = "4C" if p1_first == "8D" else "8D"
    rec = record(SIXTEEN, "p15", turnup=turnup, pool=6, rules={**IRISH, "trump_turned": turned},
                 actions=f"""{SIXTEEN_DECLARE}
                 p0 exchange 3C 4C 5C > AS KS QS; p1 exchange 6D 7D > {p1_draw}
                 p0 AS; p1 {p1_first}; p0 KS; p1 3C; p0 QS; p1 {second}""")
    v = play(rec)
    assert (v["trumps"], v["status"]) == ("S", "valid")
    assert winners(v) == ["p0", "p0", "p0"]
    assert_settled(v, pool=9, payouts={"p0": 9}, loos={"p1": 3}, pool_after=3,
                   deltas={"p0": 9, "p1": -3, "p15": -3})


@pytest.mark.parametrize(("option", "value"), [
    ("pools", "always-double"), ("simple_pool", "miss-and-trump"),           # no simple pool
    ("ante_double", {"dealer": 3, "each": 3}),
    ("flush", "three-trumps"), ("flush", "three-trumps-redeal"),            # question 25
    ("bold_stand", True),                                                   # question 25
    ("turnup_to_dealer", True), ("pam", "jack-of-clubs"), ("blaze", True),  # five-card's
])
def test_options_irish_loo_does_not_play_are_refused_naming_them(option, value):
    from games.rules import RuleError, RuleSet

    with pytest.raises(RuleError) as err:
        RuleSet.from_options({**IRISH, option: value})
    assert f"{option}: does not apply to Irish Loo" in str(err.value)


def test_a_miss_in_an_irish_record_is_a_record_error():
    # No miss is dealt: a record's miss, and looking at one, describe no real Irish deal.
    errors = record_errors(irish("ann pass; bob pass; cat pass"
                                 ) | {"miss": ["2C", "3C", "4C"]})
    assert [(e["index"], e["field"], e["message"]) for e in errors] == [
        (None, "miss", "miss: this deal (irish) has no miss")]
    errors = record_errors(irish("ann ! looked-at-miss; ann pass; bob pass; cat pass"))
    assert [(e["index"], e["player"]) for e in errors] == [(0, "ann")]
    assert errors[0]["message"] == "ann: looked-at-miss, but no miss is dealt in this deal"


def test_a_turn_up_in_a_first_lead_deal_is_a_record_error():
    # The Portuguese Irish Loo turns no card: "Sem carta virada" (003:57), the first card led
    # makes trumps. The FIRST_LEAD deal with a turn-up named (7D) describes no real deal; 1.2.0
    # took it and ignored it. Without one it is valid (test above).
    errors = record_errors(irish(*FIRST_LEAD, turnup="7D", trump_turned="first-lead"))
    assert [(e["index"], e["field"], e["card"]) for e in errors] == [(None, "turnup", "7D")]
    assert errors[0]["message"] == ('turnup: no card is turned in this deal (trump_turned '
                                    '"first-lead": the first card led makes trumps), not 7D')
    assert play(irish(*FIRST_LEAD, turnup=None, trump_turned="first-lead"))["trumps"] == "H"


def test_irish_lone_stander_against_a_standing_dealer_or_a_concession():
    # The defended deal above with dan standing instead: he plays for his share like anyone.
    # T1 ann AD, dan KD -> ann; T2 ann 9H, dan 5H -> ann; T3 ann 8C, dan QD -> dan.
    # P = 6 + 3 = 9, a trick 3: ann 6, dan 3 (his -3 ante back) -> pool after 0.
    v = play(irish("ann stand; bob pass; cat pass; dan stand",
                   "ann exchange 2C > AD; dan exchange 3S 4S > KD QD",
                   "ann AD; dan KD; ann 9H; dan 5H; ann 8C; dan QD", pool=6,
                   hands={"ann": ["2C", "9H", "8C"], "dan": ["3S", "4S", "5H"]}))
    assert winners(v) == ["ann", "ann", "dan"] and "defender" not in v
    assert_settled(v, payouts={"ann": 6, "dan": 3}, pool_after=0, deltas={"ann": 6})
    # single_stander "concede" (Enquire Within): dan may pass, giving ann P = 9 without play.
    v = play(irish("ann stand; bob pass; cat pass; dan pass", pool=6, single_stander="concede"))
    assert v["ended"] == "conceded" and v["tricks"] == []
    assert_settled(v, payouts={"ann": 9}, pool_after=0, deltas={"ann": 9, "dan": -3})
