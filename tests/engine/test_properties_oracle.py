"""An independent oracle: random legal deals re-judged from the verdict alone, without `Deal`.

`test_properties.py` checks the engine against itself (the simulator plays what `Deal` allows,
the replay judges with `Deal`). Here the tricks of every played-out deal are re-checked from
loo-rules.md directly: who leads, who wins, that nobody failed to follow suit, head, trump or
lead a trump while able (a player's hand at trick k is the cards they play from trick k on),
and the preset's division of the pool. A rule the engine misreads in both directions at once
cannot hide from this.
"""
from __future__ import annotations

import random

from hypothesis import assume, event, given
from hypothesis import strategies as st

from games.rules import RuleSet
from games.rules.simulate import eager, play_random_deal, uniform

RANKS = "23456789TJQKA"
NAMES = ("ann", "bob", "cat", "dan", "eve", "fay", "gus")
PRESETS_CHECKED = ["three-card", "three-card-unlimited", "three-card-mixed", "mississippi",
                   "irish", "undivided", "five-card", "five-card-unlimited", "poker-loo"]
RULES = {p: RuleSet.from_options({"preset": p}) for p in PRESETS_CHECKED}
#: house rules the oracle also reads (play duties and division that differ from the presets)
VARIANTS = {
    "highest-and-undertrump": {"game": "three-card", "lead_highest_trump": True,
                               "must_undertrump": True},
    "first-two-early": {"game": "three-card", "lead_trump": "first-two-tricks",
                        "remainder": "early-tricks", "pools": "always-double"},
    "strict-five-card": {"game": "five-card", "must_head": True, "must_trump": True,
                         "lead_trump": "every-trick"},
    # option pairs of the three-card combination audit
    "undivided-unlimited": {"game": "three-card", "undivided": True, "loo": "unlimited",
                            "single_stander": "concede"},
    "mixed-early-highest": {"game": "three-card", "loo": "mixed", "loo_cap": 7,
                            "remainder": "early-tricks", "lead_trump": "first-two-tricks",
                            "lead_highest_trump": True, "must_undertrump": True},
}
RULES.update({name: RuleSet.from_options(o) for name, o in VARIANTS.items()})
CHECKED = sorted(RULES)
LEAD_DUTY = {"every-trick": 99, "first-trick": 1, "first-two-tricks": 2, "none": 0}


def rank(card: str) -> int:
    return RANKS.index(card[0])


def power(card: str, led: str, trumps: str, pam: str | None) -> int:
    """Pam > trumps by rank > the suit led by rank > anything else (-1)."""
    if card == pam:
        return 100
    if card[1] == trumps:
        return 50 + rank(card)
    return rank(card) if card[1] == led else -1


def suit_of(card: str, trumps: str, pam: str | None) -> str:
    """Pam counts as a trump."""
    return trumps if card == pam else card[1]


