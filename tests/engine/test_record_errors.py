"""Record errors (deal-record.md): a record that cannot describe a real deal is refused whole,
with every error found, each naming the action index, the player and the card."""
import copy
import json
import pathlib

import pytest

from games.rules import RecordError, replay
from tests.engine.dealkit import assert_conserved, record, record_errors
from tests.engine.test_five_card_declare import EXCHANGE_DEAL, TURNUP_DEAL
from tests.engine.test_irish import DECLARE, PLAYS, irish

FIVE = {"game": "five-card"}
THREE = {"game": "three-card"}
SEATS = "ann bob cat dan"
EXAMPLES = pathlib.Path(__file__).parent / "examples"  # copies of ../shared/examples (test_roundtrip keeps them equal)
# EXCHANGE_DEAL action indices: 0-3 declarations, 4-6 exchanges, 7-21 plays
# (7 ann AH, 8 bob QH, 9 cat 2H, 10 ann KH, 11 bob 8C, ..., 19 bob 9C, 20 cat 5C, 21 ann 4C).


def five_card(**fields):
    """The valid five-card exchange deal (hearts trumps, P = 23), as a fresh record."""
    return record(SEATS, "dan", rules=FIVE, pool=18, turnup="9H", actions=EXCHANGE_DEAL,
                  **fields)


def named(errors, index, player, card=None):
    """True when some error names this action index, player and (if given) card."""
    return any(e["index"] == index and e["player"] == player
               and (card is None or e["card"] == card) for e in errors)


def test_the_base_record_is_valid():
    verdict = replay(five_card())
    assert verdict["status"] == "valid"
    assert_conserved(verdict, SEATS.split())


def test_every_error_has_the_contract_fields():
    rec = five_card()
    rec["actions"][11]["card"] = "ZZ"
    for e in record_errors(rec):
        assert set(e) >= {"index", "player", "card", "field", "message"}, e
        assert isinstance(e["message"], str) and e["message"]


@pytest.mark.parametrize("bad", ["ZZ", "1H", "11S", "AX", ""])
def test_not_a_card(bad):
    rec = five_card()
    rec["actions"][11]["card"] = bad
    errors = record_errors(rec)
    assert named(errors, 11, "bob", bad), errors


def test_same_card_twice():
    rec = five_card()
    rec["actions"][9]["card"] = "AH"  # cat plays ann's AH of trick 1 again
    assert named(record_errors(rec), 9, "cat", "AH")


def test_same_card_twice_shared_example():
    case = json.loads((EXAMPLES / "e4_card_played_twice.json").read_text())
    errors = record_errors(case["record"])
    assert named(errors, 9, "bob", "AD"), errors


@pytest.mark.parametrize(("index", "player", "card"), [
    (19, "bob", "9H"),   # the turn-up, which is on the table (bob is not the dealer)
    (21, "ann", "2C"),   # a card ann discarded in her exchange
])
def test_card_the_player_cannot_hold(index, player, card):
    rec = five_card()
    rec["actions"][index]["card"] = card
    assert named(record_errors(rec), index, player, card)


def test_card_outside_a_given_hand():
    # ann's dealt hand is given; she plays QS, which is not in it (nor drawn).
    rec = five_card(hands={"ann": ["AH", "2C", "3D", "5D", "7S"]})
    rec["actions"][13]["card"] = "QS"
    assert named(record_errors(rec), 13, "ann", "QS")


def test_hand_of_the_wrong_size():
    rec = five_card(hands={"ann": ["AH", "2C", "3D", "5D"]})
    errors = record_errors(rec)
    assert any(e["player"] == "ann" and e["index"] is None for e in errors), errors


def test_unknown_seat():
    rec = five_card()
    rec["actions"][3]["player"] = "zed"
    assert named(record_errors(rec), 3, "zed")


def test_action_after_the_last_trick():
    rec = five_card()
    rec["actions"].append({"player": "bob", "action": "play", "card": "2D"})
    assert named(record_errors(rec), 22, "bob", "2D")


def test_action_after_a_lone_stander_took_the_pool():
    rec = record(SEATS, "dan", rules=FIVE, pool=10, turnup="4S",
                 actions="ann pass; bob stand; cat pass; dan pass; bob AS")
    assert named(record_errors(rec), 4, "bob", "AS")


def test_deal_that_stops_before_its_last_trick():
    rec = five_card()
    del rec["actions"][16:]  # three tricks played, no reason to stop
    assert record_errors(rec)


@pytest.mark.parametrize(("pool", "actions", "index", "player"), [
    (0, "ann pass", 0, "ann"),                                         # pass in a simple pool
    (6, "ann stand; bob miss; cat miss; dan pass", 2, "cat"),          # a second miss-taker
    (6, "ann stand; bob pass; cat pass; dan pass", 3, "dan"),          # dealer vs lone stander
])
def test_declarations_the_rules_do_not_allow(pool, actions, index, player):
    rec = record(SEATS, "dan", rules=THREE, pool=pool, turnup="7D", actions=actions)
    errors = record_errors(rec)
    assert named(errors, index, player), errors


