"""An independent reckoning of random legal five-card and poker-Loo deals.

The simulator plays legal deals through the engine's own state machine; here every one that
was played out is re-judged from its record alone, by a second, deliberately plain reading of
loo-rules.md s.4-5: who wins each trick (Pam, then the highest trump, then the highest card
of the suit led), what each trick is worth (floor(P/5), all five take P) and who is looed or
burned. Fixed seeds: the same deals every run.
"""
import random

import pytest

from games.rules import RuleSet, replay
from games.rules.simulate import random_deal
from tests.engine.dealkit import assert_conserved, nonzero

RANKS = "23456789TJQKA"
DEALS = 400


def trick_winner(cards: list[tuple[str, str]], trumps: str, pam: str | None) -> str:
    """Pam wins; else the highest trump; else the highest card of the suit led."""
    led = trumps if cards[0][1] == pam else cards[0][1][1]

    def strength(card: str) -> tuple[int, int]:
        if card == pam:
            return (3, 0)
        if card[1] == trumps:
            return (2, RANKS.index(card[0]))
        return (1, RANKS.index(card[0])) if card[1] == led else (0, 0)

    return max(cards, key=lambda pc: strength(pc[1]))[0]


def reckon(rec: dict, options: dict, first: bool) -> tuple[list[str], dict, dict]:
    """Trick winners, payouts and loos/burns of a played-out deal, from the record alone."""
    rules = RuleSet.from_options(options)
    trumps = "C" if rec["turnup"] == "JC" and rules.pam == "jack-of-clubs" else rec["turnup"][1]
    pam = {"jack-of-clubs": "JC", "jack-of-trumps": "J" + trumps}.get(rules.pam)
    ante = rules.to_options()["ante"]
    pool = rec["pool"]
    if rules.game == "five-card" or first:
        pool += ante["dealer"] + ante["each"] * (len(rec["seats"]) - 1)
    plays = [(a["player"], a["card"]) for a in rec["actions"] if a["action"] == "play"]
    standers = list(dict.fromkeys(p for p, _ in plays))
    size = len(standers)
    winners = [trick_winner(plays[i:i + size], trumps, pam) for i in range(0, len(plays), size)]
    won = {p: winners.count(p) for p in standers}
    full = rules.full_loo(pool)
    if rules.game == "five-card":
        if len(set(winners)) == 1:
            return winners, {winners[0]: pool}, {p: full for p in standers if not won[p]}
        return (winners, {p: n * (pool // 5) for p, n in won.items() if n},
                {p: full for p in standers if not won[p]})
    three = [p for p in standers if won[p] >= 3]
    burned = {p: full for p in standers if won[p] <= 1}
    if three:
        if not first and size == 2:
            burned = {p: full for p in standers if p != three[0]}
        return winners, {three[0]: pool}, burned
    twos = [p for p in standers if won[p] == 2]
    payouts = {p: pool // len(twos) for p in twos} if first else {}
    return winners, payouts, burned


@pytest.mark.parametrize("options", [
    {"game": "five-card"},
    {"game": "five-card", "pam": "jack-of-trumps", "loo": "unlimited"},
    {"game": "five-card", "loo": "mixed", "loo_cap": 25, "turnup_to_dealer": False},
    {"game": "poker-loo"},
    {"game": "poker-loo", "loo_cap": 20},
], ids=["five-card", "running-pam-unlimited", "mixed-no-turnup", "poker", "poker-capped"])
def test_random_played_deals_agree_with_an_independent_reckoning(options):
    rng = random.Random(2026)
    rules = RuleSet.from_options(options)
    checked = 0
    for _ in range(DEALS):
        seats = ["ann", "bob", "cat", "dan", "eve", "fay"][: rng.choice([4, 5, 6])]
        first = options["game"] == "five-card" or rng.random() < 0.5
        pool = rng.choice([0, 5, 10, 23, 40])
        rec = {**random_deal(rules, seats, seats[-1], pool=pool, rng=rng, first_of_series=first),
               "rules": options, "pool": pool, "number": 1 if first else 2}
        verdict = replay(rec)
        assert verdict["status"] == "valid", verdict["violations"]
        assert_conserved(verdict, seats)
        if len(verdict["tricks"]) < 5:
            continue  # settled without play (passes, a lone stander, a flush)
        winners, payouts, loos = reckon(rec, options, first)
        s = verdict["settlement"]
        assert [t["winner"] for t in verdict["tricks"]] == winners, rec
        assert (nonzero(s["payouts"]), nonzero(s["loo_payments"])) == (
            nonzero(payouts), nonzero(loos)), rec
        checked += 1
    assert checked >= DEALS // 10  # enough deals were actually played out
