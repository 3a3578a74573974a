"""Probe: a lean replay of three-card Loo deals, the commonest kind in the benchmark's mix.

``bench/lean_probe.py`` asked how fast a lean pure-Python replay doing the engine's whole job
can be on the reference workload (five-card, everybody stands). The mix's deals are short, so
the fixed cost of a deal weighs more there; this probe asks the same question of the mix's
``three-card`` deals. ``lean_three`` is specialised to the preset three-card options (which
``mississippi`` shares); anything outside them, or outside the common cases below, raises
NotImplementedError. Within that scope it does everything ``games.rules.replay`` does to reach
its verdict:

- the header, seat and pool checks (``lean_probe.read_record``);
- a simple pool (the pool was empty: no miss, nobody declares, every player plays, trumps
  turned after the first trick and applied to it) or a double pool (the miss; stand, pass
  or take the miss in turn from eldest; only one miss-taker; the dealer's options by what the
  others declared; everyone before the dealer passing: the dealer takes the pool; a lone
  miss-taker and a passing dealer: the pool is conceded);
- every card read in any accepted spelling, the hands read back from the plays (three each,
  the miss-taker's being the miss; no card twice, nor the turn-up);
- every play in turn and in hand; a card that follows suit is cleared inline when it heads
  the trick, when the trick is trumped, or when the hand holds no card that would head; every
  other card, and every lead once trumps are known (but a plain lead from a hand without
  trumps), is judged by the engine's own duty judges (``games.rules.duties.Duties``: lead a
  trump, lead the ace of trumps, head, follow suit, trump, overtrump), so "legal" keeps one
  definition;
- trick winners, the settlement with its conservation check, and a verdict dict equal to the
  engine's.

Not handled (declined): a defended pool (the dealer plays the miss against a lone stander),
anything out of turn, irregularities, flushes, given hands or miss, exchanges.

``bench/lean_irish.py`` builds the Irish Loo probe from this module's stages (``declare``,
``play_tricks``, ``settle_three``) and command line (``Probe``, ``main``).

usage (from the repository root):
    .venv/bin/python bench/lean_three.py              # check, then time the three-card deals
    .venv/bin/python bench/lean_three.py --repeat 5 --no-mutations --deals 9000
    PYTHONHASHSEED=0 valgrind --tool=callgrind --callgrind-out-file=/dev/null \
        .venv/bin/python bench/lean_three.py --deals 3000 --once lean   # (less --once none)

The deals are the benchmark's mix (``stages.cached_items``: every 9th of 9 x --deals generated
deals, the very texts ``bench/stages.py`` times), of which the ``three-card`` preset's are
timed. Before timing, every three-card and mississippi deal of the mix is checked (lean
verdict == engine verdict, field for field, or lean declines a defended pool), and edited
copies of them (cards swapped, a card played twice, actions dropped or swapped, declarations
changed, the pool emptied or filled, the turn-up played) are checked to get the same verdict
from both, be refused by both, or be declined by lean.
"""
from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "bench"), str(ROOT)]

from engine import Item
from floor import floor_deal
from lean_probe import (
    LeanError,
    _code,
    check_equal,
    check_mutants,
    offence,
    open_books,
    read_plays,
    read_record,
    report,
    settle,
    turn_from,
    verdict,
)
from stages import cached_items

from games.rules import Deal, RuleSet, replay
from games.rules.cards import CODE, NAME, SUITS
from games.rules.duties import DUTY_UPTO, TRUMP_KEY, card_tables

THREE = RuleSet.from_options({"preset": "three-card"})
_DECLARATIONS = {"stand": "stand", "pass": "pass", "take-miss": "take-miss", "defend": "defend",
                 "fold": "pass"}  # the engine's, and its alias


