"""One deal of Loo as a state machine: declaring, exchanging, flushes, tricks, the verdict.

``Deal`` is the one definition of "legal" in the project: ``replay`` pushes a record's actions
through it, the simulator picks among ``legal_actions()``, and ``play_violation`` names the
rule a card would break. Cards are small ints (see ``cards``); a hand is a short list; the
checks on every play index precomputed tables so a replay stays fast.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import combinations
from typing import Any

from .cards import ACE, CLUBS, CODE, JACK, KING, NAME, RANK, SUIT, SUITS, card_code
from .errors import RecordError, record_error
from .flushes import flush_class
from .options import RuleSet, rules_from
from .settlement import Books
from .verdict import build_verdict
from .version import ENGINE_VERSION

DECLARE, EXCHANGE, FLUSH, PLAY, OVER = "declare", "exchange", "flush", "play", "over"

#: offences found in the plays (or recorded as corrected by the table)
PLAY_RULES = frozenset({
    "revoke", "failed-to-head", "failed-to-trump", "failed-to-overtrump",
    "failed-to-lead-trump", "failed-to-lead-trump-ace", "failed-to-lead-highest-trump",
    "played-out-of-turn", "pam-not-civil", "failed-to-play-trump-to-pam",
    "failed-to-play-trump-ace",
})
#: irregularities punished by a single loo paid into the pool at once (the player plays on)
SINGLE_LOO_KINDS = frozenset({"looked-out-of-turn", "declared-out-of-turn", "looked-at-miss",
                              "looked-at-discards", "looked-at-stock"})
#: irregularities punished like a revoke (a full loo into the next pool, winnings stay)
FULL_LOO_KINDS = PLAY_RULES | {"looked-at-hand", "exposed-card", "threw-up-after-lead"}
IRREGULARITY_KINDS = SINGLE_LOO_KINDS | FULL_LOO_KINDS | {"misdeal"}

TRUMP_KEY, PAM_KEY = 20, 50
_NOBODY: frozenset[int] = frozenset()
#: tricks whose leader must lead a trump, by ``lead_trump``
_DUTY_UPTO = {"every-trick": 99, "first-trick": 1, "first-two-tricks": 2, "none": 0}
_TABLES: dict[tuple[int | None, int], tuple[list[int], list[int]]] = {}


def card_tables(trump: int | None, pam: int) -> tuple[list[int], list[int]]:
    """(effective suit, strength key) per card for a trump suit and Pam (-1 if none).

    Pam's effective suit is trumps and its key beats all; a trump's key beats every plain card.
    """
    found = _TABLES.get((trump, pam))
    if found is None:
        es, key = list(SUIT), list(RANK)
        if trump is not None:
            for c in range(52):
                if SUIT[c] == trump:
                    key[c] = TRUMP_KEY + RANK[c]
        if pam >= 0:
            if trump is not None:
                es[pam] = trump
            key[pam] = PAM_KEY
        found = _TABLES[(trump, pam)] = (es, key)
    return found


def _names(cards: Sequence[int]) -> list[str]:
    return [NAME[c] for c in cards]


class Deal:
    """The state of one deal; push record actions, ask what is legal, read the verdict."""

    __slots__ = (
        '_ace_first',
        '_best',
        '_bold',
        '_civil',
        '_civil_called',
        '_d',
        '_decl',
        '_decl_cursor',
        '_declared_order',
        '_defender',
        '_discards',
        '_double',
        '_drawn',
        '_duty_upto',
        '_ended',
        '_es',
        '_ex_limit',
        '_ex_queue',
        '_exchanged',
        '_flushes',
        '_forced_pass',
        '_hand_size',
        '_hands',
        '_has_miss',
        '_head',
        '_idx',
        '_in_trick',
        '_key',
        '_known',
        '_lead_card',
        '_lead_extra',
        '_led',
        '_miss',
        '_miss_taker',
        '_mode',
        '_n',
        '_offenders',
        '_order',
        '_out_of_deal',
        '_pam',
        '_pam_led',
        '_pos',
        '_redrawn',
        '_result',
        '_sits_out_next',
        '_special',
        '_standers',
        '_stock',
        '_stock_pos',
        '_stock_size',
        '_tcards',
        '_three',
        '_to_act',
        '_trick_no',
        '_tricks',
        '_trump',
        '_trump_mode',
        '_turn',
        '_unverified',
        '_won',
        'books',
        'dealer',
        'deferred_errors',
        'first_of_series',
        'phase',
        'pool_before',
        'pool_kind',
        'rules',
        'seats',
        'turnup',
        'violations',
    )

    def __init__(self, rules: RuleSet | Mapping[str, Any], seats: Sequence[str], dealer: str, *,
                 pool: int = 0, hands: Mapping[str, Sequence[str | int] | None] | None = None,
                 miss: Sequence[str | int] | None = None, turnup: str | int | None = None,
                 stock: Sequence[str | int] | None = None, first_of_series: bool = True,
                 redeal: bool = False, sits_out: Sequence[str] = (),
                 inferred: Sequence[str] = (), final: bool = False):
        r = self.rules = rules_from(rules)
        self.seats = list(seats)
        n = self._n = len(self.seats)
        self._idx = {name: i for i, name in enumerate(self.seats)}
        errors: list[dict] = []
        if dealer not in self._idx:
            raise RecordError([record_error(f"dealer: {dealer!r} is not a seat", field="dealer",
                                            player=dealer)])
        self.dealer = dealer
        self._d = d = self._idx[dealer]
        self._order = [(d + 1 + i) % n for i in range(n)]  # eldest .. dealer
        self.pool_before = pool
        self.first_of_series = first_of_series
        self._out_of_deal = frozenset(self._idx[s] for s in sits_out if s in self._idx) \
            if sits_out else _NOBODY
        self._hand_size = hs = r.hand_size
        self._hands: list[list[int] | None] = [None] * n
        if hands:
            for name, cards in hands.items():
                if name not in self._idx:
                    errors.append(record_error(f"hands: {name!r} is not a seat", field="hands",
                                               player=name))
                    continue
                if cards is None:
                    continue
                if name in inferred:  # read back from the plays by replay: ints already
                    self._hands[self._idx[name]] = cards
                    continue
                parsed = self._cards(cards, f"hands.{name}", errors, name)
                if len(parsed) != hs and name not in inferred:
                    errors.append(record_error(
                        f"hands: {name} holds {len(parsed)} cards, {r.game} Loo deals {hs}",
                        field="hands", player=name))
                self._hands[self._idx[name]] = parsed
        self._miss = self._cards(miss, "miss", errors) if miss is not None else None
        self.turnup = None
        if turnup is not None:
            t = CODE.get(turnup) if type(turnup) is str else None
            if t is None:
                t = (self._cards([turnup], "turnup", errors) or [None])[0]
            self.turnup = t
        self._stock = self._cards(stock, "stock", errors) if stock is not None else None
        self._stock_pos = 0
        known = [c for h in self._hands if h for c in h] if hands else []
        if self._miss:
            known.extend(self._miss)
        if self._stock:
            known.extend(self._stock)
        if self.turnup is not None:
            known.append(self.turnup)
        known_set = set(known)
        if len(known_set) != len(known):
            seen: set[int] = set()
            for c in known:
                if c in seen:
                    errors.append(record_error(f"{NAME[c]} is dealt twice", card=NAME[c],
                                               field="hands"))
                seen.add(c)
        if errors:
            raise RecordError(errors)
        self._known = known_set

        game = r.game
        self._three = game in ("three-card", "irish")
        self.pool_kind: str | None = None
        has_miss = False
        mode = "sequential"
        if game == "three-card":
            double = r.pools == "always-double" or pool != 0 or final
            self.pool_kind = "double" if double else "simple"
            has_miss = (double or r.simple_pool == "miss-and-trump") and not final
            if not double:
                mode = "eldest-miss" if has_miss else "forced"
        self._double = self.pool_kind != "simple"
        self._has_miss = has_miss
        if has_miss and self._miss is not None and len(self._miss) != 3:
            raise RecordError([record_error(f"miss: holds {len(self._miss)} cards, not 3",
                                            field="miss")])
        #: errors that do not stop the replay; ``replay`` reports them with the rest
        self.deferred_errors: list[dict] = []
        if not has_miss and self._miss:
            self.deferred_errors.append(record_error(
                f"miss: this deal ({self.pool_kind or r.game}) has no miss", field="miss"))
            self._miss = None
        # trumps: known at the deal, after trick 1 (simple pool), at the first void, or led
        self._trump_mode = r.trump_turned if self._three else "at-deal"
        if game == "three-card" and not self._double and not has_miss:
            self._trump_mode = "after-first-trick"
        self._trump: int | None = None
        if self._trump_mode == "at-deal" and self.turnup is not None:
            self._trump = SUIT[self.turnup]
        self._pam = -1
        if r.pam == "jack-of-clubs":
            self._pam = CLUBS * 13 + JACK - 2
        self._set_trump(self._trump)
        club_law = (r.club_law and self._trump == CLUBS and self._double
                    and self._trump_mode == "at-deal")
        if club_law:
            mode = "forced"
            self._has_miss = False
        if game == "poker-loo":
            mode = "forced" if first_of_series else "simultaneous"
        if final:  # end_pool "final-deal": everybody stands, no miss, no ante
            mode = "forced"
        self._mode = mode
        self._stock_size = (52 - (n - len(self._out_of_deal)) * hs - (3 if has_miss else 0)
                            - (1 if self._trump_mode in ("at-deal", "after-first-trick") else 0))
        self._drawn = 0
        self._discards: list[int] = []
        self._redrawn: set[int] = set()

        # money and offences
        self.books = Books(self.seats, pool)
        if not final and not (game == "poker-loo" and (
                (r.ante_first_deal_only and not first_of_series) or redeal)):
            ante_dealer, ante_each = r.antes_for(self._double and game == "three-card")
            antes = self.books.antes
            seat_names = self.seats
            if ante_dealer and d not in self._out_of_deal:
                antes[seat_names[d]] = ante_dealer
            if ante_each:
                for i in self._order:
                    if i != d and i not in self._out_of_deal:
                        antes[seat_names[i]] = ante_each
        self.violations: list[dict] = []
        self._offenders: list[int] = []       # play offenders (full loo once each)
        self._forced_pass: set[int] = _NOBODY  # looked at another hand before declaring
        self._ended = ""                      # how the deal ended
        self._flushes: list[tuple[int, list[int], int]] = []
        self._sits_out_next: list[str] = []
        self._unverified = False              # a result-only record
        self._result: dict | None = None      # the verdict, once given

        # declarations
        self._decl: list[str | None] = [None] * n
        self._miss_taker = -1
        self._defender = -1
        self._standers: list[int] = []
        self._exchanged: set[int] = set()
        self._ex_queue: list[int] = []
        self._won = [0] * n
        self._tricks: list[tuple[int, int, list[tuple[int, int]], int]] = []
        self._tcards: list[tuple[int, int]] = []
        self._trick_no = 0
        self._turn: list[int] = []
        self._pos = 0
        self._led = -1
        self._lead_card = -1
        self._best = 0
        self._civil = False
        self._civil_called = False
        self._pam_led = False
        self._in_trick: set[int] = _NOBODY  # who played out of turn to this trick
        self._head = r.must_head
        self._ace_first = r.trump_ace_first_trick
        self._special = False  # this trick needs the slow checks (Pam led, ace to trick 1)
        self._duty_upto = _DUTY_UPTO[r.lead_trump]
        self._lead_extra = r.lead_trump_ace or r.lead_highest_trump
        self._bold = False
        self.phase = DECLARE
        self._to_act = -1
        self._declared_order = [i for i in self._order if i not in self._out_of_deal] \
            if self._out_of_deal else self._order
        self._decl_cursor = 0
        if mode == "forced":
            self._decl = ["stand" if i not in self._out_of_deal else "out" for i in range(n)]
            self._after_declarations()
        elif mode == "eldest-miss":
            self._to_act = self._declared_order[0]
        else:
            self._next_declarer()

    # ---------------------------------------------------------------- small helpers
    def _cards(self, cards: Any, field: str, errors: list[dict], player: str | None = None
               ) -> list[int]:
        if type(cards) is list:
            if cards and type(cards[0]) is int:
                if all(type(c) is int and 0 <= c < 52 for c in cards):
                    return list(cards)
            else:
                try:
                    return [CODE[c] for c in cards]
                except (KeyError, TypeError):
                    pass
        out = []
        if isinstance(cards, (str, bytes)) or not isinstance(cards, Sequence):
            errors.append(record_error(f"{field}: must be a list of cards", field=field,
                                       player=player))
            return out
        for c in cards:
            if isinstance(c, int) and not isinstance(c, bool) and 0 <= c < 52:
                out.append(c)
                continue
            try:
                out.append(card_code(c))
            except ValueError:
                errors.append(record_error(f"{field}: {c!r} is not a card", field=field,
                                           card=str(c), player=player))
        return out

    def _set_trump(self, trump: int | None) -> None:
        self._trump = trump
        if trump is not None and self.rules.pam == "jack-of-trumps":
            self._pam = trump * 13 + JACK - 2
        self._es, self._key = card_tables(trump, self._pam)

    def _err(self, message: str, *, player: str | None = None, card: int | str | None = None,
             field: str | None = None) -> RecordError:
        if isinstance(card, int):
            card = NAME[card]
        return RecordError([record_error(message, player=player, card=card, field=field)])

    def _seat(self, action: Mapping[str, Any]) -> int:
        try:
            return self._idx[action["player"]]
        except (KeyError, TypeError):
            name = action.get("player") if isinstance(action, Mapping) else None
            raise self._err(f"player {name!r} is not a seat", player=str(name),
                            field="player") from None

    @property
    def to_act(self) -> str | None:
        """Whose turn it is, or None when the deal is over (or waiting for flushes)."""
        return self.seats[self._to_act] if self._to_act >= 0 and self.phase != OVER else None

    @property
    def trumps(self) -> str | None:
        return None if self._trump is None else SUITS[self._trump]

    @property
    def standers(self) -> list[str]:
        return [self.seats[i] for i in self._standers]

    def hand(self, player: str) -> list[str] | None:
        """The cards ``player`` holds now, when known."""
        h = self._hands[self._idx[player]]
        return None if h is None else _names(h)

    # ---------------------------------------------------------------- the public moves
    def push(self, action: Mapping[str, Any]) -> None:
        """Apply one record action: offences become violations, impossibilities RecordError."""
        try:
            kind = action["action"]
        except (KeyError, TypeError, IndexError):
            kind = None
        if kind == "play":
            self._push_play(action)
            return
        if self.phase == OVER and not (kind == "flush" and self._ended == "flush"):
            if self._ended == "thrown-in" and kind == "irregularity":
                return  # the rest of a thrown-in hand
            raise self._err(f"{kind}: the deal is already over", player=action.get("player"))
        if kind in ("stand", "pass", "take-miss", "defend", "fold"):
            self._push_declaration(action, "pass" if kind == "fold" else kind)
        elif kind == "exchange":
            self._push_exchange(action)
        elif kind == "flush":
            self._push_flush(action)
        elif kind == "irregularity":
            self._push_irregularity(action)
        else:
            raise self._err(f"unknown action {kind!r}", player=action.get("player")
                            if isinstance(action, Mapping) else None, field="action")

    # ---------------------------------------------------------------- declaring
    def _next_declarer(self) -> None:
        """Move the turn to the next undeclared player, resolving forced passes."""
        order, decl = self._declared_order, self._decl
        for k in range(self._decl_cursor, len(order)):
            i = order[k]
            if decl[i] is None:
                self._decl_cursor = k
                if self._mode == "sequential" and self._declaration_closes(i):
                    return
                self._to_act = i
                return
        self._after_declarations()

    def _declaration_closes(self, i: int) -> bool:
        """Everyone before the dealer passed: the dealer takes the pool without play."""
        if i != self._d or not self._three:
            return False
        others = [j for j in self._declared_order if j != i]
        if others and all(self._decl[j] == "pass" for j in others):
            if self._bold_applies():
                # bold stand: the last player in the round and the dealer must play
                self._decl[others[-1]] = "stand"
                self._bold = True
                return False
            self._standers = []
            self._end("dealer-takes")
            return True
        return False

    def declaration_options(self, player: str) -> list[str]:
        """The declarations ``player`` may make now (empty when it is not their turn)."""
        s = self._idx[player]
        if self.phase != DECLARE or s != self._to_act:
            return []
        if s in self._forced_pass:
            return ["pass"]
        if self._mode == "eldest-miss":
            return ["stand", "take-miss"]
        if self._mode == "simultaneous" or not self._three:
            return ["stand", "pass"]
        miss_free = self._has_miss and self._miss_taker < 0
        base = ["stand", "pass"] + (["take-miss"] if miss_free else [])
        others = [j for j in self._declared_order if j != self._d]
        if s != self._d:
            return base
        if self._bold:
            return ["stand"] + (["take-miss"] if miss_free else [])
        stood = [j for j in others if self._decl[j] == "stand"]
        took = [j for j in others if self._decl[j] == "take-miss"]
        if len(stood) == 1 and not took:
            opts = ["stand"] + (["take-miss"] if miss_free else []) + ["defend"]
            if self.rules.single_stander == "concede":
                opts.append("pass")
            return opts
        if len(took) == 1 and not stood:
            return ["stand", "pass"]
        return base

    def _bold_applies(self) -> bool:
        """``bold_stand``: the pool holds only this deal's antes and everyone else passed."""
        return self.rules.bold_stand and self.pool_before == 0 and self.rules.game == "three-card"

    def _push_declaration(self, action: Mapping[str, Any], kind: str) -> None:
        s = self._seat(action)
        if (s == self._to_act and self._mode == "sequential" and not self._three
                and self.phase == DECLARE and (kind == "stand" or kind == "pass")
                and s not in self._forced_pass):
            self._decl[s] = kind  # five-card: a plain stand or pass in turn
            self._next_declarer()
            return
        name = self.seats[s]
        if s in self._out_of_deal:
            raise self._err(f"{name} sits this deal out", player=name)
        if self._mode == "forced" or (self._mode == "eldest-miss" and self.phase != DECLARE):
            if kind == "stand" and not self._tricks and not self._tcards \
                    and self._decl[s] == "stand":
                return  # the record may spell out a declaration the rules force
            raise self._err(f"{name}: {kind} is not allowed, every player must play here",
                            player=name)
        if self.phase != DECLARE:
            if self._bold and kind == "stand" and self._decl[s] == "stand" \
                    and not self._tcards and not self._tricks:
                return
            raise self._err(f"{name}: cannot {kind} now, declaring is over", player=name)
        if self._decl[s] is not None:
            raise self._err(f"{name} has already declared ({self._decl[s]})", player=name)
        if self._mode == "simultaneous":
            if kind not in ("stand", "pass"):
                raise self._err(f"{name}: {kind} is not a poker-Loo declaration", player=name)
            self._decl[s] = kind
            self._next_declarer()
            return
        while s != self._to_act and self._to_act in self._forced_pass:
            self._decl[self._to_act] = "pass"  # looked at another hand: thrown up
            self._next_declarer()
            if self.phase != DECLARE:
                raise self._err(f"{name}: cannot {kind} now, declaring is over", player=name)
        if s != self._to_act:
            # declared out of turn: the declaration stands, a single loo is paid at once
            if self._mode == "eldest-miss":
                raise self._err(f"{name}: only eldest may take the miss in a simple pool",
                                player=name)
            self._offence(s, "declared-out-of-turn", None,
                          f"{name} declared before {self.seats[self._to_act]}", "single-loo")
            self._check_declaration(s, kind, self._options_for(s))
            self._apply_declaration(s, kind)
            return
        self._check_declaration(s, kind, self.declaration_options(name))
        self._apply_declaration(s, kind)
        if self._mode == "eldest-miss":
            for i in self._declared_order:
                if self._decl[i] is None:
                    self._decl[i] = "stand"
            self._after_declarations()
        else:
            self._next_declarer()

    def _options_for(self, s: int) -> list[str]:
        saved, self._to_act = self._to_act, s
        try:
            return self.declaration_options(self.seats[s])
        finally:
            self._to_act = saved

    def _check_declaration(self, s: int, kind: str, allowed: list[str]) -> None:
        if kind in allowed:
            return
        name = self.seats[s]
        if kind == "take-miss" and self._miss_taker >= 0:
            why = f"{self.seats[self._miss_taker]} has already taken the miss"
        elif kind == "take-miss":
            why = "there is no miss in this deal"
        elif kind == "pass" and s == self._d:
            why = "the dealer may not pass against a lone stander"
        elif kind == "pass":
            why = "this player may not pass here"
        elif kind == "defend":
            why = "only a dealer facing one player who stood on their own cards may defend"
        else:
            why = f"allowed: {', '.join(allowed) or 'nothing'}"
        raise self._err(f"{name}: {kind} is not allowed ({why})", player=name)

    def _apply_declaration(self, s: int, kind: str) -> None:
        self._decl[s] = kind
        if kind == "take-miss":
            self._miss_taker = s
            self._hands[s] = list(self._miss) if self._miss is not None else None
        elif kind == "defend":
            self._defender = s
            if self._has_miss:
                self._hands[s] = list(self._miss) if self._miss is not None else None

    def _after_declarations(self) -> None:
        """Who plays, and whether anyone plays at all."""
        r = self.rules
        self._to_act = -1
        standers = [i for i in self._order if self._decl[i] in ("stand", "take-miss", "defend")]
        self._standers = standers
        d = self._d
        if self._mode in ("forced", "eldest-miss"):
            pass
        elif self._three:
            if self._decl[d] == "pass":
                others = [i for i in standers if i != d]
                if len(others) == 1:
                    self._end("conceded")
                    return
        elif r.game == "five-card" or self._mode == "simultaneous":
            if not standers:
                self._end("nobody-stands")
                return
            if len(standers) == 1:
                self._end("lone-stander")
                return
        if r.game in ("irish", "five-card", "poker-loo"):
            limit = {"irish": 3, "five-card": 5, "poker-loo": 3}[r.game]
            if r.game == "poker-loo":
                dealt = self._n - len(self._out_of_deal)
                if self.first_of_series and dealt >= 7:  # the first deal's limits
                    limit = 0 if dealt >= 8 else 2
            self._ex_limit = limit
            self._ex_queue = list(standers)
            self.phase = EXCHANGE
            self._next_exchanger()
            return
        self._after_exchange()

    # ---------------------------------------------------------------- exchanging
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
            discard = self._cards(action.get("discard", []), "discard", errors, name)
            draw = self._cards(action["draw"], "draw", errors, name) if "draw" in action else None
            if errors:
                raise RecordError(errors)
            if len(set(discard)) != len(discard):
                raise self._err(f"{name} discards a card twice", player=name)
        else:
            discard, draw = parsed
        takes = self._dealer_must_take_turnup(s)
        hand = self._hands[s]
        if takes:
            if not discard:
                raise self._err(f"{name}: the dealer takes the turn-up and must discard at least "
                                "one card", player=name)
            if hand is not None:
                hand = hand + [self.turnup]
        n_draw = len(discard) - takes
        if n_draw > self._ex_limit:
            raise self._err(f"{name} exchanges {n_draw} cards; at most {self._ex_limit}",
                            player=name)
        if hand is not None:
            for c in discard:
                if c not in hand:
                    raise self._err(f"{name} discards {NAME[c]}, which is not in the hand",
                                    player=name, card=c)
        drawn = self._draw(s, n_draw, draw)
        if hand is not None:
            hand = [c for c in hand if c not in discard] + drawn
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

    def _exchange_out_of_order(self, s: int) -> None:
        """An exchange not in turn: refused, unless earlier standers simply kept their cards."""
        name = self.seats[s]
        if self.phase != EXCHANGE:
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
        """Cards off the top of the stock; once it runs out, from the shuffled discards."""
        name = self.seats[s]
        if given is not None and len(given) != count:
            raise self._err(f"{name} draws {len(given)} cards for {count} discarded",
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
                pile = [c for c in self._discards if c not in self._redrawn]
                if self._stock is None or not pile:
                    raise self._err(f"{name}: the draw must be recorded (the stock is not given"
                                    " or is used up)", player=name, field="draw")
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

    # ---------------------------------------------------------------- flushes
    def _push_flush(self, action: Mapping[str, Any]) -> None:
        s = self._seat(action)
        name = self.seats[s]
        r = self.rules
        redeal = r.flush == "three-trumps-redeal"
        if r.flush == "none":
            raise self._err(f"{name}: flushes are not played under these rules", player=name)
        if self._tcards or self._tricks:
            raise self._err(f"{name}: a flush is shown before the play", player=name)
        if not redeal and self.phase not in (FLUSH, OVER) and not (
                self.phase == EXCHANGE and s in self._standers):
            raise self._err(f"{name}: flushes are shown after the declarations", player=name)
        if self.phase == EXCHANGE:
            self._close_exchange()
        if not redeal and s not in self._standers:
            raise self._err(f"{name} is not standing and cannot show a flush", player=name)
        if any(f[0] == s for f in self._flushes):
            raise self._err(f"{name} has already shown a flush", player=name)
        hand = self._hands[s]
        if "cards" in action:
            errors: list[dict] = []
            shown = self._cards(action["cards"], "cards", errors, name)
            if errors:
                raise RecordError(errors)
            if hand is not None and sorted(shown) != sorted(hand):
                raise self._err(f"{name} shows {' '.join(_names(shown))} but holds "
                                f"{' '.join(_names(hand))}", player=name)
            hand = shown
        if hand is None:
            raise self._err(f"{name} shows a flush: the hand must be given to check it",
                            player=name, field="hands")
        if self._trump is None:
            raise self._err("turnup: the turn-up card is needed to judge a flush",
                            field="turnup")
        cls = flush_class(r, hand, self._trump, self._pam)
        if cls is None:
            raise self._err(f"{name} shows {' '.join(_names(hand))}, which is not a flush",
                            player=name)
        self._flushes.append((s, list(hand), cls))
        if redeal:
            self._end("redeal")
            return
        self.phase = OVER
        self._ended = "flush"
        self._to_act = -1

    # ---------------------------------------------------------------- irregularities
    def _push_irregularity(self, action: Mapping[str, Any]) -> None:
        s = self._seat(action)
        name = self.seats[s]
        kind = action.get("kind")
        if kind not in IRREGULARITY_KINDS:
            raise self._err(f"{name}: unknown irregularity kind {kind!r}", player=name,
                            field="kind")
        card = action.get("card")
        c = None
        if card is not None:
            errors: list[dict] = []
            parsed = self._cards([card], "card", errors, name)
            if errors:
                raise RecordError(errors)
            c = parsed[0]
        evidence = action.get("evidence") or f"recorded by the table: {name} {kind}"
        if kind == "misdeal":
            if self._tcards or self._tricks:
                raise self._err("misdeal: a misdeal is seen before the play", player=name)
            self.books.antes.clear()  # the deal is void; the same dealer deals (and antes) again
            self._offence(s, kind, c, evidence, "single-loo")
            self._standers = []
            self._end("misdeal")
            return
        if kind in SINGLE_LOO_KINDS:
            self._offence(s, kind, c, evidence, "single-loo")
            return
        if kind == "looked-at-hand" and self.phase == DECLARE and self._decl[s] is None:
            self._forced_pass = self._forced_pass | {s}  # must throw up: the only declaration left is a pass
        self._offence(s, kind, c, evidence, "full-loo")

    def _offence(self, s: int, rule: str, card: int | None, evidence: str, penalty: str) -> None:
        """Record a violation; play offenders are looed once (poker-Loo: burned, hand void)."""
        poker = self.rules.game == "poker-loo"
        if penalty == "full-loo" and poker:
            penalty = "burn"
        self.violations.append({
            "player": self.seats[s], "rule": rule,
            "trick": self._trick_no if self.phase == PLAY and self._trick_no else None,
            "card": None if card is None else NAME[card], "evidence": evidence,
            "penalty": penalty})
        if penalty == "single-loo":
            self.books.add(self.books.penalties, self.seats[s], self.rules.single_loo)
        elif s not in self._offenders:
            self._offenders.append(s)
            if poker and self.phase != OVER:
                self._sits_out_next = [self.seats[s]]
                self._end("thrown-in")

    # ---------------------------------------------------------------- playing
    def _start_play(self) -> None:
        self._trick_no = 1
        self._to_act = -1
        players = self._standers
        if not players:
            self._end("nobody-stands")
            return
        self.phase = PLAY
        self._begin_trick(players[0])

    def _begin_trick(self, leader: int) -> None:
        order = self._standers
        k = order.index(leader)
        self._turn = order[k:] + order[:k]
        self._pos = 0
        self._tcards = []
        self._in_trick = _NOBODY
        self._led = -1
        self._lead_card = -1
        self._best = 0
        self._civil = False
        self._civil_called = False
        self._pam_led = False
        self._to_act = self._turn[0] if self._turn else -1

    def _enter_play(self, s: int) -> None:
        """A play arrives while exchanges or flushes are still open: they are all skipped."""
        if self.phase == EXCHANGE:
            self._close_exchange()
        if self.phase == FLUSH:
            self._start_play()
        while self.phase == DECLARE and self._to_act in self._forced_pass:
            self._decl[self._to_act] = "pass"
            self._next_declarer()
        if self.phase == DECLARE and self._bold and self._to_act == self._d:
            self._decl[self._d] = "stand"
            self._after_declarations()
        if self.phase == DECLARE and self._mode == "eldest-miss":
            for i in self._declared_order:
                if self._decl[i] is None:
                    self._decl[i] = "stand"
            self._after_declarations()
            if self.phase == FLUSH:
                self._start_play()
        if self.phase == DECLARE:
            name = self.seats[s]
            raise self._err(f"{name} plays before the declarations are over "
                            f"({self.seats[self._to_act]} to declare)", player=name)

    def _push_play(self, action: Mapping[str, Any]) -> None:
        if self.phase != PLAY:
            if self.phase == OVER:
                if self._ended == "thrown-in":
                    return
                raise self._err("play: the deal is already over",
                                player=action.get("player"), card=action.get("card"))
            self._enter_play(self._seat(action))
            if self.phase != PLAY:
                raise self._err("play: the deal is already over", player=action.get("player"))
        try:
            s = self._idx[action["player"]]
        except (KeyError, TypeError):
            s = self._seat(action)
        cardtext = action.get("card")
        try:
            c = CODE[cardtext]
        except (KeyError, TypeError):
            try:
                c = card_code(cardtext)
            except ValueError:
                raise self._err(f"{cardtext!r} is not a card", player=self.seats[s],
                                card=str(cardtext), field="card") from None
        self._push_card(s, c, action)

    def _push_card(self, s: int, c: int, action: Mapping[str, Any]) -> None:
        """A play of card ``c`` by seat ``s`` (``replay`` comes here with both already read)."""
        if self.phase != PLAY:
            self._push_play(action)
            return
        hand = self._hands[s]
        if hand is None or c not in hand:
            raise self._cannot_hold(s, c)
        if s != self._to_act:
            self._play_out_of_turn(s, c)
            return
        if self._lead_card < 0:
            self._civil_called = action.get("say") == "pam-be-civil"
        self._play(s, c, hand)

    def _cannot_hold(self, s: int, c: int) -> RecordError:
        name = self.seats[s]
        if s not in self._standers:
            return self._err(f"{name} is not playing this deal", player=name, card=c)
        where = ""
        for t in self._tricks:
            for p, x in t[2]:
                if x == c:
                    where = f": {self.seats[p]} played it to trick {t[0]}"
        for p, x in self._tcards:
            if x == c:
                where = f": {self.seats[p]} played it to this trick"
        if not where:
            for i, h in enumerate(self._hands):
                if h and c in h and i != s:
                    where = f": it is in {self.seats[i]}'s hand"
            if self._miss and c in self._miss and s != self._miss_taker:
                where = ": it is in the miss"
            if c == self.turnup:
                where = ": it is the turn-up card"
        if any(p == s for p, _ in self._tcards):
            return self._err(f"{name} plays twice to trick {self._trick_no}", player=name, card=c)
        return self._err(f"{name} cannot hold {NAME[c]}{where}", player=name, card=c)

    def _play_out_of_turn(self, s: int, c: int) -> None:
        name = self.seats[s]
        again = any(p == s for p, _ in self._tcards)
        if s not in self._turn or again:
            if again:
                raise self._err(f"{name} plays twice to trick {self._trick_no}", player=name,
                                card=c)
            raise self._err(f"{name} is not playing this deal", player=name, card=c)
        due = self.seats[self._to_act]
        self._offence(s, "played-out-of-turn", c, f"{name} played {NAME[c]} when {due} was to "
                      "play", "full-loo")
        if self.phase == OVER:
            return
        self._play(s, c, self._hands[s], in_turn=False)

    def _play(self, s: int, c: int, hand: list[int], in_turn: bool = True) -> None:
        tc = self._tcards
        lead = self._lead_card
        if not in_turn:
            found = None  # the offence is playing out of turn; the card's duties are not judged
        elif lead >= 0:
            if self._es[c] == self._led and not self._head and not self._special \
                    and c != self._pam:
                found = None  # following suit with no duty to head: nothing to judge
            else:
                if self._trump is None and self._trump_mode == "on-first-void":
                    self._turn_on_void(hand)
                found = self._judge_follow(s, c, hand)
        else:
            if self._trump is None:
                if self._trump_mode == "first-lead":
                    self._set_trump(SUIT[c])
                elif self._trump_mode == "at-deal":
                    raise self._err("turnup: the turn-up card is needed to know trumps",
                                    field="turnup")
            found = self._judge_lead(c, hand)
        if found is not None:
            self._offence(s, found[0], c, found[1], "full-loo")
            if self.phase == OVER:
                return
        hand.remove(c)
        key = self._key[c]
        if in_turn and lead < 0:
            es = self._es
            self._lead_card = c
            led = self._led = es[c]
            for _, x in tc:  # cards played out of turn before the lead count from now on
                if (es[x] == led or es[x] == self._trump) and self._key[x] > key:
                    key = self._key[x]
            self._best = key
            self._pam_led = c == self._pam
            self._special = self._pam_led or (self._ace_first and self._trick_no == 1
                                              and self._trump is not None)
            if self._pam >= 0 and self._trump is not None \
                    and c == self._trump * 13 + ACE - 2:
                self._lead_civility(hand)
            else:
                self._civil_called = False
        elif lead >= 0:
            es = self._es[c]
            if (es == self._led or es == self._trump) and key > self._best:
                self._best = key
        tc.append((s, c))
        if in_turn:
            pos = self._pos = self._pos + 1
            turn = self._turn
            if pos < len(turn) and turn[pos] not in self._in_trick:
                self._to_act = turn[pos]
                return
        else:
            self._in_trick = self._in_trick | {s}
        self._advance()

    def _advance(self) -> None:
        turn = self._turn
        while self._pos < len(turn) and turn[self._pos] in self._in_trick:
            self._pos += 1
        if len(self._tcards) < len(turn):
            self._to_act = turn[self._pos]
            return
        self._finish_trick()

    def _finish_trick(self) -> None:
        if self._trump is None and self._trump_mode == "after-first-trick":
            if self.turnup is None:
                raise self._err("turnup: the card turned after the first trick is needed",
                                field="turnup")
            self._set_trump(SUIT[self.turnup])
        es, key, trump = self._es, self._key, self._trump
        led = es[self._lead_card]
        win, best = -1, -1
        for p, x in self._tcards:
            e = es[x]
            k = key[x] if (e == led or e == trump) else 0
            if k > best:
                win, best = p, k
        self._tricks.append((self._trick_no, self._turn[0], self._tcards, win))
        self._won[win] += 1
        if self._trick_no >= self._hand_size:
            self._end("played")
            return
        self._trick_no += 1
        self._begin_trick(win)
        if not self._turn:
            self._end("played")

    def _turn_on_void(self, hand: list[int]) -> None:
        """``trump_turned: on-first-void``: trumps are turned when a player cannot follow."""
        led = self._led
        if any(SUIT[x] == led for x in hand):
            return
        if self.turnup is None:
            raise self._err("turnup: trumps were turned when a player could not follow; the "
                            "turn-up card is needed", field="turnup")
        self._set_trump(SUIT[self.turnup])
        es, key = self._es, self._key
        self._best = max((key[x] if es[x] in (led, self._trump) else 0)
                         for _, x in self._tcards)

    # ---------------------------------------------------------------- the duties
    def _first_trick_card(self) -> int:
        """``trump_ace_first_trick``: the card its holder must play to trick 1 (ace or Pam)."""
        if self._pam >= 0:
            return self._pam
        return self._trump * 13 + ACE - 2  # type: ignore[operator]

    def _lead_ace(self) -> int:
        """The trump a leader must lead under ``lead_trump_ace``: the ace, or the king when the
        ace is the turn-up card."""
        ace = self._trump * 13 + ACE - 2  # type: ignore[operator]
        return ace - 1 if ace == self.turnup else ace

    def _judge_lead(self, c: int, hand: list[int]) -> tuple[str, str] | None:
        trump = self._trump
        if trump is None:
            return None
        duty = self._trick_no <= self._duty_upto
        if not duty and not self._ace_first:
            return None
        es = self._es
        if duty and es[c] == trump and not self._lead_extra and not self._ace_first:
            return None
        r = self.rules
        if r.trump_ace_first_trick and self._trick_no == 1:
            must = self._first_trick_card()
            if must in hand and c != must:
                return ("failed-to-play-trump-ace",
                        f"held {NAME[must]} and led {NAME[c]} to the first trick")
        if not duty:
            return None
        key = self._key
        if es[c] == trump:
            if r.lead_trump_ace:
                ace = self._lead_ace()
                if ace in hand and c != ace:
                    return ("failed-to-lead-trump-ace", f"led {NAME[c]} holding {NAME[ace]}")
            if r.lead_highest_trump:
                top = max((x for x in hand if es[x] == trump), key=key.__getitem__)
                if top != c:
                    return ("failed-to-lead-highest-trump",
                            f"led {NAME[c]} holding the higher trump {NAME[top]}")
            return None
        for x in hand:
            if es[x] == trump:
                return ("failed-to-lead-trump", f"led {NAME[c]} holding the trump {NAME[x]}")
        return None

    def _lead_civility(self, hand_after: list[int]) -> None:
        """The ace of trumps is led: does Pam have to be civil (``pam_be_civil``), and was
        civility called at all (for ``pam_follows_trump``)?"""
        mode = self.rules.pam_be_civil
        said = self._civil_called
        self._civil = mode == "automatic" or (mode == "binding" and said)
        king = self._trump * 13 + KING - 2  # type: ignore[operator]
        self._civil_called = self._civil or (said and (
            mode == "request" or (mode == "request-if-next-trump" and king in hand_after)))

    def _judge_follow(self, s: int, c: int, hand: list[int]) -> tuple[str, str] | None:
        es = self._es
        ce = es[c]
        led = self._led
        pam = self._pam
        if ce == led and c != pam and not self._special:
            # following suit, the common case: heading is the only duty left
            if not self._head:
                return None
            key = self._key
            best = self._best
            if key[c] > best or (best >= TRUMP_KEY and led != self._trump):
                return None
            for x in hand:
                if es[x] == led and x != pam and key[x] > best:
                    return ("failed-to-head", (f"held {NAME[x]}, which beats "
                             f"{self._best_name()}, and played {NAME[c]}"))
            return None
        key, trump = self._key, self._trump
        r = self.rules
        if r.trump_ace_first_trick and self._trick_no == 1 and trump is not None:
            must = self._first_trick_card()
            if must in hand and c != must:
                return ("failed-to-play-trump-ace",
                        f"held {NAME[must]} and played {NAME[c]} to the first trick")
            if c == must:
                return None
        if ce == led and c != pam and not self._pam_led:
            # following suit, the common case: heading is the only duty left
            best = self._best
            if r.must_head and key[c] < best and (best < TRUMP_KEY or led == trump):
                for x in hand:
                    if es[x] == led and x != pam and key[x] > best:
                        return ("failed-to-head", (f"held {NAME[x]}, which beats "
                                 f"{self._best_name()}, and played {NAME[c]}"))
            return None
        lead_card = self._lead_card
        if self._pam_led:
            if ce != trump:
                for x in hand:
                    if es[x] == trump:
                        return ("failed-to-play-trump-to-pam",
                                f"held the trump {NAME[x]} when Pam was led, played {NAME[c]}")
            return None
        if c == pam:
            if r.pam_follows_trump and led != trump:
                for x in hand:
                    if es[x] == led and x != pam:
                        return ("revoke", f"played Pam to a {SUITS[led]} lead holding {NAME[x]}")
            if self._civil:
                for x in hand:
                    if es[x] == trump and x != pam:
                        return ("pam-not-civil", (f"played Pam after \"Pam be civil\" holding the "
                                 f"trump {NAME[x]}"))
            return None
        for x in hand:
            if es[x] == led and x != pam:
                return ("revoke", f"held {NAME[x]} when {NAME[lead_card]} was led")
        # void in the suit led
        if r.pam_follows_trump and led == trump and pam in hand and not self._civil_called:
            return ("revoke", f"held Pam and no other trump when {NAME[lead_card]} was led")
        if trump is None or led == trump or not r.must_trump:
            return None
        trumps = [x for x in hand if es[x] == trump]
        if not trumps:
            return None
        best = self._best
        if best < TRUMP_KEY:
            if ce != trump:
                return ("failed-to-trump", (f"could not follow {NAME[lead_card]}, held the trump "
                         f"{NAME[trumps[0]]} and played {NAME[c]}"))
            return None
        over = [x for x in trumps if key[x] > best]
        if over and (ce != trump or key[c] < best):
            return ("failed-to-overtrump", (f"held {NAME[over[0]]}, which beats "
                     f"{self._best_name()}, and played {NAME[c]}"))
        if not over and r.must_undertrump and ce != trump:
            return ("failed-to-trump", (f"could not follow {NAME[lead_card]} nor overtrump, held "
                     f"the trump {NAME[trumps[0]]} and played {NAME[c]}"))
        return None

    def _best_name(self) -> str:
        es, key = self._es, self._key
        led = self._led
        best = max(self._tcards, key=lambda pc: key[pc[1]] if es[pc[1]] in (led, self._trump)
                   else 0)
        return NAME[best[1]]

    # ---------------------------------------------------------------- asking what is legal
    def play_violation(self, player: str, card: str | int) -> str | None:
        """The rule playing ``card`` now would break, or None if the play is legal."""
        s = self._idx[player]
        c = card if isinstance(card, int) else card_code(card)
        if self.phase not in (PLAY, FLUSH, EXCHANGE) or self._hands[s] is None:
            raise self._err(f"{player} cannot play now", player=player)
        if self.phase != PLAY:
            return self._probe(lambda: self.play_violation(player, c))
        hand = self._hands[s]
        if c not in hand:
            raise self._cannot_hold(s, c)
        if s != self._to_act:
            return "played-out-of-turn"
        return self._probe_judge(s, c, hand)

    def _probe_judge(self, s: int, c: int, hand: list[int]) -> str | None:
        saved = (self._trump, self._pam, self._es, self._key, self._best)
        try:
            if self._lead_card >= 0:
                if self._trump is None and self._trump_mode == "on-first-void":
                    self._turn_on_void(hand)
                found = self._judge_follow(s, c, hand)
            else:
                if self._trump is None and self._trump_mode == "first-lead":
                    self._set_trump(SUIT[c])
                found = self._judge_lead(c, hand)
        finally:
            self._trump, self._pam, self._es, self._key, self._best = saved
        return None if found is None else found[0]

    def _probe(self, fn: Any) -> Any:
        """Evaluate ``fn`` as if play had begun now, then restore the state."""
        saved = {k: getattr(self, k) for k in self.__slots__ if hasattr(self, k)}
        try:
            self._ex_queue = []
            if self.phase == EXCHANGE:
                self._after_exchange()
            if self.phase == FLUSH:
                self._start_play()
            return fn() if self.phase == PLAY else None
        finally:
            for k, v in saved.items():
                setattr(self, k, v)

    def legal_plays(self, player: str) -> list[str]:
        """Cards ``player`` may play now without any violation (empty if not their turn)."""
        s = self._idx[player]
        if self.phase in (FLUSH, EXCHANGE) and not self._flushes:
            return self._probe(lambda: self.legal_plays(player)) or []
        if self.phase != PLAY or s != self._to_act or self._hands[s] is None:
            return []
        hand = self._hands[s]
        return [NAME[c] for c in hand if self._probe_judge(s, c, hand) is None]

    def legal_actions(self) -> list[dict]:
        """Every action allowed now, in record format (the simulator picks among them)."""
        if self.phase == OVER or self._to_act < 0 and self.phase != FLUSH:
            return []
        if self.phase == DECLARE:
            name = self.seats[self._to_act]
            return [{"player": name, "action": a} for a in self.declaration_options(name)]
        if self.phase == EXCHANGE:
            return self._exchange_actions()
        if self.phase == FLUSH:
            out = [{"player": self.seats[s], "action": "flush"} for s in self._standers
                   if self._hands[s] is not None and not any(f[0] == s for f in self._flushes)
                   and flush_class(self.rules, self._hands[s], self._trump, self._pam)
                   is not None]
            if not self._flushes:
                out.extend(self._probe(self.legal_actions) or [])
            return out
        name = self.seats[self._to_act]
        out = []
        for card in self.legal_plays(name):
            out.append({"player": name, "action": "play", "card": card})
            if (self._lead_card < 0 and self._pam >= 0 and self._trump is not None
                    and card == NAME[self._trump * 13 + ACE - 2]
                    and self.rules.pam_be_civil in ("binding", "request",
                                                    "request-if-next-trump")):
                out.append({"player": name, "action": "play", "card": card,
                            "say": "pam-be-civil"})
        return out

    def _exchange_actions(self) -> list[dict]:
        s = self._to_act
        name = self.seats[s]
        hand = self._hands[s]
        if hand is None:
            return [{"player": name, "action": "exchange", "discard": [], "draw": []}]
        takes = self._dealer_must_take_turnup(s)
        pool = hand + [self.turnup] if takes else list(hand)
        out = []
        top = self._ex_limit + (1 if takes else 0)
        # what can be drawn: the stock, then (once it runs out) the earlier discards
        supply = [] if self._stock is None else (
            self._stock[self._stock_pos:] + [c for c in self._discards if c not in self._redrawn])
        for k in range(1 if takes else 0, top + 1):
            n_draw = k - (1 if takes else 0)
            if n_draw > len(supply):
                break
            draw = _names(supply[:n_draw])
            for discard in combinations(pool, k):
                out.append({"player": name, "action": "exchange", "discard": _names(discard),
                            "draw": list(draw)})
        return out

    # ---------------------------------------------------------------- the end
    def _end(self, how: str) -> None:
        self.phase = OVER
        self._ended = how
        self._to_act = -1

    @property
    def over(self) -> bool:
        return self.phase == OVER

    def finish(self) -> None:
        """Close the record: a deal that stops short without a reason is a record error."""
        if self.phase == OVER:
            return
        if self.phase == FLUSH and not self._flushes:
            raise self._err("the record stops before the play", field="actions")
        if self.phase == PLAY:
            raise self._err(f"the record stops in trick {self._trick_no} of {self._hand_size}"
                            f" ({self.seats[self._to_act]} to play)", field="actions",
                            player=self.seats[self._to_act])
        if self.phase == EXCHANGE:
            raise self._err(f"the record stops during the exchange "
                            f"({self.seats[self._to_act]} to exchange)", field="actions")
        who = self.seats[self._to_act] if self._to_act >= 0 else None
        raise self._err(f"the record stops during the declarations ({who} to declare)",
                        field="actions", player=who)

    def verdict(self) -> dict:
        """The verdict of deal-record.md for a deal that is over."""
        if self.phase != OVER:
            self.finish()
        if self._result is None:
            self._result = build_verdict(self)
        return self._result


__all__ = ["ENGINE_VERSION", "Deal", "card_tables"]