def check_tricks(rules: RuleSet, record: dict, verdict: dict) -> None:
    """Leaders, winners and the play duties of loo-rules.md, from the verdict's tricks."""
    trumps = verdict["trumps"]
    pam = "JC" if rules.pam == "jack-of-clubs" else None
    tricks = verdict["tricks"]
    standers = verdict["standers"]
    assert len(tricks) == rules.hand_size
    seats = record["seats"]
    start = seats.index(record["dealer"]) + 1
    order = [seats[(start + i) % len(seats)] for i in range(len(seats))]
    assert tricks[0]["leader"] == next(p for p in order if p in standers)
    simple = verdict["pool_kind"] == "simple"
    won = dict.fromkeys(standers, 0)
    for k, trick in enumerate(tricks):
        cards = trick["cards"]
        assert set(cards) == set(standers)
        if k:
            assert trick["leader"] == tricks[k - 1]["winner"]
        held = {p: [t["cards"][p] for t in tricks[k:]] for p in standers}
        play_order = list(cards)
        assert play_order[0] == trick["leader"]
        lead = cards[trick["leader"]]
        led = suit_of(lead, trumps, pam)
        duties = not (simple and k == 0)  # trumps are unknown during a simple pool's first trick
        leader_trumps = sorted((c for c in held[trick["leader"]]
                                if suit_of(c, trumps, pam) == trumps),
                               key=lambda c: power(c, trumps, trumps, pam))
        if duties and lead != pam and k < LEAD_DUTY[rules.lead_trump]:
            assert led == trumps or not leader_trumps, f"trick {k + 1}: trump not led"
            if rules.lead_highest_trump and len(leader_trumps) > 1:
                assert lead == leader_trumps[-1], f"trick {k + 1}: highest trump not led"
        if duties and rules.lead_trump_ace:
            # the ace; the king when the ace is the turn-up, unless the leader holds it (the
            # five-card dealer who took it)
            ace = "A" + trumps
            if record.get("turnup") == ace and ace not in held[trick["leader"]]:
                ace = "K" + trumps
            assert ace not in held[trick["leader"]] or lead == ace, \
                f"trick {k + 1}: {ace} not led"
        best = power(lead, led, trumps, pam)
        for player in play_order[1:]:
            card = cards[player]
            hand = held[player]
            suit = suit_of(card, trumps, pam)
            follows = suit == led or card == pam
            if not follows:
                assert not any(suit_of(c, trumps, pam) == led and c != pam for c in hand), \
                    f"trick {k + 1}: {player} revoked with {card}"
            trumped = best >= 50 and led != trumps  # a trump already beats the suit led
            if rules.must_head and follows and card != pam and not trumped \
                    and power(card, led, trumps, pam) < best:
                assert not any(suit_of(c, trumps, pam) == led and c != pam
                               and power(c, led, trumps, pam) > best for c in hand), \
                    f"trick {k + 1}: {player} did not head with {card}"
            if rules.must_trump and duties and not follows and led != trumps:
                floor = max(best, 49)
                if power(card, led, trumps, pam) <= floor:
                    assert not any(power(c, led, trumps, pam) > floor for c in hand), \
                        f"trick {k + 1}: {player} did not trump/overtrump with {card}"
                if rules.must_undertrump and suit != trumps:
                    assert not any(suit_of(c, trumps, pam) == trumps for c in hand), \
                        f"trick {k + 1}: {player} did not undertrump with {card}"
            best = max(best, power(card, led, trumps, pam))
        winner = max(cards, key=lambda p: power(cards[p], led, trumps, pam))
        assert trick["winner"] == winner, f"trick {k + 1}: {trick}"
        won[winner] += 1
    assert verdict["tricks_won"] == won


def check_division(rules: RuleSet, verdict: dict) -> None:
    """Three-card and five-card division: floor(P / n) a trick, all n take P, the loo."""
    st_ = verdict["settlement"]
    pool = st_["pool"]
    n = rules.hand_size
    won = verdict["tricks_won"]
    defender = verdict.get("defender")
    full = {"limited": rules.loo_amount, "unlimited": pool,
            "mixed": min(pool, rules.loo_cap or pool)}[rules.loo]
    sweep = [p for p, w in won.items() if w == n]
    if sweep:
        payouts = {} if sweep[0] == defender else {sweep[0]: pool}
    elif rules.undivided:
        payouts = {}
    else:
        base, odd = divmod(pool, n)
        payouts = {}
        for i, trick in enumerate(verdict["tricks"]):
            share = base + (1 if rules.remainder == "early-tricks" and i < odd else 0)
            if trick["winner"] != defender:
                payouts[trick["winner"]] = payouts.get(trick["winner"], 0) + share
    loos = {p: full for p, w in won.items() if w == 0 and p != defender}
    assert {p: u for p, u in st_["payouts"].items() if u} == payouts
    assert {p: u for p, u in st_["loo_payments"].items() if u} == loos
    assert st_["pool_after"] == pool - sum(payouts.values()) + sum(loos.values())


@given(st.sampled_from(CHECKED), st.integers(3, 7), st.sampled_from([0, 6, 10, 17]),
       st.booleans(), st.booleans(), st.integers(0, 2**32))
