"""A strict checker of a verdict's shape: what deal-record.md ("Coming out: the verdict") and
docs/engine-api.md promise, key by key, for every game and every way a deal can end.

The names below are written out from those two documents, not imported from the engine, so
that an engine that drifts from them is caught. ``verdict_problems`` lists every departure
(empty when the verdict is as promised); ``assert_verdict_shape`` fails with that list.
"""
from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from games.rules import ENGINE_VERSION, RuleSet

#: deal-record.md's verdict keys, then docs/engine-api.md's additions present in every verdict
ALWAYS = {"status", "pool_kind", "trumps", "standers", "tricks", "tricks_won", "violations",
          "settlement", "dealer", "ended", "next", "engine"}
#: engine-api.md's additions present only where they apply (``number``: replay_session's)
SOMETIMES = {"defender", "flushes", "redeal", "number"}
SETTLEMENT = {"pool_before", "antes", "pool", "payouts", "loo_payments", "penalties",
              "pool_after", "deltas"}
BOOKS = ("antes", "payouts", "loo_payments", "penalties")
TRICK = {"number", "leader", "cards", "winner"}
VIOLATION = {"player", "rule", "trick", "card", "evidence", "penalty"}
NEXT = {"dealer", "pool", "first_of_series"}
ENDINGS = {"played", "dealer-takes", "conceded", "lone-stander", "nobody-stands", "flush",
           "redeal", "misdeal", "thrown-in"}
#: the endings after which nothing is played (engine-api.md: "ended"; a thrown-in hand may
#: have had tricks before the offence)
UNPLAYED = {"dealer-takes", "conceded", "lone-stander", "nobody-stands", "flush", "redeal",
            "misdeal"}
#: engine-api.md "next": the same dealer deals again (misdeal, three-trumps-redeal, poker-Loo's
#: revoke redeal; poker-Loo's all-fold below)
SAME_DEALER = {"misdeal", "redeal", "thrown-in"}
#: deal-record.md's rule names, its irregularity kinds, and engine-api.md's two extra names
PLAY_RULES = {"revoke", "failed-to-head", "failed-to-trump", "failed-to-overtrump",
              "failed-to-lead-trump", "failed-to-lead-trump-ace",
              "failed-to-lead-highest-trump", "played-out-of-turn", "pam-not-civil",
              "failed-to-play-trump-to-pam", "failed-to-play-trump-ace"}
KINDS = {"misdeal", "looked-out-of-turn", "declared-out-of-turn", "looked-at-miss",
         "looked-at-discards", "looked-at-hand", "exposed-card", "threw-up-after-lead",
         "looked-at-stock"}
#: docs/engine.md interpretation 1: the pre-play irregularities cost a single loo
SINGLE_LOO = {"misdeal", "looked-out-of-turn", "declared-out-of-turn", "looked-at-miss",
              "looked-at-discards", "looked-at-stock"}
HAND_SIZE = {"three-card": 3, "irish": 3, "five-card": 5, "poker-loo": 5}
CARDS = {rank + suit for rank in "23456789TJQKA" for suit in "CDHS"}


def is_int(value: Any) -> bool:
    """A JSON integer: never a bool or a float."""
    return type(value) is int


class _Problems(list):
    def need(self, ok: bool, message: str) -> bool:
        if not ok:
            self.append(message)
        return ok

    def keys(self, value: Any, where: str, required: set[str],
             optional: set[str] = frozenset()) -> bool:
        """``value`` is a dict with every required key and no key beyond the optional ones."""
        if not self.need(isinstance(value, dict), f"{where}: {value!r} is not an object"):
            return False
        missing, extra = required - set(value), set(value) - required - optional
        self.need(not missing, f"{where}: missing {sorted(missing)}")
        self.need(not extra, f"{where}: undocumented {sorted(extra)}")
        return not missing

    def units(self, book: Any, where: str, seats: Sequence[str], positive: bool = True) -> dict:
        """A {seat: int} book; entries are chips moved, so none is zero (``positive``: > 0)."""
        if not self.need(isinstance(book, dict), f"{where}: {book!r} is not an object"):
            return {}
        for seat, units in book.items():
            self.need(seat in seats, f"{where}: {seat!r} is not a seat")
            if self.need(is_int(units), f"{where}.{seat}: {units!r} is not an integer"):
                self.need(units > 0 if positive else units != 0,
                          f"{where}.{seat}: {units} units booked")
        return {s: u for s, u in book.items() if is_int(u)}