def _judge_deal(rules: RuleSet, turnup: int | None, trump_mode: str) -> Deal:
    """A deal of these rules and turn-up, never played, lending the lean loop the engine's duty
    judges (``Duties``' methods): the loop sets the state they read from its locals just before
    calling one (cards as the engine's ints; a trick's cards as (place in the trick, card), the
    place a number where the engine keeps the seat's, which the judges do not read). Held, not
    subclassed: compiled (``bench/compiled_engine.py``), ``Duties`` is a trait that no
    interpreted class can derive from, and its methods take numbers where they say so."""
    deal = Deal(rules, ("eldest", "second", "dealer"), "dealer", turnup=turnup)
    deal._trump_mode = trump_mode
    deal._pam = -1  # no Pam at three-card Loo
    deal._head = rules.must_head
    deal._ace_first = rules.trump_ace_first_trick
    deal._duty_upto = DUTY_UPTO[rules.lead_trump]
    deal._lead_extra = rules.lead_trump_ace or rules.lead_highest_trump
    deal._special = deal._pam_led = deal._civil = deal._civil_called = False
    return deal


_JUDGES: dict[tuple[str, int | None, str], Deal] = {}


def _judge(rules: RuleSet, turnup: int | None, trump_mode: str) -> Deal:
    """The judging deal (``_judge_deal``) under these (in-scope, so equal to a probe's preset)
    rules, turn-up and trump mode: made once; each deal sets what it reads of a trick before
    calling its judges."""
    found = _JUDGES.get((rules.game, turnup, trump_mode))
    if found is None:
        found = _JUDGES[(rules.game, turnup, trump_mode)] = _judge_deal(rules, turnup, trump_mode)
    return found


def _not_a_play(a: Any) -> bool:
    """After the declarations of a double pool, only plays (raises for anything else)."""
    kind = a.get("action") if type(a) is dict else None
    if kind in ("flush", "irregularity", "exchange"):
        raise NotImplementedError(kind)
    if kind in _DECLARATIONS:
        raise LeanError(f"{kind}: declaring is over")
    raise LeanError(f"unknown action {kind!r}")


def _not_a_play_simple(a: Any) -> bool:
    """In a simple pool, only plays: a stand the rules force, spelt out, the engine allows."""
    if type(a) is dict and a.get("action") == "stand":
        raise NotImplementedError("a declaration spelt out in a simple pool")
    return _not_a_play(a)


def _declaration_problem(a: Any, due: str, seats: list[str]) -> None:
    """An action that is not ``due``'s declaration, while the declarations are open."""
    kind = a.get("action") if type(a) is dict else None
    if kind in _DECLARATIONS:
        if a.get("player") not in seats:
            raise LeanError(f"player {a.get('player')!r} is not a seat")
        raise NotImplementedError("a declaration out of turn (a single-loo offence)")
    if kind in ("flush", "irregularity", "exchange"):
        raise NotImplementedError(kind)
    if kind == "play":
        raise LeanError(f"a play before the declarations are over ({due} to declare)")
    raise LeanError(f"unknown action {kind!r}")


def declare(actions: list, order: list[str], dealer: str, seats: list[str], has_miss: bool
            ) -> tuple[list[str], str, int, str | None]:
    """A double pool's declarations (three-card and Irish Loo): stand, pass or (``has_miss``)
    take the miss, in turn from eldest; the dealer's options by what the others said.
    Returns (the standers, how the deal ends so far, the index of the first action after,
    the defender: a dealer defending against a lone stander with his own cards, which only a
    deal without a miss allows here)."""
    ended = "played"
    defender = None
    standers = []
    stood = 0  # stood on their own cards
    taker = None
    j = 0
    n_actions = len(actions)
    for p in order:
        if p == dealer and not standers:
            ended = "dealer-takes"  # everyone before the dealer passed
            break
        if j >= n_actions:
            raise LeanError(f"the record stops during the declarations ({p} to declare)")
        a = actions[j]
        kind = _DECLARATIONS.get(a.get("action")) if type(a) is dict else None
        if kind is None or a.get("player") != p:
            _declaration_problem(a, p, seats)
        j += 1
        if kind == "take-miss" and not has_miss:
            raise LeanError(f"{p}: take-miss is not allowed (there is no miss in this deal)")
        if p != dealer:
            if kind == "stand":
                standers.append(p)
                stood += 1
            elif kind == "take-miss":
                if taker is not None:
                    raise LeanError(f"{p}: {taker} has already taken the miss")
                taker = p
                standers.append(p)
            elif kind == "defend":
                raise LeanError(f"{p}: only a dealer may defend")
            continue
        # the dealer: what he may declare depends on the others
        if stood == 1 and taker is None:  # a lone stander on his own cards
            if kind == "pass":
                raise LeanError("the dealer may not pass against a lone stander")
            if kind == "defend":
                if has_miss:
                    raise NotImplementedError("a defended pool (the dealer plays the miss)")
                defender = p
        elif kind == "defend":
            raise LeanError("only a dealer facing one player who stood may defend")
        elif kind == "take-miss" and taker is not None:
            raise LeanError(f"{taker} has already taken the miss")
        if kind == "pass":
            if len(standers) == 1:
                ended = "conceded"  # to the lone miss-taker
        else:
            if kind == "take-miss":
                taker = p
            standers.append(p)
    return standers, ended, j, defender


