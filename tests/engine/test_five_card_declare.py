"""Five-card Loo (loo-rules.md s.4): declaring, exchanging, the turn-up, stock exhaustion.

Every deal is hand-worked: four players ann bob cat dan (dan deals, ann is eldest) unless
said otherwise; the dealer antes 5 (``ante.dealer``), a looed stander pays 5.
"""
import re

import pytest

from tests.engine.dealkit import play, record, record_errors
from tests.engine.outcome import FIVE, clean, outcome, play_own_turnup

SEATS = "ann bob cat dan"
SEVEN = "ann bob cat dan eve fay gus"


def test_single_stander_takes_the_whole_pool_without_play():
    # P = 10 carried + 5 ante = 15; bob alone stands -> bob takes 15, no trick is played.
    rec = record(SEATS, "dan", rules=FIVE, pool=10, turnup="4S",
                 actions="ann pass; bob stand; cat pass; dan pass")
    v = play(rec)
    assert v["standers"] == ["bob"]
    assert v["settlement"]["antes"] == {"dan": 5} and v["settlement"]["pool"] == 15
    assert outcome(v) == clean([], {"bob": 15}, 0, {"bob": 15, "dan": -5})
    assert v["status"] == "valid" and v["trumps"] == "S"


def test_dealer_standing_alone_takes_the_pool():
    # Everyone before the dealer passes, dan stands: one stander, no play; dan gets back 10 + 5.
    rec = record(SEATS, "dan", rules=FIVE, pool=10, turnup="4S",
                 actions="ann pass; bob pass; cat pass; dan stand")
    assert outcome(play(rec)) == clean([], {"dan": 15}, 0, {"dan": 10})


def test_nobody_stands_and_the_pool_stays_for_the_next_deal():
    # 10 + 5 = 15 stays; only the dealer's ante moved.
    rec = record(SEATS, "dan", rules=FIVE, pool=10, turnup="4S",
                 actions="ann pass; bob pass; cat pass; dan pass")
    v = play(rec)
    assert v["standers"] == []
    assert outcome(v) == clean([], {}, 15, {"dan": -5})
    assert v["next"]["pool"] == 15


# Hearts trumps (9H). ann exchanges 2 (2C 3D -> KH 4C), bob keeps all, cat exchanges all 5.
# ann AH KH 4C 5D 7S | bob QH 8C 9C AD KS | cat 2H 5C TD 3S 6S (after the exchange).
EXCHANGE_DEAL = """
    ann stand; bob stand; cat stand; dan pass
    ann exchange 2C 3D > KH 4C
    bob exchange
    cat exchange 4D 6D 8D TC QC > 2H 5C TD 3S 6S
    ann AH; bob QH; cat 2H
    ann KH; bob 8C; cat 3S
    ann 7S; bob KS; cat 6S
    bob AD; cat TD; ann 5D
    bob 9C; cat 5C; ann 4C
"""


def test_a_dealer_who_looked_at_another_hand_is_passed_when_the_play_begins():
    # dan, the last to declare, looks at another hand and must throw up; the record leaves
    # his pass out and goes on to the play (1.2.0 refused ann's first card, "the deal is
    # already over": passing him opened the exchange and nothing closed it). P = 10 + 5 = 15,
    # a trick 3: ann 3 tricks 9, bob 2 tricks 6; cat looed 5, dan's full loo 5 -> 10 after.
    # ann AH KH QH 3C 6C | bob 2H 4H 6H AC KC | cat 3H 5H 7H 4C 5C (spades trumps)
    v = play(record(SEATS, "dan", rules=FIVE, pool=10, turnup="2S", actions="""
        ann stand; bob stand; cat stand; dan ! looked-at-hand
        ann AH; bob 2H; cat 3H
        ann KH; bob 4H; cat 5H
        ann QH; bob 6H; cat 7H
        ann 3C; bob AC; cat 4C
        bob KC; cat 5C; ann 6C"""))
    assert v["standers"] == ["ann", "bob", "cat"]
    assert outcome(v) == {
        "winners": ["ann", "ann", "ann", "bob", "bob"],
        "violations": [("dan", "looked-at-hand", None, None, "full-loo")],
        "payouts": {"ann": 9, "bob": 6}, "loos": {"cat": 5, "dan": 5}, "penalties": {},
        "pool_after": 10, "deltas": {"ann": 9, "bob": 6, "cat": -5, "dan": -10},
        "next_dealer": "ann"}


