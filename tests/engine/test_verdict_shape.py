"""Every verdict has exactly the shape deal-record.md and docs/engine-api.md promise
(``tests/engine/verdict_shape.py``): one hand-worked deal per way a deal can end, a sweep of
every preset and house variant (legal, irregular, result-only, final deals, sessions), the
command line's output, and the checker's own teeth.
"""
from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable
from typing import Any

import pytest

from games.rules import RecordError, replay, replay_session
from games.rules.cli import main as cli_main
from games.rules.simulate import play_random_deal, random_session, session_deals
from tests.engine.dealkit import nonzero, play, record
from tests.engine.test_poker_loo import FIRST_THREE_ONE_ONE
from tests.engine.test_properties import NAMES, RULE_NAMES, RULES
from tests.engine.verdict_shape import KINDS, assert_verdict_shape, verdict_problems

SEATS = "ann bob cat dan"
FIVE = {"game": "five-card"}
POKER = {"game": "poker-loo"}
PASSES = "ann pass; bob pass; cat pass"
ANN_FLUSH = {"ann": ["2S", "5S", "8S", "TS", "KS"]}
#: deal-record.md's example deal: bob takes the miss and revokes at trick 2
CONTRACT_DEAL = """ann stand; bob take-miss; cat pass; dan pass
    ann AD; bob QD; ann TH; bob 5C; ann 2C; bob 5H"""

ENDINGS: list[tuple[str, dict[str, Any], set[str], dict[str, int], dict[str, Any]]] = [
    # deal-record.md's own verdict: P = 6 + 3 = 9 to ann; bob's revoke costs a full loo of 3
    ("played", {"turnup": "7D", "pool": 6, "hands": {"ann": ["AD", "TH", "2C"]},
                "miss": ["QD", "5H", "5C"], "actions": CONTRACT_DEAL},
     set(), {"ann": 9, "bob": -3, "dan": -3}, {"dealer": "ann", "pool": 3}),
    # all pass to the dealer, who takes P = 6 + 3 without play: +9 - 3 ante
    ("dealer-takes", {"turnup": "7D", "pool": 6, "actions": PASSES},
     set(), {"dan": 6}, {"dealer": "ann", "pool": 0}),
    # single_stander concede: the dealer passes against ann alone and she takes P = 9
    ("conceded", {"turnup": "7D", "pool": 6, "actions": "ann stand; bob pass; cat pass; dan pass",
                  "rules": {"game": "three-card", "single_stander": "concede"}},
     set(), {"ann": 9, "dan": -3}, {"dealer": "ann", "pool": 0}),
    # five-card: ann alone stands and takes P = 10 + 5 unplayed
    ("lone-stander", {"turnup": "3H", "pool": 10, "rules": FIVE,
                      "actions": "ann stand; bob pass; cat pass; dan pass"},
     set(), {"ann": 15, "dan": -5}, {"dealer": "ann", "pool": 0}),
    # five-card: everybody passes, P = 15 stays for the next deal
    ("nobody-stands", {"turnup": "3H", "pool": 10, "rules": FIVE, "actions": f"{PASSES}; dan pass"},
     set(), {"dan": -5}, {"dealer": "ann", "pool": 15}),
    # ann's flush takes P = 15; bob, standing without one, is looed 5
    ("flush", {"turnup": "3H", "pool": 10, "rules": FIVE, "hands": ANN_FLUSH,
               "actions": "ann stand; bob stand; cat pass; dan pass; ann flush"},
     {"flushes"}, {"ann": 15, "bob": -5, "dan": -5}, {"dealer": "ann", "pool": 5}),
    # Peel's everyone-pays-holder: P = 15 to ann, and bob, cat and dan each pay her 5 directly
    ("flush", {"turnup": "3H", "pool": 10, "hands": ANN_FLUSH,
               "rules": {"game": "five-card", "flush_pays": "everyone-pays-holder"},
               "actions": "ann stand; bob stand; cat pass; dan pass; ann flush"},
     {"flushes", "transfers"}, {"ann": 30, "bob": -5, "cat": -5, "dan": -10},
     {"dealer": "ann", "pool": 0}),
    # three-trumps-redeal: ann was dealt three trumps and shows them: P = 9 to her, dan again
    ("redeal", {"turnup": "7D", "pool": 6, "hands": {"ann": ["AD", "KD", "2D"]},
                "rules": {"game": "three-card", "flush": "three-trumps-redeal"},
                "actions": "ann flush"},
     {"flushes"}, {"ann": 9, "dan": -3}, {"dealer": "dan", "pool": 0}),
    # the dealer misdeals: no antes, his single loo 3 into the pool; he deals again
    ("misdeal", {"turnup": "7D", "pool": 6, "actions": "dan ! misdeal"},
     set(), {"dan": -3}, {"dealer": "dan", "pool": 9}),
    # a poker-Loo redeal (bob sitting out, no antes) misdealt is still that redeal
    ("misdeal", {"turnup": "2H", "pool": 42, "number": 2, "rules": POKER, "redeal": True,
                 "sits_out": ["bob"], "actions": "dan ! misdeal"},
     {"redeal"}, {"dan": -5}, {"dealer": "dan", "pool": 47}),
    # poker-Loo's first deal, bob exposes 7D at trick 2: burned 21, the hand thrown in
    # (tests/engine/test_poker_loo.py works the figures)
    ("thrown-in", {"turnup": "2H", "pool": 0, "number": 1, "rules": POKER,
                   "actions": FIRST_THREE_ONE_ONE.replace(
                       "ann KH; bob 6D", "ann KH; bob ! exposed-card 7D; bob 6D")},
     {"redeal"}, {"ann": -5, "bob": -26, "cat": -5, "dan": -6}, {"dealer": "dan", "pool": 42}),
]