def play_tricks(plays: list, hands: dict[str, list], standers: list[str], trump: int | None,
                turnup: int | None, judge: Deal, ended: str
                ) -> tuple[list[dict], dict[str, int], list, list, int | None]:
    """Three tricks, the eldest stander leading and each winner leading the next, every play
    in turn and in hand, its duties cleared inline or judged by ``judge`` (trumps None: a
    simple pool, the turn-up making trumps after trick 1, for trick 1 too). Returns (the
    tricks, tricks won, violations, offenders, trumps)."""
    es, key = card_tables(trump, -1)
    violations = []
    offenders = []
    won = dict.fromkeys(standers, 0)
    tricks = []
    m = len(standers)
    no = 1
    turn = standers
    pos = 0
    tcards = []
    for p, c, a in plays:
        if no > 3:
            raise LeanError("play: the deal is already over")
        hand = hands[p]
        if p != turn[pos]:
            if p in turn[:pos]:
                raise LeanError(f"{p} plays twice to trick {no}")
            raise NotImplementedError("a play out of turn (an offence)")
        if c not in hand:
            raise LeanError(f"{p} cannot hold {NAME[c]}")
        found = None
        if pos == 0:
            tcards = [(0, c)]  # (place in the trick: the seat is turn[place], card)
            lead = c
            led = es[c]
            best = key[c]
            win = p
            # what the judges read of this trick
            judge._es, judge._key, judge._trump, judge._trick_no = es, key, trump, no
            judge._led, judge._lead_card, judge._tcards = led, lead, tcards
            # a lead: a trump if able, the ace (the king, the ace turned up) if held
            if trump is not None and (led == trump or trump in map(es.__getitem__, hand)):
                found = judge._judge_lead_card(c, hand)
        else:
            ce = es[c]
            kc = key[c]
            if ce != led:  # does not follow suit: revoke, trump, overtrump are the judge's
                judge._best = best
                found = judge._judge_follow(pos, c, hand)
            elif kc < best and (best < TRUMP_KEY or led == trump):
                for x in hand:  # follows without heading: only a card that could head...
                    if es[x] == led and key[x] > best:
                        judge._best = best  # ... makes it a case for the judge
                        found = judge._judge_follow(pos, c, hand)
                        break
            if (ce == led or ce == trump) and kc > best:
                best = kc
                win = p
            tcards.append((pos, c))
        if found is not None:
            offence(violations, offenders, p, found, no, NAME[c])
        hand.remove(c)
        pos += 1
        if pos == m:
            if trump is None:  # a simple pool: the turn-up makes trumps, for trick 1 too
                if turnup is None:
                    raise LeanError("turnup: the card turned after the first trick is needed")
                trump = turnup // 13
                es, key = card_tables(trump, -1)
                led = es[lead]
                best = -1
                for i, x in tcards:
                    k = key[x] if (es[x] == led or es[x] == trump) else 0
                    if k > best:
                        win, best = turn[i], k
            tricks.append({"number": no, "leader": turn[0],
                           "cards": {turn[i]: NAME[x] for i, x in tcards}, "winner": win})
            won[win] += 1
            no += 1
            pos = 0
            turn = turn_from(standers, win)
    if ended == "played" and no <= 3:
        raise LeanError(f"the record stops in trick {no} of 3 ({turn[pos]} to play)")
    return tricks, won, violations, offenders, trump