def test_exchange_then_play_divides_by_fifths_and_carries_the_odd_units():
    # P = 18 + 5 = 23, a trick is floor(23/5) = 4. ann 2 tricks = 8, bob 3 = 12, cat looed 5.
    # Pool after: 23 - 20 + 5 = 8 (3 odd units carried + cat's loo).
    rec = record(SEATS, "dan", rules=FIVE, pool=18, turnup="9H", actions=EXCHANGE_DEAL)
    v = play(rec)
    assert v["standers"] == ["ann", "bob", "cat"]
    assert v["tricks_won"]["ann"] == 2 and v["tricks_won"]["bob"] == 3
    assert v["tricks"][0] == {"number": 1, "leader": "ann",
                              "cards": {"ann": "AH", "bob": "QH", "cat": "2H"}, "winner": "ann"}
    assert outcome(v) == clean(["ann", "ann", "bob", "bob", "bob"], {"ann": 8, "bob": 12}, 8,
                               {"ann": 8, "bob": 12, "cat": -5, "dan": -5}, loos={"cat": 5})


# Spades trumps (QS). dan (dealer) stands: takes the turn-up QS, discards 2D 3D, draws one (9C).
# ann AS 6H 5D 7C TD | dan KS 4H 8H QS 9C; dan plays the turn-up card in trick 3.
TURNUP_DEAL = """
    ann stand; bob pass; cat pass; dan stand
    dan exchange 2D 3D > 9C
    ann AS; dan KS
    ann 6H; dan 8H
    dan QS; ann 5D
    dan 9C; ann 7C
    dan 4H; ann TD
"""
# turnup_to_dealer false: the same hands, but dan draws two (9C 5S) and QS stays on the table.
NO_TURNUP_DEAL = TURNUP_DEAL.replace("> 9C", "> 9C 5S").replace("dan QS", "dan 5S")
# P = 0 + 5, a trick is 1. ann 1 trick, dan 4: dan gets 4 back of his ante 5.
TURNUP_OUTCOME = clean(["ann", "dan", "dan", "dan", "dan"], {"ann": 1, "dan": 4}, 0,
                       {"ann": 1, "dan": -1})


def test_the_exchanges_go_in_seat_order_from_eldest():
    # s.4: "Standers in order from eldest say how many cards (0-5) they exchange". cat (third)
    # exchanging first is read as ann and bob before him keeping their cards, so ann's and
    # bob's exchanges written after his are refused: nobody goes back to an earlier seat
    rec = record(SEATS, "dan", rules=FIVE, pool=10, turnup="9H",
                 actions="""ann stand; bob stand; cat stand; dan pass
                 cat exchange 4D 6D 8D TC QC > KH 4C 2H 5C TD
                 ann exchange 2C 3D > 3S 6S
                 bob exchange""")
    assert [(e["index"], e["player"]) for e in record_errors(rec)] == [(5, "ann"), (6, "bob")]


def test_standing_dealer_takes_the_turnup_and_draws_one_fewer_than_discarded():
    rec = record(SEATS, "dan", rules=FIVE, turnup="QS", actions=TURNUP_DEAL)
    v = play_own_turnup(rec)
    assert v["tricks"][2]["cards"] == {"dan": "QS", "ann": "5D"}
    assert outcome(v) == TURNUP_OUTCOME


def test_turnup_not_the_dealers_then_the_dealer_exchanges_like_anyone():
    rec = record(SEATS, "dan", rules={**FIVE, "turnup_to_dealer": False}, turnup="QS",
                 actions=NO_TURNUP_DEAL)
    assert outcome(play(rec)) == TURNUP_OUTCOME


