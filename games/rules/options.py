"""Rule sets as data: one field per option name of loo-rules.md, presets, validation.

A club writes its house rules down as options (``{"preset": "three-card", "loo": "unlimited"}``);
``RuleSet.from_options`` resolves them against the game's defaults and refuses anything that
cannot be played, naming the option. Verdicts carry ``to_options()`` so they can be recomputed.
"""
from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields
from typing import Any

from .errors import RuleError, shown

#: each game (the ``game`` option's values) and how a message names it ("poker-Loo is played
#: by 2 to 8 players", "Irish Loo deals 3 cards a hand")
GAME_NAMES = {"three-card": "three-card Loo", "irish": "Irish Loo", "five-card": "five-card Loo",
              "poker-loo": "poker-Loo"}
GAMES = tuple(GAME_NAMES)

#: option -> allowed values (for the choice options)
CHOICES: dict[str, tuple[Any, ...]] = {
    "game": GAMES,
    "pools": ("simple-and-double", "always-double"),
    "simple_pool": ("standard", "miss-and-trump"),
    "loo": ("limited", "unlimited", "mixed"),
    "remainder": ("carry", "early-tricks"),
    "lead_trump": ("every-trick", "first-trick", "first-two-tricks", "none"),
    "single_stander": ("defend", "concede"),
    "flush": ("none", "three-trumps", "three-trumps-redeal", "five-card"),
    "flush_ties": ("seat-order", "high-card-then-split"),
    "flush_pays": ("standers-looed", "everyone-pays-holder"),
    "blaze_rank": ("below-plain-flush", "above-flush"),
    "trump_turned": ("at-deal", "on-first-void", "first-lead"),
    "pam": ("none", "jack-of-clubs", "jack-of-trumps"),
    "pam_be_civil": ("binding", "request", "automatic", "request-if-next-trump", "none"),
    "penalty_and_loo": ("replace", "both"),
    "end_pool": ("split", "final-deal"),
}
BOOLEANS = ("lead_trump_ace", "lead_highest_trump", "must_head", "must_trump", "must_undertrump",
            "blaze", "club_law", "undivided", "bold_stand", "pam_follows_trump", "pam_immune",
            "turnup_to_dealer", "ante_first_deal_only", "trump_ace_first_trick")
ANTES = ("ante", "ante_double")
INTEGERS = ("loo_amount", "loo_cap", "single_loo")
#: the integer options null may stand for: no cap, a single loo as large as the loo
#: (``loo_amount`` has no such meaning: null made every loo and single loo nothing)
NULLABLE = ("loo_cap", "single_loo")

_THREE = ("three-card", "irish")
#: options that mean something only in some games; elsewhere they must keep the game default
APPLIES: dict[str, tuple[str, ...]] = {
    "pools": ("three-card",), "simple_pool": ("three-card",), "bold_stand": ("three-card",),
    "single_stander": _THREE, "club_law": _THREE, "undivided": _THREE, "trump_turned": _THREE,
    "ante_double": ("three-card",),
    "flush": ("three-card", "five-card"),
    "flush_ties": ("five-card",), "flush_pays": ("five-card",), "blaze": ("five-card",),
    "blaze_rank": ("five-card",), "pam": ("five-card",), "pam_be_civil": ("five-card",),
    "pam_follows_trump": ("five-card",), "pam_immune": ("five-card",),
    "turnup_to_dealer": ("five-card", "poker-loo"),
    "trump_ace_first_trick": ("three-card", "irish", "five-card"),
}