def settle_three(rules: RuleSet, seats: list[str], dealer: str, pool: int, ended: str,
                 standers: list[str], tricks: list[dict], won: dict[str, int], offenders: list,
                 defender: str | None = None) -> dict:
    """The settlement of a three-card hand: P = pool + the dealer's ante; three tricks take P,
    else floor(P/3) each; looed: offenders, and standers without a trick. A deal not played
    goes to the dealer (everyone passed) or the lone miss-taker (conceded). A defender's
    takes stay in the pool, and he is not looed (but as an offender)."""
    antes, big, full = open_books(rules, dealer, pool)
    payouts = {}
    loos = {}
    if ended == "played":
        winners = [t["winner"] for t in tricks]
        if winners.count(winners[0]) == 3:
            takes = [(winners[0], big)]
        else:
            share = big // 3  # remainder "carry"
            takes = [(w, share) for w in winners]
        if full:
            for s in offenders:
                loos[s] = full
            for s in standers:
                if not won[s] and s not in offenders and s != defender:
                    loos[s] = full
    else:  # the dealer takes the pool, or the lone miss-taker is conceded it
        takes = [(dealer if ended == "dealer-takes" else standers[0], big)]
    for s, units in takes:
        if units and s not in offenders and s != defender:
            payouts[s] = payouts.get(s, 0) + units
    return settle(seats, pool, big, antes, payouts, loos)


def lean_three(text: str, rules: RuleSet, pool: int | None, first_of_series: bool,
               stop: int = 9) -> Any:
    """The engine's verdict for a three-card deal. ``stop`` (for timing only) returns after
    stage 0 json.loads, 1 header + declarations + every card read + hands read back, 2 plays,
    3 settlement."""
    if stop == 0:
        return json.loads(text)
    rec, seats, dealer, pool, actions = read_record(text, rules, THREE, pool, 2, 15)
    turnup = read_turnup(rec)
    d = seats.index(dealer)
    order = seats[d + 1:] + seats[:d + 1]  # eldest .. dealer
    simple = pool == 0  # pools "simple-and-double", simple_pool "standard"

    # ---- declarations (a double pool): stand, pass or take the miss, in turn from eldest
    if simple:
        standers, ended, j = order, "played", 0  # nobody declares: every player plays
    else:  # (the miss: a dealer who defends is declined)
        standers, ended, j, _defender = declare(actions, order, dealer, seats, True)

    # ---- read the plays; each stander's hand is what he plays (the miss-taker's, the miss)
    hands = {p: [] for p in standers}
    plays = read_plays(actions[j:], CODE, _not_a_play_simple if simple else _not_a_play, _code,
                       hands)
    if ended != "played" and plays:
        raise LeanError(f"play: the deal is over ({ended})")
    dealt = [c for p in standers for c in hands[p]]
    if ended == "played":
        for p in standers:
            if len(hands[p]) != 3:
                raise LeanError(f"{p} plays {len(hands[p])} cards, not 3")
    if turnup is not None:
        dealt.append(turnup)
    if len(set(dealt)) != len(dealt):
        raise LeanError("a card is dealt twice (or is the turn-up)")
    if stop == 1:
        return hands

    # ---- the play: eldest stander leads, each trick's winner leads the next
    if simple:
        trump = None  # turned after the first trick
        judge = _judge(rules, turnup, "after-first-trick")
    else:
        trump = trumps_at_deal(turnup, plays)
        judge = _judge(rules, turnup, "at-deal")
    tricks, won, violations, offenders, trump = play_tricks(plays, hands, standers, trump,
                                                            turnup, judge, ended)
    if stop == 2:
        return won

    # ---- settlement: P = pool + the dealer's ante; three tricks take P, else floor(P/3) each
    settlement = settle_three(rules, seats, dealer, pool, ended, standers, tricks, won,
                              offenders)
    if stop == 3:
        return settlement

    # ---- the verdict
    return verdict(rules, "simple" if simple else "double",
                   None if trump is None else SUITS[trump], seats, d, standers, tricks, won,
                   violations, settlement, ended)