def test_deals_agree_with_an_independent_reading_of_the_rules(name, n_seats, pool, stand,
                                                              first, seed):
    rules = RULES[name]
    seats = list(NAMES[:n_seats])
    low, high = {"five-card": (4, 7)}.get(rules.game, (2, 15))
    assume(low <= n_seats <= high)
    dealt = play_random_deal(rules, seats, seats[-1], pool=pool, rng=random.Random(seed),
                             first_of_series=first, choose=eager if stand else uniform)
    verdict = dealt.verdict
    event(f"{rules.game}: {verdict['ended']}")
    assert verdict["status"] == "valid"
    check_antes(rules, dealt.record, verdict)
    if verdict["ended"] == "played":
        check_tricks(rules, dealt.record, verdict)
        if rules.game == "poker-loo":
            check_poker_payment(rules, verdict, first)
        else:
            check_division(rules, verdict)
    else:
        check_ending_without_play(rules, dealt.record, verdict)


def check_poker_payment(rules: RuleSet, verdict: dict, first: bool) -> None:
    """Poker-Loo: three tricks take the pot; 0-1 burns (matching the pot, capped); on the first
    deal two-trick players share a pot nobody took three of; two standers: the loser burns."""
    st_ = verdict["settlement"]
    pool = st_["pool"]
    won = verdict["tricks_won"]
    full = min(pool, rules.loo_cap) if rules.loo_cap is not None else pool
    three = [p for p, w in won.items() if w >= 3]
    twos = [p for p, w in won.items() if w == 2]
    if three:
        payouts = {three[0]: pool}
        burned = [p for p, w in won.items()
                  if w <= 1 or (not first and len(won) == 2 and p != three[0])]
    else:
        payouts = {p: pool // len(twos) for p in twos} if first and twos else {}
        burned = [p for p, w in won.items() if w <= 1]
    assert {p: u for p, u in st_["payouts"].items() if u} == {p: u for p, u in payouts.items()
                                                               if u}
    assert {p: u for p, u in st_["loo_payments"].items() if u} == {p: full for p in burned
                                                                    if full}


def check_antes(rules: RuleSet, record: dict, verdict: dict) -> None:
    """The dealer's ante (and everyone's where the rules say), making P."""
    st_ = verdict["settlement"]
    dealer_ante, each = rules.ante
    if rules.ante_first_deal_only and record["number"] != 1:
        dealer_ante = each = 0
    antes = {p: each for p in record["seats"] if p != record["dealer"] and each}
    if dealer_ante:
        antes[record["dealer"]] = dealer_ante
    assert st_["antes"] == antes
    assert st_["pool"] == st_["pool_before"] + sum(antes.values())


def check_ending_without_play(rules: RuleSet, record: dict, verdict: dict) -> None:
    """No cards played: the dealer takes the pool when all others pass (three-card), a lone
    stander takes it (five-card; poker-Loo), a conceding dealer gives it up, or it stays."""
    st_ = verdict["settlement"]
    pool = st_["pool"]
    declared = {a["player"]: a["action"] for a in record["actions"]
                if a["action"] in ("stand", "pass", "take-miss", "defend")}
    standing = [p for p, a in declared.items() if a != "pass"]
    ended = verdict["ended"]
    assert not verdict["tricks"]
    if ended == "dealer-takes":
        assert rules.game in ("three-card", "irish")
        assert all(a == "pass" for p, a in declared.items() if p != record["dealer"])
        expected = {record["dealer"]: pool}
    elif ended in ("conceded", "lone-stander"):
        assert len(standing) == 1
        expected = {standing[0]: pool}
    elif ended == "nobody-stands":
        assert not standing
        expected = {}
    else:
        return  # flushes: judged by the engine's own tests
    assert {p: u for p, u in st_["payouts"].items() if u} == {p: u for p, u in expected.items()
                                                               if u}
    assert not any(st_["loo_payments"].values())
    assert st_["pool_after"] == pool - sum(expected.values())