_COMMON: dict[str, Any] = {
    "ante": {"dealer": 3, "each": 0}, "ante_double": None, "pools": "simple-and-double",
    "simple_pool": "standard", "loo": "limited", "loo_amount": 3, "loo_cap": None,
    "single_loo": None, "remainder": "carry", "lead_trump": "every-trick",
    "lead_trump_ace": True, "lead_highest_trump": False, "must_head": True, "must_trump": True,
    "must_undertrump": False, "single_stander": "defend", "flush": "none",
    "flush_ties": "seat-order", "flush_pays": "standers-looed", "blaze": False,
    "blaze_rank": "below-plain-flush", "club_law": False, "undivided": False,
    "bold_stand": False, "trump_turned": "at-deal", "pam": "none", "pam_be_civil": "none",
    "pam_follows_trump": False, "pam_immune": False, "turnup_to_dealer": False,
    "penalty_and_loo": "replace", "ante_first_deal_only": False,
    "trump_ace_first_trick": False, "end_pool": "split",
}
#: each game's defaults (loo-rules.md sections 2-5)
GAME_DEFAULTS: dict[str, dict[str, Any]] = {
    "three-card": dict(_COMMON, game="three-card"),
    "irish": dict(_COMMON, game="irish"),
    "five-card": dict(_COMMON, game="five-card", ante={"dealer": 5, "each": 0}, loo_amount=5,
                      lead_trump="first-trick", lead_trump_ace=False, must_head=False,
                      must_trump=False, flush="five-card", pam="jack-of-clubs",
                      pam_be_civil="binding", turnup_to_dealer=True),
    "poker-loo": dict(_COMMON, game="poker-loo", ante={"dealer": 6, "each": 5},
                      ante_first_deal_only=True, loo="unlimited", loo_amount=5,
                      lead_trump="none", lead_trump_ace=False, must_head=False,
                      must_trump=False),
}

#: preset name -> option overrides (each includes "game")
PRESETS: dict[str, dict[str, Any]] = {
    "three-card": {"game": "three-card"},
    "three-card-unlimited": {"game": "three-card", "loo": "unlimited"},
    "three-card-mixed": {"game": "three-card", "loo": "mixed", "loo_cap": 30},
    "irish": {"game": "irish"},
    "five-card": {"game": "five-card"},
    "five-card-unlimited": {"game": "five-card", "loo": "unlimited"},
    "poker-loo": {"game": "poker-loo"},
    "undivided": {"game": "three-card", "undivided": True, "loo_amount": 6},
    "mississippi": {"game": "three-card"},
}

#: players each game seats: (fewest, most); the most is what the deck allows
#: names the engine's record reading gives the places a card may lie other than a hand (the
#: owner check of ``record._check_owners``): a seat of one of these names would be taken for
#: the place, and a card in his hand for one in the miss or turned up, so no seat may have one
PLACE_NAMES = {"the miss": "the miss", "the turn-up": "the turn-up card"}
SEAT_LIMITS = {"three-card": (2, 15), "irish": (2, 16), "five-card": (4, 7), "poker-loo": (2, 8)}
HAND_SIZE = {"three-card": 3, "irish": 3, "five-card": 5, "poker-loo": 5}