def test_a_miss_with_irish_loo():
    rec = record(SEATS, "dan", rules={"game": "irish"}, pool=0, turnup="7D",
                 actions="ann stand", miss=["QD", "5H", "5C"])
    errors = record_errors(rec)
    assert any(e["field"] == "miss" or "miss" in e["message"] for e in errors), errors


def test_pool_mismatch_between_record_and_ledger():
    rec = five_card()
    with pytest.raises(RecordError) as caught:
        replay(rec, FIVE, pool=9)
    assert any(e["field"] == "pool" or "pool" in e["message"] for e in caught.value.errors)
    assert "18" in str(caught.value.errors) and "9" in str(caught.value.errors)


def test_every_error_is_reported_at_once_and_nothing_else_is_changed():
    rec = five_card()
    rec["actions"][3]["player"] = "zed"
    rec["actions"][11]["card"] = "ZZ"
    rec["actions"][9]["card"] = "AH"
    before = copy.deepcopy(rec)
    errors = record_errors(rec)
    assert named(errors, 3, "zed") and named(errors, 11, "bob", "ZZ"), errors
    assert named(errors, 9, "cat", "AH"), errors
    assert rec == before  # replay never edits the caller's record


def test_an_action_that_is_no_action():
    rec = five_card()
    rec["actions"][5] = {"player": "bob", "action": "shuffle"}
    assert named(record_errors(rec), 5, "bob")


def test_a_player_who_passed_cannot_play():
    # dan passed; a card from him in trick 1 (after cat, index 10) cannot be part of the deal
    rec = five_card()
    rec["actions"].insert(10, {"player": "dan", "action": "play", "card": "AS"})
    assert named(record_errors(rec), 10, "dan", "AS")


def test_an_irregularity_of_no_known_kind():
    rec = five_card()
    rec["actions"].insert(0, {"player": "ann", "action": "irregularity", "kind": "sneezed"})
    errors = record_errors(rec)
    assert named(errors, 0, "ann"), errors
    assert errors[0]["field"] == "kind" and "unknown irregularity kind 'sneezed'" in \
        errors[0]["message"]


@pytest.mark.parametrize(("kind", "message"), [
    (["misdeal"], "ann: unknown irregularity kind ['misdeal']"),
    ({"kind": "misdeal"}, "ann: unknown irregularity kind {'kind': 'misdeal'}"),
    (7, "ann: unknown irregularity kind 7"),
    (None, "ann: the irregularity's kind is missing (what did the table see?)"),
])
def test_an_irregularity_kind_that_is_no_name_is_the_records_error(kind, message):
    # a list or an object raised TypeError (unhashable, looked up among the kinds): the
    # service answered a 500. Now the record's error at the action, as for an unknown action
    rec = five_card()
    rec["actions"].insert(0, {"player": "ann", "action": "irregularity", "kind": kind})
    assert record_errors(rec) == [
        {"index": 0, "player": "ann", "card": None, "field": "kind", "message": message}]


def test_an_irregularity_with_no_kind_is_the_records_error():
    rec = five_card()
    rec["actions"].insert(3, {"player": "dan", "action": "irregularity"})
    assert record_errors(rec) == [
        {"index": 3, "player": "dan", "card": None, "field": "kind",
         "message": "dan: the irregularity's kind is missing (what did the table see?)"}]


def test_a_misdeal_is_seen_before_the_play():
    # the misdeal is noted after ann's first card (action 8): too late, the deal stands
    rec = five_card()
    rec["actions"].insert(8, {"player": "bob", "action": "irregularity", "kind": "misdeal"})
    errors = record_errors(rec)
    assert named(errors, 8, "bob"), errors
    assert errors[0]["message"] == "misdeal: a misdeal is seen before the play"


def _noted(at, player, kind, card, **fields):
    """five_card() with the table's note of ``player``'s ``kind`` naming ``card`` inserted as
    action ``at`` (7: after the exchanges, before trick 1; 10: after trick 1)."""
    rec = five_card(**fields)
    rec["actions"].insert(at, {"player": player, "action": "irregularity", "kind": kind,
                               "card": card})
    return rec


