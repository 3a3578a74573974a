"""Exchanging: discards and draws (the turn-up to the dealer, the stock running out).

``Exchanging`` is mixed into ``Deal``.
"""
from __future__ import annotations

from collections.abc import Mapping
from itertools import combinations
from typing import Any, cast

from .cards import NAME, card_names, count_cards
from .errors import RecordError
from .phases import DECLARE, EXCHANGE, FLUSH
from .state import DealState, trait


@trait
class Exchanging(DealState):
    """Exchanges in turn from eldest, and the exchanges the simulator may choose."""

    __slots__ = ()

    def _next_exchanger(self) -> None:
        while self._ex_queue and self._ex_queue[0] in self._exchanged:
            self._ex_queue.pop(0)
        if self._ex_queue and self._ex_limit > 0:
            self._to_act = self._ex_queue[0]
        else:
            self._after_exchange()

    def _dealer_must_take_turnup(self, s: int) -> bool:
        return (s == self._d and self.rules.turnup_to_dealer and self.turnup is not None
                and self.rules.game != "irish")

    def _push_exchange(self, action: Mapping[str, Any],
                       parsed: tuple[list[int], list[int] | None] | None = None) -> None:
        """An exchange; ``parsed`` (discard, draw) as ints when ``replay`` has read them."""
        s = self._seat(action)
        if self.phase != EXCHANGE or s != self._to_act:
            self._exchange_out_of_order(s)
        name = self.seats[s]
        if parsed is None:
            errors: list[dict] = []
            discard = self._action_cards(action.get("discard", []), "discard", errors, name)
            draw = (self._action_cards(action["draw"], "draw", errors, name) if "draw" in action
                    else None)
            if errors:
                raise RecordError(errors)
            if len(set(discard)) != len(discard):
                twice = next(c for c in discard if discard.count(c) > 1)
                raise self._err(f"{name} discards {NAME[twice]} twice", player=name, card=twice)
        else:
            discard, draw = parsed
        takes = self._dealer_must_take_turnup(s)
        hand = self._hands[s]
        if takes:
            if not discard:
                raise self._err(f"{name}: the dealer takes the turn-up and must discard at least "
                                "one card", player=name)
            if hand is not None:
                hand = hand + [cast(int, self.turnup)]
        n_draw = len(discard) - takes
        if takes and draw is not None and len(draw) != n_draw:
            raise self._err(f"{name} draws {count_cards(len(draw))} for {len(discard)} discarded; the "
                            f"dealer takes the turn-up and draws one fewer ({n_draw})",
                            player=name, field="draw")
        if n_draw > self._ex_limit:
            raise self._err(f"{name} exchanges {count_cards(n_draw)}; at most {self._ex_limit}",
                            player=name)
        if hand is not None:
            for c in discard:
                if c not in hand:
                    raise self._err(f"{name} discards {NAME[c]}, which is not in the hand",
                                    player=name, card=c)
        else:  # a hand not given: no card the deal has placed elsewhere (bar his turn-up)
            for c in discard:
                if c in self._known and not (takes and c == self.turnup):
                    raise self._err(f"{name} discards {NAME[c]}, which he cannot hold"
                                    f"{self._where(s, c)}", player=name, card=c)
        drawn = self._draw(s, n_draw, draw)
        self._exchanged_cards(s, hand, discard, drawn)

    def _exchanged_cards(self, s: int, hand: list[int] | None, discard: list[int],
                         drawn: list[int]) -> None:
        """Seat ``s`` (in turn) has exchanged: ``hand`` (with the turn-up if taken) less the
        discards, plus the draw; the turn passes on."""
        if hand is not None:
            hand = [c for c in hand if c not in discard] + drawn
        else:  # what the record shows going into the hand (a flush shown, ``pam_immune``)
            held = set(drawn)
            if self._dealer_must_take_turnup(s) and self.turnup not in discard:
                held.add(self.turnup)  # type: ignore[arg-type]
            if held:
                self._known_held[s] = held
        self._hands[s] = hand
        self._discards.extend(discard)
        self._known.update(discard)
        self._exchanged.add(s)
        queue = self._ex_queue
        del queue[0]
        if queue and self._ex_limit > 0:
            self._to_act = queue[0]
        else:
            self._after_exchange()

    def _exchange_as_recorded(self, s: int, discard: list[int], draw: list[int] | None) -> None:
        """After refusing seat ``s``'s exchange, carry on as if it happened as written.

        ``replay`` calls this so that the rest of the record is judged against the hand the
        record itself goes on to play; otherwise one bad exchange shows up again as a
        "cannot hold" for every card drawn and a "plays twice" for every trick left short.
        Missing declarations are made up as the record plays; nothing is checked (the record
        is already refused).
        """
        if self.phase == DECLARE:
            self._declarations_as_played()
        if self.phase != EXCHANGE:
            return
        if s != self._to_act:
            try:
                self._exchange_out_of_order(s)  # the standers before kept their cards
            except RecordError:
                return
        hand = self._hands[s]
        takes = self._dealer_must_take_turnup(s)
        if hand is not None and takes:
            hand = hand + [cast(int, self.turnup)]
        if draw is None:  # drawn from a given stock, as far as it goes
            n_draw = max(len(discard) - takes, 0)
            stock = self._stock or []
            draw = stock[self._stock_pos:self._stock_pos + n_draw]
            self._stock_pos += len(draw)
        elif self._stock is not None:  # drawn off the top, whatever the stock says is there
            self._stock_pos = min(len(self._stock), self._stock_pos + len(draw))
        self._drawn += len(draw)
        self._known.update(draw)
        self._exchanged_cards(s, hand, discard, list(draw))

    def _exchange_out_of_order(self, s: int) -> None:
        """An exchange not in turn: refused, unless earlier standers simply kept their cards."""
        name = self.seats[s]
        if self.phase != EXCHANGE:
            if self.phase == DECLARE and self._to_act >= 0:
                raise self._err(f"{name} exchanges before the declarations are over "
                                f"({self.seats[self._to_act]} to declare)", player=name)
            raise self._err(f"{name}: no exchange now ({self.phase})", player=name)
        if s not in self._standers:
            raise self._err(f"{name} is not standing and cannot exchange", player=name)
        if s in self._exchanged:
            raise self._err(f"{name} has already exchanged", player=name)
        # the record may leave out the exchanges of players who kept their cards
        for i in self._ex_queue[:self._ex_queue.index(s)]:
            if self._dealer_must_take_turnup(i):
                raise self._err(f"{name} exchanges before the dealer", player=name)
            self._exchanged.add(i)
        self._ex_queue = self._ex_queue[self._ex_queue.index(s):]
        self._to_act = s

    def _draw(self, s: int, count: int, given: list[int] | None) -> list[int]:
        """Cards off the top of the stock; once it runs out, from the shuffled discards. A draw
        refused part way leaves the stock as it was (``replay`` then carries the exchange on
        as recorded, drawing the lot off the top)."""
        at = (self._stock_pos, self._drawn)
        try:
            return self._draw_cards(s, count, given)
        except RecordError:
            self._stock_pos, self._drawn = at
            raise

    def _draw_cards(self, s: int, count: int, given: list[int] | None) -> list[int]:
        name = self.seats[s]
        if given is not None and len(given) != count:
            raise self._err(f"{name} draws {count_cards(len(given))} for {count} discarded",
                            player=name, field="draw")
        known = self._known
        if (given is not None and self._stock is None and self._drawn + count <= self._stock_size
                and known.isdisjoint(given) and len(set(given)) == count):
            known.update(given)  # the common case: recorded draws from an unseen stock
            self._drawn += count
            return list(given)
        out = []
        for k in range(count):
            from_stock = self._drawn < self._stock_size
            if self._stock is not None and self._stock_pos < len(self._stock):
                top = self._stock[self._stock_pos]
                if given is not None and given[k] != top:
                    raise self._err(f"{name} draws {NAME[given[k]]} but the stock's top card is "
                                    f"{NAME[top]}", player=name, card=given[k])
                self._stock_pos += 1
                card = top
            elif given is None:
                # the discards are used only once the stock runs out, not where a stock the
                # record gives only the top of ends
                pile = self._discards_left()
                if self._stock is None or from_stock or not pile:
                    raise self._err(f"{name}: the draw must be recorded (the stock is not given"
                                    " or what the record gives of it is used up)", player=name,
                                    field="draw")
                card = pile[0]
                self._redrawn.add(card)
            else:
                card = given[k]
                if from_stock:
                    if card in self._known:
                        raise self._err(f"{name} draws {NAME[card]}, which is not in the stock",
                                        player=name, card=card)
                else:
                    if card not in self._discards or card in self._redrawn:
                        raise self._err(f"{name} draws {NAME[card]} after the stock ran out; "
                                        "it is not among the discards", player=name, card=card)
                    self._redrawn.add(card)
            self._known.add(card)
            self._drawn += 1
            out.append(card)
        return out

    def _discards_left(self) -> list[int]:
        """The earlier exchangers' discards not yet drawn again: what is drawn once the stock
        runs out (``_draw``, and what ``_exchange_actions`` offers then)."""
        return [c for c in self._discards if c not in self._redrawn]

    def _close_exchange(self) -> None:
        """The record moves on: whoever has not exchanged kept their cards (but a standing dealer
        who owns the turn-up must have taken it)."""
        for i in self._ex_queue:
            if i not in self._exchanged and self._dealer_must_take_turnup(i):
                raise self._err(f"{self.seats[i]}: a standing dealer takes the turn-up; the "
                                "exchange is missing", player=self.seats[i])
        self._ex_queue = []
        self._after_exchange()

    def _after_exchange(self) -> None:
        r = self.rules
        self._to_act = -1
        if r.flush != "none" and self._trump is not None and r.game != "poker-loo":
            self.phase = FLUSH
            self._to_act = self._standers[0] if self._standers else -1
            return
        self._start_play()

    def _exchange_actions(self) -> list[dict]:
        s = self._to_act
        name = self.seats[s]
        hand = self._hands[s]
        takes = self._dealer_must_take_turnup(s)
        if hand is None:
            # the hand is unknown: keep it; a dealer who takes the turn-up must discard at least
            # one card, and the one he is known to hold is the turn-up itself
            discard = card_names([cast(int, self.turnup)]) if takes else []
            return [{"player": name, "action": "exchange", "discard": discard, "draw": []}]
        pool = hand + [cast(int, self.turnup)] if takes else list(hand)
        out = []
        top = self._ex_limit + (1 if takes else 0)
        # what can be drawn: the stock, then (once it runs out) the earlier discards
        supply = []
        if self._stock is not None:
            supply = self._stock[self._stock_pos:]
            if self._drawn + len(supply) >= self._stock_size:
                supply += self._discards_left()
        for k in range(1 if takes else 0, top + 1):
            n_draw = k - (1 if takes else 0)
            if n_draw > len(supply):
                break
            draw = card_names(supply[:n_draw])
            for cards in combinations(pool, k):
                out.append({"player": name, "action": "exchange", "discard": card_names(cards),
                            "draw": list(draw)})
        return out