@dataclass(frozen=True, eq=True)
class RuleSet:
    """Every option of loo-rules.md, fully resolved. Build it with ``from_options``."""

    game: str
    ante: tuple[int, int]          # (dealer, each)
    ante_double: tuple[int, int] | None
    pools: str
    simple_pool: str
    loo: str
    loo_amount: int
    loo_cap: int | None
    single_loo: int
    remainder: str
    lead_trump: str
    lead_trump_ace: bool
    lead_highest_trump: bool
    must_head: bool
    must_trump: bool
    must_undertrump: bool
    single_stander: str
    flush: str
    flush_ties: str
    flush_pays: str
    blaze: bool
    blaze_rank: str
    club_law: bool
    undivided: bool
    bold_stand: bool
    trump_turned: str
    pam: str
    pam_be_civil: str
    pam_follows_trump: bool
    pam_immune: bool
    turnup_to_dealer: bool
    penalty_and_loo: str
    ante_first_deal_only: bool
    trump_ace_first_trick: bool
    end_pool: str

    def __post_init__(self) -> None:
        # the resolved options, computed once: every verdict carries them
        object.__setattr__(self, "options_json", _to_json(self))

    @property
    def hand_size(self) -> int:
        """Cards dealt to each player: 3, or 5 at five-card and poker-Loo."""
        return HAND_SIZE[self.game]

    @classmethod
    def from_options(cls, options: Mapping[str, Any] | None = None) -> RuleSet:
        """Resolve preset, game defaults and overrides; RuleError naming every bad option."""
        options = options or {}
        if isinstance(options, RuleSet):
            return options
        if not isinstance(options, Mapping):
            raise RuleError(f"rules: must be an object of options, not {shown(options)}")
        try:
            key: Any = _cache_key(options)
            hash(key)
        except TypeError:
            key = None
        if key is not None and key in _CACHE:
            return _CACHE[key]
        rules = _build(options)
        if key is not None and len(_CACHE) < 4096:
            _CACHE[key] = rules
        return rules

    def to_options(self) -> dict[str, Any]:
        """Every option, resolved and JSON-serialisable; ``from_options`` reads it back."""
        out: dict[str, Any] = self.options_json.copy()  # type: ignore[attr-defined]
        # the antes are the only values that are not immutable (spelt out: every verdict pays)
        out["ante"] = out["ante"].copy()
        if out["ante_double"] is not None:
            out["ante_double"] = out["ante_double"].copy()
        return out

    def check_seats(self, seats: Sequence[str]) -> None:
        """Refuse a table this game cannot seat (e.g. 9 players at five-card Loo)."""
        errors = []
        low, high = SEAT_LIMITS[self.game]
        if not all(isinstance(s, str) and s for s in seats):
            errors.append("seats: every seat must be a non-empty name")
        elif len(set(seats)) != len(seats):
            errors.append("seats: a player is seated twice")
        else:
            errors += [f"seats: {shown(s)} cannot be a seat: the engine's record reading uses the name "
                       f"for {PLACE_NAMES[s]}; seat the player under another name"
                       for s in seats if s in PLACE_NAMES]
        if not low <= len(seats) <= high:
            errors.append(f"seats: {GAME_NAMES[self.game]} is played by {low} to {high} players, "
                          f"not {len(seats)}")
        if errors:
            raise RuleError(errors)

    def full_loo(self, pool: int) -> int:
        """The loo this game's mode charges when the pool for the deal is ``pool``."""
        if self.loo == "limited":
            return self.loo_amount
        if self.loo_cap is not None:
            return min(pool, self.loo_cap)
        return pool

    def antes_for(self, double: bool) -> tuple[int, int]:
        """(dealer, each) ante: ``ante_double`` replaces ``ante`` for double pools when given."""
        if double and self.ante_double is not None:
            return self.ante_double
        return self.ante


_CACHE: dict[Any, RuleSet] = {}


def _typed(value: Any) -> Any:
    """``value`` with its type, nested in an object (an ante): ``0`` and ``false``, ``4.0``
    and ``4`` are equal in Python and hash alike."""
    if isinstance(value, Mapping):
        return (Mapping, tuple(sorted((k, _typed(v)) for k, v in value.items())))
    return (type(value), value)


def _cache_key(options: Mapping[str, Any]) -> tuple:
    """``_CACHE``'s key for ``options``, each value with its type: keyed by value alone, a
    wrong-typed option (``"must_head": 0``, ``"loo_amount": 4.0``) was handed the rule set of
    the right one once that had been read (``false``, ``4``), and refused before it had."""
    return tuple(sorted((k, _typed(v)) for k, v in options.items()))


def _to_json(rules: RuleSet) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for f in fields(rules):
        value = getattr(rules, f.name)
        if f.name in ANTES and value is not None:
            value = {"dealer": value[0], "each": value[1]}
        out[f.name] = value
    return out


def _ante(name: str, value: Any, errors: list[str], base: tuple[int, int] = (0, 0)
          ) -> tuple[int, int] | None:
    """An ante option read: ``base`` is what a part the object leaves out stays at (the spec
    gives each part its own default: ``ante.dealer`` 3, ``ante.each`` 0), so ``{"each": 1}``
    adds the others' ante to the dealer's rather than take the dealer's away."""
    if value is None and name == "ante_double":
        return None
    if _is_int(value):
        value = {"dealer": value, "each": 0}
    if not isinstance(value, Mapping) or set(value) - {"dealer", "each"}:
        errors.append(f"{name}: must be {{\"dealer\": units, \"each\": units}}, not {shown(value)}")
        return None
    dealer, each = value.get("dealer", base[0]), value.get("each", base[1])
    if not (_is_units(dealer) and _is_units(each)):
        errors.append(f"{name}: dealer and each must be whole units from 0 to {MAX_UNITS:,}, "
                      f"not {shown(dict(value))}")
        return None
    return (dealer, each)


def _ante_base(name: str, preset_values: Mapping[str, Any], values: Mapping[str, Any]
               ) -> tuple[int, int]:
    """What the parts of an ante object left out stay at: the option's own value before the
    club's override (the preset's or the game's), and for an ``ante_double`` that had none,
    the ``ante`` it replaces (read before it: ``ante`` comes first in the options)."""
    before = _ante(name, preset_values[name], [])
    if before is None and name == "ante_double":
        before = values.get("ante")
    return before or (0, 0)


