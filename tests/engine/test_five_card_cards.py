"""Card notation (loo-rules.md s.1): ``10`` and the suit symbols are accepted on input, the
output is always canonical (``TH``, ``JC``); Pam ranks above the ace of trumps."""
import pytest

from games.rules import format_card, parse_card, replay
from tests.engine.dealkit import assert_conserved, record
from tests.engine.test_five_card_declare import EXCHANGE_DEAL

SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}


def written(card: str) -> str:
    """The card as a scorer might write it: 10 for T, the suit as a symbol."""
    rank = "10" if card[0] == "T" else card[0]
    return rank + SYMBOLS[card[1]]


@pytest.mark.parametrize(("text", "canonical"), [
    ("TH", "TH"), ("10H", "TH"), ("10♥", "TH"), ("T♥", "TH"), ("J♣", "JC"), ("JC", "JC"),
    ("A♠", "AS"), ("2♦", "2D"), ("Q♦", "QD"), ("10S", "TS"),
])
def test_cards_are_read_in_either_notation_and_written_canonically(text, canonical):
    assert format_card(parse_card(text)) == canonical


@pytest.mark.parametrize("text", ["1H", "11H", "ZZ", "AX", "10", "H", "", "JCC", "0S"])
def test_a_string_that_is_not_a_card_is_refused(text):
    with pytest.raises(ValueError):
        parse_card(text)


def test_the_pack_is_fifty_two_cards_and_no_joker():
    # s.1 "52 cards, no jokers": 13 ranks x 4 suits, each read back to itself; nothing else
    # (a joker written any usual way, a fifth suit, a rank above the ace) is a card
    ranks, suits = "AKQJT98765432", "CDHS"
    pack = [rank + suit for rank in ranks for suit in suits]
    assert len(set(pack)) == 52 == 13 * 4
    assert sorted(format_card(parse_card(card)) for card in pack) == sorted(pack)
    assert len({parse_card(card) for card in pack}) == 52
    for joker in ["JK", "JOKER", "🃏", "RJ", "BJ", "AJ", "1C", "14H", "AN"]:
        with pytest.raises(ValueError):
            parse_card(joker)


def test_a_record_in_symbols_replays_to_the_canonical_verdict():
    canonical = record("ann bob cat dan", "dan", rules={"game": "five-card"}, pool=18,
                       turnup="9H", actions=EXCHANGE_DEAL)
    fancy = {**canonical, "turnup": written("9H"), "actions": [
        {**a,
         **({"card": written(a["card"])} if "card" in a else {}),
         **({"discard": [written(c) for c in a["discard"]],
             "draw": [written(c) for c in a["draw"]]} if a["action"] == "exchange" else {})}
        for a in canonical["actions"]]}
    assert any(a.get("card") == "10♦" for a in fancy["actions"])  # cat's TD, written 10♦
    verdict = replay(fancy)
    assert_conserved(verdict, canonical["seats"])
    assert verdict == replay(canonical)
    assert verdict["tricks"][3]["cards"] == {"bob": "AD", "cat": "TD", "ann": "5D"}
    assert verdict["trumps"] == "H"