@pytest.mark.parametrize(("ended", "fields", "optional", "deltas", "following"), ENDINGS,
                         ids=[f"{e[0]}-{k}" for k, e in enumerate(ENDINGS)])
def test_each_way_of_ending_has_the_promised_shape(ended, fields, optional, deltas, following):
    rec = record(SEATS, "dan", **{"rules": {"game": "three-card"}, **fields})
    verdict = play(rec)
    assert verdict["ended"] == ended
    assert_verdict_shape(verdict, record=rec, first_of_series=rec.get("number", 1) == 1)
    present = {k for k in ("defender", "flushes", "redeal") if k in verdict}
    present |= {"transfers"} & set(verdict["settlement"])
    assert present == optional
    assert nonzero(verdict["settlement"]["deltas"]) == deltas
    assert {k: verdict["next"][k] for k in following} == following
    assert (verdict["tricks"] == []) == (ended != "played" and ended != "thrown-in")


@pytest.mark.parametrize(("actions", "status", "ended", "deltas"), [
    # all pass: dan takes P = 9 (+9 - 3 ante); the result can only count no trick
    (PASSES, "valid", "dealer-takes", {"dan": 6}),
    # dan misdeals: his single loo 3 into the pool, no ante
    ("dan ! misdeal", "irregular", "misdeal", {"dan": -3}),
])
def test_a_result_on_a_deal_without_play_leaves_nothing_unverified(actions, status, ended,
                                                                    deltas):
    rec = record(SEATS, "dan", turnup="7D", pool=6, actions=actions, result={"tricks": {}})
    verdict = play(rec)
    assert (verdict["status"], verdict["ended"], verdict["tricks_won"]) == (status, ended, {})
    assert nonzero(verdict["settlement"]["deltas"]) == deltas
    assert_verdict_shape(verdict, record=rec)