#: the most units one option may name (an ante, a loo, a cap): beyond any real table, and far
#: enough inside a 64-bit integer that no settlement built from them can overflow a ledger
MAX_UNITS = 1_000_000_000


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_units(value: Any) -> bool:
    return _is_int(value) and 0 <= value <= MAX_UNITS


def _build(options: Mapping[str, Any]) -> RuleSet:
    errors: list[str] = []
    merged: dict[str, Any] = {}
    preset = options.get("preset")
    if preset is not None:
        if not isinstance(preset, str) or preset not in PRESETS:
            errors.append(f"preset: unknown preset {shown(preset)} (known: {', '.join(PRESETS)})")
        else:
            merged.update(PRESETS[preset])
    game = options.get("game", merged.get("game", "three-card"))
    if not isinstance(game, str) or game not in GAMES:
        raise RuleError(errors + [f"game: unknown game {shown(game)} (known: {', '.join(GAMES)})"])
    if isinstance(preset, str) and preset in PRESETS and PRESETS[preset]["game"] != game:
        merged = {}  # an explicit other game overrides the preset's tweaks of its own game
    defaults = GAME_DEFAULTS[game]
    resolved = dict(defaults)
    resolved.update(merged)
    preset_values = dict(resolved)  # what each option is before the club's own overrides
    known = set(defaults) | {"preset"}
    for name, value in options.items():
        if not isinstance(name, str) or name not in known:
            errors.append(f"{shown(name, bare=True)}: unknown option")
        elif name != "preset":
            resolved[name] = value
    resolved["game"] = game
    values: dict[str, Any] = {}
    for name, value in resolved.items():
        if name in CHOICES:
            if value not in CHOICES[name]:
                errors.append(f"{name}: {shown(value)} is not one of {', '.join(map(str, CHOICES[name]))}")
        elif name in BOOLEANS:
            if not isinstance(value, bool):
                errors.append(f"{name}: must be true or false, not {shown(value)}")
        elif name in ANTES:
            value = _ante(name, value, errors, _ante_base(name, preset_values, values))
        elif name in INTEGERS and not (value is None and name in NULLABLE) \
                and not _is_units(value):
            errors.append(f"{name}: must be a whole number of units from 0 to {MAX_UNITS:,}, "
                          f"not {shown(value)}")
        values[name] = value
    # options that belong to other games must keep this game's default
    for name, games in APPLIES.items():
        if game not in games and name in options and values.get(name) != defaults[name] \
                and not (name in ANTES and values.get(name) == _ante(name, defaults[name], [])):
            errors.append(f"{name}: does not apply to {GAME_NAMES[game]}")
    if values.get("loo") == "mixed" and values.get("loo_cap") in (None, 0):
        errors.append("loo_cap: mixed loo needs a cap (e.g. 30)")
    flush = values.get("flush")
    if game == "three-card" and flush == "five-card":
        errors.append(f"flush: five-card flushes are not played at {GAME_NAMES[game]} (use "
                      "three-trumps)")
    if game == "five-card" and flush in ("three-trumps", "three-trumps-redeal"):
        errors.append(f"flush: three-trump flushes belong to {GAME_NAMES['three-card']} (use "
                      "five-card or none)")
    if values.get("blaze") and flush == "none":
        errors.append("blaze: a blaze wins like a flush; it needs flush \"five-card\"")
    if not errors:  # pairs are judged among well-formed values only (a dict is no choice)
        errors.extend(_meaningless(game, values))
        errors.extend(_idle(values, {name: values[name] for name in options
                                     if name in values and values[name] != preset_values[name]}))
    if errors:
        raise RuleError(errors)
    if values["single_loo"] is None:
        values["single_loo"] = values["loo_amount"]
    return RuleSet(**values)


#: when trumps become known under each ``trump_turned`` other than ``at-deal``
_TRUMPS_KNOWN = {"on-first-void": "when a player first cannot follow suit",
                 "first-lead": "by the first card led"}


