"""One hand-worked deal per game through the public API, plus the CLI and the refusals.

The detailed rule-by-rule tests live in the other tests/engine modules; these prove that each
game's whole path (declare, exchange, flush or play, settle, next) works end to end.
"""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from games.rules import (
    ENGINE_VERSION,
    PRESETS,
    Deal,
    RecordError,
    RuleError,
    RuleSet,
    actions_from_text,
    actions_to_text,
    format_card,
    parse_card,
    replay,
    replay_session,
)

ROOT = Path(__file__).resolve().parents[2]


def acts(text: str) -> list[dict]:
    """``ann stand; ann AH; ann exchange 4D > AS`` -> record actions."""
    out = []
    for part in text.replace("\n", ";").split(";"):
        words = part.split()
        if not words:
            continue
        player, verb = words[0], words[1]
        if verb in ("stand", "pass", "take-miss", "defend", "flush"):
            out.append({"player": player, "action": verb})
        elif verb == "exchange":
            discard, _, draw = " ".join(words[2:]).partition(">")
            out.append({"player": player, "action": "exchange", "discard": discard.split(),
                        "draw": draw.split()})
        else:
            out.append({"player": player, "action": "play", "card": verb})
    return out


def money(verdict: dict) -> tuple[dict, dict, int, dict]:
    s = verdict["settlement"]
    nz = lambda d: {k: v for k, v in d.items() if v}
    assert sum(s["deltas"].values()) + s["pool_after"] - s["pool_before"] == 0
    return nz(s["payouts"]), nz(s["loo_payments"]), s["pool_after"], nz(s["deltas"])


def test_cards_read_every_spelling_and_print_canonically():
    assert format_card(parse_card("10h")) == "TH"
    assert format_card(parse_card("10♥")) == "TH"
    assert format_card("♠A") == "AS"
    with pytest.raises(ValueError):
        parse_card("1X")


def test_three_card_double_pool_sweep_and_loo():
    # P = 3 + 3. Hearts trumps. ann leads her AH (trump duty), wins all three: takes 6;
    # cat stood and took nothing: looed 3 into the next pool.
    record = {"format": "loo-deal/1", "rules": {"game": "three-card"}, "pool": 3,
              "seats": ["ann", "bob", "cat"], "dealer": "cat", "turnup": "7H",
              "actions": acts("ann stand; bob pass; cat stand; ann AH; cat KH; ann 2C; cat QS;"
                              "ann 3C; cat JS")}
    v = replay(record)
    assert v["status"] == "valid" and v["pool_kind"] == "double" and v["trumps"] == "H"
    assert v["tricks_won"] == {"ann": 3, "cat": 0}
    assert money(v) == ({"ann": 6}, {"cat": 3}, 3, {"ann": 6, "cat": -6})
    assert v["next"] == {"dealer": "ann", "pool": 3, "first_of_series": False}
    assert v["engine"] == {"version": ENGINE_VERSION,
                           "rules": RuleSet.from_options({"game": "three-card"}).to_options()}


def test_irish_loo_exchange_then_play():
    # P = 3, a trick 1. ann swaps 4D for AS from the stock; ann 2 tricks, bob 1.
    record = {"rules": {"preset": "irish"}, "seats": ["ann", "bob", "cat", "dan"],
              "dealer": "dan", "turnup": "2S",
              "actions": acts("ann stand; bob stand; cat pass; dan pass; ann exchange 4D > AS;"
                              "ann AS; bob QS; ann KD; bob 3D; ann 5H; bob 7H")}
    v = replay(record)
    assert v["pool_kind"] is None and v["standers"] == ["ann", "bob"]
    assert [t["winner"] for t in v["tricks"]] == ["ann", "ann", "bob"]
    assert money(v) == ({"ann": 2, "bob": 1}, {}, 0, {"ann": 2, "bob": 1, "dan": -3})