# The exchange deal's hands as its plays show them (each read back whole): ann AH 7S 5D 2C 3D,
# discards 2C 3D, draws KH 4C; bob QH 8C KS AD 9C, keeps them; cat 4D 6D 8D TC QC, discards
# them all, draws 2H 5C TD 3S 6S; the turn-up 9H stays on the table (dan, the dealer, passed).
@pytest.mark.parametrize(("at", "player", "kind", "card", "where"), [
    (10, "bob", "exposed-card", "AH", ": ann played it to trick 1"),
    (10, "bob", "threw-up-after-lead", "QH", ": bob played it to trick 1"),
    (7, "bob", "exposed-card", "KH", ": it is in ann's hand"),          # ann drew it, plays it
    (10, "cat", "revoke", "9C", ": it is in bob's hand"),               # a corrected revoke
    (7, "bob", "exposed-card", "9H", ": it is the turn-up card"),
    (7, "ann", "exposed-card", "2C", ": it was discarded"),             # by ann herself
    (7, "cat", "played-out-of-turn", "QC", ": it was discarded"),
    (7, "ann", "exposed-card", "QS", ""),   # nobody plays it, but ann's five cards are all known
])
def test_an_irregularitys_card_the_offender_cannot_hold(at, player, kind, card, where):
    # 1.2.0 took any card: a record of a card exposed that is on the table, in another hand or
    # discarded cannot describe a real deal
    errors = record_errors(_noted(at, player, kind, card))
    assert [(e["index"], e["player"], e["card"], e["field"], e["message"]) for e in errors] == [
        (at, player, card, "card", f"{kind}: {player} cannot hold {card}{where}")]


def test_an_irregularitys_card_in_another_given_hand():
    # dan passes; his hand, given, holds JD: bob cannot expose it while declaring
    rec = _noted(1, "bob", "exposed-card", "JD",
                 hands={"dan": ["2S", "3C", "JD", "JS", "7H"]})
    assert [(e["index"], e["player"], e["card"], e["message"]) for e in record_errors(rec)] == [
        (1, "bob", "JD", "exposed-card: bob cannot hold JD: it is in dan's hand")]


@pytest.mark.parametrize(("at", "player", "kind", "card", "trick"), [
    (7, "bob", "exposed-card", "9C", None),  # a card bob plays later is his (before trick 1)
    (10, "ann", "revoke", "5D", 2),          # taken back at trick 2, played at trick 4
    (4, "dan", "exposed-card", "JD", None),  # nobody plays it: dan, who passed, may hold it
    (7, "cat", "looked-at-hand", "KH", None),  # a card seen in another hand is that hand's
])
def test_an_irregularitys_card_a_real_deal_could_show_is_accepted(at, player, kind, card,
                                                                  trick):
    verdict = replay(_noted(at, player, kind, card))
    assert [(v["player"], v["rule"], v["trick"], v["card"], v["penalty"])
            for v in verdict["violations"]] == [(player, kind, trick, card, "full-loo")]


def test_the_turn_up_is_the_dealers_once_he_has_taken_it():
    # TURNUP_DEAL: dan stands (action 3), takes the turn-up QS at his exchange (4), plays it to
    # trick 3. Exposing it after the exchange is his offence; before it, QS is on the table.
    def noted(at):
        rec = record(SEATS, "dan", rules=FIVE, turnup="QS", actions=TURNUP_DEAL)
        rec["actions"].insert(at, {"player": "dan", "action": "irregularity",
                                   "kind": "exposed-card", "card": "QS"})
        return rec
    assert [(v["player"], v["card"]) for v in replay(noted(5))["violations"]] == [("dan", "QS")]
    assert [(e["index"], e["message"]) for e in record_errors(noted(4))] == [
        (4, "exposed-card: dan cannot hold QS: it is the turn-up card")]


def _exchange(rec, index):
    """The exchange action at ``index`` of a five_card() record, to be spoiled by a test."""
    action = rec["actions"][index]
    assert action["action"] == "exchange"
    return action


@pytest.mark.parametrize(("spoil", "index", "player", "message"), [
    # ann's exchange (action 4): discard 2C 3D, draw KH 4C
    (lambda a: a.update(discard=["2C", "2C"], draw=["KH", "4C"]), 4, "ann",
     "ann discards 2C twice"),
    (lambda a: a.update(discard=["2C", "ZZ"]), 4, "ann", "discard: 'ZZ' is not a card"),
    (lambda a: a.update(draw=["KH"]), 4, "ann", "ann draws 1 card for 2 discarded"),
])
def test_exchanges_that_cannot_be(spoil, index, player, message):
    rec = five_card()
    spoil(_exchange(rec, index))
    errors = record_errors(rec)
    assert named(errors, index, player), errors
    assert any(e["message"] == message for e in errors), errors


