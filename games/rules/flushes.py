"""Flushes and blazes: which hands show one and which shown one wins.

Five-card Loo ranks (best first): a blaze holding Pam, [a blaze when ``blaze_rank`` is
``above-flush``], a flush with Pam, five trumps, a plain-suit flush, [a blaze when
``below-plain-flush``]. Three-card Loo's flush is simply three trumps.
"""
from __future__ import annotations

from collections.abc import Sequence

from .cards import JACK, KING, RANK, SUIT
from .options import RuleSet

PAM_BLAZE, HIGH_BLAZE, PAM_FLUSH, TRUMP_FLUSH, PLAIN_FLUSH, LOW_BLAZE = 6, 5, 3, 2, 1, 0


def flush_class(rules: RuleSet, hand: Sequence[int], trump: int | None, pam: int) -> int | None:
    """The class of flush (or blaze) ``hand`` shows under ``rules``, or None if it is none."""
    if rules.flush in ("three-trumps", "three-trumps-redeal"):
        if trump is not None and len(hand) == 3 and all(SUIT[c] == trump for c in hand):
            return TRUMP_FLUSH
        return None
    if rules.flush != "five-card" or len(hand) != 5:
        return None
    has_pam = pam in hand
    if rules.blaze and all(JACK <= RANK[c] <= KING for c in hand):
        if has_pam:
            return PAM_BLAZE
        return HIGH_BLAZE if rules.blaze_rank == "above-flush" else LOW_BLAZE
    others = [c for c in hand if c != pam]
    suit = SUIT[others[0]]
    if any(SUIT[c] != suit for c in others):
        return None
    if has_pam:
        return PAM_FLUSH
    return TRUMP_FLUSH if suit == trump else PLAIN_FLUSH


def best_flushes(rules: RuleSet, shown: Sequence[tuple[int, list[int], int]]) -> list[int]:
    """Seats that win among shown ``(seat, hand, class)`` listed in seat order from eldest.

    Several winners only under ``flush_ties: high-card-then-split`` with identical ranks.
    """
    top = max(cls for _, _, cls in shown)
    best = [(seat, hand) for seat, hand, cls in shown if cls == top]
    if rules.flush_ties != "high-card-then-split" or len(best) == 1:
        return [best[0][0]]
    ranks = {seat: sorted((RANK[c] for c in hand), reverse=True) for seat, hand in best}
    high = max(ranks.values())
    return [seat for seat, _ in best if ranks[seat] == high]
