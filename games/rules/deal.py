"""One deal of Loo as a state machine: declaring, exchanging, flushes, tricks, the verdict.

``Deal`` is the one definition of "legal" in the project: ``replay`` pushes a record's actions
through it, the simulator picks among ``legal_actions()``, and ``play_violation`` names the
rule a card would break. Cards are small ints (see ``cards``); a hand is a short list; the
checks on every play index precomputed tables so a replay stays fast.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, cast

from .cards import ACE, CLUBS, CODE, JACK, NAME, SUIT, SUITS, card_code, card_names, count_cards
from .declaring import Declaring
from .duties import DUTY_UPTO, Duties, card_tables
from .errors import RecordError, not_a_card, not_a_seat, numbered_cards, record_error, shown
from .exchanging import Exchanging
from .flushes import ShowingFlushes
from .options import GAME_NAMES, RuleSet, rules_from
from .phases import (
    ACTIONS,
    DECLARATION_ALIASES,
    DECLARATIONS,
    DECLARE,
    EXCHANGE,
    FLUSH,
    IN_PLAY_KINDS,
    IRREGULARITY_KINDS,
    NOBODY,
    OVER,
    OWN_CARD_KINDS,
    PLAY,
    SINGLE_LOO_KINDS,
    is_named,
    unknown_action,
    unknown_kind,
)
from .settlement import Books
from .state import DEAL_ATTRIBUTES
from .verdict import build_verdict
from .version import ENGINE_VERSION

_NOBODY = NOBODY
#: every action name a record may give (the format's, and the aliases read as one of them)
_ACTION_NAMES = frozenset(ACTIONS) | frozenset(DECLARATION_ALIASES)


class _Setup:
    """What a deal's set-up takes from the rules and the table alone (seats, dealer, who sits
    out, the kind of pool, the deal's place in a series): worked out once per table and shared
    by its deals. Deals only read ``idx``, ``order`` and the other tuples; the ``antes`` are
    copied into each deal's books; everything a deal changes is its own."""

    __slots__ = ('ace_first', 'antes', 'club_law', 'club_mode', 'd', 'declared_order', 'double',
                 'duty_upto', 'forced_decl', 'hand_size', 'has_miss', 'head', 'idx',
                 'lead_extra', 'mode', 'n', 'order', 'out_of_deal', 'pam', 'pool_kind', 'rules',
                 'stock_size', 'three', 'trump_mode')

    def __init__(self, r: RuleSet, seats: Sequence[str], dealer: str, simple_pool: bool,
                 first_of_series: bool, redeal: bool, sits_out: Sequence[str], final: bool):
        self.rules = r
        n = self.n = len(seats)
        idx = self.idx = {name: i for i, name in enumerate(seats)}
        if dealer not in idx:
            raise RecordError([record_error(f"dealer: {shown(dealer)} is not a seat", field="dealer",
                                            player=dealer)])
        d = self.d = idx[dealer]
        order = self.order = tuple((d + 1 + i) % n for i in range(n))  # eldest .. dealer
        out = self.out_of_deal = frozenset(idx[s] for s in sits_out if s in idx) \
            if sits_out else _NOBODY
        self.declared_order = tuple(i for i in order if i not in out) if out else order
        self.forced_decl = tuple("stand" if i not in out else "out" for i in range(n))
        hs = self.hand_size = r.hand_size

        game = r.game
        self.three = game in ("three-card", "irish")
        self.pool_kind: str | None = None
        has_miss = False
        mode = "sequential"
        if game == "three-card":
            double = r.pools == "always-double" or not simple_pool or final
            self.pool_kind = "double" if double else "simple"
            has_miss = (double or r.simple_pool == "miss-and-trump") and not final
            if not double:
                mode = "eldest-miss" if has_miss else "forced"
        self.double = self.pool_kind != "simple"
        self.has_miss = has_miss
        # trumps: known at the deal, after trick 1 (simple pool), at the first void, or led
        trump_mode = r.trump_turned if self.three else "at-deal"
        if game == "three-card" and not self.double and not has_miss:
            trump_mode = "after-first-trick"
        self.trump_mode = trump_mode
        self.pam = CLUBS * 13 + JACK - 2 if r.pam == "jack-of-clubs" else -1
        # club law: every player plays when clubs are trumps (the deal's turn-up decides)
        self.club_law = r.club_law and self.double and trump_mode == "at-deal"
        club_mode = "forced"
        if game == "poker-loo":
            mode = club_mode = "forced" if first_of_series else "simultaneous"
        if final:  # end_pool "final-deal": everybody stands, no miss, no ante
            mode = club_mode = "forced"
        self.mode = mode
        self.club_mode = club_mode
        # the trump card is set aside at the deal, turned at once, after the first trick or at
        # the first void ("не вскрывается", is not *revealed*, until then: 001:38): it is never
        # drawn in an exchange. Only a first-lead deal has none.
        self.stock_size = (52 - (n - len(out)) * hs - (3 if has_miss else 0)
                           - (0 if trump_mode == "first-lead" else 1))

        self.antes: dict[str, int] = {}
        if not (final or (r.ante_first_deal_only and not first_of_series)
                or (game == "poker-loo" and redeal)):
            ante_dealer, ante_each = r.antes_for(self.double and game == "three-card")
            if ante_dealer and d not in out:
                self.antes[seats[d]] = ante_dealer
            if ante_each:
                for i in order:
                    if i != d and i not in out:
                        self.antes[seats[i]] = ante_each
        self.head = r.must_head
        self.ace_first = r.trump_ace_first_trick
        self.duty_upto = DUTY_UPTO[r.lead_trump]
        self.lead_extra = r.lead_trump_ace or r.lead_highest_trump