def test_a_card_drawn_and_never_played():
    # ann discards 2C 3D and draws KH 9S; she plays AH KH 7S 5D 4C and never 9S. Read back, she
    # was dealt 2C 3D (kept out of play) + AH 7S 5D 4C (played, not drawn): six cards, and after
    # her exchange she would hold AH KH 7S 5D 4C 9S. Up to 1.2.0 the deal was settled as valid.
    rec = five_card()
    _exchange(rec, 4).update(draw=["KH", "9S"])
    assert [(e["index"], e["player"], e["card"], e["message"]) for e in record_errors(rec)] == [
        (4, "ann", "9S", ("ann drew 9S and never played it: the plays and the exchange read back "
                         "6 cards dealt to ann, and five-card Loo deals 5"))]


def test_a_draw_another_player_plays_is_named_once():
    # ann "draws" QH, which bob plays to trick 1: the card was in bob's hand, not the stock.
    # That is the error; her hand read back (six cards) is its consequence, not a second one.
    rec = five_card()
    _exchange(rec, 4).update(draw=["KH", "QH"])
    assert [(e["index"], e["player"], e["card"], e["message"]) for e in record_errors(rec)] == [
        (4, "ann", "QH", "ann draws QH, which is not in the stock")]


def test_a_stock_card_another_plays_is_named_at_the_play():
    # three-card Loo draws nothing, so a given stock is undrawn: 2C lies in it, yet ann plays
    # 2C to trick 2 (action 5). Up to 1.2.0 the deal said only "2C is dealt twice" (no index,
    # no player); the play that contradicts the stock is now named, and only it
    rec = record("ann bob cat", "cat", rules=THREE, pool=3, turnup="7H", actions="""
        ann stand; bob pass; cat stand
        ann AH; cat KH; ann 2C; cat QS; ann 3C; cat JS""")
    assert replay({**rec, "stock": ["9C", "9D"]})["status"] == "valid"  # cards nobody plays
    assert [(e["index"], e["player"], e["card"], e["field"], e["message"])
            for e in record_errors({**rec, "stock": ["2C", "9D"]})] == [
        (5, "ann", "2C", None, "ann cannot hold 2C: it is in the stock, drawn by nobody")]


def test_stock_cards_the_exchanges_leave_or_give_another_are_named_at_their_plays():
    # the exchanges list no draws: ann draws 2 (for 2C 3D), bob none, cat 5 (for his five
    # discards), off the stock's top in turn. Given KH 4C | 2H 5C TD 3S 6S | 9C the deal is
    # the base deal with 9C left over: bob's 9C (action 19) contradicts it. Given 9C KH | 4C
    # 2H 5C TD 3S | 6S, ann draws 9C, cat draws 4C and 6S is left: cat's 6S (15), bob's 9C
    # (19) and ann's 4C (21) are each named, where 1.2.0 said "9C/4C/6S is dealt twice"
    rec = five_card()
    for i in (4, 6):
        _exchange(rec, i).pop("draw")
    assert replay({**rec, "stock": ["KH", "4C", "2H", "5C", "TD", "3S", "6S"]})["status"] == "valid"
    said = [(e["index"], e["player"], e["card"], e["message"]) for e in record_errors(
        {**rec, "stock": ["KH", "4C", "2H", "5C", "TD", "3S", "6S", "9C"]})]
    assert said == [(19, "bob", "9C", "bob cannot hold 9C: it is in the stock, drawn by nobody")]
    said = [(e["index"], e["player"], e["card"], e["message"]) for e in record_errors(
        {**rec, "stock": ["9C", "KH", "4C", "2H", "5C", "TD", "3S", "6S"]})]
    assert said == [(15, "cat", "6S", "cat cannot hold 6S: it is in the stock, drawn by nobody"),
                    (19, "bob", "9C", "bob cannot hold 9C: it is in the stock, drawn by ann"),
                    (21, "ann", "4C", "ann cannot hold 4C: it is in the stock, drawn by cat")]


def test_cards_drawn_and_never_played_at_irish_loo():
    # dan discards 2S 3S 4C and draws AD 5H 6S, then plays AD 6S 5H; with 9H and TS drawn for
    # AD and 5H instead he plays three cards and never the two he drew: read back 5 cards
    # (2S 3S 4C kept out + AD 5H played, not drawn), Irish Loo deals 3
    rec = irish(DECLARE, "ann exchange 2C 3H > AS QD; cat exchange; "
                "dan exchange 2S 3S 4C > 9H TS 6S", PLAYS)
    assert [(e["index"], e["player"], e["card"], e["message"]) for e in record_errors(rec)] == [
        (6, "dan", "9H", ("dan drew 9H TS and never played them: the plays and the exchange "
                         "read back 5 cards dealt to dan, and Irish Loo deals 3"))]


def _spoil_play(index, card):
    def spoil(rec):
        rec["actions"][index]["card"] = card
    return spoil


def _spoil_exchange(index, **fields):
    def spoil(rec):
        _exchange(rec, index).update(fields)
    return spoil