def test_without_turnup_to_dealer_the_dealer_cannot_play_the_turnup():
    # Action 7 (dan QS): the turn-up stays on the table, so dan cannot hold it.
    rec = record(SEATS, "dan", rules={**FIVE, "turnup_to_dealer": False}, turnup="QS",
                 actions=TURNUP_DEAL)
    errors = record_errors(rec)
    assert any(e["player"] == "dan" and e["card"] == "QS" for e in errors), errors


def test_dealer_owning_the_turnup_must_draw_one_fewer_than_discarded():
    # Discarding 2 and drawing 2 while taking the turn-up would give dan six cards. (1.2.0
    # development builds said "draws 2 cards for 1 discarded", counting the turn-up off.)
    rec = record(SEATS, "dan", rules=FIVE, turnup="QS", actions=NO_TURNUP_DEAL)
    errors = record_errors(rec)
    assert [e["message"] for e in errors if e["index"] == 4] == [
        "dan draws 2 cards for 2 discarded; the dealer takes the turn-up and draws one fewer (1)"]


def test_dealer_owning_the_turnup_must_discard_at_least_one():
    rec = record(SEATS, "dan", rules=FIVE, turnup="QS",
                 actions=TURNUP_DEAL.replace("dan exchange 2D 3D > 9C", "dan exchange"))
    errors = record_errors(rec)
    assert any(e["player"] == "dan" and e["index"] == 4 for e in errors), errors


# Seven players, gus deals, diamonds trumps (2D): 35 cards dealt + the turn-up leaves a stock
# of 16. ann, bob, cat draw 5 each (15), dan discards 2 and draws the last stock card (AS)
# plus one card from the shuffled discards (2S, thrown by ann).
STOCK_DEAL = """
    ann stand; bob stand; cat stand; dan stand; eve pass; fay pass; gus pass
    ann exchange 2S 3S 4S 5H 6H > AD KD QD AH KH
    bob exchange 7S 8S 9S 7H 8H > 2C 3C 4C 9H TS
    cat exchange TC QC 3D 4D 5D > 5C 6C 7C TH JS
    dan exchange AC KC > AS 2S
    ann AD; bob 2C; cat 5C; dan 8C
    ann KD; bob 3C; cat 6C; dan 9C
    ann QD; bob 4C; cat 7C; dan 2S
    ann AH; bob 9H; cat TH; dan QS
    ann KH; bob TS; cat JS; dan AS
"""


def test_exhausted_stock_is_refilled_from_the_discards_and_five_tricks_take_all():
    # P = 18 + 5 = 23; ann takes all five tricks, so all 23 (not 5 x floor(23/5) = 20).
    # bob, cat, dan looed 5 each: pool after 15.
    rec = record(SEVEN, "gus", rules=FIVE, pool=18, turnup="2D", actions=STOCK_DEAL)
    v = play(rec)
    assert v["status"] == "valid"
    assert outcome(v) == clean(["ann"] * 5, {"ann": 23}, 15,
                               {"ann": 23, "bob": -5, "cat": -5, "dan": -5, "gus": -5},
                               loos={"bob": 5, "cat": 5, "dan": 5})


def test_a_discard_cannot_be_drawn_while_the_stock_lasts():
    # bob draws ann's discard 2S with 11 cards still in the stock (action 8, card 2S).
    rec = record(SEVEN, "gus", rules=FIVE, pool=18, turnup="2D",
                 actions=STOCK_DEAL.replace("> 2C 3C 4C 9H TS", "> 2C 3C 4C 9H 2S"))
    errors = record_errors(rec)
    assert any(e["player"] == "bob" and e["card"] == "2S" and e["index"] == 8
               for e in errors), errors


def test_once_the_stock_is_out_only_a_discard_can_be_drawn():
    # dan's second card (after AS, the last of the stock) must come from the discards: JD is
    # in nobody's discard (action 10, card JD); he plays it at trick 3 instead of 2S.
    rec = record(SEVEN, "gus", rules=FIVE, pool=18, turnup="2D",
                 actions=STOCK_DEAL.replace("AC KC > AS 2S", "AC KC > AS JD")
                 .replace("dan 2S", "dan JD"))
    errors = record_errors(rec)
    # the first error is the draw; what follows from it (dan's plays from a hand he cannot
    # have) is reported too, nothing before it
    assert (errors[0]["index"], errors[0]["player"], errors[0]["card"], errors[0]["message"]) \
        == (10, "dan", "JD", "dan draws JD after the stock ran out; it is not among the discards")
    assert all(e["index"] > 10 for e in errors[1:]), errors