def verdict_problems(verdict: Any, seats: Sequence[str] | None = None, *,
                     record: Mapping[str, Any] | None = None,
                     first_of_series: bool | None = None) -> list[str]:
    """Every way ``verdict`` departs from the promised shape (``[]``: none).

    ``seats`` default to the record's; ``record`` (the deal record replayed) lets the checker
    tell a result-only record and a defended pool; ``first_of_series`` (the deal's own) is
    what a misdeal passes on to the deal dealt again.
    """
    p = _Problems()
    if seats is None and record is not None:
        seats = record.get("seats")
    if not p.keys(verdict, "verdict", ALWAYS, SOMETIMES) or not seats:
        p.need(bool(seats), "the checker needs the seats")
        return p
    try:
        p.need(json.loads(json.dumps(verdict)) == verdict, "verdict: does not round-trip JSON")
    except (TypeError, ValueError) as err:
        p.append(f"verdict: not JSON ({err})")
    seats = list(seats)
    engine = verdict["engine"]
    rules = None
    if p.keys(engine, "engine", {"version", "rules"}):
        p.need(engine["version"] == ENGINE_VERSION, f"engine.version: {engine['version']!r}")
        try:
            rules = RuleSet.from_options(engine["rules"])
            p.need(rules.to_options() == engine["rules"], "engine.rules: not fully resolved")
        except (ValueError, TypeError) as err:
            p.append(f"engine.rules: {err}")
    game = rules.game if rules else None
    status, ended = verdict["status"], verdict["ended"]
    # a result-only record's trick counts stand in for plays; one whose deal ends before any
    # play (all passed, a misdeal) counts no trick and leaves nothing unverified
    result_only = record is not None and "result" in record and ended == "played"
    p.need(status in ("valid", "irregular", "unverified"), f"status: {status!r}")
    p.need(ended in ENDINGS, f"ended: {ended!r}")
    if record is not None:
        p.need((status == "unverified") == result_only,
               f"status: {status} for a {'result-only' if result_only else 'played'} record")
    p.need(verdict["pool_kind"] in (("simple", "double") if game == "three-card" else (None,)),
           f"pool_kind: {verdict['pool_kind']!r} at {game}")
    p.need(verdict["trumps"] is None or verdict["trumps"] in ("C", "D", "H", "S"),
           f"trumps: {verdict['trumps']!r}")
    dealer = verdict["dealer"]
    p.need(dealer in seats, f"dealer: {dealer!r} is not a seat")
    if record is not None and "dealer" in record:
        p.need(dealer == record["dealer"], f"dealer: {dealer!r}, the record's {record['dealer']!r}")
    standers = _standers(p, verdict, seats)
    _tricks(p, verdict, standers, game, result_only, record)
    _violations(p, verdict, seats, game)
    _settlement(p, verdict, seats, standers, rules)
    _next(p, verdict, seats, game, first_of_series)
    _extras(p, verdict, seats, standers, game, record)
    return p


def assert_verdict_shape(verdict: Any, seats: Sequence[str] | None = None, *,
                         record: Mapping[str, Any] | None = None,
                         first_of_series: bool | None = None) -> None:
    problems = verdict_problems(verdict, seats, record=record, first_of_series=first_of_series)
    assert not problems, problems


def _standers(p: _Problems, verdict: dict, seats: list[str]) -> list[str]:
    """Distinct seats, in the order of play from the eldest hand."""
    standers = verdict["standers"]
    if not p.need(isinstance(standers, list) and all(s in seats for s in standers),
                  f"standers: {standers!r} are not seats"):
        return []
    p.need(len(set(standers)) == len(standers), f"standers: {standers} twice")
    if verdict["dealer"] in seats:
        start = seats.index(verdict["dealer"]) + 1
        rotation = [seats[(start + i) % len(seats)] for i in range(len(seats))]
        p.need(standers == [s for s in rotation if s in standers],
               f"standers: {standers} not in the order of play")
    return standers