@pytest.mark.parametrize(("spoil", "expected"), [
    # one wrong exchange: the draws that follow are played as the record has them
    (_spoil_exchange(4, draw=["KH"]), (4, "ann", None, "ann draws 1 card for 2 discarded")),
    (_spoil_exchange(4, draw=["KH", "4C", "2S"]),
     (4, "ann", None, "ann draws 3 cards for 2 discarded")),
    (_spoil_exchange(4, discard=["2C", "ZZ"]), (4, "ann", "ZZ", "discard: 'ZZ' is not a card")),
    (_spoil_exchange(4, discard=["2C", "2C"]), (4, "ann", "2C", "ann discards 2C twice")),
    # cards given as one string, not a list: said so, not read as no cards at all
    (_spoil_exchange(4, discard="2C 3D"), (4, "ann", None, "discard: must be a list of cards")),
    (_spoil_exchange(4, discard="2C"), (4, "ann", None, "discard: must be a list of cards")),
    (_spoil_exchange(4, draw="KH 4C"), (4, "ann", None, "draw: must be a list of cards")),
    # cat discards the 3D ann has already discarded (cat's 4D is never seen)
    (_spoil_exchange(6, discard=["3D", "6D", "8D", "TC", "QC"]),
     (6, "cat", "3D", "cat discards 3D, which ann discarded")),
    # one wrong play: the trick is completed with it and the next plays judged in place
    (_spoil_play(11, "AH"), (11, "bob", "AH", "AH is played twice")),
    (_spoil_play(12, "QC"), (12, "cat", "QC", "cat cannot hold QC: it was discarded")),
    (_spoil_play(21, "2C"), (21, "ann", "2C", "ann cannot hold 2C: it was discarded")),
    (_spoil_play(8, "9H"), (8, "bob", "9H", "bob cannot hold 9H: it is the turn-up card")),
])
def test_one_mistake_is_one_error(spoil, expected):
    """After a refused exchange or play the replay goes on as the record has it, so one
    mistake is reported once: not again as a "cannot hold" for each card drawn, nor as a
    "plays twice" for every player of a trick left short."""
    rec = five_card()
    spoil(rec)
    errors = record_errors(rec)
    assert [(e["index"], e["player"], e["card"], e["message"]) for e in errors] == [expected]


def _set(index, **fields):
    def spoil(rec):
        rec["actions"][index].update(fields)
    return spoil


def _drop(index):
    def spoil(rec):
        del rec["actions"][index]
    return spoil


@pytest.mark.parametrize(("spoil", "expected"), [
    # a play whose card or player cannot be read still fills its place in the trick
    (_set(11, card="ZZ"), (11, "bob", "ZZ", "'ZZ' is not a card")),
    (_set(11, player="zed"), (11, "zed", None, "player 'zed' is not a seat")),
    # a player missing or not a name: said so, not taken for the card being played twice
    (_set(11, player=None), (11, None, None, "player: missing (whose action is it?)")),
    (_set(11, player=["bob"]), (11, None, None, "player ['bob'] is not a seat")),
    (_set(11, card=None), (11, "bob", None, "play: the card is missing")),
    # a play left out: the next card of a player who has played to the trick names who has
    # not, and the trick is closed without it
    (_drop(9), (9, "ann", "KH", "ann plays twice to trick 1 (cat has not played to it)")),
    # a declaration left out: the first exchange says whose it is; the declarations are then
    # made up as the record plays (bob has cards to play, so he stood)
    (_drop(1), (3, "ann", None, "ann exchanges before the declarations are over (bob to declare)")),
    (_drop(3), (3, "ann", None, "ann exchanges before the declarations are over (dan to declare)")),
])
def test_a_missing_or_unreadable_action_is_one_error(spoil, expected):
    rec = five_card()
    spoil(rec)
    errors = record_errors(rec)
    assert [(e["index"], e["player"], e["card"], e["message"]) for e in errors] == [expected]


def test_a_play_written_twice_in_a_row_is_one_error():
    rec = five_card()
    rec["actions"].insert(9, dict(rec["actions"][8]))  # bob QH again
    errors = record_errors(rec)
    assert [(e["index"], e["player"], e["card"], e["message"]) for e in errors] == [
        (9, "bob", "QH", "QH is played twice")]


def test_an_error_repeated_at_later_actions_is_given_once_naming_them():
    rec = five_card()
    rec["actions"] += [{"player": "ann", "action": "play", "card": "2S"},
                       {"player": "bob", "action": "play", "card": "2D"}]
    errors = record_errors(rec)
    assert [(e["index"], e["message"]) for e in errors] == [
        (22, "play: the deal is already over (the same at action 23)")]