def read_turnup(rec: dict) -> int | None:
    """The record's turn-up as the engine's int (None if the record gives none)."""
    turnup = rec.get("turnup")
    if turnup is not None:
        turnup = CODE.get(turnup) if type(turnup) is str else None
        if turnup is None:
            turnup = _code(rec["turnup"])
    return turnup


def trumps_at_deal(turnup: int | None, plays: list) -> int | None:
    """Trumps turned at the deal: the turn-up's suit, which a deal played must give."""
    if turnup is None and plays:
        raise LeanError("turnup: the turn-up card is needed to know trumps")
    return None if turnup is None else turnup // 13


# ------------------------------------------------------------------ checking (never timed)
def _defended(item: Item, theirs: dict) -> bool:
    """The one kind of generated deal lean declines: a defended pool."""
    return "defender" in theirs


def _mutants(rec: dict, rng: random.Random) -> list[tuple[str, dict]]:
    """Corrupted copies of a legal three-card record (what a careless scorer might write)."""
    out = []
    acts = rec["actions"]

    def copy() -> dict:
        return json.loads(json.dumps(rec))

    plays = [i for i, a in enumerate(acts) if a["action"] == "play"]
    decls = [i for i, a in enumerate(acts) if a["action"] != "play"]
    by_player: dict[str, list[int]] = {}
    for i in plays:
        by_player.setdefault(acts[i]["player"], []).append(i)
    for _ in range(3 if plays else 0):  # a player's cards swapped: revokes, other winners
        p = rng.choice(sorted(by_player))
        i, k = rng.sample(by_player[p], 2)
        m = copy()
        m["actions"][i]["card"], m["actions"][k]["card"] = acts[k]["card"], acts[i]["card"]
        out.append(("swap", m))
    if len(plays) > 4:  # a card played by two players
        m = copy()
        m["actions"][plays[4]]["card"] = acts[plays[1]]["card"]
        out.append(("twice", m))
    if acts:
        m = copy()  # an action dropped
        del m["actions"][rng.randrange(len(acts))]
        out.append(("dropped", m))
    if len(acts) > 1:
        m = copy()  # two adjacent actions swapped (out of turn)
        i = rng.randrange(len(acts) - 1)
        m["actions"][i], m["actions"][i + 1] = m["actions"][i + 1], m["actions"][i]
        out.append(("adjacent", m))
    for i in decls:  # each declaration made another (a dealer passing against a lone stander...)
        m = copy()
        m["actions"][i]["action"] = rng.choice([k for k in ("stand", "pass", "take-miss",
                                                            "defend", "fold")
                                                if k != acts[i]["action"]])
        out.append(("declared", m))
    m = copy()  # a simple pool scored as a double one, and the other way round
    m["pool"] = 0 if rec["pool"] else 6
    out.append(("pool", m))
    if plays:
        m = copy()  # the turn-up is a card somebody plays
        m["turnup"] = acts[rng.choice(plays)]["card"]
        out.append(("turnup", m))
        m = copy()  # a card spelled another way
        m["actions"][plays[0]]["card"] = acts[plays[0]]["card"].lower()
        out.append(("spelling", m))
    return out


