"""Declaring: stand, pass, take the miss, defend, and the dealer's special cases.

``Declaring`` is mixed into ``Deal``.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .phases import DECLARE, EXCHANGE
from .state import DealState, trait

#: the most cards a stander may exchange, by game (poker-Loo's first deal may allow fewer)
_EXCHANGE_LIMIT = {"irish": 3, "five-card": 5, "poker-loo": 3}


@trait
class Declaring(DealState):
    """Who declares when, what they may declare, and who then plays (mixed into ``Deal``)."""

    __slots__ = ()

    def _next_declarer(self) -> None:
        """Move the turn to the next undeclared player, resolving forced passes."""
        order, decl = self._declared_order, self._decl
        k = self._decl_cursor
        while k < len(order):
            i = order[k]
            if decl[i] is None:
                self._decl_cursor = k
                if i == self._d and self._three and self._mode == "sequential" \
                        and self._declaration_closes(i):
                    return
                self._to_act = i
                return
            k += 1
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
            if i in self._forced_pass:
                return False  # he looked at another hand and throws up: nobody stands
            self._standers = []
            self._end("dealer-takes")
            return True
        return False

    def declaration_options(self, player: str) -> list[str]:
        """The declarations ``player`` may make now (empty when it is not their turn; poker-Loo's
        simultaneous decisions have no turn: anyone in the deal who has not decided may)."""
        s = self._idx[player]
        if self.phase != DECLARE:
            return []
        if self._mode == "simultaneous" and s != self._to_act:
            if self._decl[s] is not None or s in self._out_of_deal:
                return []
            return ["pass"] if s in self._forced_pass else ["stand", "pass"]
        if s != self._to_act:
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
        try:
            s = self._idx[action["player"]]
        except (KeyError, TypeError):
            s = self._seat(action)
        if (s == self._to_act and self.phase == DECLARE and self._mode == "sequential"
                and (kind == "stand" or kind == "pass") and (not self._three or s != self._d)
                and s not in self._forced_pass):
            # a plain stand or pass in turn, which declaration_options always allows here (at
            # three-card and Irish only the dealer's options depend on the others)
            self._decl[s] = kind
            self._next_declarer()
            return
        name = self.seats[s]
        if s in self._out_of_deal:
            raise self._err(f"{name} sits this deal out", player=name)
        if self._mode == "forced" or (self._mode == "eldest-miss" and self.phase != DECLARE):
            if kind == "stand" and not self._tricks and not self._tcards \
                    and self._decl[s] == "stand":
                return  # the record may spell out a declaration the rules force
            raise self._err(f"{name}: {action['action']} is not allowed, every player must play here",
                            player=name)
        if self.phase != DECLARE:
            if self._bold and kind == "stand" and self._decl[s] == "stand" \
                    and not self._tcards and not self._tricks:
                return
            if self._made_up and self._decl[s] == kind:
                return  # the record's own late declaration agrees with the one made up for it
            raise self._err(f"{name}: cannot {action['action']} now, declaring is over", player=name)
        if self._decl[s] is not None:
            raise self._err(f"{name} has already declared ({self._decl[s]})", player=name)
        if self._mode == "simultaneous":
            if kind not in ("stand", "pass"):
                raise self._err(f"{name}: {kind} is not a poker-Loo declaration", player=name)
            if s in self._forced_pass:
                self._check_declaration(s, kind, ["pass"])
            self._decl[s] = kind
            self._next_declarer()
            return
        while s != self._to_act and self._to_act in self._forced_pass:
            self._decl[self._to_act] = "pass"  # looked at another hand: thrown up
            self._next_declarer()
            if self.phase != DECLARE:
                raise self._err(f"{name}: cannot {action['action']} now, declaring is over", player=name)
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
        if s in self._forced_pass:
            why = "looked at another player's hand: must throw up"
        elif kind == "take-miss" and self._miss_taker >= 0:
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
            self._withdraw_looks_at_miss(s)
        elif kind == "defend":
            self._defender = s
            if self._has_miss:
                self._hands[s] = list(self._miss) if self._miss is not None else None
                self._withdraw_looks_at_miss(s)

    def _standing(self) -> list[int]:
        """The players whose declaration makes them play, in order from eldest."""
        decl = self._decl
        return [i for i in self._order if decl[i] in ("stand", "take-miss", "defend")]

    def _after_declarations(self) -> None:
        """Who plays, and whether anyone plays at all."""
        r = self.rules
        self._to_act = -1
        standers = self._standers = self._standing()
        d = self._d
        if self._mode in ("forced", "eldest-miss") and len(standers) > 1:
            pass
        elif self._three:
            if standers == [d]:
                # the dealer stood out of turn and everyone before him passed: as when they
                # all pass before his turn, he takes the pool without play (or, under bold
                # stand, plays the last player in the round)
                if self._declaration_closes(d):
                    return
                standers = self._standers = self._standing()  # bold stand made one stand
            if self._decl[d] == "pass":
                others = [i for i in standers if i != d]
                if len(others) == 1:
                    self._end("conceded")
                    return
        else:  # five-card and poker-Loo (a redeal may leave one player to stand, perforce)
            if not standers:
                self._end("nobody-stands")
                return
            if len(standers) == 1:
                self._end("lone-stander")
                return
        if r.game in ("irish", "five-card", "poker-loo"):
            limit = _EXCHANGE_LIMIT[r.game]
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