def test_a_standing_dealers_missing_exchange_is_one_error():
    from tests.engine.test_five_card_declare import TURNUP_DEAL

    rec = record(SEATS, "dan", rules=FIVE, turnup="QS", actions=TURNUP_DEAL)
    del rec["actions"][4]  # dan exchange 2D 3D > 9C; dan still plays the turn-up QS
    errors = record_errors(rec)
    assert [(e["index"], e["player"], e["message"]) for e in errors] == [
        (4, "dan", "dan: a standing dealer takes the turn-up; the exchange is missing")]


def test_a_late_declaration_that_agrees_with_the_one_made_up_is_not_another_error():
    rec = five_card()
    rec["actions"].insert(4, rec["actions"].pop(1))  # bob's stand written after ann's exchange
    errors = record_errors(rec)
    assert [(e["index"], e["message"]) for e in errors] == [
        (3, "ann exchanges before the declarations are over (bob to declare)")]


def test_independent_mistakes_are_each_reported_in_record_order():
    rec = five_card()
    rec["actions"][21]["card"] = "2C"            # ann plays the 2C she discarded
    _exchange(rec, 4).update(draw=["KH"])        # ann draws one card for two
    rec["actions"][11]["card"] = "AH"            # bob plays ann's AH of trick 1 again
    errors = record_errors(rec)
    assert [(e["index"], e["player"]) for e in errors] == [(4, "ann"), (11, "bob"), (21, "ann")]


def test_a_card_its_holder_plays_twice_stays_in_the_hand_for_the_first_play():
    # the turn-up played (bob, 19) makes the replay check who holds what; ann's second AH
    # (10) is the only other error: her first AH (7) is hers to play
    rec = five_card()
    rec["actions"][10]["card"] = "AH"
    rec["actions"][19]["card"] = "9H"
    errors = record_errors(rec)
    assert [(e["index"], e["player"], e["card"]) for e in errors] == [(10, "ann", "AH"),
                                                                      (19, "bob", "9H")]


def test_an_exchange_out_of_turn_skips_those_who_kept_their_cards():
    # bob keeps his cards; the record may leave his empty exchange out: cat exchanges next
    rec = five_card()
    del rec["actions"][5]
    assert replay(rec)["tricks"] == replay(five_card())["tricks"]


def test_a_player_who_already_declared_cannot_declare_again():
    rec = record(SEATS, "dan", rules=THREE, pool=6, turnup="7D",
                 actions="ann stand; ann pass")
    errors = record_errors(rec)
    assert named(errors, 1, "ann"), errors
    assert "ann has already declared (stand)" in errors[0]["message"]


def test_poker_loo_declarations_are_stand_or_pass():
    rec = record(SEATS, "dan", rules={"game": "poker-loo"}, number=2, turnup="7D",
                 actions="ann miss")
    errors = record_errors(rec)
    assert named(errors, 0, "ann"), errors
    assert errors[0]["message"] == "ann: take-miss is not a poker-Loo declaration"


def test_the_deal_itself_refuses_a_discard_named_twice():
    from games.rules import Deal

    deal = Deal(FIVE, ["ann", "bob", "cat", "dan"], "dan", pool=18, turnup="9H")
    for player, kind in (("ann", "stand"), ("bob", "stand"), ("cat", "stand"), ("dan", "pass")):
        deal.push({"player": player, "action": kind})
    with pytest.raises(RecordError) as caught:
        deal.push({"player": "ann", "action": "exchange", "discard": ["2C", "2C"]})
    assert caught.value.errors[0]["message"] == "ann discards 2C twice"
    assert caught.value.errors[0]["card"] == "2C"


def test_a_record_without_a_dealer_says_so():
    rec = five_card()
    del rec["dealer"]
    errors = record_errors(rec)
    assert [(e["field"], e["message"]) for e in errors] == [
        ("dealer", "dealer: the record names no dealer")]


@pytest.mark.parametrize("number", ["1", 0, -2, 1.0, True])
def test_a_deal_number_that_is_not_one_is_refused_not_read_as_a_later_deal(number):
    errors = record_errors(five_card(number=number))
    assert [(e["field"], e["message"]) for e in errors] == [
        ("number", f"number: {number!r} is not a deal number (1, 2, ...)")]


@pytest.mark.parametrize("fmt", ["loo-deal/2", 1, ""])
def test_a_record_in_another_format_is_refused(fmt):
    errors = record_errors(five_card(format=fmt))
    assert [(e["field"], e["message"]) for e in errors] == [
        ("format", f"format: {fmt!r} is not a record format this engine reads (loo-deal/1)")]


def test_the_format_may_be_named_or_left_out():
    from games.rules import replay

    assert replay(five_card(format="loo-deal/1")) == replay(five_card())


@pytest.mark.parametrize("flag", ["final", "redeal"])
@pytest.mark.parametrize("value", ["yes", "false", 1, 0])
def test_a_flag_is_true_or_false_not_a_truthy_value(flag, value):
    errors = record_errors(five_card(**{flag: value}))
    assert [(e["field"], e["message"]) for e in errors] == [
        (flag, f"{flag}: {value!r} is not true or false")]


