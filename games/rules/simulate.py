"""Random legal Loo deals and sessions, for property tests, the benchmark and demo data.

A real deck is shuffled and dealt as the game deals it (hands, miss, turn-up, stock); the
deal is then driven through `Deal`, choosing uniformly among `legal_actions()` until it is
over, so "legal" has the engine's one definition. The output is a deal record of
`deal-record.md` that `replay` accepts with status `valid`. Standard library only.
"""
from __future__ import annotations

import random
from collections.abc import Iterator, Mapping, Sequence
from typing import Any, NamedTuple

from . import Deal, RuleSet

RANKS = "23456789TJQKA"
SUITS = "CDHS"
DECK = tuple(r + s for s in SUITS for r in RANKS)
CARDS_EACH = {"three-card": 3, "irish": 3, "five-card": 5, "poker-loo": 5}
BUY_IN = {"three-card": 20, "irish": 20, "five-card": 50, "poker-loo": 50}
PAM_GAMES = {"five-card"}


class SimulatedDeal(NamedTuple):
    """A generated deal with the verdict the engine gave while generating it."""
    record: dict
    verdict: dict
    pool: int
    first_of_series: bool


def _ruleset(rules: RuleSet | Mapping[str, Any]) -> RuleSet:
    return rules if isinstance(rules, RuleSet) else RuleSet.from_options(rules)


def _has_miss(rules: RuleSet, pool: int) -> bool:
    """Whether a spare hand is dealt: three-card double pools and miss-and-trump simple pools."""
    if rules.game != "three-card":
        return False
    simple = pool == 0 and rules.pools == "simple-and-double"
    return not simple or rules.simple_pool == "miss-and-trump"


def deal_cards(rules: RuleSet, seats: Sequence[str], dealer: str, pool: int,
               rng: random.Random) -> dict[str, Any]:
    """Shuffle and deal: hands from eldest round to the dealer, then miss, turn-up, stock."""
    deck = list(DECK)
    rng.shuffle(deck)
    size = CARDS_EACH[rules.game]
    start = seats.index(dealer) + 1
    order = [seats[(start + i) % len(seats)] for i in range(len(seats))]
    hands = {seat: deck[i * size:(i + 1) * size] for i, seat in enumerate(order)}
    rest = deck[len(seats) * size:]
    miss = None
    if _has_miss(rules, pool):
        miss, rest = rest[:3], rest[3:]
    return {"hands": hands, "miss": miss, "turnup": rest[0], "stock": rest[1:]}


def _hands_needed(rules: RuleSet, actions: list[dict]) -> set[str]:
    """Who must show a hand in the record: what the plays cannot show (flushes, Pam immunity)."""
    shown = {a["player"] for a in actions if a["action"] == "flush"}
    if shown and rules.game in PAM_GAMES and rules.pam_immune:
        shown |= {a["player"] for a in actions if a["action"] in ("stand", "exchange")}
    return shown


def play_random_deal(rules: RuleSet | Mapping[str, Any], seats: Sequence[str], dealer: str, *,
                     pool: int = 0, rng: random.Random, first_of_series: bool = True,
                     with_hands: bool = False, number: int | None = None) -> SimulatedDeal:
    """Deal and play one deal at random among the legal actions; the record and its verdict."""
    rules = _ruleset(rules)
    seats = list(seats)
    cards = deal_cards(rules, seats, dealer, pool, rng)
    deal = Deal(rules, seats, dealer, pool=pool, hands=cards["hands"], miss=cards["miss"],
                turnup=cards["turnup"], stock=cards["stock"], first_of_series=first_of_series)
    actions: list[dict] = []
    while deal.phase != "over":
        action = rng.choice(deal.legal_actions())
        deal.push(action)
        actions.append(dict(action))
    record: dict[str, Any] = {
        "format": "loo-deal/1", "seats": seats, "dealer": dealer, "pool": pool,
        "number": number if number is not None else (1 if first_of_series else 2),
        "turnup": cards["turnup"], "actions": actions,
    }
    shown = set(seats) if with_hands else _hands_needed(rules, actions)
    if shown:
        record["hands"] = {seat: list(cards["hands"][seat]) for seat in seats if seat in shown}
    if with_hands and cards["miss"]:
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
                  with_hands: bool = False) -> Iterator[SimulatedDeal]:
    """`n_deals` random deals in a row, each dealt by and into what the last verdict's `next` says."""
    rules = _ruleset(rules)
    dealer = first_dealer or seats[0]
    pool, first = 0, True
    for number in range(1, n_deals + 1):
        dealt = play_random_deal(rules, seats, dealer, pool=pool, rng=rng,
                                 first_of_series=first, with_hands=with_hands, number=number)
        yield dealt
        following = dealt.verdict["next"]
        dealer, pool, first = following["dealer"], following["pool"], following["first_of_series"]


def random_session(rules: RuleSet | Mapping[str, Any], seats: Sequence[str], n_deals: int,
                   rng: random.Random, first_dealer: str | None = None) -> list[dict]:
    """A session file's lines: the header, then `n_deals` legal deal records."""
    rules = _ruleset(rules)
    first_dealer = first_dealer or seats[0]
    header = session_header(rules, seats, first_dealer)
    return [header] + [d.record for d in session_deals(rules, seats, n_deals, rng, first_dealer)]