def test_five_card_flush_takes_the_pool_and_loos_the_other_stander():
    record = {"rules": {"game": "five-card"}, "seats": ["ann", "bob", "cat", "dan"],
              "dealer": "dan", "turnup": "3S", "hands": {"ann": ["2H", "5H", "7H", "9H", "KH"]},
              "actions": acts("ann stand; bob stand; cat pass; dan pass; ann flush")}
    v = replay(record)
    assert v["tricks"] == [] and v["flushes"] == [{"player": "ann",
                                                    "cards": ["2H", "5H", "7H", "9H", "KH"]}]
    assert money(v) == ({"ann": 5}, {"bob": 5}, 5, {"ann": 5, "bob": -5, "dan": -5})


def test_poker_loo_first_deal_three_tricks_take_the_pot_and_nothing_burns_twice():
    # antes cat 6, ann 5, bob 5: P = 16. ann 3 tricks takes 16; bob's 2 neither win nor burn;
    # cat took none: burned, matching the pot (16). The series goes on (pot not empty).
    record = {"rules": {"game": "poker-loo"}, "number": 1, "seats": ["ann", "bob", "cat"],
              "dealer": "cat", "turnup": "2D",
              "actions": acts("ann AS; bob AH; cat 2S; ann KS; bob KH; cat 3H; ann QS; bob 4C;"
                              "cat 4H; ann 2C; bob 5C; cat 6H; bob 6C; cat 7H; ann 3C")}
    v = replay(record)
    assert v["tricks_won"] == {"ann": 3, "bob": 2, "cat": 0}
    assert money(v) == ({"ann": 16}, {"cat": 16}, 16, {"ann": 11, "bob": -5, "cat": -22})
    assert v["next"] == {"dealer": "ann", "pool": 16, "first_of_series": False}


def test_result_only_record_is_settled_but_unverified():
    record = {"rules": {"game": "three-card"}, "pool": 6, "seats": ["ann", "bob", "cat", "dan"],
              "dealer": "dan", "actions": acts("ann stand; bob stand; cat pass; dan pass"),
              "result": {"tricks": {"ann": 2, "bob": 1}}}
    v = replay(record)
    assert v["status"] == "unverified" and v["tricks"] == []
    assert money(v) == ({"ann": 6, "bob": 3}, {}, 0, {"ann": 6, "bob": 3, "dan": -3})


def _three_card_deal() -> Deal:
    """Hearts trumps; ann AH 2C 3C, bob 4D 5D 6D, cat (dealer) KH QS JS; a double pool."""
    return Deal({"game": "three-card"}, ["ann", "bob", "cat"], "cat", pool=3, turnup="7H",
                hands={"ann": ["AH", "2C", "3C"], "bob": ["4D", "5D", "6D"],
                       "cat": ["KH", "QS", "JS"]}, miss=["8D", "9D", "TD"])


def test_deal_state_machine_names_legal_plays_and_the_rule_a_card_breaks():
    deal = _three_card_deal()
    assert deal.phase == "declare" and deal.to_act == "ann"
    assert {a["action"] for a in deal.legal_actions()} == {"stand", "pass", "take-miss"}
    for action in acts("ann stand; bob pass; cat stand"):
        deal.push(action)
    assert deal.phase == "play" and deal.legal_plays("ann") == ["AH"]
    assert deal.play_violation("ann", "2C") == "failed-to-lead-trump"
    deal.push({"player": "ann", "action": "play", "card": "AH"})
    assert deal.legal_plays("cat") == ["KH"] and deal.play_violation("cat", "QS") == "revoke"