@pytest.mark.parametrize("flag", ["final", "redeal"])
def test_a_null_flag_is_not_said_so_false(flag):
    from games.rules import replay

    assert replay(five_card(**{flag: None})) == replay(five_card(**{flag: False})) == \
        replay(five_card())


NO_REDEAL = ("redeal", "redeal: only poker-Loo deals a hand again for an offence, not five-card Loo")


@pytest.mark.parametrize(("fields", "error"), [
    # 1.2.0 dealt bob out of a five-card deal, and a misdealt one gave poker-Loo's "redeal"
    ({"redeal": True, "sits_out": ["bob"]}, NO_REDEAL),
    ({"redeal": True}, NO_REDEAL),
    ({"sits_out": ["bob"]},
     ("sits_out", 'sits_out: only a poker-Loo redeal ("redeal": true) is sat out')),
])
def test_a_redeal_is_poker_loos_and_only_a_redeal_is_sat_out(fields, error):
    assert [(e["field"], e["message"]) for e in record_errors(five_card(**fields))] == [error]


def test_a_poker_loo_record_sat_out_without_being_a_redeal_is_an_error():
    rec = record(SEATS, "dan", rules={"game": "poker-loo"}, pool=42, number=2, turnup="2H",
                 sits_out=["bob"], actions="dan ! misdeal")
    assert [e["field"] for e in record_errors(rec)] == ["sits_out"]
    assert replay({**rec, "redeal": True})["redeal"] == {"sits_out": ["bob"]}
    # a redeal nobody sits out is no redeal (its antes were simply left unpaid)
    nobody_out = {key: value for key, value in rec.items() if key != "sits_out"}
    for redeal in ({**nobody_out, "redeal": True}, {**nobody_out, "redeal": True, "sits_out": []}):
        assert [(e["field"], e["message"]) for e in record_errors(redeal)] == [
            ("sits_out", ("sits_out: a redeal is sat out by the player whose offence threw the "
                         "hand in: name him"))]


def test_a_later_deal_number_is_no_error():
    assert replay(five_card(number=7))["status"] == "valid"


def test_a_play_without_a_player_is_named_as_such():
    rec = five_card()
    del rec["actions"][11]["player"]
    assert [(e["index"], e["player"], e["message"]) for e in record_errors(rec)] == [
        (11, None, "player: missing (whose action is it?)")]


@pytest.mark.parametrize("field, value, named_field, player", [
    ("turnup", 7, "turnup", None),            # the engine's own code for 9C: it was read so
    ("turnup", True, "turnup", None),
    ("miss", [0, 1, 2], "miss", None),
    ("stock", [51], "stock", None),
    ("hands", {"ann": ["AH", 12]}, "hands.ann", "ann"),
])
def test_a_card_written_as_a_number_is_refused_not_read_as_a_code(field, value, named_field,
                                                                  player):
    rec = five_card()
    rec[field] = value
    with pytest.raises(RecordError) as err:
        replay(rec)
    bad = [e for e in err.value.errors if e["field"] == named_field]
    assert bad and all(e["player"] == player and "is not a card (cards are written like" in
                       e["message"] for e in bad), err.value.errors


def test_a_card_written_as_a_number_in_an_action_is_refused_too():
    # EXCHANGE_DEAL's action 4 is ann's exchange: its discard and draw as numbers (card codes)
    for field in ("discard", "draw"):
        rec = five_card()
        rec["actions"][4] = {**rec["actions"][4], field: [0] * len(rec["actions"][4][field])}
        with pytest.raises(RecordError) as err:
            replay(rec)
        assert any(e["index"] == 4 and e["player"] == "ann" and e["field"] == field
                   and e["message"].startswith(f"{field}: 0 is not a card")
                   for e in err.value.errors), err.value.errors
    rec = five_card()
    rec["actions"].insert(0, {"player": "ann", "action": "irregularity",
                              "kind": "looked-at-miss", "card": 3})
    with pytest.raises(RecordError) as err:
        replay(rec)
    assert [(e["index"], e["field"]) for e in err.value.errors] == [(0, "card")]


# --- the words of two refusals: an action the format does not know, a hand of the wrong size ---

KNOWN_ACTIONS = "stand, pass, take-miss, defend, exchange, flush, play and irregularity"


def test_a_fold_where_no_pass_is_allowed_is_named_as_said():
    # poker-Loo's first deal, where everybody must play: a fold (a pass) said "pass is not allowed"
    rec = record(SEATS, "dan", rules={"game": "poker-loo"}, pool=0, turnup="7D",
                 actions=[{"player": "ann", "action": "fold"}])
    errors = record_errors(rec)
    assert named(errors, 0, "ann"), errors
    assert errors[0]["message"] == "ann: fold is not allowed, every player must play here"