def test_nobody_exchanges_twice_or_more_than_five():
    again = EXCHANGE_DEAL.replace("bob exchange\n", "bob exchange\n ann exchange 5D > JD\n")
    twice = record(SEATS, "dan", rules=FIVE, pool=18, turnup="9H", actions=again)
    assert any(e["player"] == "ann" and e["index"] == 6 for e in record_errors(twice))
    six_cards = "ann exchange 2C 3D 6C 7C 7D 9D > KH 4C JD QD KD AC"
    six = record(SEATS, "dan", rules=FIVE, pool=18, turnup="9H",
                 actions=EXCHANGE_DEAL.replace("ann exchange 2C 3D > KH 4C", six_cards))
    assert any(e["player"] == "ann" and e["index"] == 4 for e in record_errors(six))


def test_nobody_withdraws_after_exchanging():
    rec = record(SEATS, "dan", rules=FIVE, pool=18, turnup="9H",
                 actions=EXCHANGE_DEAL.replace("bob exchange\n", "bob exchange\n ann pass\n"))
    assert any(e["player"] == "ann" and e["index"] == 6 for e in record_errors(rec))


def test_a_player_who_passed_cannot_exchange():
    passer = EXCHANGE_DEAL.replace("bob exchange\n", "bob exchange\n dan exchange 2S > 3H\n")
    rec = record(SEATS, "dan", rules=FIVE, pool=18, turnup="9H", actions=passer)
    assert any(e["player"] == "dan" and e["index"] == 6 for e in record_errors(rec))


# The same seven-player deal with the stock written down (top card first): the exchanges need
# not name their draws while the stock lasts; dan's second card comes from the discards.
STOCK = ["AD", "KD", "QD", "AH", "KH", "2C", "3C", "4C", "9H", "TS",
         "5C", "6C", "7C", "TH", "JS", "AS"]
STOCK_GIVEN_DEAL = re.sub(r"(ann|bob|cat) exchange (.*?) > .*", r"\1 exchange \2", STOCK_DEAL)


def test_draws_come_off_the_given_stock_in_order():
    rec = record(SEVEN, "gus", rules=FIVE, pool=18, turnup="2D", stock=STOCK,
                 actions=STOCK_GIVEN_DEAL)
    assert "draw" not in rec["actions"][7]
    assert outcome(play(rec)) == clean(["ann"] * 5, {"ann": 23}, 15,
                                       {"ann": 23, "bob": -5, "cat": -5, "dan": -5, "gus": -5},
                                       loos={"bob": 5, "cat": 5, "dan": 5})


def test_a_written_draw_must_be_the_stocks_top_card():
    # bob's first draw would be 2C (the sixth card); he writes 3C first.
    rec = record(SEVEN, "gus", rules=FIVE, pool=18, turnup="2D", stock=STOCK,
                 actions=STOCK_GIVEN_DEAL.replace("bob exchange 7S 8S 9S 7H 8H",
                                                  "bob exchange 7S 8S 9S 7H 8H > 3C 2C 4C 9H TS"))
    assert any(e["player"] == "bob" and e["index"] == 8 for e in record_errors(rec))


def test_the_discards_are_used_only_when_the_stock_runs_out_not_the_stock_written_down():
    # The record gives the stock's top 15 cards, not AS under them: ann, bob and cat draw all
    # 15, and dan's first draw is the real stock's last card, which the record does not name.
    # The discards are used only once the stock runs out, so his draw must be written (action
    # 10); 1.2.0 development builds drew him ann's discards 2S 3S instead.
    unwritten = STOCK_GIVEN_DEAL.replace("dan exchange AC KC > AS 2S", "dan exchange AC KC")
    rec = record(SEVEN, "gus", rules=FIVE, pool=18, turnup="2D", stock=STOCK[:15],
                 actions=unwritten)
    error = record_errors(rec)[0]
    assert (error["index"], error["player"], error["field"]) == (10, "dan", "draw"), error
    # written, it is the card under the given stock, then ann's first discard: as with the
    # whole stock given, ann takes all five tricks
    assert outcome(play(record(SEVEN, "gus", rules=FIVE, pool=18, turnup="2D", stock=STOCK[:15],
                               actions=STOCK_GIVEN_DEAL))) == clean(
        ["ann"] * 5, {"ann": 23}, 15, {"ann": 23, "bob": -5, "cat": -5, "dan": -5, "gus": -5},
        loos={"bob": 5, "cat": 5, "dan": 5})