def test_the_state_machine_says_what_the_table_sees():
    deal = _three_card_deal()
    assert (deal.trumps, deal.standers, deal.hand("bob")) == ("H", [], ["4D", "5D", "6D"])
    with pytest.raises(RecordError, match="ann cannot play now"):
        deal.play_violation("ann", "AH")  # still declaring
    with pytest.raises(RecordError, match="the record stops during the declarations "
                                          r"\(ann to declare\)"):
        deal.finish()
    for action in acts("ann stand; bob pass; cat stand"):
        deal.push(action)
    assert deal.standers == ["ann", "cat"] and not deal.over
    # cat is not to play: nothing is legal for him yet, and his card would be out of turn
    assert deal.legal_plays("cat") == [] and deal.play_violation("cat", "KH") == \
        "played-out-of-turn"
    with pytest.raises(RecordError, match="ann cannot hold 4D: it is in bob's hand"):
        deal.play_violation("ann", "4D")
    with pytest.raises(RecordError, match=r"the record stops in trick 1 of 3 \(ann to play\)"):
        deal.finish()
    for action in acts("ann AH; cat KH"):  # T1 to ann
        deal.push(action)
    with pytest.raises(RecordError, match="ann cannot hold AH: ann played it to trick 1"):
        deal.push({"player": "ann", "action": "play", "card": "AH"})
    deal.push({"player": "ann", "action": "play", "card": "2C"})
    assert deal.hand("ann") == ["3C"]
    with pytest.raises(RecordError, match="cat cannot hold 2C: ann played it to this trick"):
        deal.push({"player": "cat", "action": "play", "card": "2C"})
    with pytest.raises(RecordError, match="cat cannot hold 7H: it is the turn-up card"):
        deal.push({"player": "cat", "action": "play", "card": "7H"})
    with pytest.raises(RecordError, match="bob is not playing this deal"):
        deal.push({"player": "bob", "action": "play", "card": "4D"})
    for action in acts("cat QS; ann 3C; cat JS"):  # cat has no club: T2 and T3 to ann
        deal.push(action)
    assert deal.over and deal.verdict()["tricks_won"] == {"ann": 3, "cat": 0}
    with pytest.raises(RecordError, match="play: the deal is already over"):
        deal.push({"player": "ann", "action": "play", "card": "3C"})
    with pytest.raises(RecordError, match="stand: the deal is already over"):
        deal.push({"player": "ann", "action": "stand"})


@pytest.mark.parametrize(("pool", "says"), [
    (3, "turnup: the turn-up card is needed to know trumps"),          # double pool
    (0, "turnup: the card turned after the first trick is needed"),    # simple pool
])
def test_a_three_card_record_without_its_turnup_cannot_be_judged(pool, says):
    record = {"rules": {"game": "three-card"}, "pool": pool, "seats": ["ann", "bob", "cat"],
              "dealer": "cat",
              "actions": acts("ann stand; bob stand; cat stand" if pool else "")
              + acts("ann AH; bob 4D; cat KH; ann 2C; bob 5D; cat QS; ann 3C; bob 6D; cat JS")}
    with pytest.raises(RecordError) as caught:
        replay(record)
    assert [e["message"] for e in caught.value.errors] == [says]  # once: nothing else is judged


def test_refusals_name_what_is_wrong():
    with pytest.raises(RuleError, match="pam_be_sorry: unknown option"):
        RuleSet.from_options({"game": "five-card", "pam_be_sorry": True})
    with pytest.raises(RuleError, match="seats"):
        RuleSet.from_options({"preset": "five-card"}).check_seats([f"p{i}" for i in range(9)])
    simple_pass = {"rules": {"game": "three-card"}, "pool": 0, "seats": ["ann", "bob", "cat"],
                   "dealer": "cat", "turnup": "7H", "actions": acts("ann pass")}
    with pytest.raises(RecordError) as caught:
        replay(simple_pass)
    assert caught.value.errors[0]["index"] == 0 and caught.value.errors[0]["player"] == "ann"
    assert sorted(PRESETS) == sorted(["three-card", "three-card-unlimited", "three-card-mixed",
                                      "irish", "five-card", "five-card-unlimited", "poker-loo",
                                      "undivided", "mississippi"])


#: a two-deal session: cat's deal (P = 3 + 3, ann takes all three tricks, cat is looed 3),
#: then ann's (pool 3, bob and cat pass: ann, the dealer, takes 3 + 3)
NIGHT_HEADER = {"format": "loo-session/1", "seats": ["ann", "bob", "cat"],
                "rules": {"game": "three-card"}, "first_dealer": "cat", "pool": 3,
                "banker": "club", "chip_value": 1, "buy_ins": {"ann": 20, "bob": 20, "cat": 20}}