def _tricks(p: _Problems, verdict: dict, standers: list[str], game: str | None,
            result_only: bool, record: Mapping[str, Any] | None) -> None:
    """Numbered 1.., each stander's one card, the winner among them, every card once; and
    ``tricks_won`` counting them (a result-only record's counts are the record's own)."""
    tricks, won, ended = verdict["tricks"], verdict["tricks_won"], verdict["ended"]
    if not p.need(isinstance(tricks, list), f"tricks: {tricks!r}"):
        return
    size = HAND_SIZE.get(game or "", 0)
    if result_only or verdict["status"] == "unverified" or ended in UNPLAYED:
        p.need(tricks == [], f"tricks: {len(tricks)} for a deal {ended} without play")
    elif ended == "played":
        p.need(len(tricks) == size, f"tricks: {len(tricks)} of a {size}-card deal played out")
    else:
        p.need(len(tricks) < size, f"tricks: {len(tricks)} in a hand thrown in")
    seen: set[str] = set()
    counts = dict.fromkeys(standers, 0)
    previous = None
    for k, trick in enumerate(tricks, 1):
        where = f"tricks[{k - 1}]"
        if not p.keys(trick, where, TRICK):
            continue
        cards, winner, leader = trick["cards"], trick["winner"], trick["leader"]
        p.need(is_int(trick["number"]) and trick["number"] == k, f"{where}.number: {trick['number']!r}")
        if not p.need(isinstance(cards, dict), f"{where}.cards: {cards!r}"):
            continue
        p.need(set(cards) == set(standers), f"{where}.cards: played by {sorted(cards)}, "
               f"the standers are {standers}")
        for player, card in cards.items():
            p.need(card in CARDS, f"{where}.cards.{player}: {card!r} is not a card name")
            p.need(card not in seen, f"{where}.cards.{player}: {card} played twice")
            seen.add(card)
        p.need(winner in cards, f"{where}.winner: {winner!r} played no card to it")
        p.need(leader in cards, f"{where}.leader: {leader!r} played no card to it")
        if verdict["status"] == "valid":
            p.need(leader == (previous or standers[0] if standers else None),
                   f"{where}.leader: {leader!r} (the lead was {previous or 'the eldest'}'s)")
        previous = winner
        if winner in counts:
            counts[winner] += 1
    if not p.need(isinstance(won, dict) and list(won) == standers,
                  f"tricks_won: {won!r} for the standers {standers}"):
        return
    for player, count in won.items():
        p.need(is_int(count) and count >= 0, f"tricks_won.{player}: {count!r}")
    if result_only and record is not None:
        given = record["result"]["tricks"]
        p.need(all(won.get(s, 0) == n for s, n in given.items()) and sum(won.values()) == size,
               f"tricks_won: {won}, the record's result {given}")
    elif not result_only and verdict["status"] != "unverified":
        p.need(won == counts, f"tricks_won: {won}, the tricks give {counts}")


def _violations(p: _Problems, verdict: dict, seats: list[str], game: str | None) -> None:
    """Each offence names its player, rule, trick, card, evidence and penalty; the status says
    whether there are any."""
    violations, status = verdict["violations"], verdict["status"]
    if not p.need(isinstance(violations, list), f"violations: {violations!r}"):
        return
    if status == "valid":
        p.need(not violations, "violations: some, in a valid verdict")
    if status == "irregular":
        p.need(bool(violations), "violations: none, in an irregular verdict")
    for k, v in enumerate(violations):
        where = f"violations[{k}]"
        if not p.keys(v, where, VIOLATION):
            continue
        rule, trick, card, penalty = v["rule"], v["trick"], v["card"], v["penalty"]
        p.need(v["player"] in seats, f"{where}.player: {v['player']!r}")
        p.need(rule in PLAY_RULES | KINDS, f"{where}.rule: {rule!r}")
        p.need(trick is None or is_int(trick) and 1 <= trick <= HAND_SIZE.get(game or "", 5),
               f"{where}.trick: {trick!r}")
        p.need(card is None or card in CARDS, f"{where}.card: {card!r}")
        p.need(isinstance(v["evidence"], str) and v["evidence"] != "",
               f"{where}.evidence: {v['evidence']!r}")
        expected = ("single-loo" if rule in SINGLE_LOO
                    else "burn" if game == "poker-loo" else "full-loo")
        p.need(penalty == expected, f"{where}.penalty: {penalty!r} for {rule}, not {expected}")
        if rule == "misdeal":
            p.need(trick is None, f"{where}.trick: {trick} for a misdeal")


