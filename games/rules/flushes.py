"""Flushes and blazes: which hands show one and which shown one wins.

Five-card Loo ranks (best first): a blaze holding Pam, [a blaze when ``blaze_rank`` is
``above-flush``], a flush with Pam, five trumps, a plain-suit flush, [a blaze when
``below-plain-flush``]. Three-card Loo's flush is simply three trumps.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .cards import JACK, KING, NAME, RANK, SUIT, card_names
from .errors import RecordError
from .options import RuleSet
from .phases import EXCHANGE, FLUSH, OVER
from .state import DealState, trait

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

    Several winners only under ``flush_ties: high-card-then-split`` with identical ranks. That
    rule is for plain flushes (and blazes, ranked like them): "флешей простых мастей" (001:58).
    Two five-trump flushes go by seat order under either value (000:135).
    """
    top = max(cls for _, _, cls in shown)
    best = [(seat, hand) for seat, hand, cls in shown if cls == top]
    if rules.flush_ties != "high-card-then-split" or len(best) == 1 or top == TRUMP_FLUSH:
        return [best[0][0]]
    ranks = {seat: sorted((RANK[c] for c in hand), reverse=True) for seat, hand in best}
    high = max(ranks.values())
    return [seat for seat, _ in best if ranks[seat] == high]


@trait
class ShowingFlushes(DealState):
    """A stander shows a flush (or blaze): checked against the hand (mixed into ``Deal``)."""

    __slots__ = ()

    def _flush_not_dealt(self, s: int) -> bool:
        """``three-trumps-redeal`` is three trumps *dealt* (001:39): a miss-taker's are not, nor
        those of a dealer defending the pool, who plays the miss too."""
        return self.rules.flush == "three-trumps-redeal" and (
            s == self._miss_taker or (s == self._defender and self._has_miss))

    def _check_unseen_hand(self, s: int, shown: list[int]) -> None:
        """Cards shown for a hand the record does not give: five different cards, none of
        them placed elsewhere (another hand, the stock, the turn-up, the discards, another's
        draw), and every card the record shows going into his hand (draws, a turn-up kept)."""
        name = self.seats[s]
        if len(set(shown)) != len(shown):
            twice = next(c for c in shown if shown.count(c) > 1)
            raise self._err(f"{name} shows {NAME[twice]} twice", player=name, card=twice)
        held = self._known_held.get(s, set())
        for c in shown:
            if c in self._known and c not in held:
                raise self._err(f"{name} shows {NAME[c]}, which he cannot hold"
                                f"{self._where(s, c)}", player=name, card=c)
        for c in sorted(held - set(shown)):
            how = "took turned up" if c == self.turnup else "drew"
            raise self._err(f"{name} shows {' '.join(card_names(shown))} without {NAME[c]}, "
                            f"which he {how}", player=name, card=c)

    def _flush_actions(self) -> list[dict]:
        """The flushes that may be shown now, as ``_push_flush`` takes them: a stander's after
        the declarations (after another's too: a better one wins, a beaten one is not looed);
        under ``three-trumps-redeal`` any player's dealt three trumps, from the deal on."""
        if self.rules.flush == "none" or self._tcards or self._tricks:
            return []
        who = range(self._n) if self.rules.flush == "three-trumps-redeal" else self._standers
        shown = {f[0] for f in self._flushes}
        hands, trump, pam = self._hands, self._trump, self._pam
        return [{"player": self.seats[s], "action": "flush"} for s in who
                if s not in shown and (hand := hands[s]) is not None
                and not self._flush_not_dealt(s)
                and flush_class(self.rules, hand, trump, pam) is not None]

    def _push_flush(self, action: Mapping[str, Any]) -> None:
        s = self._seat(action)
        name = self.seats[s]
        r = self.rules
        redeal = r.flush == "three-trumps-redeal"
        if r.flush == "none":
            raise self._err(f"{name}: flushes are not played under these rules", player=name)
        if self._tcards or self._tricks:
            raise self._err(f"{name}: a flush is shown before the play", player=name)
        if self._trump_mode == "after-first-trick":
            raise self._err(f"{name}: no flush in a simple pool, whose trumps are turned only "
                            "after the first trick", player=name)
        if not redeal and self.phase not in (FLUSH, EXCHANGE, OVER):
            raise self._err(f"{name}: flushes are shown after the declarations", player=name)
        if not redeal and s not in self._standers:
            raise self._err(f"{name} is not standing and cannot show a flush", player=name)
        if self.phase == EXCHANGE:
            self._close_exchange()
        if self._flush_not_dealt(s):
            how = "took the miss" if s == self._miss_taker else "defends the pool with the miss"
            raise self._err(f"{name} {how}: the three-trumps-redeal flush is three trumps dealt "
                            f"to the player, not taken with the miss", player=name)
        if any(f[0] == s for f in self._flushes):
            raise self._err(f"{name} has already shown a flush", player=name)
        hand = self._hands[s]
        if "cards" in action:
            errors: list[dict] = []
            shown = self._action_cards(action["cards"], "cards", errors, name)
            if errors:
                raise RecordError(errors)
            if hand is not None and sorted(shown) != sorted(hand):
                raise self._err(f"{name} shows {' '.join(card_names(shown))} but holds "
                                f"{' '.join(card_names(hand))}", player=name)
            if hand is None:
                self._check_unseen_hand(s, shown)
            hand = shown
        if hand is None:
            raise self._err(f"{name} shows a flush: the hand must be given to check it",
                            player=name, field="hands")
        if self._trump is None:
            raise self._err("turnup: the turn-up card is needed to judge a flush",
                            field="turnup")
        cls = flush_class(r, hand, self._trump, self._pam)
        if cls is None:
            raise self._err(f"{name} shows {' '.join(card_names(hand))}, which is not a flush",
                            player=name)
        if self._result is not None:  # a verdict was given on the flushes before: settle anew
            self._result = None
            self.books.unsettle()
        if self._hands[s] is None:  # shown: his hand is known from now on (to a later show)
            self._hands[s] = list(hand)
            self._known.update(hand)
        self._flushes.append((s, list(hand), cls))
        if redeal:
            self._end("redeal")
            return
        self.phase = OVER
        self._ended = "flush"
        self._to_act = -1