NIGHT_FIRST = {"turnup": "7H", "actions": acts("ann stand; bob pass; cat stand; ann AH; cat KH;"
                                               "ann 2C; cat QS; ann 3C; cat JS")}
NIGHT_SECOND = {"dealer": "ann", "pool": 3, "turnup": "9C", "actions": acts("bob pass; cat pass")}


def test_session_file_through_the_command_line_carries_pool_and_dealer(tmp_path):
    header, first, second = NIGHT_HEADER, NIGHT_FIRST, NIGHT_SECOND
    path = tmp_path / "night.jsonl"
    path.write_text("\n".join(json.dumps(x) for x in (header, first, second)) + "\n")
    done = subprocess.run([sys.executable, "-m", "games.rules", "replay", str(path)],
                          capture_output=True, text=True, cwd=ROOT, check=False)
    assert done.returncode == 0, done.stderr
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    assert [(v["number"], v["dealer"], v["settlement"]["pool_before"]) for v in lines] == [
        (1, "cat", 3), (2, "ann", 3)]
    assert lines[1]["settlement"]["payouts"] == {"ann": 6}
    assert [v["number"] for v in replay_session(path.read_text().splitlines())] == [1, 2]


@pytest.mark.parametrize(("own", "field"), [
    ({"number": 3}, "number"),                                  # it is deal 2 of the session
    ({"number": 1}, "number"),                                  # not the first of the series
    ({"rules": {"preset": "three-card-unlimited"}}, "rules"),   # loo: P, not 3
    ({"rules": {"game": "five-card"}}, "rules"),
    ({"rules": {"loo": "sometimes"}}, "rules"),                 # no rules at all
    ({"rules": None}, "rules"),
])
def test_a_session_record_cannot_give_its_own_number_or_other_rules(own, field):
    # ann's deal is deal 2 under the header's three-card rules; 1.2.0's replay_session took the
    # record's own number and rules at their word (the deal was judged by the header's rules
    # whatever its own said), where the service refuses both (games/services/deals.py)
    with pytest.raises(RecordError) as caught:
        list(replay_session([NIGHT_HEADER, NIGHT_FIRST, {**NIGHT_SECOND, **own}]))
    assert [(e["field"], e["line"], e["deal"]) for e in caught.value.errors] == [(field, 3, 2)]


@pytest.mark.parametrize("own", [
    {"number": 2},
    {"rules": {"game": "three-card"}},
    {"rules": {"preset": "mississippi", "loo_amount": 3}},      # the same rules, written so
    {"rules": RuleSet.from_options({}).to_options()},           # every option spelt out
])
def test_a_session_record_may_repeat_its_number_and_the_sessions_rules(own):
    verdicts = list(replay_session([NIGHT_HEADER, NIGHT_FIRST, {**NIGHT_SECOND, **own}]))
    assert [v["number"] for v in verdicts] == [1, 2]
    assert verdicts[1]["settlement"]["payouts"] == {"ann": 6}


def test_command_line_record_error_exits_1_with_errors(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({"rules": {"game": "three-card"}, "seats": ["ann", "bob"],
                                "dealer": "zed", "actions": []}))
    done = subprocess.run([sys.executable, "-m", "games.rules", "replay", "-"],
                          input=path.read_text(), capture_output=True, text=True, cwd=ROOT, check=False)
    assert done.returncode == 1
    assert json.loads(done.stdout)["errors"][0]["field"] == "dealer"


TABLE = {"seats": ["ann", "bob", "cat"], "dealer": "cat"}


@pytest.mark.parametrize("record", [
    "not an object", {}, {"seats": "ann bob cat"}, {"seats": [1, 2, 3]},
    {**TABLE, "actions": "ann AS"}, {**TABLE, "pool": "3"}, {**TABLE, "hands": ["AS"]},
    {**TABLE, "result": 5}, {**TABLE, "miss": "AS"}, {**TABLE, "stock": 7},
    {**TABLE, "turnup": ["AS"]}, {**TABLE, "sits_out": 4}, {**TABLE, "rules": 2.5},
    {**TABLE, "rules": {"preset": ["three-card"]}},
    {**TABLE, "turnup": "7H", "actions": [{"player": [], "action": "exchange", "discard": 3}]},
    {**TABLE, "turnup": "7H", "actions": [{"player": "ann", "action": "play", "card": {}}]},
], ids=lambda r: str(r)[:40])
def test_malformed_records_are_refused_not_crashed_on(record):
    with pytest.raises((RecordError, RuleError)) as caught:
        replay(record)
    errors = getattr(caught.value, "errors", None)
    assert errors, "a refusal says what is wrong"