def test_a_defended_pool_names_its_defender():
    # ann stands alone; dan defends with the miss and takes trick 3 (5C over 2C): P = 9, a
    # trick 3; ann's two take 6, the defender's share stays in the pool (3)
    rec = record(SEATS, "dan", turnup="7D", pool=6, hands={"ann": ["AD", "TH", "2C"]},
                 miss=["QD", "5H", "5C"], actions="""ann stand; bob pass; cat pass; dan defend
                 ann AD; dan QD; ann TH; dan 5H; ann 2C; dan 5C""")
    verdict = play(rec)
    assert (verdict["defender"], verdict["standers"]) == ("dan", ["ann", "dan"])
    assert nonzero(verdict["settlement"]["deltas"]) == {"ann": 6, "dan": -3}
    assert verdict["settlement"]["pool_after"] == 3
    assert_verdict_shape(verdict, record=rec)


def _mutants(rec: dict, seats: list[str], rng: random.Random) -> list[dict]:
    """Irregular versions of a legal record: a recorded irregularity of each kind somewhere
    (a misdeal as the only action), and two of one player's plays swapped."""
    out = []
    for kind in sorted(KINDS):
        bad = copy.deepcopy(rec)
        if kind == "misdeal":
            bad["actions"] = [{"player": rec["dealer"], "action": "irregularity", "kind": kind}]
        else:
            act = {"player": rng.choice(seats), "action": "irregularity", "kind": kind}
            bad["actions"].insert(rng.randrange(len(bad["actions"]) + 1), act)
        out.append(bad)
    plays = [i for i, a in enumerate(rec["actions"]) if a["action"] == "play"]
    mine = [i for i in plays if rec["actions"][i]["player"] == rec["actions"][plays[0]]["player"]
            ] if plays else []
    if len(mine) > 1:
        bad = copy.deepcopy(rec)
        i, j = mine[0], mine[-1]
        bad["actions"][i]["card"], bad["actions"][j]["card"] = (rec["actions"][j]["card"],
                                                                rec["actions"][i]["card"])
        out.append(bad)
    return out


def _result_only(rec: dict, verdict: dict, rng: random.Random) -> dict:
    """The same deal as a club that only notes trick counts (and maybe each trick's winner)."""
    out = copy.deepcopy(rec)
    out["actions"] = [a for a in rec["actions"] if a["action"] != "play"]
    out["result"] = {"tricks": {p: n for p, n in verdict["tricks_won"].items() if n}}
    if rng.random() < 0.5:
        out["result"]["winners"] = [t["winner"] for t in verdict["tricks"]]
    return out


@pytest.mark.parametrize("name", RULE_NAMES)
def test_every_rule_set_gives_verdicts_of_the_promised_shape(name):
    """A fixed-seed session per rule set: each deal legal, irregular and result-only, plus a
    final deal, each verdict checked in full."""
    rules = RULES[name]
    rng = random.Random(name)
    seats = list(NAMES[:4 if rules.game != "five-card" else 5])
    checked = set()
    for dealt in session_deals(rules, seats, 6, rng):
        rec, fos = dealt.record, dealt.first_of_series
        variants = [rec, *_mutants(rec, seats, rng)]
        if dealt.verdict["ended"] == "played":
            variants.append(_result_only(rec, dealt.verdict, rng))
        for variant in variants:
            try:
                verdict = replay(variant, rules, pool=dealt.pool, first_of_series=fos)
            except RecordError:
                continue  # e.g. an irregularity the deal cannot have (a miss nobody dealt)
            assert_verdict_shape(verdict, record=variant, first_of_series=fos)
            checked.add((verdict["status"], verdict["ended"]))
    final = play_random_deal(rules, seats, seats[-1], pool=7, rng=rng, final=True)
    assert_verdict_shape(replay(final.record, rules), record=final.record)
    assert {"valid", "irregular", "unverified"} <= {status for status, _ in checked}
    assert ("irregular", "misdeal") in checked