def _settlement(p: _Problems, verdict: dict, seats: list[str], standers: list[str],
                rules: RuleSet | None) -> None:
    """Integers only; the books add up to the pool and to every seat's delta; chips conserved."""
    s = verdict["settlement"]
    if not p.keys(s, "settlement", SETTLEMENT, {"transfers"}):
        return
    books = {name: p.units(s[name], f"settlement.{name}", seats) for name in BOOKS}
    transfers = p.units(s.get("transfers", {}), "settlement.transfers", seats, positive=False)
    before, pool, after = s["pool_before"], s["pool"], s["pool_after"]
    if not all(p.need(is_int(x) and x >= 0, f"settlement: {name} {x!r}") for name, x in
               (("pool_before", before), ("pool", pool), ("pool_after", after))):
        return
    deltas = s["deltas"]
    if not p.need(isinstance(deltas, dict) and list(deltas) == seats
                  and all(is_int(d) for d in deltas.values()),
                  f"settlement.deltas: {deltas!r} is not an integer for every seat"):
        return
    p.need(sum(deltas.values()) + after - before == 0,
           f"settlement: deltas {sum(deltas.values())} + pool_after {after} - pool_before "
           f"{before} is not 0")
    p.need(pool == before + sum(books["antes"].values()) + sum(books["penalties"].values()),
           f"settlement.pool: {pool}, not pool_before + antes + penalties")
    p.need(after == pool - sum(books["payouts"].values()) + sum(books["loo_payments"].values()),
           f"settlement.pool_after: {after}, not pool - payouts + loo_payments")
    for seat in seats:
        own = (books["payouts"].get(seat, 0) + transfers.get(seat, 0)
               - books["antes"].get(seat, 0) - books["loo_payments"].get(seat, 0)
               - books["penalties"].get(seat, 0))
        p.need(deltas[seat] == own, f"settlement.deltas.{seat}: {deltas[seat]}, its books {own}")
    ended = verdict["ended"]
    if "transfers" in s:
        p.need(bool(transfers) and sum(transfers.values()) == 0,
               f"settlement.transfers: {transfers} are not direct payments")
        p.need(ended == "flush" and rules is not None
               and rules.flush_pays == "everyone-pays-holder",
               f"settlement.transfers: in a deal ended {ended}")
    if ended in ("nobody-stands", "misdeal", "thrown-in"):
        p.need(not books["payouts"], f"settlement.payouts: {books['payouts']} when {ended}")
    if ended == "misdeal":
        p.need(not books["antes"], "settlement.antes: paid in a void deal")
    if ended == "played":
        p.need(set(books["payouts"]) <= set(standers),
               f"settlement.payouts: {books['payouts']} to players who did not stand")
    penalised = {v["player"] for v in verdict["violations"]
                 if isinstance(v, dict) and v.get("penalty") == "single-loo"}
    if rules is not None and not rules.single_loo:
        penalised = set()  # a single loo of 0 units books nothing
    p.need(set(books["penalties"]) == penalised,
           f"settlement.penalties: {books['penalties']}, single loos owed by {penalised}")