def test_a_fold_is_a_pass():
    """Poker-Loo's laws have the players "stand or fold": a record may say fold for pass."""
    folded = five_card()
    passing = [i for i, a in enumerate(folded["actions"]) if a["action"] == "pass"]
    assert passing, "the worked deal has a pass to compare"
    for i in passing:
        folded["actions"][i] = {**folded["actions"][i], "action": "fold"}
    assert replay(folded) == replay(five_card())


def test_any_unknown_action_lists_the_actions_the_format_knows():
    rec = five_card()
    rec["actions"][5] = {"player": "bob", "action": "shuffle"}
    error = next(e for e in record_errors(rec) if e["index"] == 5)
    assert error["message"] == f"unknown action 'shuffle': a record's actions are {KNOWN_ACTIONS}"


@pytest.mark.parametrize("kind", [["pass"], {"a": 1}, 5, None])
def test_an_action_name_that_is_not_text_is_an_unknown_action(kind):
    # found by tests/reports/test_import_properties.py: a list or an object for "action" raised
    # TypeError (unhashable, looked up among the aliases) instead of the record's error
    rec = five_card()
    rec["actions"][5] = {"player": "bob", "action": kind}
    error = next(e for e in record_errors(rec) if e["index"] == 5)
    assert error["message"] == f"unknown action {kind!r}: a record's actions are {KNOWN_ACTIONS}"


@pytest.mark.parametrize("kind", ["shuffle", None, ["pass"]])
def test_an_unknown_action_after_the_last_trick_is_named_unknown(kind):
    # docs/engine-api.md: an action the format does not know is named so, wherever it stands;
    # after the last trick it was "shuffle: the deal is already over", as if it were a move
    rec = five_card()
    rec["actions"].append({"player": "bob", "action": kind})
    error = next(e for e in record_errors(rec) if e["index"] == len(rec["actions"]) - 1)
    assert error["message"] == f"unknown action {kind!r}: a record's actions are {KNOWN_ACTIONS}"
    assert error["field"] == "action"


def test_the_actions_named_are_the_record_formats():
    # deal-record.md's actions, in its order: declarations, exchange, flush, play, irregularity
    from games.rules.phases import ACTIONS, DECLARATIONS

    assert ACTIONS == ("stand", "pass", "take-miss", "defend", "exchange", "flush", "play",
                       "irregularity")
    assert DECLARATIONS == ACTIONS[:4]


@pytest.mark.parametrize(("rules", "seats", "hand", "says"), [
    ({"game": "poker-loo"}, SEATS, ["AH", "2C", "3D"], "poker-Loo deals 5 cards a hand"),
    (FIVE, SEATS, ["AH", "2C", "3D"], "five-card Loo deals 5 cards a hand"),
    (THREE, SEATS, ["AH", "2C"], "three-card Loo deals 3 cards a hand"),
    ({"game": "irish"}, SEATS, ["AH", "2C"], "Irish Loo deals 3 cards a hand"),
])
def test_a_hand_of_the_wrong_size_names_the_game_as_it_is_written(rules, seats, hand, says):
    rec = record(seats, "dan", rules=rules, pool=0, turnup="7D", hands={"ann": hand})
    messages = [e["message"] for e in record_errors(rec) if e["field"] == "hands"]
    assert f"hands: ann holds {len(hand)} cards, {says}" in messages, messages


def test_a_refused_defend_is_one_error_and_the_dealer_plays_the_miss_as_written():
    """The hands of a record are read with the miss as the cards of whoever takes it or
    defends with it, so after a refused ``defend`` the dealer still plays those cards: the
    plays that follow are judged in place, not each refused as "after the deal"."""
    # always-double, bold stand, the pool empty: all pass, so dan (the dealer) must play cat,
    # the last in the round (a stand); nobody stood on their own cards, so no defending
    rec = record(SEATS, "dan", turnup="7D", pool=0,
                 rules={"game": "three-card", "pools": "always-double", "bold_stand": True},
                 actions="ann pass; bob pass; cat pass; dan defend\n"
                         "cat KD; dan 3D; cat 5H; dan AH; dan 4S; cat 2S")
    errors = record_errors(rec)
    assert [(e["index"], e["player"], e["message"]) for e in errors] == [
        (3, "dan", ("dan: defend is not allowed (only a dealer facing one player who stood on "
                    "their own cards may defend)"))]
    # a play the dealer cannot make is still found after the refusal: dan's 3D twice
    rec["actions"][7]["card"] = "3D"
    errors = record_errors(rec)
    assert [(e["index"], e["player"], e["card"]) for e in errors] == [
        (3, "dan", None), (7, "dan", "3D")]