@dataclass(frozen=True)
class Probe:
    """What ``main`` needs to check and time a lean replay of the mix's deals under one
    preset's options."""

    title: str  # the timed preset
    lean: Callable[..., Any]
    options: RuleSet
    checked: str  # the presets played under ``options``, all of them checked
    may_decline: Callable[[Item, dict], bool]
    declined: str  # what it declines, in words
    mutants: Callable[[dict, random.Random], list[tuple[str, dict]]]
    kind_of: Callable[[Item], str]  # a timed deal's kind, counted in the report
    labels: tuple[str, ...]  # lean's stages, for ``report`` and ``--once leanK``

    def items(self, deals: int, seed: int) -> tuple[list[Item], list[Item]]:
        """The mix's deals of the preset (timed) and all the deals played under the very
        same options (checked)."""
        mix, _reference = cached_items(deals, seed)
        same = [i for i in mix if i.rules == self.options]
        return [i for i in same if i.preset == self.title], same

    def declines(self, item: Item) -> bool:
        try:
            self.lean(item.text, item.rules, item.pool, item.first_of_series)
        except NotImplementedError:
            return True
        return False


def _pool_kind(item: Item) -> str:
    return "simple" if item.pool == 0 else "double"


THREE_CARD = Probe("three-card", lean_three, THREE, "three-card and mississippi", _defended,
                   "defended pools", _mutants, _pool_kind,
                   ("json.loads", "header, declarations, hands", "plays (duties, winners)",
                    "settlement", "verdict dict"))


def main(argv: list[str] | None = None, probe: Probe = THREE_CARD, doc: str | None = None
         ) -> int:
    """Check ``probe`` against the engine on the mix, then time it beside the floor and the
    engine (or, with ``--once``, replay the timed deals once with one of them)."""
    parser = argparse.ArgumentParser(description=(doc or __doc__).splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--deals", type=int, default=9000,
                        help=f"mix deals (stages.cached_items); a ninth are {probe.title}")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--no-mutations", action="store_true")
    once_stages = [f"lean{k}" for k in range(len(probe.labels) - 1)]
    parser.add_argument("--once", choices=("none", "floor", "engine", "lean", *once_stages),
                        help="replay the timed deals once with this and exit (no checks), "
                             "for counting instructions under valgrind "
                             "(leanK: lean up to the end of stage K)")
    args = parser.parse_args(argv)
    timed, same = probe.items(args.deals, args.seed)
    lean = probe.lean
    if args.once:
        items = [i for i in timed if not probe.declines(i)]
        once = {
            "none": lambda it: None,
            "floor": lambda it: floor_deal(it.text, *it.floor_flags),
            "engine": lambda it: replay(json.loads(it.text), it.rules, pool=it.pool,
                                        first_of_series=it.first_of_series),
            "lean": lambda it: lean(it.text, it.rules, it.pool, it.first_of_series),
        }
        fn = once.get(args.once)
        if fn is None:
            stop = once_stages.index(args.once)
            for item in items:
                lean(item.text, item.rules, item.pool, item.first_of_series, stop=stop)
        else:
            for item in items:
                fn(item)
        return 0
    handled = check_equal(same, lean, probe.may_decline)
    left = len(same) - len(handled)
    print(f"check: lean verdict == engine verdict for {len(handled):,} of {len(same):,} mix "
          f"deals under the {probe.title} options ({probe.checked})"
          + (f"; the other {left} are {probe.declined} (lean declines)" if left else ""))
    if not args.no_mutations:
        per_kind: dict = {}
        check_mutants(handled[:300], per_kind, lean, probe.mutants)
        print(f"mutants of {min(len(handled), 300)} deals (lean vs engine agree on each):")
        for kind, outcomes in per_kind.items():
            print(f"  {kind:<10}" + ", ".join(f"{v} {k}" for k, v in sorted(outcomes.items())))
    items = [i for i in timed if not probe.declines(i)]
    kinds: dict[str, int] = {}
    for i in items:
        kind = probe.kind_of(i)
        kinds[kind] = kinds.get(kind, 0) + 1
    left = len(timed) - len(items)
    print(f"timed: the mix's {len(items):,} {probe.title} deals lean handles ({kinds}"
          + (f"; {left} {probe.declined} left out" if left else "")
          + f"), {sum(i.plays for i in items) / len(items):.1f} plays a deal")
    report(probe.title, items, lean, list(probe.labels), args.repeat)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
