"""Random legal Loo deals and sessions, for property tests, the benchmark and demo data.

A real deck is shuffled and dealt as the game deals it (hands, miss, turn-up, stock); the
deal is then driven through `Deal`, choosing uniformly among `legal_actions()` until it is
over, so "legal" has the engine's one definition. The output is a deal record of
`deal-record.md` that `replay` accepts with status `valid`. Standard library only.

Command line (demo data; JSON Lines a session import and `python -m games.rules replay` read):
    python -m games.rules.simulate --preset five-card --seats ann,bob,cat,dan,eve --deals 20 --seed 1
"""
from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, NamedTuple

from .cards import NAME
from .deal import Deal
from .options import RuleSet, rules_from
from .version import RECORD_FORMAT

#: the 52 cards by their record names
DECK: tuple[str, ...] = tuple(NAME)
#: chips a player customarily buys in with (loo-rules.md section 7)
BUY_IN = {"three-card": 20, "irish": 20, "five-card": 50, "poker-loo": 50}


#: picks one of the legal actions offered; the default is uniform
Chooser = Callable[[random.Random, list[dict]], dict]


def uniform(rng: random.Random, actions: list[dict]) -> dict:
    """Any legal action, each equally likely."""
    return rng.choice(actions)


def eager(rng: random.Random, actions: list[dict]) -> dict:
    """Stand whenever standing is offered (every deal is played out), else any legal action."""
    for action in actions:
        if action["action"] == "stand":
            return action
    return rng.choice(actions)


class SimulatedDeal(NamedTuple):
    """A generated deal with the verdict the engine gave while generating it."""
    record: dict
    verdict: dict
    pool: int
    first_of_series: bool


def _simple(rules: RuleSet, pool: int, final: bool = False) -> bool:
    """A three-card simple pool: the pool was empty before this deal's ante (a final deal is
    always a double pool)."""
    return (not final and rules.game == "three-card" and pool == 0
            and rules.pools == "simple-and-double")


def _has_miss(rules: RuleSet, pool: int, final: bool = False) -> bool:
    """Whether a spare hand is dealt: three-card double pools and miss-and-trump simple pools
    (never at a final deal)."""
    if rules.game != "three-card" or final:
        return False
    return not _simple(rules, pool) or rules.simple_pool == "miss-and-trump"


def _has_turnup(rules: RuleSet, pool: int, final: bool = False) -> bool:
    """Trumps led (`first-lead`) need no turn-up, except a simple pool's card after trick 1."""
    if rules.trump_turned != "first-lead" or rules.game not in ("three-card", "irish"):
        return True
    return _simple(rules, pool, final) and not _has_miss(rules, pool, final)


def deal_cards(rules: RuleSet, seats: Sequence[str], dealer: str, pool: int,
               rng: random.Random, sits_out: Sequence[str] = (), final: bool = False
               ) -> dict[str, Any]:
    """Shuffle and deal: hands from eldest round to the dealer, then miss, turn-up, stock
    (`final`: the final deal of `end_pool: "final-deal"`, dealt without a miss)."""
    deck = list(DECK)
    rng.shuffle(deck)
    size = rules.hand_size
    start = seats.index(dealer) + 1
    order = [seats[(start + i) % len(seats)] for i in range(len(seats))]
    order = [seat for seat in order if seat not in sits_out]
    hands = {seat: deck[i * size:(i + 1) * size] for i, seat in enumerate(order)}
    rest = deck[len(order) * size:]
    miss = None
    if _has_miss(rules, pool, final):
        miss, rest = rest[:3], rest[3:]
    if not _has_turnup(rules, pool, final):
        return {"hands": hands, "miss": miss, "turnup": None, "stock": rest}
    return {"hands": hands, "miss": miss, "turnup": rest[0], "stock": rest[1:]}


def _hands_needed(rules: RuleSet, actions: list[dict]) -> set[str]:
    """Who must show a hand in the record: what the plays cannot show (flushes, Pam immunity)."""
    shown = {a["player"] for a in actions if a["action"] == "flush"}
    if shown and rules.pam != "none" and rules.pam_immune:
        shown |= {a["player"] for a in actions if a["action"] in ("stand", "exchange")}
    return shown