def test_ante_each_is_paid_by_every_other_player():
    # ante {dealer 5, each 1}: P = 0 + 5 + 3 = 8; nobody stands, so all 8 stay.
    rec = record(SEATS, "dan", rules={**FIVE, "ante": {"dealer": 5, "each": 1}}, turnup="4S",
                 actions="ann pass; bob pass; cat pass; dan pass")
    v = play(rec)
    assert v["settlement"]["antes"] == {"ann": 1, "bob": 1, "cat": 1, "dan": 5}
    assert outcome(v) == clean([], {}, 8, {"ann": -1, "bob": -1, "cat": -1, "dan": -5})


def test_the_standing_dealer_takes_the_turnup_and_draws_from_the_discards_after_the_stock():
    # STOCK_DEAL with gus standing too: he takes the turn-up 2D, discards 6D 7D and draws one
    # fewer, 3S, from the discards (the stock went with dan's AS). His hand JH QH 8D 2D 3S
    # follows diamonds twice (8D, 2D), then 3S, JH, QH; ann still takes all five.
    # P = 18 + 5 = 23 to ann; bob, cat, dan, gus looed 5 each -> 20; gus -5 ante -5 loo.
    deal = (STOCK_DEAL.replace("gus pass", "gus stand")
            .replace("AC KC > AS 2S", "AC KC > AS 2S\n    gus exchange 6D 7D > 3S")
            .replace("dan 8C", "dan 8C; gus 8D").replace("dan 9C", "dan 9C; gus 2D")
            .replace("dan 2S\n", "dan 2S; gus 3S\n").replace("dan QS", "dan QS; gus JH")
            .replace("dan AS", "dan AS; gus QH"))
    v = play_own_turnup(record(SEVEN, "gus", rules=FIVE, pool=18, turnup="2D", actions=deal))
    assert outcome(v) == clean(["ann"] * 5, {"ann": 23}, 20,
                               {"ann": 23, "bob": -5, "cat": -5, "dan": -5, "gus": -10},
                               loos={"bob": 5, "cat": 5, "dan": 5, "gus": 5})


def test_legal_actions_offer_a_dealer_of_unknown_hand_only_exchanges_he_may_make():
    # A Deal given no hands: ann and dan (the dealer) stand, QS turned. ann may keep her cards;
    # dan takes the turn-up and must discard at least one card, and the one card he is known
    # to hold is QS: discarding it and drawing none leaves him his five dealt cards. (1.2.0
    # offered him "keep all", which push refuses: "must discard at least one card".)
    from games.rules import Deal

    deal = Deal(FIVE, SEATS.split(), "dan", pool=5, turnup="QS")
    for name, declared in zip(SEATS.split(), ("stand", "pass", "pass", "stand")):
        deal.push({"player": name, "action": declared})
    assert deal.legal_actions() == [{"player": "ann", "action": "exchange", "discard": [],
                                     "draw": []}]
    deal.push(deal.legal_actions()[0])
    offered = deal.legal_actions()
    assert offered == [{"player": "dan", "action": "exchange", "discard": ["QS"], "draw": []}]
    deal.push(offered[0])
    assert deal.phase == "flush" and deal.hand("dan") is None


# A flush deal (hearts trumps, 3H turned): ann's plain spade flush is given, nobody else's
# hand; ann, bob and cat stand, dan passes. Nothing is played, so no other hand is read back.
FLUSH_SHOWN = {"ann": ["2S", "5S", "8S", "TS", "KS"]}
THREE_STAND = "ann stand; bob stand; cat stand; dan pass; "