def test_session_and_command_line_verdicts_have_the_promised_shape(tmp_path, capsys):
    """replay_session numbers each verdict 1..; the command line prints the same lines."""
    seats = ["ann", "bob", "cat"]
    lines = random_session(RULES["poker-loo"], seats, 8, random.Random(4))
    path = tmp_path / "s.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    verdicts = list(replay_session(json.dumps(line) for line in lines))
    assert [v["number"] for v in verdicts] == list(range(1, 9))
    for rec, verdict in zip(lines[1:], verdicts, strict=True):
        assert_verdict_shape(verdict, seats, record=rec)
    assert cli_main(["replay", str(path)]) == 0
    printed = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert printed == verdicts
    single = tmp_path / "deal.json"
    rec = record(SEATS, "dan", turnup="7D", pool=6, actions=CONTRACT_DEAL,
                 hands={"ann": ["AD", "TH", "2C"]}, miss=["QD", "5H", "5C"])
    single.write_text(json.dumps(rec))
    assert cli_main(["replay", str(single)]) == 0
    assert_verdict_shape(json.loads(capsys.readouterr().out), record=rec)


# --- the checker's own teeth: each departure is named -------------------------------------------
def _contract_verdict() -> tuple[dict, dict]:
    rec = record(SEATS, "dan", turnup="7D", pool=6, actions=CONTRACT_DEAL,
                 hands={"ann": ["AD", "TH", "2C"]}, miss=["QD", "5H", "5C"])
    return replay(rec), rec


def _set(path: str, value: Any) -> Callable[[dict], None]:
    def change(verdict: dict) -> None:
        *parents, last = path.split(".")
        for key in parents:
            verdict = verdict[int(key)] if isinstance(verdict, list) else verdict[key]
        verdict[last] = value
    return change


@pytest.mark.parametrize(("change", "named"), [
    (_set("extra", 1), "verdict: undocumented ['extra']"),
    (lambda v: v.pop("ended"), "verdict: missing ['ended']"),
    (_set("settlement.pool_before", True), "settlement: pool_before True"),
    (_set("settlement.deltas.cat", 0.0), "settlement.deltas"),
    (_set("settlement.deltas.cat", 1), "settlement: deltas 4 + pool_after 3 - pool_before 6"),
    (_set("settlement.payouts.ann", 0), "settlement.payouts.ann: 0 units booked"),
    (_set("tricks.0.cards.ann", "10D"), "tricks[0].cards.ann: '10D' is not a card name"),
    (_set("tricks.0.winner", "cat"), "tricks[0].winner: 'cat' played no card to it"),
    (_set("tricks_won.bob", 1), "tricks_won: {'ann': 3, 'bob': 1}"),
    (_set("standers", ["bob", "ann"]), "standers: ['bob', 'ann'] not in the order of play"),
    (_set("status", "valid"), "violations: some, in a valid verdict"),
    (_set("violations.0.penalty", "burn"), "violations[0].penalty: 'burn' for revoke"),
    (_set("violations.0.evidence", 7), "violations[0].evidence: 7"),
    (_set("next.dealer", "dan"), "next.dealer: 'dan', not ann"),
    (_set("next.first_of_series", 0), "next.first_of_series: 0"),
    (_set("flushes", []), "flushes: given in a deal ended played"),
    (_set("defender", "dan"), "defender: given where the record has no defend"),
    (_set("pool_kind", None), "pool_kind: None at three-card"),
    (_set("engine.version", "0.9"), "engine.version: '0.9'"),
    (_set("redeal", {"sits_out": []}), "redeal: given at three-card in a deal ended played"),
    (_set("ended", "conceded"), "tricks: 3 for a deal conceded without play"),
    (_set("status", "unverified"), "status: unverified for a played record"),
])
def test_the_checker_names_each_departure(change, named):
    verdict, rec = _contract_verdict()
    assert verdict_problems(verdict, record=rec) == []
    change(verdict)
    problems = verdict_problems(verdict, record=rec)
    assert any(p.startswith(named) for p in problems), problems
