"""Probe: a lean replay of the benchmark mix's five-card Loo deals (passes, 4-6 seats).

``bench/lean_probe.py`` timed a lean replay on the reference deals, where all five players
stand. The mix's ``five-card`` deals are shorter: players pass, 4-6 sit, and a deal may end
with nobody standing or one stander taking the pool unplayed. ``lean_five`` is specialised to
the preset five-card options; anything outside them, or outside the cases below, raises
NotImplementedError. It is built from the other probes' parts, and within that scope it does
everything ``games.rules.replay`` does to reach its verdict:

- the header, seat and pool checks (``lean_probe.read_record``);
- stand or pass in turn from eldest, the dealer last with the same choice; nobody standing
  ends the deal ("nobody-stands", the pool carried), one stander takes it unplayed
  ("lone-stander");
- each stander's exchange in turn, up to five cards, a standing dealer taking the turn-up
  (``lean_probe``'s exchange reader, read-back and exchange);
- every card read in any accepted spelling, the hands read back through the exchanges (five
  each, no card twice, nor the turn-up) and the draws checked unseen;
- every play in turn and in hand with each duty of these options judged, Pam's included
  (``lean_probe.play_five``);
- the trick winners, the settlement with its conservation check (``lean_probe.settle_five``)
  and a verdict dict equal to the engine's.

Not handled (declined): flushes, anything out of turn, irregularities, given hands or stock,
a stock that runs out.

usage (from the repository root):
    .venv/bin/python bench/lean_five.py               # check, then time the five-card deals
    .venv/bin/python bench/lean_five.py --repeat 5 --no-mutations --deals 9000
    PYTHONHASHSEED=0 valgrind --tool=callgrind --callgrind-out-file=/dev/null \\
        .venv/bin/python bench/lean_five.py --deals 3000 --once lean   # (less --once none)

The deals are the benchmark's mix (``stages.cached_items``, as for ``lean_three``), of which
the ``five-card`` preset's are checked and timed. Before timing, every five-card deal of the
mix is checked (lean verdict == engine verdict, field for field, or lean declines a deal that
ends in a flush), and edited copies of them (``lean_irish``'s edits, and "Pam be civil" said
on every lead) are checked to get the same verdict from both, be refused by both, or be
declined by lean.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path
from random import Random
from typing import Any

_HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(_HERE), str(_HERE.parent)]  # the other probes; the engine

import lean_irish as irish
import lean_probe as probe
import lean_three as three
from engine import Item

from games.rules import RuleSet

FIVE = RuleSet.from_options({"preset": "five-card"})


def declare_five(actions: list, order: list[str], seats: list[str]) -> list[str]:
    """Stand or pass in turn from eldest; at five-card Loo the dealer has the same choice (no
    miss, no defence). Returns the standers, in order from eldest."""
    standers = []
    n_actions = len(actions)
    for j, p in enumerate(order):
        if j >= n_actions:
            raise probe.LeanError(f"the record stops during the declarations ({p} to declare)")
        a = actions[j]
        kind = three._DECLARATIONS.get(a.get("action")) if type(a) is dict else None
        if kind is None or a.get("player") != p:
            three._declaration_problem(a, p, seats)
        if kind == "stand":
            standers.append(p)
        elif kind != "pass":
            raise probe.LeanError(f"{p}: {kind} is not allowed (stand or pass)")
    return standers


def lean_five(text: str, rules: RuleSet, pool: int | None, first_of_series: bool,
              stop: int = 9) -> Any:
    """The engine's verdict for a five-card deal of the mix. ``stop`` (for timing only)
    returns after stage 0 json.loads, 1 header + declarations + every card read + hands read
    back, 2 exchanges, 3 plays, 4 settlement."""
    if stop == 0:
        return json.loads(text)
    rec, seats, dealer, pool, actions = probe.read_record(text, rules, FIVE, pool, 4, 7)
    turnup = rec.get("turnup")
    trump = None
    if turnup is not None:
        turnup = probe._card(turnup)
        trump = turnup[1]
    d = seats.index(dealer)
    order = seats[d + 1:] + seats[:d + 1]  # eldest .. dealer

    # ---- declarations: stand or pass in turn from eldest
    standers = declare_five(actions, order, seats)
    m = len(standers)

    # ---- read the record: exchanges, then plays (phases may not go back)
    exchanges, j = probe.read_exchanges(actions, len(order), seats, probe.CANON, probe._card)
    played = {p: [] for p in standers}
    plays = probe.read_plays(actions[j:], probe.CANON, probe._not_a_play, probe._card, played)
    if m < 2:  # nobody stands (the pool carries), or one stander takes it unplayed
        if plays or exchanges:
            raise probe.LeanError("the deal is over: fewer than two stand")
        if stop <= 3:
            return standers
        antes, big, _full = probe.open_books(rules, dealer, pool)
        settlement = probe.settle(seats, pool, big, antes, {standers[0]: big} if m else {}, {})
        if stop == 4:
            return settlement
        return probe.verdict(rules, None, trump, seats, d, standers, [],
                             dict.fromkeys(standers, 0), [], settlement,
                             "lone-stander" if m else "nobody-stands")
    if turnup is None:
        raise probe.LeanError("turnup: the turn-up card is needed to know trumps")
    takes = standers[-1] == dealer  # a standing dealer takes the turn-up
    # each stander's hand read back through the exchanges; then the exchanges in turn from
    # eldest, up to five cards each
    hands = probe.exchange_hands(standers, played, exchanges, 5, dealer, turnup, takes,
                                 len(seats), stop)
    if stop <= 2:
        return hands

    # ---- the play: the eldest stander leads, each trick's winner leads the next
    tricks, won, violations, offenders = probe.play_five(plays, hands, standers, trump)
    if stop == 3:
        return won

    # ---- settlement: P = pool + the dealer's ante; a sweep takes P, else floor(P/5) a trick
    settlement = probe.settle_five(rules, seats, dealer, pool, standers, tricks, won, offenders)
    if stop == 4:
        return settlement

    # ---- the verdict (five-card Loo has no pool kinds)
    return probe.verdict(rules, None, trump, seats, d, standers, probe.five_tricks(tricks), won,
                         violations, settlement, "played")


# ------------------------------------------------------------------ checking (never timed)
def _mutants(rec: dict, rng: Random) -> list[tuple[str, dict]]:
    """``lean_irish``'s edits of a record (``lean_three``'s, and its exchanges edited), and
    "Pam be civil" said on every lead."""
    out = irish._mutants(rec, rng)
    acts = rec["actions"]
    plays = [i for i, a in enumerate(acts) if a["action"] == "play"]
    standers = sum(a["action"] == "stand" for a in acts)
    if plays:
        m = json.loads(json.dumps(rec))
        for i in plays[::standers]:
            m["actions"][i]["say"] = "pam-be-civil"
        out.append(("civil", m))
    return out


def _how(item: Item) -> str:
    """A timed deal's kind: how many stood."""
    standers = sum(a["action"] == "stand" for a in json.loads(item.text)["actions"])
    return {0: "nobody-stands", 1: "lone-stander"}.get(standers, f"played by {standers}")


FIVE_CARD = three.Probe("five-card", lean_five, FIVE, "five-card", probe._ends_in_flush,
                        "deals that end in a flush", _mutants, _how,
                        ("json.loads", "header, declarations, hands", "exchanges",
                         "plays (duties, winners)", "settlement", "verdict dict"))


if __name__ == "__main__":
    raise SystemExit(three.main(probe=FIVE_CARD, doc=__doc__))