_SETUPS: dict[tuple, _Setup] = {}
_SETUPS_KEPT = 512


def _setup(r: RuleSet, seats: Sequence[str], dealer: str, pool: int, first_of_series: bool,
           redeal: bool, sits_out: Sequence[str], final: bool) -> _Setup:
    """The table's ``_Setup``, from the cache when this table has dealt under these rules.

    Rule sets are keyed by identity (``RuleSet.from_options`` hands out one object per set of
    options, and hashing all its fields would cost more than it saves); the entry keeps its
    rule set alive, so the id cannot be reused while the entry stands.
    """
    key = (id(r), tuple(seats), dealer, pool == 0, first_of_series, redeal, tuple(sits_out),
           final)
    found = _SETUPS.get(key)
    if found is not None:
        return found
    found = _Setup(r, seats, dealer, pool == 0, first_of_series, redeal, sits_out, final)
    if len(_SETUPS) >= _SETUPS_KEPT:
        _SETUPS.clear()
    _SETUPS[key] = found
    return found


class Deal(Declaring, Exchanging, ShowingFlushes, Duties):
    """The state of one deal; push record actions, ask what is legal, read the verdict."""

    __slots__ = ()

    # (``turnup`` is any object: ``replay`` passes the record's value on, and what is not a card
    # is refused here as a record error)
    def __init__(self, rules: RuleSet | Mapping[str, Any], seats: Sequence[str], dealer: str, *,
                 pool: int = 0, hands: Mapping[str, Sequence[str | int] | None] | None = None,
                 miss: Sequence[str | int] | None = None, turnup: object = None,
                 stock: Sequence[str | int] | None = None, first_of_series: bool = True,
                 redeal: bool = False, sits_out: Sequence[str] = (),
                 inferred: Sequence[str] = (), final: bool = False,
                 inferred_miss: bool = False):
        r = self.rules = rules if type(rules) is RuleSet else rules_from(rules)
        t = _setup(r, seats, dealer, pool, first_of_series, redeal, sits_out, final)
        self.seats = list(seats)
        n = self._n = t.n
        idx = self._idx = t.idx
        self.dealer = dealer
        self._d = t.d
        self._order = t.order
        self.pool_before = pool
        self.first_of_series = first_of_series
        self._out_of_deal = t.out_of_deal
        self._redeal = redeal
        hs = self._hand_size = t.hand_size
        errors: list[dict] = []
        dealt: list[list[int] | None] = [None] * n
        self._hands = dealt
        #: the seats whose hands were read back from their plays (not given): they may hold
        #: a card nobody plays
        self._inferred = frozenset(idx[name] for name in inferred if name in idx)
        known: list[int] = []
        if hands:
            for name, cards in hands.items():
                try:
                    i = idx[name]
                except KeyError:
                    errors.append(record_error(f"hands: {shown(name)} is not a seat", field="hands",
                                               player=name))
                    continue
                if cards is None:
                    continue
                if name in inferred:  # read back from the plays, ints already
                    hand = cast("list[int]", cards)
                else:
                    hand = self._cards(cards, f"hands.{name}", errors, name)
                    if len(hand) != hs:
                        errors.append(record_error(
                            f"hands: {name} holds {count_cards(len(hand))}, {GAME_NAMES[r.game]} "
                            f"deals {hs} cards a hand",
                            field="hands", player=name))
                dealt[i] = hand
            for held in dealt:
                if held:
                    known += held
        self._miss = self._cards(miss, "miss", errors) if miss is not None else None
        self.turnup = None
        if turnup is not None:
            c = CODE.get(turnup) if type(turnup) is str else None
            if c is None:
                read = self._cards([turnup], "turnup", errors)
                c = read[0] if read else None
            self.turnup = c
        self._stock = self._cards(stock, "stock", errors) if stock is not None else None
        self._stock_pos = 0
        if self._miss:
            known += self._miss
        if self._stock:
            known += self._stock
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

        self._three = t.three
        self.pool_kind = t.pool_kind
        self._double = t.double
        has_miss = self._has_miss = self._miss_dealt = t.has_miss  # (club law may not use it)
        if has_miss and self._miss is not None and len(self._miss) != 3 and not inferred_miss:
            raise RecordError([record_error(f"miss: holds {count_cards(len(self._miss))}, not 3",
                                            field="miss")])
        #: errors that do not stop the replay; ``replay`` reports them with the rest
        self.deferred_errors: list[dict] = []
        if not has_miss and self._miss:
            self.deferred_errors.append(record_error(
                f"miss: this deal ({self.pool_kind or r.game}) has no miss", field="miss"))
            self._miss = None
        for i in sorted(t.out_of_deal) if hands else ():
            if dealt[i] and i not in self._inferred:  # (a sitter-out's plays are refused)
                self.deferred_errors.append(record_error(
                    f"hands: {seats[i]} sits this deal out and is dealt no cards",
                    field="hands", player=seats[i]))
        trump_mode = self._trump_mode = t.trump_mode
        if trump_mode == "first-lead" and self.turnup is not None:
            # "Sem carta virada" (no card turned, 003:57): the first card led makes trumps
            self.deferred_errors.append(record_error(
                f"turnup: no card is turned in this deal (trump_turned \"first-lead\": the first "
                f"card led makes trumps), not {NAME[self.turnup]}", field="turnup",
                card=NAME[self.turnup]))
        self._pam = t.pam
        self._set_trump(SUIT[self.turnup] if trump_mode == "at-deal" and self.turnup is not None
                        else None)
        mode = t.mode
        if t.club_law and self._trump == CLUBS:
            mode = t.club_mode
            self._has_miss = False
        self._mode = mode
        self._stock_size = t.stock_size
        if self._stock is not None and len(self._stock) > t.stock_size:
            # (a stock may give only the top of the real one, never more than the deal leaves)
            dealt_out = ["the hands"] + (["the miss"] if has_miss else []) \
                + ([] if trump_mode == "first-lead" else ["the trump card"])
            self.deferred_errors.append(record_error(
                f"stock: holds {count_cards(len(self._stock))}, but this deal leaves {t.stock_size} "
                f"after {', '.join(dealt_out[:-1])}{' and ' if len(dealt_out) > 1 else ''}"
                f"{dealt_out[-1]}",
                field="stock"))
        self._drawn = 0
        self._discards: list[int] = []
        self._redrawn: set[int] = set()

        # money and offences
        self.books = Books(self.seats, pool)
        if t.antes:
            self.books.antes.update(t.antes)
        self.violations: list[dict] = []
        self._offenders: list[int] = []       # play offenders (full loo once each)
        self._forced_pass = _NOBODY  # looked at another hand before declaring
        self._ended = ""                      # how the deal ended
        self._flushes: list[tuple[int, list[int], int]] = []
        self._sits_out_next: list[str] = []
        self._unverified = False              # a result-only record
        self._result: dict | None = None      # the verdict, once given

        # declarations
        self._miss_taker = -1
        #: cards seen going into a hand the record does not give (drawn, the turn-up kept)
        self._known_held: dict[int, set[int]] = {}
        self._defender = -1
        self._standers: list[int] = []
        self._exchanged: set[int] = set()
        self._ex_queue: list[int] = []
        self._won = [0] * n
        self._tricks: list[tuple[int, int, list[tuple[int, int]], int]] = []
        self._trick_no = 0
        self._reset_trick([])
        self._head = t.head
        self._ace_first = t.ace_first
        self._duty_upto = t.duty_upto
        self._lead_extra = t.lead_extra
        self._bold = False
        self._made_up = False                 # declarations made up after a record error
        self.phase = DECLARE
        self._to_act = -1
        self._declared_order = t.declared_order
        self._decl_cursor = 0
        if mode == "forced":
            self._decl: list[str | None] = list(t.forced_decl)
            self._after_declarations()
            return
        self._decl = [None] * n
        if mode == "eldest-miss":
            self._to_act = self._declared_order[0]
        else:
            self._next_declarer()

    # ---------------------------------------------------------------- small helpers
    def _action_cards(self, cards: Any, field: str, errors: list[dict],
                      player: str | None = None) -> list[int]:
        """The cards an action names: text only, as a record writes them (a number is an
        error, ``numbered_cards``, where ``_cards`` would take it for a card code)."""
        numbers = numbered_cards(cards, field, player=player)
        if numbers:
            errors += numbers
            return []
        return self._cards(cards, field, errors, player)

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
        out: list[int] = []
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
                errors.append(record_error(f"{field}: {shown(c)} is not a card", field=field,
                                           card=str(c), player=player))
        return out

    def _set_trump(self, trump: int | None) -> None:
        self._trump = trump
        if trump is not None and self.rules.pam == "jack-of-trumps":
            self._pam = trump * 13 + JACK - 2
        self._es, self._key = card_tables(trump, self._pam)

    def _err(self, message: str, *, player: Any = None, card: Any = None,
             field: str | None = None) -> RecordError:
        if isinstance(card, int):
            card = NAME[card]
        return RecordError([record_error(message, player=player, card=card, field=field)])

    def _seat(self, action: Mapping[str, Any]) -> int:
        try:
            return self._idx[action["player"]]
        except (KeyError, TypeError):
            name = action.get("player") if isinstance(action, Mapping) else None
            raise RecordError([not_a_seat(name)]) from None

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
        return None if h is None else card_names(h)

    # ---------------------------------------------------------------- the public moves
    def push(self, action: Mapping[str, Any]) -> None:
        """Apply one record action: offences become violations, impossibilities RecordError."""
        try:
            kind = action["action"]
        except (KeyError, TypeError, IndexError):
            kind = None
        if kind == "play":  # (first: nearly every action is one)
            self._push_play(action)
            return
        # an action the format does not know is named so wherever it stands, even after the
        # last trick (not "the deal is already over", as if it were a move)
        if not is_named(kind, _ACTION_NAMES):
            raise self._err(unknown_action(kind), player=action.get("player")
                            if isinstance(action, Mapping) else None, field="action")
        if self.phase == OVER and not (kind == "flush" and self._ended == "flush"):
            if self._ended == "thrown-in" and kind == "irregularity":
                return  # the rest of a thrown-in hand
            if self._ended == "lone-stander" and self._mode == "forced" and kind in DECLARATIONS:
                self._push_declaration(action, kind)  # a lone player made to stand: spelt out
                return
            raise self._err(f"{kind}: the deal is already over", player=action.get("player"))
        if kind in DECLARATIONS:
            self._push_declaration(action, kind)
        elif kind in DECLARATION_ALIASES:
            self._push_declaration(action, DECLARATION_ALIASES[kind])
        elif kind == "exchange":
            self._push_exchange(action)
        elif kind == "flush":
            self._push_flush(action)
        else:
            self._push_irregularity(action)

    # ---------------------------------------------------------------- irregularities
    def _push_irregularity(self, action: Mapping[str, Any]) -> None:
        s = self._seat(action)
        name = self.seats[s]
        kind = action.get("kind")
        if not is_named(kind, IRREGULARITY_KINDS):  # (a list or an object is no kind either)
            raise self._err(f"{name}: {unknown_kind(kind)}", player=name, field="kind")
        if kind in OWN_CARD_KINDS and s in self._out_of_deal:
            # a play offence needs cards of his own: sitting a poker-Loo redeal out, he is dealt
            # none (his plays are refused alike)
            raise self._err(f"{kind}: {name} sits this deal out and holds no cards",
                            player=name, field="kind")
        if kind in IN_PLAY_KINDS and self.phase != PLAY:
            # a revoke, a lead or a card thrown up after it: nobody has played to a trick yet
            raise self._err(f"{kind}: {name} cannot have done it, the play has not begun",
                            player=name, field="kind")
        card = action.get("card")
        c = None
        if card is not None:
            errors: list[dict] = []
            parsed = self._action_cards([card], "card", errors, name)
            if errors:
                raise RecordError(errors)
            c = parsed[0]
            if kind in OWN_CARD_KINDS and not self._may_hold(s, c):
                raise self._err(f"{kind}: {name} cannot hold {NAME[c]}{self._where(s, c)}",
                                player=name, card=c, field="card")
        evidence = action.get("evidence")
        if evidence is not None and not isinstance(evidence, str):
            # the verdict's evidence is text (deal-record.md): never a number or list passed on
            raise self._err(f"{name}: evidence {shown(evidence)} is not text (the table's words for "
                            f"what it saw)", player=name, field="evidence")
        if not (evidence and evidence.strip()):
            evidence = f"recorded by the table: {name} {kind}"
        if kind == "misdeal":
            if self._tcards or self._tricks:
                raise self._err("misdeal: a misdeal is seen before the play", player=name)
            if s != self._d:
                raise self._err(f"misdeal: the dealer ({self.dealer}) misdeals and pays for it, "
                                f"not {name}", player=name)
            self.books.antes.clear()  # the deal is void; the same dealer deals (and antes) again
            self._offence(s, kind, c, evidence, "single-loo", in_play=False)  # the deal's, no trick's
            self._standers = []
            self._end("misdeal")
            return
        if kind == "looked-at-miss" and not self._miss_dealt:
            raise self._err(f"{name}: looked-at-miss, but no miss is dealt in this deal",
                            player=name, field="kind")
        if kind == "looked-at-miss" and self._holds_the_miss(s):
            return  # his own cards now: the offence is looking at the miss *without taking it*
        if kind in SINGLE_LOO_KINDS:
            self._offence(s, kind, c, evidence, "single-loo")
            return
        if kind == "looked-at-hand" and self.phase == DECLARE and self._decl[s] is None \
                and self._mode != "eldest-miss":
            # must throw up: the only declaration left is a pass (in a miss-and-trump simple
            # pool nobody may pass: every player is committed from the deal and plays on)
            self._forced_pass = self._forced_pass | {s}
        self._offence(s, kind, c, evidence, "full-loo")

    def _holds_the_miss(self, s: int) -> bool:
        """Seat ``s`` took the miss, or defends the pool with it."""
        return s == self._miss_taker or (s == self._defender and self._has_miss)

    def _withdraw_looks_at_miss(self, s: int) -> None:
        """Seat ``s`` takes the miss (or defends with it) after looking at it: s.6 penalises
        "looking at the miss without taking it" (001:35: "вскрыл «мисс», но не взял ее", opened
        the miss but did not take it), so his looks are no offence and their single loos are
        not paid."""
        name = self.seats[s]
        kept = [v for v in self.violations
                if not (v["player"] == name and v["rule"] == "looked-at-miss")]
        looks = len(self.violations) - len(kept)
        if not looks:
            return
        self.violations = kept
        penalties = self.books.penalties
        left = penalties.get(name, 0) - looks * self.rules.single_loo
        if left:
            penalties[name] = left  # (his other single loos, out of turn: still paid)
        else:
            penalties.pop(name, None)

    def _offence(self, s: int, rule: str, card: int | None, evidence: str, penalty: str,
                 *, in_play: bool = True) -> None:
        """Record a violation; play offenders are looed once (poker-Loo: burned, and the hand
        thrown in for an offence "as revoke"; one who looked at another hand plays on).
        ``in_play=False``: an offence of the deal itself (a misdeal), at no trick even where a
        simple pool's play has begun before any card."""
        poker = self.rules.game == "poker-loo"
        if penalty == "full-loo" and poker:
            penalty = "burn"
        self.violations.append({
            "player": self.seats[s], "rule": rule,
            "trick": self._trick_no if in_play and self.phase == PLAY and self._trick_no else None,
            "card": None if card is None else NAME[card], "evidence": evidence,
            "penalty": penalty})
        if penalty == "single-loo":
            self.books.add(self.books.penalties, self.seats[s], self.rules.single_loo)
        else:
            if s not in self._offenders:  # looed (burned) once per deal
                self._offenders.append(s)
            # a revoke (and what is penalised "as revoke") throws the hand in even when its
            # offender is burned already, for looking at another hand and playing on
            if poker and self.phase != OVER and rule != "looked-at-hand":
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
        self._reset_trick(order[k:] + order[:k])
        self._to_act = self._turn[0] if self._turn else -1

    def _reset_trick(self, turn: list[int]) -> None:
        """A new trick: ``turn`` is the order of play from its proper leader."""
        self._turn = turn
        self._pos = 0
        self._tcards: list[tuple[int, int]] = []
        self._in_trick = _NOBODY  # who played out of turn to this trick
        self._led = -1
        self._lead_card = -1
        self._best = 0
        self._winner = -1  # who holds the best card so far
        self._civil = False
        self._civil_called = False
        self._pam_led = False
        self._special = False  # this trick needs the slow checks (Pam led, ace to trick 1)

    def _enter_play(self, s: int) -> None:
        """A play arrives while declarations the rules leave to nobody's choice, exchanges or
        flushes are still open: the declarations are made, the rest is skipped (in that order:
        the last forced pass may open the exchange)."""
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
        if self.phase == DECLARE:
            name = self.seats[s]
            raise self._err(f"{name} plays before the declarations are over "
                            f"({self.seats[self._to_act]} to declare)", player=name)
        if self.phase == EXCHANGE:
            self._close_exchange()
        if self.phase == FLUSH:
            self._start_play()

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
        cardtext: Any = action.get("card")  # (any JSON value)
        try:
            c = CODE[cardtext]
        except (KeyError, TypeError):
            try:
                c = card_code(cardtext)
            except ValueError:
                raise RecordError([not_a_card(cardtext, player=self.seats[s])]) from None
        self._push_card(s, c, action)

    def _push_card(self, s: int, c: int, action: Mapping[str, Any]) -> None:
        """A play of card ``c`` by seat ``s`` (``replay`` comes here with both already read)."""
        if self.phase != PLAY:
            self._push_play(action)
            return
        hand = self._hands[s]
        if hand is None or c not in hand:
            raise self._cannot_hold(s, c)
        say = action.get("say")
        if say is not None and say != "pam-be-civil":  # a misspelt call must not go unheard
            raise self._err(f"say: {shown(say)} is not a call a play makes (\"pam-be-civil\")",
                            player=self.seats[s], card=c, field="say")
        if say is not None and (self._lead_card >= 0 or (s != self._to_act and self._tcards)):
            # the call is the leader's, as he leads the ace of trumps (loo-rules.md s.4): a card
            # played to a trick already led (or opened out of turn) leads nothing; one opening
            # the trick out of turn is a lead, the offence of playing out of turn
            raise self._err(f"say: {self.seats[s]}'s {NAME[c]} does not lead the trick "
                            f"(\"pam-be-civil\" is the leader's call, leading the ace of "
                            f"trumps)",
                            player=self.seats[s], card=c, field="say")
        if s != self._to_act:
            self._play_out_of_turn(s, c, hand)
            return
        if self._lead_card < 0:
            self._civil_called = say == "pam-be-civil"
        self._play(s, c, hand)

    # ---------------------------------------------------------------- carrying on past errors
    # After a record error ``replay`` goes on with the deal as the record has it, so that what
    # follows is judged in its place and each mistake is reported once. Nothing here is
    # judged and no violation counts: the record is refused already.

    def _play_as_recorded(self, s: int | None, c: int | None) -> None:
        """A refused play: seat ``s`` (None: not a seat, so whoever is to play) played ``c``
        (None: not a card, so one that cannot win), and the hand keeps its cards."""
        if self.phase == DECLARE:
            self._declarations_as_played()
        if self.phase == EXCHANGE:
            self._exchanges_as_played()
        if self.phase != PLAY and self.phase != OVER:
            self._enter_play(self._to_act if s is None else s)
        if self.phase != PLAY:
            return
        if s is None:
            s = self._to_act
        elif c is not None and (s, c) == self._last_play():
            return  # the same play written twice in a row
        elif s != self._to_act and any(p == s for p, _ in self._tcards):
            # plays again: the record left someone's card out of the trick (the lead too?)
            if self._lead_card < 0:
                self._lead_card = lead = self._tcards[0][1]
                self._led = self._es[lead]
                self._winner, self._best = self._strongest(self._led)
            self._finish_trick()
            if self.phase != PLAY:
                return
        if c is None:
            led, trump = self._led, self._trump
            c = next(x * 13 for x in range(4) if x != led and x != trump)  # a two: never wins
        if s == self._to_act:
            self._play(s, c, [c])  # a hand of that card alone: no duty can apply
        elif s in self._turn and all(p != s for p, _ in self._tcards):
            self._play(s, c, [c], in_turn=False)

    def _last_play(self) -> tuple[int, int] | None:
        if self._tcards:
            return self._tcards[-1]
        return self._tricks[-1][2][-1] if self._tricks and self._tricks[-1][2] else None

    def _miss_as_recorded(self, s: int) -> None:
        """A refused take-miss or defend: the record's hands were read with the miss as this
        seat's cards (``record._infer_hands``), so he plays them, standing on the miss, rather
        than being made up as a passer whose every later play is "after the deal"."""
        if self.phase == DECLARE and self._decl[s] is None and self._miss is not None \
                and self._miss_taker < 0 and self._hands[s] is None:
            self._decl[s] = "take-miss"
            self._miss_taker = s
            self._hands[s] = list(self._miss)

    def _declarations_as_played(self) -> None:
        """The record goes on to exchanges or play while declarations are missing: whoever
        has cards to play stood, the others passed."""
        for i in self._declared_order:
            if self._decl[i] is None:
                self._decl[i] = "stand" if self._hands[i] is not None else "pass"
        self._made_up = True
        self._after_declarations()

    def _exchanges_as_played(self) -> None:
        """The record goes on to play with a standing dealer's exchange missing: he took the
        turn-up and kept his cards; the others kept theirs."""
        for i in self._ex_queue:
            if i not in self._exchanged and self._dealer_must_take_turnup(i):
                hand = self._hands[i]
                if hand is not None:
                    self._hands[i] = hand + [cast(int, self.turnup)]
                self._exchanged.add(i)
        self._close_exchange()

    def _cannot_hold(self, s: int, c: int) -> RecordError:
        name = self.seats[s]
        if s not in self._standers:
            return self._err(f"{name} is not playing this deal", player=name, card=c)
        where = self._where(s, c)
        if any(p == s for p, _ in self._tcards):
            return self._plays_twice(s, c)
        return self._err(f"{name} cannot hold {NAME[c]}{where}", player=name, card=c)

    def _may_hold(self, s: int, c: int) -> bool:
        """Whether seat ``s`` may hold card ``c`` now: in his hand, or placed nowhere else
        while his hand is not all known (read back from plays he has not all made: a card
        nobody plays may be his)."""
        hand = self._hands[s]
        if hand is not None and c in hand:
            return True
        if self._where(s, c):
            return False
        if hand is None:
            return True
        if s not in self._inferred:
            return False  # a given hand, as the deal stands
        played = sum(p == s for t in self._tricks for p, _ in t[2]) \
            + sum(p == s for p, _ in self._tcards)
        return len(hand) < self._hand_size - played

    def _where(self, s: int, c: int) -> str:
        """Where card ``c`` is, when seat ``s`` does not hold it ("": nowhere the deal knows)."""
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
            for i, held in self._known_held.items():
                if c in held and i != s:
                    where = f": it is in {self.seats[i]}'s hand"
            if self._miss and c in self._miss and s != self._miss_taker:
                where = ": it is in the miss"
            if c == self.turnup:
                where = ": it is the turn-up card"
            elif c in self._discards:
                where = ": it was discarded"
        return where

    def _plays_twice(self, s: int, c: int) -> RecordError:
        name, due = self.seats[s], self.seats[self._to_act]
        return self._err(f"{name} plays twice to trick {self._trick_no} ({due} has not played "
                         "to it)", player=name, card=c)

    def _play_out_of_turn(self, s: int, c: int, hand: list[int]) -> None:
        name = self.seats[s]
        again = any(p == s for p, _ in self._tcards)
        if s not in self._turn or again:
            if again:
                raise self._plays_twice(s, c)
            raise self._err(f"{name} is not playing this deal", player=name, card=c)
        due = self.seats[self._to_act]
        self._offence(s, "played-out-of-turn", c, f"{name} played {NAME[c]} when {due} was to "
                      "play", "full-loo")
        if self.phase == OVER:
            return
        self._play(s, c, hand, in_turn=False)

    def _play(self, s: int, c: int, hand: list[int], in_turn: bool = True) -> None:
        tc = self._tcards
        lead = self._lead_card
        if not in_turn:
            found = None  # the offence is playing out of turn; the card's duties are not judged
            if lead >= 0 and self._trump is None and self._trump_mode == "on-first-void":
                self._turn_on_void(c)  # the table sees a card not follow, in turn or not
        elif lead >= 0:
            if self._es[c] == self._led and not self._head and not self._special \
                    and c != self._pam:
                found = None  # following suit with no duty to head: nothing to judge
            else:
                if self._trump is None and self._trump_mode == "on-first-void":
                    self._turn_on_void(c)
                found = self._judge_follow(s, c, hand)
        else:
            if self._trump is None and self._trump_mode == "at-deal":
                raise self._err("turnup: the turn-up card is needed to know trumps",
                                field="turnup")
            found = self._judge_lead_card(c, hand)
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
            win = s
            for p, x in tc:  # cards played out of turn before the lead count from now on
                if (es[x] == led or es[x] == self._trump) and self._key[x] > key:
                    key, win = self._key[x], p
            self._best = key
            self._winner = win
            self._pam_led = c == self._pam
            self._special = self._pam_led or (self._ace_first and self._trick_no == 1
                                              and self._trump is not None)
            if self._pam >= 0 and self._trump is not None \
                    and c == self._trump * 13 + ACE - 2:
                self._lead_civility(hand)
            else:
                self._civil_called = False
        elif lead >= 0:
            suit = self._es[c]
            if (suit == self._led or suit == self._trump) and key > self._best:
                self._best = key
                self._winner = s
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
        win = self._winner
        if self._trump is None and self._trump_mode == "after-first-trick":
            if self.turnup is None:
                raise self._err("turnup: the card turned after the first trick is needed",
                                field="turnup")
            self._set_trump(SUIT[self.turnup])  # and it applies to this trick already played
            win = self._strongest(self._es[self._lead_card])[0]
        self._tricks.append((self._trick_no, self._turn[0], self._tcards, win))
        self._won[win] += 1
        if self._trick_no >= self._hand_size:
            self._end("played")
            return
        self._trick_no += 1
        self._begin_trick(win)
        if not self._turn:
            self._end("played")

    def _strongest(self, led: int) -> tuple[int, int]:
        """(seat, strength) of the best card on the table in a trick led in ``led``; cards
        neither of that suit nor trumps count nothing, and the first of equals wins."""
        es, key, trump = self._es, self._key, self._trump
        win, best = -1, -1
        for p, x in self._tcards:
            k = key[x] if (es[x] == led or es[x] == trump) else 0
            if k > best:
                win, best = p, k
        return win, best

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
        if hand is None or c not in hand:
            raise self._cannot_hold(s, c)
        if s != self._to_act:
            return "played-out-of-turn"
        return self._probe_judge(s, c, hand)

    def _probe_judge(self, s: int, c: int, hand: list[int]) -> str | None:
        saved = (self._trump, self._pam, self._es, self._key, self._best, self._winner,
                 self._special)
        try:
            if self._lead_card >= 0:
                if self._trump is None and self._trump_mode == "on-first-void":
                    self._turn_on_void(c)
                found = self._judge_follow(s, c, hand)
            else:
                found = self._judge_lead_card(c, hand)
        finally:
            (self._trump, self._pam, self._es, self._key, self._best, self._winner,
             self._special) = saved
        return None if found is None else found[0]

    def _probe(self, fn: Any) -> Any:
        """Evaluate ``fn`` as if play had begun now, then restore the state."""
        saved = {k: getattr(self, k) for k in DEAL_ATTRIBUTES if hasattr(self, k)}
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
        hand = self._hands[s]
        if self.phase != PLAY or s != self._to_act or hand is None:
            return []
        return [NAME[c] for c in hand if self._probe_judge(s, c, hand) is None]

    def legal_actions(self) -> list[dict]:
        """Every action allowed now, in record format (the simulator picks among them)."""
        if self.phase == OVER:
            # a flush shown ends the deal, but other standers may still show theirs
            return self._flush_actions() if self._ended == "flush" else []
        if self._to_act < 0 and self.phase != FLUSH:
            return []
        if self.phase == DECLARE:
            name = self.seats[self._to_act]
            out = [{"player": name, "action": a} for a in self.declaration_options(name)]
            if self.rules.flush == "three-trumps-redeal":
                out.extend(self._flush_actions())
            return out
        if self.phase == EXCHANGE:
            return self._exchange_actions()
        if self.phase == FLUSH:
            out = self._flush_actions()
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
        while self.phase == DECLARE and self._to_act in self._forced_pass:
            self._decl[self._to_act] = "pass"  # thrown up: the record may leave the pass out
            self._next_declarer()
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
