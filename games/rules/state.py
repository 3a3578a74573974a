"""What a deal holds, declared once for ``Deal`` and the parts mixed into it.

``Declaring``, ``Exchanging``, ``ShowingFlushes`` and ``Duties`` each work on the state ``Deal``
sets up, and call a few of each other's (and ``Deal``'s) methods. ``DealState`` names that state
and those methods, so each part type-checks on its own, and so mypyc can compile the parts as
traits of one native class (``bench/compiled_engine.py``). Under plain Python ``trait`` is the
identity and ``DealState`` is an ordinary last base, whose method stubs are never reached.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

try:
    from mypy_extensions import trait
except ImportError:  # plain Python: mypy_extensions is only there to compile
    def trait[C](cls: C) -> C:
        return cls

if TYPE_CHECKING:
    from .errors import RecordError
    from .options import RuleSet
    from .settlement import Books

#: every attribute of a deal (``Deal._probe`` saves and restores them all)
DEAL_ATTRIBUTES = (
    '_ace_first', '_best', '_bold', '_civil', '_civil_called', '_d', '_decl', '_decl_cursor',
    '_declared_order', '_defender', '_discards', '_double', '_drawn', '_duty_upto', '_ended',
    '_es', '_ex_limit', '_ex_queue', '_exchanged', '_flushes', '_forced_pass', '_hand_size',
    '_hands', '_has_miss', '_head', '_idx', '_in_trick', '_inferred', '_key', '_known',
    '_known_held', '_lead_card', '_lead_extra', '_led', '_made_up', '_miss', '_miss_dealt',
    '_miss_taker', '_mode', '_n', '_offenders', '_order', '_out_of_deal', '_pam', '_pam_led',
    '_pos', '_redeal', '_redrawn', '_result', '_sits_out_next', '_special', '_standers',
    '_stock', '_stock_pos', '_stock_size', '_tcards', '_three', '_to_act', '_trick_no',
    '_tricks', '_trump', '_trump_mode', '_turn', '_unverified', '_winner', '_won', 'books',
    'dealer', 'deferred_errors', 'first_of_series', 'phase', 'pool_before', 'pool_kind',
    'rules', 'seats', 'turnup', 'violations',
)


@trait
class DealState:
    """The attributes of a deal and the methods its parts share (defined in ``Deal`` or a part)."""

    __slots__ = DEAL_ATTRIBUTES

    # the table and the rules
    rules: RuleSet
    seats: list[str]
    dealer: str
    pool_before: int
    first_of_series: bool
    pool_kind: str | None
    _n: int
    _idx: dict[str, int]
    _d: int
    _order: tuple[int, ...]
    _declared_order: tuple[int, ...]
    _out_of_deal: frozenset[int]
    _redeal: bool
    _three: bool
    _double: bool
    _mode: str
    _hand_size: int
    _head: bool
    _ace_first: bool
    _duty_upto: int
    _lead_extra: bool
    # the cards
    _hands: list[list[int] | None]
    _inferred: frozenset[int]
    _known: set[int]
    _known_held: dict[int, set[int]]
    _miss: list[int] | None
    _has_miss: bool
    _miss_dealt: bool
    turnup: int | None
    _stock: list[int] | None
    _stock_pos: int
    _stock_size: int
    _drawn: int
    _discards: list[int]
    _redrawn: set[int]
    _trump: int | None
    _trump_mode: str
    _pam: int
    _es: list[int]
    _key: list[int]
    # money, offences, the end
    books: Books
    violations: list[dict]
    deferred_errors: list[dict]
    _offenders: list[int]
    _forced_pass: frozenset[int] | set[int]
    _ended: str
    _flushes: list[tuple[int, list[int], int]]
    _sits_out_next: list[str]
    _unverified: bool
    _result: dict | None
    # declarations and exchanges
    phase: str
    _to_act: int
    _decl: list[str | None]
    _decl_cursor: int
    _miss_taker: int
    _defender: int
    _standers: list[int]
    _bold: bool
    _made_up: bool
    _exchanged: set[int]
    _ex_queue: list[int]
    _ex_limit: int
    # tricks
    _won: list[int]
    _tricks: list[tuple[int, int, list[tuple[int, int]], int]]
    _trick_no: int
    _turn: list[int]
    _pos: int
    _tcards: list[tuple[int, int]]
    _in_trick: frozenset[int] | set[int]
    _led: int
    _lead_card: int
    _best: int
    _winner: int
    _civil: bool
    _civil_called: bool
    _pam_led: bool
    _special: bool

    # ``Deal``'s
    def _err(self, message: str, *, player: Any = None, card: Any = None,
             field: str | None = None) -> RecordError:
        raise NotImplementedError

    def _seat(self, action: Mapping[str, Any]) -> int:
        raise NotImplementedError

    def _action_cards(self, cards: Any, field: str, errors: list[dict],
                      player: str | None = None) -> list[int]:
        raise NotImplementedError

    def _where(self, s: int, c: int) -> str:
        raise NotImplementedError

    def _set_trump(self, trump: int | None) -> None:
        raise NotImplementedError

    def _strongest(self, led: int) -> tuple[int, int]:
        raise NotImplementedError

    def _offence(self, s: int, rule: str, card: int | None, evidence: str, penalty: str,
                 *, in_play: bool = True) -> None:
        raise NotImplementedError

    def _withdraw_looks_at_miss(self, s: int) -> None:
        raise NotImplementedError

    def _declarations_as_played(self) -> None:
        raise NotImplementedError

    def _start_play(self) -> None:
        raise NotImplementedError

    def _end(self, how: str) -> None:
        raise NotImplementedError

    # ``Exchanging``'s
    def _next_exchanger(self) -> None:
        raise NotImplementedError

    def _after_exchange(self) -> None:
        raise NotImplementedError

    def _close_exchange(self) -> None:
        raise NotImplementedError

    def _dealer_must_take_turnup(self, s: int) -> bool:
        raise NotImplementedError
