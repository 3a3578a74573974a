"""A client's value in a message is cut to ``SHOWN_CHARS`` characters with its length: a
10,000-character kind or seat name made a 10,000-character message (in every error of a 400,
in logs, in the command line's output). Short values are named exactly as before."""
import json

import pytest

from games.rules import RecordError, RuleError, RuleSet, replay
from games.rules.errors import SHOWN_CHARS, shown
from games.rules.session import SESSION_FORMAT, replay_session
from tests.engine.dealkit import record_errors
from tests.engine.test_cli import cli, deal_file, exchange_record
from tests.engine.test_record_errors import five_card

LONG = 10_000


def quoted(char):
    """A 10,000-character text of ``char`` as ``shown`` names it: 60 characters, then the length."""
    return f"'{char * 57}…' ({LONG:,} characters)"


def bare(char):
    return f"{char * 59}… ({LONG:,} characters)"


def test_shown_keeps_a_short_value_as_its_repr():
    assert shown("sneezed") == "'sneezed'"
    assert shown(["misdeal"]) == "['misdeal']"
    assert shown({"kind": "misdeal"}) == "{'kind': 'misdeal'}"
    assert shown(7) == "7" and shown(None) == "None"
    assert shown("bob", bare=True) == "bob"
    assert shown("x" * 58) == "'" + "x" * 58 + "'"  # exactly 60: not cut


def test_shown_cuts_a_long_value_and_says_its_length():
    assert shown("x" * LONG) == quoted("x")
    assert len(shown("x" * LONG).split(" (")[0]) == SHOWN_CHARS
    assert shown("x" * 59) == "'" + "x" * 57 + "…' (59 characters)"
    assert shown(["AH"] * 5000) == "[" + "'AH', " * 9 + "'AH…] (5,000 items)"  # 58 + …]
    assert shown(10**100) == "1" + "0" * 58 + "… (101 characters)"
    assert shown("y" * LONG, bare=True) == bare("y")
    assert shown("z" * LONG, write=json.dumps) == f'"{"z" * 57}…" ({LONG:,} characters)'


def test_a_long_irregularity_kind():
    rec = five_card()
    rec["actions"].insert(0, {"player": "ann", "action": "irregularity", "kind": "x" * LONG})
    assert record_errors(rec) == [
        {"index": 0, "player": "ann", "card": None, "field": "kind",
         "message": f"ann: unknown irregularity kind {quoted('x')}"}]


def test_a_long_seat_name_in_seats_is_cut_in_the_message_and_kept_whole_as_the_player():
    long = "b" * LONG
    rec = json.loads(json.dumps(five_card()).replace('"bob"', json.dumps(long)))
    assert rec["seats"][1] == long and replay(rec)["status"] == "valid"  # a seat like any
    rec["actions"].insert(0, {"player": long, "action": "irregularity", "kind": "sneezed"})
    assert record_errors(rec) == [
        {"index": 0, "player": long, "card": None, "field": "kind",
         "message": f"{bare('b')}: unknown irregularity kind 'sneezed'"}]


def test_a_long_player_who_is_no_seat():
    rec = five_card()
    rec["actions"][0]["player"] = "q" * LONG
    errors = record_errors(rec)
    assert errors[0] == {"index": 0, "player": bare("q"), "card": None, "field": "player",
                         "message": f"player {quoted('q')} is not a seat"}


def test_a_long_card():
    rec = five_card()
    rec["actions"][7]["card"] = "Z" * LONG  # ann's lead to the first trick
    assert record_errors(rec) == [
        {"index": 7, "player": "ann", "card": bare("Z"), "field": "card",
         "message": f"{quoted('Z')} is not a card"}]


def test_a_long_option_value_and_a_long_option_name():
    with pytest.raises(RuleError) as caught:
        RuleSet.from_options({"loo": "x" * LONG, "w" * LONG: True})
    assert caught.value.errors == [
        f"{bare('w')}: unknown option",
        f"loo: {quoted('x')} is not one of limited, unlimited, mixed"]


def test_a_long_session_header_field():
    header = {"format": SESSION_FORMAT, "seats": ["ann", "bob", "cat"],
              "rules": {"game": "three-card"}, "first_dealer": "f" * LONG}
    with pytest.raises(RecordError) as caught:
        list(replay_session([json.dumps(header)]))
    assert caught.value.errors == [
        {"index": None, "player": None, "card": None, "field": "first_dealer", "line": 1,
         "message": f'first_dealer: "{"f" * 57}…" ({LONG:,} characters) is not seated'}]


def test_text_command_names_a_list_where_a_card_should_be_as_the_records_error(tmp_path):
    # it said "not a deal record with actions: sequence item 3: expected str instance,
    # list found": Python's words, not the action's index and field
    rec = exchange_record()
    rec["actions"][7]["card"] = ["AH"]  # ann's lead to the first trick
    done = cli("text", str(deal_file(tmp_path, rec)))
    assert done.returncode == 1
    assert json.loads(done.stdout) == {"errors": [
        {"index": 7, "player": "ann", "card": None, "field": "card",
         "message": "card: ['AH'] is not a card"}]}


@pytest.mark.parametrize(("index", "field", "value", "player", "message"), [
    (4, "discard", "2C", "ann", "discard: must be a list of cards, not '2C'"),
    # a seat holding a quote has no compact form (a ValueError without the action's index)
    (2, "player", 'c"at', None, "no compact form for the seat 'c\"at'"),
])
def test_text_command_names_the_action_it_cannot_spell(tmp_path, index, field, value, player,
                                                       message):
    rec = exchange_record()
    rec["actions"][index][field] = value
    done = cli("text", str(deal_file(tmp_path, rec)))
    assert done.returncode == 1
    assert json.loads(done.stdout) == {"errors": [
        {"index": index, "player": player, "card": None,
         "field": "actions" if field == "player" else field, "message": message}]}


def test_text_command_refuses_a_record_that_is_no_object(tmp_path):
    done = cli("text", str(deal_file(tmp_path, [1, 2])))
    assert done.returncode == 1
    assert json.loads(done.stdout)["errors"][0]["message"] == \
        "record: a deal record is a JSON object"