@pytest.mark.parametrize(("exchanges", "index", "message"), [
    ("ann exchange; bob exchange 2S > 4D", 5,
     "bob discards 2S, which he cannot hold: it is in ann's hand"),
    ("ann exchange; bob exchange 3H > 4D", 5,
     "bob discards 3H, which he cannot hold: it is the turn-up card"),
    ("ann exchange 2S > 4S; bob exchange 2S > 4D", 5,
     "bob discards 2S, which he cannot hold: it was discarded"),
    ("ann exchange; bob exchange 4D > 9C; cat exchange 9C > 7D", 6,
     "cat discards 9C, which he cannot hold: it is in bob's hand"),
], ids=["anothers-hand", "turn-up", "anothers-discard", "anothers-draw"])
def test_a_hand_not_given_cannot_discard_a_card_the_deal_places_elsewhere(exchanges, index,
                                                                          message):
    # 1.2.0 checked discards only against a given hand, or (in replay) against the hands the
    # plays read back: with no play to read, each of these was taken and ann's flush took the
    # pool.
    rec = record(SEATS, "dan", rules=FIVE, pool=10, turnup="3H", hands=FLUSH_SHOWN,
                 actions=THREE_STAND + exchanges + "; ann flush")
    errors = record_errors(rec)
    assert (errors[0]["index"], errors[0]["player"], errors[0]["message"]) == (
        index, message.split()[0], message), errors


def test_a_hand_not_given_discards_freely_what_the_deal_does_not_place():
    # bob and cat discard cards nobody else is known to hold (and dan, not standing, does not
    # exchange): ann's flush takes P = 10 + 5 = 15, bob and cat looed 5 each -> pool 10.
    rec = record(SEATS, "dan", rules=FIVE, pool=10, turnup="3H", hands=FLUSH_SHOWN,
                 actions=THREE_STAND + "ann exchange; bob exchange 4D 7C > 9C 2H; "
                                       "cat exchange 4C > 7D; ann flush")
    assert outcome(play(rec)) == clean([], {"ann": 15}, 10,
                                       {"ann": 15, "bob": -5, "cat": -5, "dan": -5},
                                       loos={"bob": 5, "cat": 5})


@pytest.mark.parametrize(("players", "refused"), [(3, True), (4, False), (7, False), (8, True)])
def test_five_card_seats_four_to_seven(players, refused):
    # loo-rules.md s.4: "4–7 players". Seven take 35 cards + the turn-up; an eighth would leave
    # a stock of 11, but the game is not played by eight.
    from games.rules import RuleError, RuleSet

    seats = [f"p{i}" for i in range(players)]
    rules = RuleSet.from_options(FIVE)
    if refused:
        with pytest.raises(RuleError, match=f"five-card Loo is played by 4 to 7 players, not "
                                            f"{players}"):
            rules.check_seats(seats)
    else:
        rules.check_seats(seats)


@pytest.mark.parametrize(("size", "refused"), [(31, False), (32, True)])
def test_a_given_stock_holds_no_more_than_the_deal_leaves(size, refused):
    # Four hands of five and the turn-up leave 52 - 20 - 1 = 31 cards. A stock of 32 cannot
    # be (1.2.0 took it: with no play to read the other hands back, nothing clashed). Here ann
    # shows her flush: P = 10 + 5 = 15, bob looed 5 -> pool 5.
    deck = [r + s for s in "CDHS" for r in "23456789TJQKA"]
    stock = [c for c in deck if c not in FLUSH_SHOWN["ann"] and c != "3H"][:size]
    rec = record(SEATS, "dan", rules=FIVE, pool=10, turnup="3H", hands=FLUSH_SHOWN, stock=stock,
                 actions="ann stand; bob stand; cat pass; dan pass; ann flush")
    if refused:
        message = "stock: holds 32 cards, but this deal leaves 31 after the hands and the trump card"
        assert [(e["field"], e["message"]) for e in record_errors(rec)] == [("stock", message)]
    else:
        assert outcome(play(rec)) == clean([], {"ann": 15}, 5, {"ann": 15, "bob": -5, "dan": -5},
                                           loos={"bob": 5})
