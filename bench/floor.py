"""The floor: the least work any Python engine must do to check a Loo deal.

Parse the record's JSON text, take each stander's hand from their plays, then walk the tricks
checking follow-suit, heading and trumping and find each trick's winner. No settlement, no
declarations, no options beyond `must_head` / `must_trump`: whatever a real engine costs above
this is the price of its rules. `floor_deal` also serves as a tiny independent generator
(`floor_random_deal`) so the baseline runs even before the engine exists.
"""
from __future__ import annotations

import json
import random
from collections.abc import Sequence

RANKS = "23456789TJQKA"
SUITS = "CDHS"
RANK_OF = {r: i for i, r in enumerate(RANKS)}
PAM = "JC"


def _power(card: str, led: str, trumps: str, pam: bool) -> int:
    """Rank of `card` in a trick led in suit `led`: Pam > trumps > led suit > the rest (-1)."""
    if pam and card == PAM:
        return 100
    suit = card[1]
    if suit == trumps:
        return 50 + RANK_OF[card[0]]
    if suit == led:
        return RANK_OF[card[0]]
    return -1


def floor_deal(text: str, must_head: bool, must_trump: bool, pam: bool) -> tuple[dict, int]:
    """Check one deal record given as JSON text; return (tricks won per player, offences seen)."""
    record = json.loads(text)
    trumps = record["turnup"][1]
    plays = [(a["player"], a["card"]) for a in record["actions"] if a["action"] == "play"]
    hands: dict[str, set[str]] = {}
    for player, card in plays:
        hands.setdefault(player, set()).add(card)
    width = len(hands)
    won = dict.fromkeys(hands, 0)
    offences = 0
    if not width:
        return won, offences
    for start in range(0, len(plays), width):
        trick = plays[start:start + width]
        lead_card = trick[0][1]
        led = trumps if pam and lead_card == PAM else lead_card[1]
        best = _power(lead_card, led, trumps, pam)
        winner = trick[0][0]
        hands[winner].discard(lead_card)
        for player, card in trick[1:]:
            hand = hands[player]
            hand.discard(card)
            power = _power(card, led, trumps, pam)
            if card[1] != led and not (pam and card == PAM):
                if any(c[1] == led and not (pam and c == PAM) for c in hand):
                    offences += 1  # revoke
                elif must_trump and power <= max(best, 49) and any(
                        _power(c, led, trumps, pam) > max(best, 49) for c in hand):
                    offences += 1  # failed to trump / overtrump
            elif must_head and power < best and any(
                    c[1] == led and _power(c, led, trumps, pam) > best for c in hand):
                offences += 1  # failed to head
            if power > best:
                best, winner = power, player
        won[winner] += 1
    return won, offences


def floor_random_deal(rng: random.Random, seats: Sequence[str], cards_each: int = 5,
                      pam: bool = True) -> dict:
    """A five-card-style deal in which everybody stands and follows suit (stand-alone generator)."""
    deck = [r + s for r in RANKS for s in SUITS]
    rng.shuffle(deck)
    hands = {p: deck[i * cards_each:(i + 1) * cards_each] for i, p in enumerate(seats)}
    turnup = deck[len(seats) * cards_each]
    trumps = turnup[1]
    actions: list[dict] = [{"player": p, "action": "stand"} for p in seats]
    leader = 0
    for _ in range(cards_each):
        order = [seats[(leader + i) % len(seats)] for i in range(len(seats))]
        led = ""
        best, winner = -2, order[0]
        for player in order:
            hand = hands[player]
            follow = [c for c in hand if c[1] == led and not (pam and c == PAM)] if led else []
            choices = (follow + [PAM] if pam and PAM in hand else follow) if follow else hand
            card = rng.choice(choices)
            hand.remove(card)
            if not led:
                led = card[1] if not (pam and card == PAM) else trumps
            power = _power(card, led, trumps, pam)
            if power > best:
                best, winner = power, player
            actions.append({"player": player, "action": "play", "card": card})
        leader = seats.index(winner)
    return {"format": "loo-deal/1", "seats": list(seats), "dealer": seats[-1], "pool": 0,
            "turnup": turnup, "actions": actions}
