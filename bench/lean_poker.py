"""Probe: a lean replay of the benchmark mix's poker-Loo deals (series, 4-6 seats).

``bench/lean_five.py`` timed a lean replay on the mix's five-card deals; poker-Loo, the one
preset of the mix left unprobed, plays the same five tricks under other rules. ``lean_poker``
is specialised to the preset ``poker-loo`` options; anything outside them, or outside the
cases below, raises NotImplementedError. It is built from the other probes' parts, and
within that scope it does everything ``games.rules.replay`` does to reach its verdict:

- the header, seat and pool checks (``lean_probe.read_record``);
- the first deal of a series: everybody stands (the record declares nothing), and everybody
  antes (the dealer 6, the others 5: ``lean_probe.open_books``); a later deal: no ante, and
  each player stands or folds once, in any order (simultaneous). Nobody standing ends the
  deal ("nobody-stands": the pot stays and the same dealer deals again); one stander takes the
  pot unplayed ("lone-stander") and the series ends;
- each stander's exchange in turn, 0-3 cards (2 or none on a first deal at 7 or 8 seats),
  the turn-up staying on the table (``lean_probe``'s exchange reader, read-back and
  exchange); the record may leave out a stander who kept his cards;
- every card read in any accepted spelling, the hands read back through the exchanges (no
  card twice, nor the turn-up) and the draws checked unseen;
- every play in turn and in hand, judged as the preset asks: follow suit only, no Pam, no
  duty to lead trumps or head (``lean_probe.play_five``). A revoke, or a play out of turn,
  burns its player and throws the hand in ("thrown-in": the same dealer deals again, the
  offender sitting out);
- the trick winners; payment by tricks (three or more take the pot; 0-1 burns, matching the
  pot; on a first deal two-trick players share a pot nobody took three of; on a later deal of
  exactly two standers the one without three is burned), the settlement with its
  conservation check (``lean_probe.settle``) and a verdict dict equal to the engine's.

Not handled (declined): a declaration spelt out on a first deal, irregularities and flushes
recorded, given hands or stock, a redeal sat out, a stock that runs out.

usage (from the repository root):
    .venv/bin/python bench/lean_poker.py              # check, then time the poker-Loo deals
    .venv/bin/python bench/lean_poker.py --repeat 5 --no-mutations --deals 9000
    PYTHONHASHSEED=0 valgrind --tool=callgrind --callgrind-out-file=/dev/null \\
        .venv/bin/python bench/lean_poker.py --deals 3000 --once lean   # (less --once none)

The deals are the benchmark's mix (``stages.cached_items``, as for ``lean_three``), of which
the ``poker-loo`` preset's are checked and timed. Before timing, every poker-Loo deal of the
mix is checked (lean verdict == engine verdict, field for field; lean may decline none of
them), and edited copies of them (``lean_irish``'s edits) are checked to get the same
verdict from both, be refused by both, or be declined by lean.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

_HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(_HERE), str(_HERE.parent)]  # the other probes; the engine

import lean_irish as irish
import lean_probe as probe
import lean_three as three
from engine import Item

from games.rules import RuleSet

POKER = RuleSet.from_options({"preset": "poker-loo"})
#: the cards' suits and strengths with no Pam (the jack of clubs is a club like any other)
PLAIN = probe.name_tables(None)


def declare_poker(actions: list, order: list[str]) -> list[str]:
    """A later deal's declarations: each player stands or folds (passes) once, all at once, so
    in any order. Returns the standers, in order from eldest."""
    n = len(order)
    if len(actions) < n:
        raise probe.LeanError("the record stops during the declarations")
    said: dict[str, str] = {}
    for j in range(n):
        a = actions[j]
        kind = three._DECLARATIONS.get(a.get("action")) if type(a) is dict else None
        p = a.get("player") if kind else None
        if kind is None or p not in order or p in said:
            _declaration_problem(a, said, order)
        if kind != "stand" and kind != "pass":
            raise probe.LeanError(f"{p}: {kind} is not a poker-Loo declaration")
        said[p] = kind
    return [p for p in order if said[p] == "stand"]


def _declaration_problem(a: Any, said: dict[str, str], order: list[str]) -> None:
    """An action that is no fresh declaration while the declarations are open."""
    kind = a.get("action") if type(a) is dict else None
    if kind in three._DECLARATIONS:
        p = a.get("player")
        if p in order and p in said:
            raise probe.LeanError(f"{p} has already declared ({said[p]})")
        raise probe.LeanError(f"player {p!r} is not a seat")
    if kind in ("flush", "irregularity"):
        raise NotImplementedError(kind)
    raise probe.LeanError(f"{kind!r} before the declarations are over")


def _not_a_play_first(a: Any) -> bool:
    """On a first deal, only plays after the exchanges: a stand the rules force, spelt out,
    the engine allows."""
    if type(a) is dict and a.get("action") == "stand":
        raise NotImplementedError("a declaration spelt out on a first deal")
    return probe._not_a_play(a)


def settle_poker(rules: RuleSet, seats: list[str], dealer: str, pool: int, first: bool,
                 standers: list[str], won: dict[str, int], offenders: list) -> dict:
    """Payment by tricks: three or more take P, 0-1 burn (a full loo: P). On a first deal
    (everyone antes) two-trick players share a P nobody took three of; on a later deal (no
    ante) of exactly two standers the one without three is burned. A thrown-in hand
    (``offenders``) pays nobody and burns the offender."""
    if first:
        antes, big, full = probe.open_books(rules, dealer, pool,
                                            [s for s in seats if s != dealer])
    else:
        antes, big, full = {}, pool, rules.full_loo(pool)
    payouts = {}
    if offenders:
        looed = offenders
    else:
        three_or_more = [s for s in standers if won[s] >= 3]
        if three_or_more:
            top = three_or_more[0]
            if big:
                payouts[top] = big
            two = not first and len(standers) == 2
            looed = [s for s in standers if won[s] <= 1 or (two and s != top)]
        else:
            looed = [s for s in standers if won[s] <= 1]
            twos = [s for s in standers if won[s] == 2] if first else []
            if twos and big // len(twos):
                share = big // len(twos)
                payouts = dict.fromkeys(twos, share)
    loos = dict.fromkeys(looed, full) if full else {}
    return probe.settle(seats, pool, big, antes, payouts, loos)


def lean_poker(text: str, rules: RuleSet, pool: int | None, first_of_series: bool | None,
               stop: int = 9) -> Any:
    """The engine's verdict for a poker-Loo deal of the mix. ``stop`` (for timing only)
    returns after stage 0 json.loads, 1 header + declarations + every card read + hands read
    back, 2 exchanges, 3 plays, 4 settlement."""
    if stop == 0:
        return json.loads(text)
    rec, seats, dealer, pool, actions = probe.read_record(text, rules, POKER, pool, 2, 8)
    first = rec.get("number", 1) == 1 if first_of_series is None else first_of_series
    turnup = rec.get("turnup")
    trump = None
    if turnup is not None:
        turnup = probe._card(turnup)
        trump = turnup[1]
    n = len(seats)
    d = seats.index(dealer)
    order = seats[d + 1:] + seats[:d + 1]  # eldest .. dealer

    # ---- declarations: none on a first deal (all stand); later, stand or fold, all at once
    if first:
        standers, j, not_a_play = order, 0, _not_a_play_first
    else:
        standers, j, not_a_play = declare_poker(actions, order), n, probe._not_a_play
    m = len(standers)

    # ---- read the record: exchanges, then plays (phases may not go back)
    exchanges, j = probe.read_exchanges(actions, j, seats, probe.CANON, probe._card)
    played = {p: [] for p in standers}
    plays = probe.read_plays(actions[j:], probe.CANON, not_a_play, probe._card, played)
    if m < 2:  # nobody stands (the same dealer deals again), or one takes the pot unplayed
        if plays or exchanges:
            raise probe.LeanError("the deal is over: fewer than two stand")
        if stop <= 3:
            return standers
        settlement = probe.settle(seats, pool, pool, {}, {standers[0]: pool} if m and pool
                                  else {}, {})
        if stop == 4:
            return settlement
        return probe.verdict(rules, None, trump, seats, d, standers, [],
                             dict.fromkeys(standers, 0), [], settlement,
                             "lone-stander" if m else "nobody-stands", again=not m,
                             first_next=settlement["pool_after"] == 0)
    if turnup is None:
        raise probe.LeanError("turnup: the turn-up card is needed to know trumps")
    # each stander's hand read back through the exchanges (its size is the play's to judge);
    # then the exchanges in turn from eldest, up to three cards each (a first deal at 7 or 8
    # seats: two, or none)
    limit = 3 if not first or n < 7 else 2 if n == 7 else 0
    if not limit and exchanges:
        raise probe.LeanError("no exchange at eight seats on a first deal")
    hands = probe.exchange_hands(standers, played, exchanges, 5, dealer, turnup, False, n, stop,
                                 limit, exact=False)
    if stop <= 2:
        return hands

    # ---- the play: follow suit only; an offence burns and throws the hand in
    tricks, won, violations, offenders = probe.play_five(plays, hands, standers, trump, None,
                                                         PLAIN, False, True)
    if stop == 3:
        return won

    # ---- settlement: payment by tricks, burns
    settlement = settle_poker(rules, seats, dealer, pool, first, standers, won, offenders)
    if stop == 4:
        return settlement

    # ---- the verdict (a thrown-in hand is dealt again by the same dealer, sat out by the
    # offender, as the same deal of the series)
    thrown = bool(offenders)
    out = probe.verdict(rules, None, trump, seats, d, standers, probe.five_tricks(tricks), won,
                        violations, settlement, "thrown-in" if thrown else "played",
                        again=thrown,
                        first_next=first if thrown else settlement["pool_after"] == 0)
    if thrown:
        out["redeal"] = {"sits_out": offenders[:1]}
    return out


# ------------------------------------------------------------------ checking (never timed)
def _how(item: Item) -> str:
    """A timed deal's kind: a first deal (everybody stands), or how many stood on a later one."""
    if item.first_of_series:
        return "first deal"
    standers = sum(a["action"] == "stand" for a in json.loads(item.text)["actions"])
    return {0: "nobody-stands", 1: "lone-stander"}.get(standers, f"played by {standers}")


def _none(item: Item, theirs: dict) -> bool:
    """No generated poker-Loo deal may be declined (no offence, no stock running out)."""
    return False


POKER_LOO = three.Probe("poker-loo", lean_poker, POKER, "poker-loo", _none, "nothing",
                        irish._mutants, _how,
                        ("json.loads", "header, declarations, hands", "exchanges",
                         "plays (duties, winners)", "settlement", "verdict dict"))


if __name__ == "__main__":
    raise SystemExit(three.main(probe=POKER_LOO, doc=__doc__))