@pytest.mark.parametrize("end_pool", ["final-deal", "split"])
def test_final_deal_everybody_stands_without_miss_or_ante(end_pool):
    # end_pool "final-deal": the 7 units left are played off; a trick is worth 2, 1 stays.
    # The engine reads "final" under end_pool "split" alike (the service refuses it there,
    # docs/settlement.md): no seed says what is done with the pool at the end of a session
    # (docs/engine.md interpretation 20).
    plays = [("ann", "AH"), ("bob", "2H"), ("cat", "3H"), ("ann", "2C"), ("bob", "3C"),
             ("cat", "4C"), ("cat", "5S"), ("ann", "6S"), ("bob", "7S")]
    record = {"rules": {"game": "three-card", "end_pool": end_pool}, "pool": 7,
              "final": True, "seats": ["ann", "bob", "cat"], "dealer": "cat", "turnup": "7H",
              "actions": [{"player": p, "action": "play", "card": c} for p, c in plays]}
    v = replay(record)
    assert v["settlement"]["antes"] == {} and v["standers"] == ["ann", "bob", "cat"]
    assert money(v) == ({"ann": 2, "bob": 2, "cat": 2}, {}, 1, {"ann": 2, "bob": 2, "cat": 2})
    with pytest.raises(RecordError):
        replay({**record, "actions": [{"player": "ann", "action": "pass"}]})


def test_no_deal_comes_after_the_final_deal_in_a_session_file():
    # end_pool "final-deal", 7 units left: cat's final deal plays them off (the deal of the test
    # above: 2 a trick, 1 stays). A deal after it disagrees with the session's end, like a
    # wrong dealer (1.2.0's replay_session played it). A misdealt final deal is dealt again
    # by cat: his single loo 3 makes P = 10, 3 a trick, 1 stays; that one is the final deal.
    header = {"format": "loo-session/1", "seats": ["ann", "bob", "cat"], "first_dealer": "cat",
              "rules": {"game": "three-card", "end_pool": "final-deal"}, "pool": 7}
    plays = [("ann", "AH"), ("bob", "2H"), ("cat", "3H"), ("ann", "2C"), ("bob", "3C"),
             ("cat", "4C"), ("cat", "5S"), ("ann", "6S"), ("bob", "7S")]
    final = {"final": True, "turnup": "7H",
             "actions": [{"player": p, "action": "play", "card": c} for p, c in plays]}
    later = {"turnup": "9D", "actions": acts("bob pass; cat pass")}
    with pytest.raises(RecordError) as caught:
        list(replay_session([header, final, later]))
    assert [(e["field"], e["line"], e["deal"]) for e in caught.value.errors] == [("final", 3, 2)]
    misdeal = {"final": True,
               "actions": [{"player": "cat", "action": "irregularity", "kind": "misdeal"}]}
    verdicts = list(replay_session([header, misdeal, final]))
    assert [(v["ended"], v["dealer"]) for v in verdicts] == [("misdeal", "cat"), ("played", "cat")]
    assert money(verdicts[1]) == ({"ann": 3, "bob": 3, "cat": 3}, {}, 1,
                                  {"ann": 3, "bob": 3, "cat": 3})
    with pytest.raises(RecordError, match=r"a deal after the final deal \(line 3\)"):
        list(replay_session([header, misdeal, final, later]))


