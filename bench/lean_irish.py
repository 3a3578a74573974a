"""Probe: a lean replay of Irish Loo deals, the engine's slowest preset in the benchmark's mix.

``bench/lean_probe.py`` (five-card reference deals) and ``bench/lean_three.py`` (the mix's
three-card deals) asked how fast a lean pure-Python replay doing the engine's whole job can
be. Irish Loo is three-card Loo with exchanges: no miss, no simple pool. ``lean_irish`` is
specialised to the preset ``irish`` options; anything outside them, or outside the common
cases below, raises NotImplementedError. It is built from the two probes' parts, and within
that scope it does everything ``games.rules.replay`` does to reach its verdict:

- the header, seat and pool checks (``lean_probe.read_record``);
- stand or pass in turn from eldest (``lean_three.declare``, with no miss to take); the
  dealer's options by what the others declared; everyone before the dealer passing: the
  dealer takes the pool;
- each stander's exchange in turn from eldest, 0-3 cards (``lean_probe``'s exchange reader
  and exchange; the turn-up stays on the table); the record may leave out a stander who kept
  his cards;
- every card read in any accepted spelling, the hands read back from the plays through the
  exchanges (three each, no card twice, nor the turn-up) and the draws checked unseen;
- every play in turn and in hand, a card that simply follows cleared inline and every other
  one judged by the engine's own duty judges (``lean_three.play_tricks``);
- trick winners, the settlement with its conservation check (``lean_three.settle_three``)
  and a verdict dict equal to the engine's.

Not handled (declined): a defended pool (the dealer plays against a lone stander), anything
out of turn, irregularities, flushes, given hands or stock, a stock that runs out.

usage (from the repository root):
    .venv/bin/python bench/lean_irish.py              # check, then time the Irish deals
    .venv/bin/python bench/lean_irish.py --repeat 5 --no-mutations --deals 9000
    PYTHONHASHSEED=0 valgrind --tool=callgrind --callgrind-out-file=/dev/null \\
        .venv/bin/python bench/lean_irish.py --deals 3000 --once lean   # (less --once none)

The deals are the benchmark's mix (``stages.cached_items``, as for ``lean_three``), of which
the ``irish`` preset's are checked and timed. Before timing, every Irish deal of the mix is
checked (lean verdict == engine verdict, field for field, or lean declines a defended pool),
and edited copies of them (``lean_three``'s edits, and exchanges edited: a seen card drawn, a
card discarded that the hand does not hold, a draw short) are checked to get the same verdict
from both, be refused by both, or be declined by lean.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path
from random import Random
from typing import Any

_HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(_HERE), str(_HERE.parent)]  # the other probes; the engine

import lean_probe as probe
import lean_three as three
from engine import Item

from games.rules import RuleSet
from games.rules.cards import CODE, SUITS

IRISH = RuleSet.from_options({"preset": "irish"})


def lean_irish(text: str, rules: RuleSet, pool: int | None, first_of_series: bool,
               stop: int = 9) -> Any:
    """The engine's verdict for an Irish Loo deal. ``stop`` (for timing only) returns after
    stage 0 json.loads, 1 header + declarations + every card read + hands read back,
    2 exchanges, 3 plays, 4 settlement."""
    if stop == 0:
        return json.loads(text)
    rec, seats, dealer, pool, actions = probe.read_record(text, rules, IRISH, pool, 2, 16)
    turnup = three.read_turnup(rec)
    d = seats.index(dealer)
    order = seats[d + 1:] + seats[:d + 1]  # eldest .. dealer

    # ---- declarations: stand or pass in turn from eldest (no miss)
    standers, ended, j, defender = three.declare(actions, order, dealer, seats, False)

    # ---- read the record: exchanges, then plays (phases may not go back)
    exchanges, j = probe.read_exchanges(actions, j, seats, CODE, probe._code)
    played = {p: [] for p in standers}
    plays = probe.read_plays(actions[j:], CODE, three._not_a_play, probe._code, played)
    if ended != "played" and (plays or exchanges):
        raise probe.LeanError(f"the deal is over ({ended})")
    # each stander's dealt hand, read back (unplayed discards + plays not drawn); then the
    # exchanges in turn from eldest, up to 3 cards each; the turn-up is nobody's
    hands = probe.exchange_hands(standers, played, exchanges, 3, dealer, turnup, False,
                                 len(seats), stop)
    if stop <= 2:
        return hands

    # ---- the play: as a double pool, trumps turned at the deal
    trump = three.trumps_at_deal(turnup, plays)
    tricks, won, violations, offenders, trump = three.play_tricks(
        plays, hands, standers, trump, turnup, three._judge(rules, turnup, "at-deal"), ended)
    if stop == 3:
        return won

    # ---- settlement: P = pool + the dealer's ante; three tricks take P, else floor(P/3) each
    settlement = three.settle_three(rules, seats, dealer, pool, ended, standers, tricks, won,
                                    offenders, defender)
    if stop == 4:
        return settlement

    # ---- the verdict (Irish Loo has no pool kinds)
    return probe.verdict(rules, None, None if trump is None else SUITS[trump], seats, d,
                         standers, tricks, won, violations, settlement, ended, defender)


# ------------------------------------------------------------------ checking (never timed)
def _mutants(rec: dict, rng: Random) -> list[tuple[str, dict]]:
    """``lean_three``'s edits of a record, and its exchanges edited: a seen card (the
    turn-up) drawn, a card discarded that another player plays, a draw one card short."""
    out = three._mutants(rec, rng)
    acts = rec["actions"]
    ex = [i for i, a in enumerate(acts) if a["action"] == "exchange" and a.get("draw")]
    if not ex:
        return out
    i = rng.choice(ex)
    who = acts[i]["player"]
    m = json.loads(json.dumps(rec))
    m["actions"][i]["draw"][0] = rec["turnup"]
    out.append(("draw-seen", m))
    others = [a["card"] for a in acts if a["action"] == "play" and a["player"] != who]
    if others:
        m = json.loads(json.dumps(rec))
        m["actions"][i]["discard"][0] = rng.choice(others)
        out.append(("discard", m))
    m = json.loads(json.dumps(rec))
    del m["actions"][i]["draw"][-1]
    out.append(("few-drawn", m))
    return out


def _how(item: Item) -> str:
    """A timed deal's kind: defended, taken by the dealer, or played with or without an
    exchange."""
    actions = json.loads(item.text)["actions"]
    kinds = {a["action"] for a in actions}
    if "defend" in kinds:
        return "defended"
    if "play" not in kinds:
        return "dealer-takes"
    drawn = any(a.get("draw") for a in actions if a["action"] == "exchange")
    return "played, cards exchanged" if drawn else "played, none exchanged"


def _none(item: Item, theirs: dict) -> bool:
    """No generated Irish deal may be declined (its stock cannot run out at 4-6 seats)."""
    return False


IRISH_LOO = three.Probe("irish", lean_irish, IRISH, "irish", _none, "nothing", _mutants, _how,
                        ("json.loads", "header, declarations, hands", "exchanges",
                         "plays (duties, winners)", "settlement", "verdict dict"))


if __name__ == "__main__":
    raise SystemExit(three.main(probe=IRISH_LOO, doc=__doc__))