def _meaningless(game: str, values: Mapping[str, Any]) -> list[str]:
    """Combinations that are well-formed but cannot mean anything: each names both options.

    Refused rather than silently ignored, so that a club never writes down a house rule the
    engine would not play.
    """
    errors = []
    turned = values.get("trump_turned")
    if turned in _TRUMPS_KNOWN:
        when = _TRUMPS_KNOWN[turned]
        if values.get("club_law"):
            errors.append(f"club_law: club law needs the trump turned at the deal, before the "
                          f"declarations; with trump_turned {shown(turned)} trumps are known only "
                          f"{when}")
        if values.get("flush") in ("three-trumps", "three-trumps-redeal"):
            errors.append(f"flush: a {shown(values['flush'])} flush is three trumps held before the "
                          f"play; with trump_turned {shown(turned)} trumps are known only {when}")
        if values.get("lead_trump") == "first-trick":
            errors.append(f"lead_trump: 'first-trick' binds only the opening lead; with "
                          f"trump_turned {shown(turned)} trumps are known only {when}, never "
                          f"before that lead")
    if values.get("loo") == "unlimited" and values.get("loo_cap") is not None \
            and game != "poker-loo":
        errors.append(f"loo_cap: an unlimited loo matches the whole pool and has no cap at "
                      f"{GAME_NAMES[game]} (a capped loo is loo \"mixed\")")
    if values.get("loo") == "limited" and values.get("loo_cap") is not None:
        errors.append(f"loo_cap: a limited loo is loo_amount ({values.get('loo_amount')}) and "
                      f"has no cap (a capped loo is loo \"mixed\")")
    if game == "poker-loo" and values.get("loo_cap") == 0:
        errors.append("loo_cap: a cap of 0 makes every burn free; leave it null for a burn that "
                      "matches the pot, or cap it (e.g. 50)")
    return errors


#: options whose only effect is under another option's setting: (option, the value that asks
#: for nothing, the other option, its value that leaves the first nothing to do, what the first
#: does). An option given with any other value beside that setting is refused.
_NEEDS: tuple[tuple[str, Any, str, Any, str], ...] = (
    ("pam_be_civil", "none", "pam", "none", "asks the Pam holder for civility"),
    ("pam_follows_trump", False, "pam", "none", "makes Pam answer a trump lead"),
    ("pam_immune", False, "pam", "none", "spares a stander holding Pam the loo"),
    ("flush_ties", None, "flush", "none", "decides between equal flushes"),
    ("flush_pays", None, "flush", "none", "says who pays a flush"),
    ("blaze_rank", None, "blaze", False, "ranks a blaze among the flushes"),
    ("lead_trump_ace", False, "lead_trump", "none",
     "says which trump a leader bound to lead trumps must lead"),
    ("lead_highest_trump", False, "lead_trump", "none",
     "says which trump a leader bound to lead trumps must lead"),
    ("must_undertrump", False, "must_trump", False,
     "binds a player who must trump to trump even when he cannot overtrump"),
    ("simple_pool", "standard", "pools", "always-double", "says how a simple pool is dealt"),
    ("remainder", "carry", "undivided", True, "says where the odd units of a divided pool go"),
)
#: what the other option's value leaves undone, as each message says it
_LEAVES = {"pam": "there is no Pam", "flush": "no flush is played",
           "blaze": "no blaze is played", "lead_trump": "no leader is bound to lead trumps",
           "must_trump": "nobody must trump", "pools": "every deal is a double pool",
           "undivided": "the pool is never divided"}


def _idle(values: Mapping[str, Any], given: Mapping[str, Any]) -> list[str]:
    """Options the club set (``given``: what differs from the preset or game) that another
    option leaves nothing to do: each names both options.

    Only what the club wrote is refused: a preset's or game's value beside it, and any value
    a verdict's resolved options carry, reads back.
    """
    errors = []
    for name, idle, other, off, does in _NEEDS:
        if name in given and given[name] != idle and values.get(other) == off:
            errors.append(f"{name}: {json.dumps(given[name])} {does}; with {other} "
                          f"{json.dumps(off)} {_LEAVES[other]}")
    return errors


def rules_from(rules: RuleSet | Mapping[str, Any] | None) -> RuleSet:
    """A RuleSet from a RuleSet, an options mapping or None (three-card defaults)."""
    if isinstance(rules, RuleSet):
        return rules
    return RuleSet.from_options(rules or {})