def test_result_only_with_trick_winners_pays_the_odd_units_to_the_early_tricks():
    # P = 10 + 3 = 13 with remainder early-tricks: 5/4/4; bob won trick 1, ann tricks 2-3.
    record = {"rules": {"game": "three-card", "remainder": "early-tricks"}, "pool": 10,
              "seats": ["ann", "bob", "cat", "dan"], "dealer": "dan",
              "actions": acts("ann stand; bob stand; cat stand; dan pass"),
              "result": {"tricks": {"ann": 2, "bob": 1}, "winners": ["bob", "ann", "ann"]}}
    v = replay(record)
    assert money(v) == ({"ann": 8, "bob": 5}, {"cat": 3}, 3,
                        {"ann": 8, "bob": 5, "cat": -3, "dan": -3})
    bad = {**record, "result": {"tricks": {"ann": 2, "bob": 1}, "winners": ["bob", "bob", "ann"]}}
    with pytest.raises(RecordError, match="winners"):
        replay(bad)


def test_result_only_without_winners_is_refused_where_the_order_decides_the_odd_units():
    # P = 10 + 3 = 13 under early-tricks pays 5/4/4: with ann 2 tricks and bob 1, ann takes
    # 5 + 4 = 9 (she won trick 1) or 4 + 4 = 8 (bob did), bob 4 or 5. The counts do not say
    # which: the record is refused naming the missing field rather than paid by a guess
    # (1.1.0 paid the seat order's guess, ann 9 / bob 4).
    record = {"rules": {"game": "three-card", "remainder": "early-tricks"}, "pool": 10,
              "seats": ["ann", "bob", "cat", "dan"], "dealer": "dan",
              "actions": acts("ann stand; bob stand; cat stand; dan pass"),
              "result": {"tricks": {"ann": 2, "bob": 1}}}
    with pytest.raises(RecordError) as caught:
        replay(record)
    [error] = caught.value.errors
    assert error["field"] == "result" and error["message"].startswith(
        "result: winners (each trick's winner, in order) is needed under remainder "
        "early-tricks: the pool of 13 does not divide into 3 equal tricks"), error
    # Where the order decides nothing the counts suffice. P = 9 + 3 = 12 divides: 4 a trick,
    # ann 8, bob 4, cat looed 3 (pool_after 3), dan -3 ante.
    v = replay({**record, "pool": 9})
    assert money(v) == ({"ann": 8, "bob": 4}, {"cat": 3}, 3,
                        {"ann": 8, "bob": 4, "cat": -3, "dan": -3})
    # ann with all three tricks takes the whole P = 13; bob and cat looed 3 each: pool_after 6.
    v = replay({**record, "result": {"tricks": {"ann": 3}}})
    assert money(v) == ({"ann": 13}, {"bob": 3, "cat": 3}, 6,
                        {"ann": 13, "bob": -3, "cat": -3, "dan": -3})
    # under the default carry the odd unit stays whoever won trick 1: ann 8, bob 4, 1 + 3 stay
    v = replay({**record, "rules": {"game": "three-card"}})
    assert money(v) == ({"ann": 8, "bob": 4}, {"cat": 3}, 4,
                        {"ann": 8, "bob": 4, "cat": -3, "dan": -3})


def test_pre_play_single_loo_is_part_of_the_pool_played_for():
    # cat looks at the stock: a single loo (3) paid at once, so P = 6 + 3 + 3 = 12, a trick 4.
    record = {"rules": {"game": "three-card"}, "pool": 6, "seats": ["ann", "bob", "cat"],
              "dealer": "cat", "turnup": "7H",
              "actions": [{"player": "cat", "action": "irregularity", "kind": "looked-at-stock"},
                          *acts("ann stand; bob stand; cat pass; ann AH; bob 2H; ann 2C; bob 3C;"
                                "bob 5S; ann 4S")]}
    v = replay(record)
    assert v["settlement"]["pool"] == 12 and v["settlement"]["penalties"] == {"cat": 3}
    assert [(x["player"], x["rule"], x["penalty"]) for x in v["violations"]] == [
        ("cat", "looked-at-stock", "single-loo")]
    assert money(v) == ({"ann": 4, "bob": 8}, {}, 0, {"ann": 4, "bob": 8, "cat": -6})