def play_random_deal(rules: RuleSet | Mapping[str, Any], seats: Sequence[str], dealer: str, *,
                     pool: int = 0, rng: random.Random, first_of_series: bool = True,
                     with_hands: bool = False, number: int | None = None,
                     redeal: dict | None = None, choose: Chooser = uniform,
                     final: bool = False) -> SimulatedDeal:
    """Deal and play one deal at random among the legal actions; the record and its verdict.

    `number` defaults to 1 for the first deal of a series, else 2, so that `replay` without
    arguments judges it alike; `redeal` is the previous verdict's `redeal` (same dealer again);
    `choose` picks among the legal actions (`uniform`, or e.g. `eager` to play every deal out);
    `final` deals the final deal of `end_pool: "final-deal"` (`"final": true` in the record:
    everybody stands, no miss, no ante).
    """
    rules = rules_from(rules)
    seats = list(seats)
    sits_out = list(redeal["sits_out"]) if redeal else []
    cards = deal_cards(rules, seats, dealer, pool, rng, sits_out, final)
    deal = Deal(rules, seats, dealer, pool=pool, hands=cards["hands"], miss=cards["miss"],
                turnup=cards["turnup"], stock=cards["stock"], first_of_series=first_of_series,
                redeal=redeal is not None, sits_out=sits_out, final=final)
    actions: list[dict] = []
    while deal.phase != "over":
        action = choose(rng, deal.legal_actions())
        deal.push(action)
        actions.append(dict(action))
    record: dict[str, Any] = {
        "format": RECORD_FORMAT, "seats": seats, "dealer": dealer, "pool": pool,
        "number": number if number is not None else (1 if first_of_series else 2),
        "turnup": cards["turnup"], "actions": actions,
    }
    if cards["turnup"] is None:
        del record["turnup"]
    if redeal is not None:
        record.update(redeal=True, sits_out=sits_out)
    if final:
        record["final"] = True
    needed = _hands_needed(rules, actions)
    # a miss-taker's dealt hand went unseen: the miss is what they show
    miss_holders = {a["player"] for a in actions if a["action"] in ("take-miss", "defend")}
    shown = set(seats) if with_hands else needed - miss_holders
    if shown:
        record["hands"] = {seat: list(cards["hands"][seat]) for seat in seats
                           if seat in shown and seat in cards["hands"]}
    if cards["miss"] and (with_hands or miss_holders & needed):
        record["miss"] = list(cards["miss"])
    return SimulatedDeal(record, deal.verdict(), pool, first_of_series)


def random_deal(rules: RuleSet | Mapping[str, Any], seats: Sequence[str], dealer: str, *,
                pool: int = 0, rng: random.Random, first_of_series: bool = True,
                with_hands: bool = False) -> dict:
    """A legal random deal record (see `play_random_deal`)."""
    return play_random_deal(rules, seats, dealer, pool=pool, rng=rng,
                            first_of_series=first_of_series, with_hands=with_hands).record


def session_header(rules: RuleSet, seats: Sequence[str], first_dealer: str) -> dict:
    """The first line of a session file (docs/engine-api.md)."""
    buy_in = BUY_IN[rules.game]
    return {"format": "loo-session/1", "seats": list(seats), "rules": rules.to_options(),
            "first_dealer": first_dealer, "pool": 0, "banker": "club", "chip_value": 1,
            "buy_ins": {seat: buy_in for seat in seats}}


def session_deals(rules: RuleSet | Mapping[str, Any], seats: Sequence[str], n_deals: int,
                  rng: random.Random, first_dealer: str | None = None,
                  with_hands: bool = False, choose: Chooser = uniform
                  ) -> Iterator[SimulatedDeal]:
    """`n_deals` random deals in a row, each dealt by and into what the last verdict's `next` says."""
    rules = rules_from(rules)
    dealer = first_dealer or seats[0]
    pool, first, redeal = 0, True, None
    for number in range(1, n_deals + 1):
        dealt = play_random_deal(rules, seats, dealer, pool=pool, rng=rng,
                                 first_of_series=first, with_hands=with_hands, number=number,
                                 redeal=redeal, choose=choose)
        yield dealt
        following = dealt.verdict["next"]
        dealer, pool, first = following["dealer"], following["pool"], following["first_of_series"]
        redeal = dealt.verdict.get("redeal")


def random_session(rules: RuleSet | Mapping[str, Any], seats: Sequence[str], n_deals: int,
                   rng: random.Random, first_dealer: str | None = None) -> list[dict]:
    """A session file's lines: the header, then `n_deals` legal deal records."""
    rules = rules_from(rules)
    first_dealer = first_dealer or seats[0]
    header = session_header(rules, seats, first_dealer)
    return [header] + [d.record for d in session_deals(rules, seats, n_deals, rng, first_dealer)]


def main(argv: list[str] | None = None) -> int:
    """Print a random session as JSON Lines: the header, then one deal record per line."""
    parser = argparse.ArgumentParser(prog="python -m games.rules.simulate",
                                     description="Print a random legal Loo session (JSON Lines).")
    parser.add_argument("--preset", default="three-card")
    parser.add_argument("--rules", default="{}", help="house options as JSON, over the preset")
    parser.add_argument("--seats", default="ann,bob,cat,dan,eve")
    parser.add_argument("--deals", type=int, default=12)
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--first-dealer", default=None)
    args = parser.parse_args(argv)
    seats = args.seats.split(",")
    try:
        rules = rules_from({"preset": args.preset, **json.loads(args.rules)})
        rules.check_seats(seats)
    except ValueError as err:  # RuleError, or --rules that is not JSON
        print(f"simulate: {err}", file=sys.stderr)
        return 2
    for line in random_session(rules, seats, args.deals, random.Random(args.seed),
                               args.first_dealer):
        sys.stdout.write(json.dumps(line) + "\n")
    return 0


if __name__ == "__main__":
    from .cli import run

    run(main)