def _next(p: _Problems, verdict: dict, seats: list[str], game: str | None,
          first_of_series: bool | None) -> None:
    """Who deals next (left, or the same dealer again), the pool carried, a series begun."""
    nxt, ended, dealer = verdict["next"], verdict["ended"], verdict["dealer"]
    if not p.keys(nxt, "next", NEXT):
        return
    again = ended in SAME_DEALER or game == "poker-loo" and ended == "nobody-stands"
    if dealer in seats:
        expected = dealer if again else seats[(seats.index(dealer) + 1) % len(seats)]
        p.need(nxt["dealer"] == expected, f"next.dealer: {nxt['dealer']!r}, not {expected}")
    p.need(is_int(nxt["pool"]) and nxt["pool"] == verdict["settlement"].get("pool_after"),
           f"next.pool: {nxt['pool']!r}, not settlement.pool_after")
    first = nxt["first_of_series"]
    if not p.need(type(first) is bool, f"next.first_of_series: {first!r}"):
        return
    if ended == "misdeal" or game == "poker-loo" and ended == "thrown-in":
        if first_of_series is not None:
            p.need(first == first_of_series, f"next.first_of_series: {first} after a {ended}")
    elif game == "poker-loo":  # a lone stander ends the series, as does an empty pot
        p.need(first == (ended == "lone-stander" or nxt["pool"] == 0),
               f"next.first_of_series: {first}, pool {nxt['pool']} after {ended}")
    else:
        p.need(not first, f"next.first_of_series: {first} at {game}")


def _extras(p: _Problems, verdict: dict, seats: list[str], standers: list[str],
            game: str | None, record: Mapping[str, Any] | None) -> None:
    """``defender``, ``flushes``, ``redeal`` and ``number``, each exactly where it applies."""
    ended, dealer = verdict["ended"], verdict["dealer"]
    if "defender" in verdict:
        p.need(verdict["defender"] == dealer, f"defender: {verdict['defender']!r} is not the dealer")
    if record is not None:
        defended = any(isinstance(a, dict) and a.get("action") == "defend"
                       for a in record.get("actions", []))
        p.need(("defender" in verdict) == defended,
               f"defender: {'missing' if defended else 'given'} where the record "
               f"{'has' if defended else 'has no'} defend")
    flushes = verdict.get("flushes")
    p.need((flushes is not None) == (ended in ("flush", "redeal")),
           f"flushes: {'given' if flushes is not None else 'missing'} in a deal ended {ended}")
    if flushes is not None and p.need(isinstance(flushes, list) and flushes != [],
                                      f"flushes: {flushes!r}"):
        shown: list[str] = []
        for k, f in enumerate(flushes):
            where = f"flushes[{k}]"
            if not p.keys(f, where, {"player", "cards"}):
                continue
            p.need(f["player"] in seats, f"{where}.player: {f['player']!r}")
            if ended == "flush":
                p.need(f["player"] in standers, f"{where}.player: {f['player']} did not stand")
            shown.append(f["player"])
            cards = f["cards"]
            p.need(isinstance(cards, list) and len(cards) == HAND_SIZE.get(game or "", 0)
                   and len(set(cards)) == len(cards) and all(c in CARDS for c in cards),
                   f"{where}.cards: {cards!r} is not a {game} hand")
        p.need(len(set(shown)) == len(shown), f"flushes: {shown} show twice")
    redeal = verdict.get("redeal")
    if ended == "thrown-in":
        p.need(redeal is not None, "redeal: missing after a hand thrown in")
    if redeal is not None and p.keys(redeal, "redeal", {"sits_out"}):
        out = redeal["sits_out"]
        p.need(game == "poker-loo" and ended in ("thrown-in", "misdeal"),
               f"redeal: given at {game} in a deal ended {ended}")
        p.need(isinstance(out, list) and len(out) == len(set(out)) and all(s in seats for s in out),
               f"redeal.sits_out: {out!r}")
        if ended == "thrown-in":
            burned = [v["player"] for v in verdict["violations"] if v.get("penalty") == "burn"]
            p.need(len(out) == 1 and out[0] in burned, f"redeal.sits_out: {out}, burned {burned}")
    if "number" in verdict:
        p.need(is_int(verdict["number"]) and verdict["number"] >= 1,
               f"number: {verdict['number']!r}")