def test_compact_notation_round_trips_with_json_and_refuses_gibberish():
    actions = [{"player": "ann", "action": "stand"}, {"player": "bob", "action": "take-miss"},
               {"player": "dan", "action": "defend"},
               {"player": "ann", "action": "exchange", "discard": ["2C", "3D"],
                "draw": ["4H", "5S"]},
               {"player": "bob", "action": "exchange", "discard": []},
               {"player": "cat", "action": "flush", "cards": ["2H", "5H", "7H", "9H", "KH"]},
               {"player": "ann", "action": "play", "card": "AS", "say": "pam-be-civil"},
               {"player": "cat", "action": "irregularity", "kind": "exposed-card", "card": "8C"}]
    text = actions_to_text(actions)
    assert text.splitlines()[3] == "ann exchange 2C 3D > 4H 5S"
    assert actions_from_text(text) == actions
    assert actions_from_text("ann stand; bob miss; ann 10h") == [
        {"player": "ann", "action": "stand"}, {"player": "bob", "action": "take-miss"},
        {"player": "ann", "action": "play", "card": "TH"}]
    with pytest.raises(RecordError) as caught:
        actions_from_text("ann dances\nbob ZZ")
    assert len(caught.value.errors) == 2


def test_an_irregularitys_evidence_is_written_in_quotes_and_read_back():
    actions = [{"player": "cat", "action": "irregularity", "kind": "misdeal",
                "evidence": "two cards face up"},
               {"player": "mary ann", "action": "irregularity", "kind": "exposed-card",
                "card": "8C", "evidence": "dropped it, #2 ! again"},
               {"player": "dan", "action": "irregularity", "kind": "looked-at-hand",
                "evidence": ""}]
    text = actions_to_text(actions)
    assert text.splitlines() == ['cat ! misdeal "two cards face up"',
                                 '"mary ann" ! exposed-card 8C "dropped it, #2 ! again"',
                                 'dan ! looked-at-hand ""']
    assert actions_from_text(text) == actions
    for evidence in ('said "no"', "a;b", "a\nb", 5):
        with pytest.raises(ValueError, match="no compact form for the evidence"):
            actions_to_text([{"player": "cat", "action": "irregularity", "kind": "misdeal",
                              "evidence": evidence}])


def test_the_notation_keeps_a_fold_as_written():
    # poker-Loo's players "stand or fold": a fold is read and written back as a fold, which
    # replay reads as a pass
    actions = actions_from_text("ann stand\nbob fold")
    assert actions == [{"player": "ann", "action": "stand"}, {"player": "bob", "action": "fold"}]
    assert actions_to_text(actions) == "ann stand\nbob fold\n"
    with pytest.raises(RecordError) as caught:
        actions_from_text("ann stand\nbob shuffle")
    (error,) = caught.value.errors
    assert error["player"] == "bob" and error["message"] == (
        "line 2: unknown action 'shuffle': a record's actions are stand, pass, take-miss, "
        "defend, exchange, flush, play and irregularity")


def test_a_seat_with_a_space_is_quoted_and_read_back():
    actions = [{"player": "mary ann", "action": "stand"},
               {"player": "mary ann", "action": "exchange", "discard": ["2C"], "draw": ["4H"]},
               {"player": "#7", "action": "play", "card": "AS"},
               {"player": "o'neil", "action": "play", "card": "KS"}]
    text = actions_to_text(actions)
    assert text.splitlines() == ['"mary ann" stand', '"mary ann" exchange 2C > 4H', '"#7" AS',
                                 "o'neil KS"]
    assert actions_from_text(text) == actions
    for seat in ('say "hi"', "a;b", " ann", "ann\nbob", ""):
        with pytest.raises(ValueError, match="no compact form for the seat"):
            actions_to_text([{"player": seat, "action": "stand"}])
    with pytest.raises(RecordError, match="cannot read"):
        actions_from_text('"mary ann stand')


def test_command_line_converts_between_json_and_compact_actions(tmp_path):
    path = tmp_path / "deal.json"
    path.write_text(json.dumps({"actions": acts("ann stand; bob pass; ann AH")}))
    run = [sys.executable, "-m", "games.rules"]
    text = subprocess.run([*run, "text", str(path)], capture_output=True, text=True, cwd=ROOT,
                          check=True).stdout
    assert text == "ann stand\nbob pass\nann AH\n"
    back = subprocess.run([*run, "actions", "-"], input=text, capture_output=True, text=True,
                          cwd=ROOT, check=True).stdout
    assert json.loads(back) == acts("ann stand; bob pass; ann AH")


WINNERS = "result: winners must list each trick's winner, in order, agreeing with the counts"
RESULT_TABLE = {"rules": {"game": "three-card"}, "pool": 6, "seats": ["ann", "bob", "cat", "dan"],
                "dealer": "dan", "actions": acts("ann stand; bob stand; cat pass; dan pass")}


@pytest.mark.parametrize(("result", "says"), [
    ({"tricks": {"ann": 2, "zed": 1}}, "result: 'zed' is not a seat"),
    ({"tricks": {"ann": 2, "bob": "one"}}, "result: 'one' is not a trick count"),
    ({"tricks": {"ann": 2, "bob": True}}, "result: True is not a trick count"),
    ({"tricks": {"ann": 2, "bob": 2}}, "result: the trick counts add up to 4, not 3"),
    ({"tricks": {"ann": 2, "cat": 1}}, "result: cat did not play"),
    ({"winners": ["ann"]}, 'result: needs {"tricks": {player: count}}'),
    # a list or an object among the winners raised TypeError (unhashable, looked up among
    # the seats), a 500 from the service
    ({"tricks": {"ann": 2, "bob": 1}, "winners": [["bob"], "ann", "ann"]}, WINNERS),
    ({"tricks": {"ann": 2, "bob": 1}, "winners": [{"bob": 1}, "ann", "ann"]}, WINNERS),
    ({"tricks": {"ann": 2, "bob": 1}, "winners": [1, "ann", "ann"]}, WINNERS),
])
def test_a_result_that_cannot_be_is_a_record_error(result, says):
    with pytest.raises(RecordError) as caught:
        replay({**RESULT_TABLE, "result": result})
    assert [e["message"] for e in caught.value.errors] == [says]


def test_a_result_only_record_has_no_plays():
    record = {**RESULT_TABLE, "actions": RESULT_TABLE["actions"] + acts("ann AS"),
              "result": {"tricks": {"ann": 2, "bob": 1}}}
    with pytest.raises(RecordError) as caught:
        replay(record)
    assert caught.value.errors[0]["index"] == 4
    assert caught.value.errors[0]["message"] == "a result-only record has no plays"


def test_a_result_with_nobody_declared_takes_the_standers_from_the_counts():
    # no declarations recorded: those with tricks stood; cat and dan are taken to have passed.
    # P = 6 + 3 (dan's ante, double pool) = 9: ann 2 tricks = 6, bob 1 = 3; nobody looed.
    v = replay({**RESULT_TABLE, "actions": [], "result": {"tricks": {"ann": 2, "bob": 1}}})
    assert v["status"] == "unverified" and v["standers"] == ["ann", "bob"]
    assert money(v) == ({"ann": 6, "bob": 3}, {}, 0, {"ann": 6, "bob": 3, "dan": -3})


def test_a_deal_that_ended_before_the_play_has_no_tricks_in_its_result():
    # everybody passes to the dealer, who takes the pool without play
    record = {**RESULT_TABLE, "actions": acts("ann pass; bob pass; cat pass"),
              "result": {"tricks": {"dan": 3}}}
    with pytest.raises(RecordError) as caught:
        replay(record)
    assert caught.value.errors[0]["message"] == "result: no tricks are played in this deal"
    # an empty result is accepted; with no play to take on trust the deal is fully checked
    v = replay({**record, "result": {"tricks": {}}})
    assert v["ended"] == "dealer-takes" and v["status"] == "valid"
    assert money(v) == ({"dan": 9}, {}, 0, {"dan": 6})  # P = 6 + his ante 3
