"""A whole session driven through the service layer by random sequences of writes (hypothesis
``RuleBasedStateMachine``): the promise that no chip is ever lost, in every deal and every session.

The machine opens a session at a random preset or house variant (``end_pool: "final-deal"``
among them) and table (credit on or off, the club or a member banking) and then, in any order:
buys chips, voids a purchase, records the next legal deal (the simulator's, dealt by and into what the session
expects), an irregular one (a play swapped, two plays of a trick swapped, a pre-play
irregularity, a card played twice), a final deal, or one the session does not expect; corrects an
earlier deal (with another legal deal, an irregular one, one that changes the pool, a final deal,
the very record it holds, or one that disagrees with the session); closes, reopens, pays debts
(also while closed, then reopening: money recorded under a closing reversed since), and exports
the session and imports it back. It keeps its own model, the records it had accepted
and the purchases in play order, and from it predicts, with the engine alone, every refusal: a
player short of chips with credit off (then it buys what the refusal names and records the deal
again), a purchase's void that would take a player below zero with credit off, that voids a
purchase twice or has no reason, a deal after the final deal, a correction that would leave a later deal impossible (its
dealer, its record, its pool, a player below zero) or change nothing, a write to a closed session,
a close without its final deal, a payment above the debt, a 21st reopening. The service layer takes no
``Idempotency-Key`` (the views do: tests/api/test_idempotency.py), so no write is sent twice here.
A refused write must change nothing (the session's rows are compared before and after).

After every step: the ledger's own check (``ledger_check``) finds nothing; the accounts (seats,
pool, bank) sum to zero and hold what the model says; each deal's deltas and pool change sum to
zero; the pool is the last deal's ``pool_after`` and ``session_next`` is what the model expects;
the stored records, replayed from scratch with the engine carrying the pool, dealer and series,
give exactly the stored verdicts, which are the model's; with credit off nobody is below zero at
any point of the timeline. A close is checked against the model and the report's money results,
a payment against the report's debts and chips.

Runs ~25 sessions of 30 steps by default; ``HYPOTHESIS_PROFILE=ci`` (CI's PostgreSQL pass) and
``thorough`` run more, ``LOO_MACHINE_EXAMPLES`` / ``LOO_MACHINE_STEPS`` set the figures outright.
"""
from __future__ import annotations

import copy
import datetime as dt
import os
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import pytest
from django.db import transaction
from hypothesis import HealthCheck, event, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)

from games.models import (
    BANK,
    POOL,
    ChipPayment,
    ChipPurchase,
    Deal,
    DealRevision,
    GameSession,
    LedgerEntry,
    PurchaseVoid,
    SessionClosing,
)
from games.rules import PRESETS, RecordError, RuleError, RuleSet, replay
from games.rules.simulate import eager, play_random_deal, uniform
from loo_ledger.problems import Problem

pytestmark = pytest.mark.django_db

#: club oak's members (tests/conftest.py): the seats a table is drawn from
MEMBERS = ["ann", "bob", "cat", "dan", "eve", "olga", "sam", "vic"]
#: the presets, and house rules that end deals void or carry a capped pot
RULES: list[dict[str, Any]] = [{"preset": name} for name in PRESETS] + [
    {"game": "three-card", "flush": "three-trumps-redeal"},
    {"game": "poker-loo", "loo_cap": 40},
    {"game": "three-card", "flush": "three-trumps-redeal", "end_pool": "final-deal"},
    {"game": "five-card", "end_pool": "final-deal"},
    {"game": "poker-loo", "end_pool": "final-deal"},  # a burn's pot may outgrow a purchase
    {"preset": "irish", "end_pool": "final-deal"},
]
#: (examples, steps) per hypothesis profile: CI's PostgreSQL pass runs longer, not much longer
SIZES = {"default": (25, 30), "ci": (30, 40), "thorough": (300, 60)}
#: the largest pool a deal revision holds (games.services.limits.MAX_POOL)
MAX_POOL = 2_147_483_647
#: the most times a session is reopened (games.services.limits.MAX_REOPENS)
MAX_REOPENS = 20
#: the most chips one purchase buys (games.services.limits.MAX_CHIPS)
MAX_CHIPS = 1_000_000_000
#: endings that leave a deal void, dealt again for the same pool: a final deal ending so is dealt
#: again (one a three-trumps-redeal flush ends is played: the flusher took its pool)
VOID = {"misdeal", "thrown-in"}


def machine_settings() -> settings:
    examples, steps = SIZES.get(os.environ.get("HYPOTHESIS_PROFILE", "default"), SIZES["default"])
    return settings(
        max_examples=int(os.environ.get("LOO_MACHINE_EXAMPLES", examples)),
        stateful_step_count=int(os.environ.get("LOO_MACHINE_STEPS", steps)),
        deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
    )


# --- the model: what the session must hold, worked out with the engine alone ----------------

class Impossible(Exception):
    """The model's reason a write must be refused: ``status`` and ``code`` of the problem."""

    def __init__(self, status: int, code: str, why: str):
        super().__init__(f"{status} {code}: {why}")
        self.status, self.code = status, code


@dataclass
class Turn:
    """What the session expects of a deal: its number, dealer, pool, series flag and sitters-out."""

    number: int
    dealer: str
    pool: int
    first_of_series: bool
    sits_out: list[str] | None = None

    def following(self, verdict: Mapping[str, Any]) -> Turn:
        nxt, redeal = verdict["next"], verdict.get("redeal")
        return Turn(self.number + 1, nxt["dealer"], nxt["pool"], bool(nxt["first_of_series"]),
                    list(redeal.get("sits_out") or []) if isinstance(redeal, dict) else None)


def as_played(record: Mapping[str, Any], turn: Turn) -> dict[str, Any]:
    """A record placed at ``turn``: its number and pool, and the redeal the turn says (the
    record's own ``redeal``/``sits_out`` are the carry's to decide, as after a correction)."""
    rec = {k: v for k, v in record.items() if k not in ("redeal", "sits_out", "rules")}
    rec.update(number=turn.number, pool=turn.pool)
    if turn.sits_out is not None:
        rec.update(redeal=True, sits_out=list(turn.sits_out))
    return rec


def too_large(verdict: Mapping[str, Any]) -> bool:
    """A pool (played for, or left after the deal) beyond what the ledger holds."""
    return max(verdict["settlement"]["pool"], verdict["settlement"]["pool_after"]) > MAX_POOL


def played_final(record: Mapping[str, Any], verdict: Mapping[str, Any]) -> bool:
    """The final deal of ``end_pool: "final-deal"``, played out: nothing may follow it."""
    return record.get("final") is True and verdict["ended"] not in VOID


def chain(rules: Mapping[str, Any], first_dealer: str, records: Sequence[Mapping[str, Any]]
          ) -> tuple[list[dict[str, Any]], Turn]:
    """Every record replayed from scratch, the pool, dealer and series carried: the verdicts and
    the turn after the last. ``Impossible`` when a record is not its turn's dealer's, comes
    after the final deal, cannot be replayed or makes a pool the ledger cannot hold."""
    turn = Turn(1, first_dealer, 0, True)
    verdicts: list[dict[str, Any]] = []
    for record in records:
        if verdicts and played_final(records[len(verdicts) - 1], verdicts[-1]):
            raise Impossible(409, "correction-refused", f"deal {turn.number} follows the final deal")
        if record.get("dealer") != turn.dealer:
            raise Impossible(409, "correction-refused",
                             f"deal {turn.number} is {record.get('dealer')}'s, the turn {turn.dealer}'s")
        try:
            verdict = replay(as_played(record, turn), rules, pool=turn.pool,
                             first_of_series=turn.first_of_series)
        except RecordError as exc:
            raise Impossible(409, "correction-refused", f"deal {turn.number}: {exc}") from exc
        if too_large(verdict):
            raise Impossible(409, "correction-refused", f"deal {turn.number}: pool too large")
        verdicts.append(verdict)
        turn = turn.following(verdict)
    return verdicts, turn


@dataclass
class Model:
    """The session as the machine has made it: rules, seats, the records it accepted (as
    sent) and the purchases between them, the closing, the money paid later."""

    rules: dict[str, Any]
    seats: list[str]
    first_dealer: str
    allow_credit: bool
    chip_value: int
    banker: str | None
    records: list[dict[str, Any]] = field(default_factory=list)
    #: (deals recorded before it, player, chips, paid), in posting order (the buy-ins first,
    #: in seat order, as the session records them)
    purchases: list[tuple[int, str, int, bool]] = field(default_factory=list)
    #: the places in ``purchases`` of the voided ones
    voided: set[int] = field(default_factory=set)
    #: (deals recorded before it, player, chips) of every purchase and every void (its chips
    #: negative), in the order made: what lands in the players' hands between deals
    moves: list[tuple[int, str, int]] = field(default_factory=list)
    paid_later: dict[str, int] = field(default_factory=dict)
    closed: bool = False
    returned: dict[str, int] = field(default_factory=dict)  # the standing closing's buy-back
    reopens: int = 0  # how many times the session was reopened

    _chained: tuple[list[dict[str, Any]], Turn] | None = None

    def set_record(self, number: int, record: dict[str, Any]) -> None:
        """Deal ``number``'s record is now this one (the next deal's: appended)."""
        if number > len(self.records):
            self.records.append(record)
        else:
            self.records[number - 1] = record
        self._chained = None

    def verdicts(self) -> list[dict[str, Any]]:
        if self._chained is None:
            self._chained = chain(self.rules, self.first_dealer, self.records)
        return self._chained[0]

    def next_turn(self) -> Turn:
        self.verdicts()
        assert self._chained is not None
        return self._chained[1]

    def final_played(self) -> bool:
        return bool(self.records) and played_final(self.records[-1], self.verdicts()[-1])

    def short_of_chips(self, verdicts: Sequence[Mapping[str, Any]], *, voids: bool = False,
                       ) -> list[tuple[int, str, int, int]]:
        """(deal, player, holds, owes) wherever these verdicts, in play order with the purchases
        and voids, take a player below zero (nothing when credit is allowed); ``voids``: the
        voids that would, instead (deal: the deals recorded before the void)."""
        if self.allow_credit:
            return []
        held = dict.fromkeys(self.seats, 0)
        short, short_voids = [], []
        for n in range(len(verdicts) + 1):
            if n:
                for player, delta in verdicts[n - 1]["settlement"]["deltas"].items():
                    if delta < 0 and held[player] + delta < 0:
                        short.append((n, player, held[player], -delta))
                    held[player] += delta
            for after, player, chips in self.moves:
                if after == n:
                    if held[player] + chips < 0:
                        short_voids.append((n, player, held[player], -chips))
                    held[player] += chips
        return short_voids if voids else short

    def bought(self) -> dict[str, int]:
        """Chips bought per seat: the purchases that stand (a voided one counts nowhere)."""
        out = dict.fromkeys(self.seats, 0)
        for i, (_after, player, chips, _paid) in enumerate(self.purchases):
            if i not in self.voided:
                out[player] += chips
        return out

    def balances(self) -> dict[str, int]:
        """Every account now: all zero once closed (the pool split, every chip bought back)."""
        verdicts = self.verdicts()
        out = {**self.bought(), POOL: verdicts[-1]["settlement"]["pool_after"] if verdicts else 0,
               BANK: -sum(self.bought().values())}
        for verdict in verdicts:
            for player, delta in verdict["settlement"]["deltas"].items():
                out[player] += delta
        return dict.fromkeys(out, 0) if self.closed else out

    def owed(self, player: str) -> int:
        """Money the player still hands the banker, as the payments service must accept it."""
        if player == self.banker:
            return 0
        debt = sum(chips for i, (_a, p, chips, paid) in enumerate(self.purchases)
                   if p == player and not paid and i not in self.voided)
        debt = debt * self.chip_value - self.paid_later.get(player, 0)
        if self.closed:
            return max(debt - self.returned.get(player, 0) * self.chip_value, 0)
        return max(debt, 0)


# --- the session's rows, to show that a refused write changed nothing ------------------------

def snapshot(session: GameSession) -> tuple[Any, ...]:
    row = GameSession.objects.get(pk=session.pk)
    return (
        row.status,
        list(LedgerEntry.objects.filter(session=session).order_by("seq")
             .values_list("seq", "posting", "kind", "account", "chips", "revision_id")),
        list(Deal.objects.filter(session=session).order_by("number")
             .values_list("number", "posting", "current_id")),
        list(DealRevision.objects.filter(deal__session=session).order_by("pk").values_list("pk")),
        list(ChipPurchase.objects.filter(session=session).order_by("pk").values_list("pk")),
        list(PurchaseVoid.objects.filter(purchase__session=session).order_by("pk").values_list("pk")),
        list(ChipPayment.objects.filter(session=session).order_by("pk").values_list("pk")),
        list(SessionClosing.objects.filter(session=session).order_by("pk").values_list("pk")),
    )


def stored_deals(session: GameSession) -> list[DealRevision]:
    """The current revision of every deal, in order."""
    deals = Deal.objects.filter(session=session).select_related("current").order_by("number")
    return [d.current for d in deals]


# --- mutations of a legal record (as the engine's property tests plant them) ----------------

def _plays(actions: Sequence[Mapping[str, Any]]) -> list[int]:
    return [i for i, a in enumerate(actions) if a.get("action") == "play"]


def swap_own_plays(record: dict[str, Any], rng: random.Random) -> bool:
    """One player's two plays swapped: the earlier one may now break a duty (a revoke...)."""
    actions = record["actions"]
    pairs = [(i, j) for i in _plays(actions) for j in _plays(actions)
             if i < j and actions[i]["player"] == actions[j]["player"]
             and "say" not in actions[i] and "say" not in actions[j]]
    if not pairs:
        return False
    i, j = rng.choice(pairs)
    actions[i]["card"], actions[j]["card"] = actions[j]["card"], actions[i]["card"]
    return True


def swap_neighbours(record: dict[str, Any], rng: random.Random) -> bool:
    """Two neighbouring plays swapped: the second player played out of turn (or the trick
    they now start belongs to the first)."""
    actions = record["actions"]
    plays = _plays(actions)
    pairs = [k for k in plays if k + 1 in plays and actions[k]["player"] != actions[k + 1]["player"]]
    if not pairs:
        return False
    k = rng.choice(pairs)
    actions[k], actions[k + 1] = actions[k + 1], actions[k]
    return True


def note_irregularity(record: dict[str, Any], rng: random.Random) -> bool:
    """A pre-play irregularity noted first: its single loo goes into the pool played for."""
    player = rng.choice([s for s in record["seats"] if s not in (record.get("sits_out") or [])])
    kind = rng.choice(["looked-out-of-turn", "looked-at-stock"])
    record["actions"].insert(0, {"player": player, "action": "irregularity", "kind": kind})
    return True


def card_twice(record: dict[str, Any], rng: random.Random) -> bool:
    """A card played twice: no real deal (a record error)."""
    plays = _plays(record["actions"])
    if len(plays) < 2:
        return False
    k = rng.choice(plays[1:])
    record["actions"][k]["card"] = record["actions"][plays[0]]["card"]
    return True


MUTATIONS: dict[str, Callable[[dict[str, Any], random.Random], bool]] = {
    "swap-own-plays": swap_own_plays, "swap-neighbours": swap_neighbours,
    "irregularity": note_irregularity, "card-twice": card_twice,
}


# --- the machine ----------------------------------------------------------------------------

def is_open(machine: SessionMachine) -> bool:
    return machine.model is not None and not machine.model.closed


def is_closed(machine: SessionMachine) -> bool:
    return machine.model is not None and machine.model.closed


class SessionMachine(RuleBasedStateMachine):
    """One session per example, in a savepoint rolled back at teardown."""

    club: Any = None  # set by the test (club oak)
    owner: Any = None  # olga, who may reopen and refund after closing

    def __init__(self) -> None:
        super().__init__()
        self.atomic = transaction.atomic()
        self.atomic.__enter__()
        self.session: GameSession | None = None
        self.model: Model | None = None

    def teardown(self) -> None:
        transaction.set_rollback(True)
        self.atomic.__exit__(None, None, None)

    # - helpers -

    def attempt(self, why_not: Impossible | None, write: Callable[[], Any]) -> Any:
        """Run ``write``; refused exactly when the model says (then with its status and code,
        and nothing in the session changed)."""
        assert self.session is not None
        before = snapshot(self.session)
        try:
            result = write()
        except Problem as exc:
            event(f"refused: {exc.code}")
            assert why_not is not None, f"refused ({exc.status_code} {exc.code}): {exc.detail}"
            assert (exc.status_code, exc.code) == (why_not.status, why_not.code), (
                f"refused {exc.status_code} {exc.code} ({exc.detail}); the model says {why_not}")
            assert snapshot(self.session) == before, "a refused write changed the session"
            return exc
        assert why_not is None, f"accepted, but the model says: {why_not}"
        self.session.refresh_from_db()
        return result

    def legal_deal(self, turn: Turn, seed: int, *, with_hands: bool = False,
                   final: bool = False) -> dict[str, Any]:
        """The simulator's random legal deal for this turn (``final``: a final deal). One seed
        in four plays it ``eager``ly (everybody who may stand stands): more loos, larger pools."""
        m = self.model
        assert m is not None
        return play_random_deal(
            m.rules, m.seats, turn.dealer, pool=turn.pool, rng=random.Random(seed),
            first_of_series=turn.first_of_series, with_hands=with_hands, number=turn.number,
            redeal={"sits_out": turn.sits_out} if turn.sits_out is not None else None,
            final=final, choose=eager if seed % 4 == 0 else uniform,
        ).record

    def mutated(self, record: dict[str, Any], how: str, seed: int) -> dict[str, Any]:
        changed = copy.deepcopy(record)
        if not MUTATIONS[how](changed, random.Random(seed)):
            return record
        event(f"mutation: {how}")
        return changed

    def predict_next(self, record: dict[str, Any]) -> tuple[Impossible | None, list[tuple[int, str, int, int]]]:
        """Why recording ``record`` as the next deal must be refused (None: it must be stored),
        and who it would leave short of chips."""
        m = self.model
        assert m is not None
        if m.closed:
            return Impossible(409, "session-closed", "closed"), []
        verdicts, turn = m.verdicts(), m.next_turn()
        if m.final_played():
            return Impossible(409, "final-deal-played", "after the final deal"), []
        if record.get("final") is True and m.rules["end_pool"] != "final-deal":
            return Impossible(400, "record-mismatch", "no final deal at end_pool split"), []
        try:
            verdict = replay(as_played(record, turn), m.rules, pool=turn.pool,
                             first_of_series=turn.first_of_series)
        except RecordError as exc:
            return Impossible(400, "record-error", str(exc)), []
        if too_large(verdict):
            return Impossible(400, "validation-error", "pool too large"), []
        short = [s for s in m.short_of_chips([*verdicts, verdict]) if s[0] == turn.number]
        if short:
            return Impossible(400, "insufficient-chips", f"short: {short}"), short
        event(f"deal {verdict['status']}, {verdict['ended']}")
        return None, []

    def record_next(self, record: dict[str, Any]) -> None:
        """Record ``record`` as the next deal; refused as the model says. Short of chips with
        credit off: buy exactly what the refusal names, and the same deal is then stored."""
        from games.services.deals import deal_record

        m = self.model
        assert m is not None and self.session is not None
        number = len(m.records) + 1
        why_not, short = self.predict_next(record)
        answer = self.attempt(why_not, lambda: deal_record(session=self.session, number=number,
                                                           record=record, user=self.owner))
        if why_not is None:
            m.set_record(number, record)
            return
        if short:
            assert {(e["player"], e["holds"], e["owes"]) for e in answer.errors} == {
                (p, holds, owes) for _n, p, holds, owes in short}
            for _n, player, holds, owes in short:
                for start in range(0, owes - holds, MAX_CHIPS):  # (a poker-Loo pot may be more)
                    self.buy(player, min(MAX_CHIPS, owes - holds - start), True)
            self.record_next(record)

    def buy(self, player: str, chips: int, paid: bool) -> None:
        from games.services.sessions import purchase_record

        m = self.model
        assert m is not None
        why_not = Impossible(409, "session-closed", "closed") if m.closed else None
        if why_not is None and not paid and player == m.banker:
            why_not = Impossible(400, "validation-error", "the banker's own chips are owed to nobody")
        self.attempt(why_not, lambda: purchase_record(session=self.session, player=player,
                                                      chips=chips, paid=paid, user=self.owner))
        if why_not is None:
            m.purchases.append((len(m.records), player, chips, paid))
            m.moves.append((len(m.records), player, chips))

    def void(self, place: int, reason: str) -> None:
        """Void the purchase at ``place`` (in posting order, as the model keeps them)."""
        from games.services.sessions import purchase_void

        m = self.model
        assert m is not None and self.session is not None
        _after, player, chips, _paid = m.purchases[place]
        if not reason.strip():
            why_not = Impossible(400, "validation-error", "no reason")
        elif m.closed:
            why_not = Impossible(409, "session-closed", "closed")
        elif place in m.voided:
            why_not = Impossible(409, "purchase-voided", "voided already")
        elif not m.allow_credit and m.balances()[player] < chips:
            why_not = Impossible(409, "insufficient-chips", f"{player} holds too few")
        else:
            why_not = None
        pk = ChipPurchase.objects.filter(session=self.session).order_by("posting", "id")[place].pk
        self.attempt(why_not, lambda: purchase_void(session=self.session, purchase_id=pk,
                                                    reason=reason, user=self.owner))
        if why_not is None:
            m.voided.add(place)
            m.moves.append((len(m.records), player, -chips))
            event("voided")

    # - rules -

    @initialize(data=st.data())
    def open_session(self, data: st.DataObject) -> None:
        from games.services.sessions import session_create

        options = data.draw(st.sampled_from(RULES), label="rules")
        rules = RuleSet.from_options(options)
        fits = []
        for n in range(2, len(MEMBERS) + 1):
            try:
                rules.check_seats(MEMBERS[:n])
            except RuleError:
                continue
            fits.append(n)
        seats = data.draw(st.sampled_from(fits).flatmap(
            lambda n: st.permutations(MEMBERS).map(lambda p: p[:n])), label="seats")
        first_dealer = data.draw(st.sampled_from(seats), label="first_dealer")
        allow_credit = data.draw(st.booleans(), label="allow_credit")
        chip_value = data.draw(st.sampled_from([1, 5, 25]), label="chip_value")
        banker = data.draw(st.sampled_from([None, *MEMBERS]), label="banker")
        buy_ins = data.draw(st.fixed_dictionaries({}, optional={
            s: st.integers(1, 60) for s in seats}), label="buy_ins")
        event(f"rules: {options}")
        event(f"credit {'allowed' if allow_credit else 'off'}")
        self.session = session_create(
            club=self.club, date=dt.date(2026, 11, 30), seats=seats, first_dealer=first_dealer,
            rules=options, banker=banker, chip_value=chip_value, allow_credit=allow_credit,
            buy_ins=buy_ins, user=self.owner)
        self.model = Model(dict(self.session.resolved_rules), list(seats), first_dealer,
                           allow_credit, chip_value, banker,
                           purchases=[(0, s, buy_ins[s], True) for s in seats if s in buy_ins],
                           moves=[(0, s, buy_ins[s]) for s in seats if s in buy_ins])

    @precondition(is_open)
    @rule(player=st.integers(0, len(MEMBERS) - 1), chips=st.integers(1, 60), paid=st.booleans())
    def buy_chips(self, player: int, chips: int, paid: bool) -> None:
        assert self.model is not None
        self.buy(self.model.seats[player % len(self.model.seats)], chips, paid)

    @precondition(lambda machine: is_open(machine) and machine.model.purchases)
    @rule(which=st.integers(0, 2**16), reason=st.sampled_from(["keyed twice", "wrong player", " "]))
    def void_a_purchase(self, which: int, reason: str) -> None:
        """Void a purchase keyed in by mistake (one voided already, or with a blank reason: refused)."""
        assert self.model is not None
        self.void(which % len(self.model.purchases), reason)

    @precondition(is_open)
    @rule(seed=st.integers(0, 2**32 - 1))
    def record_next_deal(self, seed: int) -> None:
        assert self.model is not None
        self.record_next(self.legal_deal(self.model.next_turn(), seed))

    @precondition(is_open)
    @rule(seed=st.integers(0, 2**32 - 1))
    def record_another_deal(self, seed: int) -> None:
        """(Recording is the commonest write: a second rule makes it twice as likely.)"""
        self.record_next_deal(seed)

    @precondition(is_open)
    @rule(seed=st.integers(0, 2**32 - 1), how=st.sampled_from(sorted(MUTATIONS)),
          with_hands=st.booleans())
    def record_irregular_deal(self, seed: int, how: str, with_hands: bool) -> None:
        assert self.model is not None
        legal = self.legal_deal(self.model.next_turn(), seed, with_hands=with_hands)
        self.record_next(self.mutated(legal, how, seed))

    @precondition(lambda machine: is_open(machine) and machine.model.rules["end_pool"] == "final-deal")
    @rule(seed=st.integers(0, 2**32 - 1))
    def record_final_deal(self, seed: int) -> None:
        """The final deal of ``end_pool: "final-deal"`` (refused after it; at ``split``, see
        ``record_out_of_turn``)."""
        assert self.model is not None
        self.record_next(self.legal_deal(self.model.next_turn(), seed, final=True))

    @precondition(is_open)
    @rule(data=st.data())
    def record_out_of_turn(self, data: st.DataObject) -> None:
        """A deal the session does not expect: the wrong number (409), the wrong dealer or pool
        stated, or a final deal at ``end_pool: split`` (400): refused, nothing stored."""
        from games.services.deals import deal_record

        m = self.model
        assert m is not None
        turn = m.next_turn()
        record = self.legal_deal(turn, data.draw(st.integers(0, 2**32 - 1), label="seed"))
        how = data.draw(st.sampled_from(["number", "dealer", "pool", "final"]), label="how")
        number = turn.number
        if how == "final":
            if m.rules["end_pool"] == "final-deal":
                return  # (record_final_deal records them)
            record = self.legal_deal(turn, data.draw(st.integers(0, 2**32 - 1), label="seed"),
                                     final=True)
            why_not = Impossible(400, "record-mismatch", "no final deal at end_pool split")
        elif how == "number":
            number += data.draw(st.sampled_from([-1, 1, 2]), label="off by")
            why_not = Impossible(409, "deal-number-conflict", "not the next deal")
        elif how == "dealer":
            record["dealer"] = data.draw(st.sampled_from([s for s in m.seats if s != turn.dealer]))
            why_not = Impossible(400, "record-mismatch", "not the dealer")
        else:
            record["pool"] = turn.pool + data.draw(st.integers(1, 9), label="pool off by")
            why_not = Impossible(400, "record-mismatch", "not the pool")
        if number < 1:
            return
        if how != "number" and m.final_played():
            why_not = Impossible(409, "final-deal-played", "after the final deal")
        if m.closed:
            why_not = Impossible(409, "session-closed", "closed")
        self.attempt(why_not, lambda: deal_record(session=self.session, number=number,
                                                  record=record, user=self.owner))

    @precondition(is_open)
    @rule(data=st.data())
    def correct_a_deal(self, data: st.DataObject) -> None:
        """Correct an earlier deal: another legal deal of its dealer and pool, an irregular one,
        one that changes the pool it leaves, the very record it holds, or a record error."""
        from games.services.deals import deal_correct

        m = self.model
        assert m is not None and self.session is not None
        if not m.records:
            return
        number = data.draw(st.integers(1, len(m.records)), label="deal")
        how = data.draw(st.sampled_from(["legal", "irregular", "pool", "same", "card-twice",
                                         "stated-pool", "final"]), label="how")
        seed = data.draw(st.integers(0, 2**32 - 1), label="seed")
        turn = chain(m.rules, m.first_dealer, m.records[:number - 1])[1]
        stored = stored_deals(self.session)[number - 1].record
        if how in ("legal", "final"):
            record = self.legal_deal(turn, seed, final=how == "final")
        elif how == "irregular":
            legal = self.legal_deal(turn, seed, with_hands=True)
            record = self.mutated(legal, data.draw(st.sampled_from(
                ["swap-own-plays", "swap-neighbours"]), label="mutation"), seed)
        elif how == "pool":
            record = self.mutated(stored, "irregularity", seed)
        elif how == "same":
            record = copy.deepcopy(stored)
        elif how == "card-twice":
            record = self.mutated(stored, "card-twice", seed)
        else:
            record = {**stored, "pool": turn.pool + 1 + seed % 5}
        why_not = self.predict_correction(number, turn, record, stored)
        event(f"correction ({how}): {why_not.code if why_not else 'stored'}")
        self.attempt(why_not, lambda: deal_correct(session=self.session, number=number,
                                                   record=record, user=self.owner,
                                                   reason="property test"))
        if why_not is None:
            m.set_record(number, record)

    @precondition(is_open)
    @rule(data=st.data())
    def correct_another_deal(self, data: st.DataObject) -> None:
        """(Corrections are where the books are rewritten: a second rule makes them likelier.)"""
        self.correct_a_deal(data)

    def predict_correction(self, number: int, turn: Turn, record: dict[str, Any],
                           stored: Mapping[str, Any]) -> Impossible | None:
        m = self.model
        assert m is not None
        if m.closed:
            return Impossible(409, "session-closed", "closed")
        if record.get("pool", turn.pool) != turn.pool:
            return Impossible(400, "record-mismatch", "the pool stated")
        if record.get("final") is True and m.rules["end_pool"] != "final-deal":
            return Impossible(400, "record-mismatch", "no final deal at end_pool split")
        placed = as_played(record, turn)
        try:
            verdict = replay(placed, m.rules, pool=turn.pool, first_of_series=turn.first_of_series)
        except RecordError as exc:
            return Impossible(400, "record-error", str(exc))
        if too_large(verdict):
            return Impossible(400, "validation-error", "pool too large")
        if placed == stored and verdict == stored_deals(self.session)[number - 1].verdict:
            return Impossible(409, "correction-unchanged", "the same record")
        if number < len(m.records) and played_final(record, verdict):
            return Impossible(409, "correction-refused", "a final deal before others")
        records = [*m.records[:number - 1], record, *m.records[number:]]
        try:
            verdicts = chain(m.rules, m.first_dealer, records)[0]
        except Impossible as why:
            return why
        if m.short_of_chips(verdicts):
            return Impossible(409, "correction-refused", f"short: {m.short_of_chips(verdicts)}")
        if m.short_of_chips(verdicts, voids=True):
            event("correction refused by a later void")
            return Impossible(409, "correction-refused", "a later void short")
        return None

    @rule(reopen=st.booleans())
    def close(self, reopen: bool) -> None:
        """Close (and check the end pool, the buy-back and the report's money); then, half
        the time, reopen at once, so that play goes on in the same example."""
        from games.reports.gather import session_report
        from games.services.closing import session_close

        m = self.model
        assert m is not None and self.session is not None
        if not m.closed:
            self.reopen("it is open")  # refused: nothing to reopen
        before = m.balances()
        why_not = Impossible(409, "session-closed", "closed already") if m.closed else None
        if not m.closed and m.rules["end_pool"] == "final-deal" and before[POOL] \
                and not m.final_played():
            why_not = Impossible(409, "final-deal-required", "no final deal")
        result = self.attempt(why_not, lambda: session_close(session=self.session, user=self.owner))
        if why_not is not None:
            return
        event("closed")
        pool = before[POOL]
        assert result.end_pool == pool and sum(result.shares.values()) == pool
        assert max(result.shares.values()) - min(result.shares.values()) <= 1
        assert result.returned == {s: before[s] + result.shares[s] for s in m.seats}
        assert sum(result.returned.values()) == sum(m.bought().values())
        m.closed, m.returned = True, dict(result.returned)
        # the buy-back pays exactly the chips held, and the report's money says the same
        bought_back = {s: -n for s, n in LedgerEntry.objects.filter(
            session=self.session, kind="buyback", posting__in=result.closing.postings)
            .values_list("account", "chips")}
        assert {s: n for s, n in bought_back.items() if s != BANK} == {
            s: n for s, n in result.returned.items() if n}
        report = session_report(self.session)
        bought = m.bought()
        assert {p.name: p.result_money for p in report.players} == {
            s: (result.returned[s] - bought[s]) * m.chip_value for s in m.seats}
        assert sum(p.result_money for p in report.players) == 0
        assert report.totals["chips_returned"] == sum(bought.values())
        if reopen:
            self.reopen("the evening went on")

    @precondition(is_closed)
    @rule(data=st.data(), which=st.sampled_from(["buy", "void", "deal", "irregular",
                                                 "out-of-turn", "correct"]))
    def write_while_closed(self, data: st.DataObject, which: str) -> None:
        """Every write but a payment is refused once the session is closed (409), and changes
        nothing. (The writes are otherwise tried while it is open, so that a closed session
        does not take most of the steps.)"""
        seed = data.draw(st.integers(0, 2**32 - 1), label="seed")
        if which == "buy":
            self.buy_chips(seed, 1 + seed % 60, bool(seed % 2))
        elif which == "void":
            if self.model is not None and self.model.purchases:
                self.void(seed % len(self.model.purchases), "keyed twice")
        elif which == "deal":
            self.record_next_deal(seed)
        elif which == "irregular":
            self.record_irregular_deal(seed, sorted(MUTATIONS)[seed % len(MUTATIONS)], False)
        elif which == "out-of-turn":
            self.record_out_of_turn(data)
        else:
            self.correct_a_deal(data)

    @precondition(is_closed)
    @rule(reason=st.sampled_from(["", "a deal was misread"]))
    def reopen(self, reason: str) -> None:
        """An owner reopens (a reason is required); reopening an open session is tried in
        ``close``."""
        from games.services.closing import session_reopen

        m = self.model
        assert m is not None
        if not reason:
            why_not = Impossible(400, "validation-error", "no reason")
        elif not m.closed:
            why_not = Impossible(409, "session-open", "open")
        elif m.reopens >= MAX_REOPENS:
            why_not = Impossible(409, "session-full", "reopened as often as a session may be")
        else:
            why_not = None
        self.attempt(why_not, lambda: session_reopen(session=self.session, user=self.owner,
                                                     reason=reason))
        if why_not is None:
            m.closed, m.returned, m.reopens = False, {}, m.reopens + 1
            event("reopened")

    @precondition(is_open)
    @rule(refund=st.integers(0, len(MEMBERS) - 1))
    def close_settle_and_reopen(self, refund: int) -> None:
        """Close, then, while closed, every debt paid (chips lost on credit among them) and a
        payment refunded, then reopen: money recorded under a closing that is reversed, which
        the session file must carry between its close and reopen lines."""
        m = self.model
        assert m is not None
        self.close(reopen=False)
        if not m.closed:
            return  # refused (no final deal)
        before = dict(m.paid_later)
        for player in range(len(m.seats)):
            self.pay(player, "all")
        self.pay(refund, "refund")
        self.reopen("settled too soon")
        if m.paid_later != before:  # money moved under the closing: its file, at once
            event("paid while closed, then reopened")
            self.export_and_import_back()

    @rule(player=st.integers(0, len(MEMBERS) - 1),
          how=st.sampled_from(["all", "part", "more", "refund", "refund-part"]))
    def pay(self, player: int, how: str) -> None:
        """Pay what is owed (or part of it, or more: refused), or refund what was paid later (or
        part of it: after a void of a purchase paid for later, more was paid than is owed)."""
        from games.reports.gather import session_report
        from games.services.payments import payment_record

        m = self.model
        assert m is not None and self.session is not None
        seat = m.seats[player % len(m.seats)]
        owed = m.owed(seat)
        report = session_report(self.session)
        assert {p.name: p.owed_to_banker for p in report.players} == {
            s: m.owed(s) for s in m.seats}, "the report and the payments disagree on a debt"
        balances = m.balances()
        assert {p.name: p.chips_now for p in report.players} == (
            m.returned if m.closed else {s: balances[s] for s in m.seats})
        assert report.pool_now == balances[POOL]
        money = {"all": owed, "part": owed // 2, "more": owed + 1,
                 "refund": -m.paid_later.get(seat, 0),
                 "refund-part": -(m.paid_later.get(seat, 0) // 2)}[how]
        if money == 0:
            return
        why_not = None
        if seat == m.banker or money > owed:
            why_not = Impossible(400, "validation-error", f"{seat} owes {owed}, not {money}")
        self.attempt(why_not, lambda: payment_record(session=self.session, player=seat,
                                                     money=money, user=self.owner))
        if why_not is None:
            m.paid_later[seat] = m.paid_later.get(seat, 0) + money

    @rule()
    def export_and_import_back(self) -> None:
        """The session file imports back to the same purchases, deals, balances and pool, the
        same closing (open or closed, the same end pool and buy-back) and the same payments and
        debts."""
        from games.imports.export import session_file_text
        from games.imports.models import ImportJob
        from games.imports.services import run_import
        from games.reports.gather import session_report
        from games.selectors import standing_closing
        from games.services.ledger import ledger_balances, ledger_check, money_owed

        m = self.model
        assert m is not None and self.session is not None
        text = session_file_text(self.session)
        # imported by the owner, who may refund after a close as the original's payments did
        job = run_import(ImportJob.objects.create(club=self.club, created_by=self.owner,
                                                  source=text).pk)
        assert job.status == "done", (job.detail, job.errors)
        copy_ = job.session
        assert ledger_check(copy_) == []
        assert copy_.status == self.session.status
        assert ledger_balances(copy_) == ledger_balances(self.session)
        if m.closed:
            event("exported closed")
            fields = ("end_pool_mode", "end_pool", "end_pool_shares", "returned", "warnings",
                      "reason")
            original, copied = standing_closing(self.session), standing_closing(copy_)
            assert original is not None and copied is not None
            assert {f: getattr(copied, f) for f in fields} == {
                f: getattr(original, f) for f in fields}
            assert copied.returned == m.returned
        assert [(r.record, r.verdict) for r in stored_deals(copy_)] == [
            (r.record, r.verdict) for r in stored_deals(self.session)]
        fields = ("player", "chips", "money", "paid", "memo")
        assert list(ChipPurchase.objects.filter(session=copy_).order_by("posting")
                    .values_list(*fields)) == list(
            ChipPurchase.objects.filter(session=self.session).order_by("posting").values_list(*fields))
        fields = ("purchase__posting", "reason")
        places = [dict(zip(ChipPurchase.objects.filter(session=s).order_by("posting")
                           .values_list("posting", flat=True), range(10**6), strict=False))
                  for s in (copy_, self.session)]
        assert [(places[0][p], r) for p, r in PurchaseVoid.objects.filter(
            purchase__session=copy_).order_by("posting").values_list(*fields)] == [
            (places[1][p], r) for p, r in PurchaseVoid.objects.filter(
                purchase__session=self.session).order_by("posting").values_list(*fields)]
        fields = ("player", "money", "memo")
        assert list(ChipPayment.objects.filter(session=copy_).order_by("pk").values_list(*fields)) \
            == list(ChipPayment.objects.filter(session=self.session).order_by("pk")
                    .values_list(*fields))
        assert money_owed(copy_) == money_owed(self.session)
        assert {p.name: p.owed_to_banker for p in session_report(copy_).players} == {
            s: m.owed(s) for s in m.seats}
        # every close and reopen, in order, and the payments among them: the copy's own file
        # is the original's
        assert list(SessionClosing.objects.filter(session=copy_).order_by("at", "id")
                    .values_list("action", "reason")) == list(
            SessionClosing.objects.filter(session=self.session).order_by("at", "id")
            .values_list("action", "reason"))
        if m.reopens:
            event("exported reopened")
        assert session_file_text(copy_) == text

    # - invariants -

    @invariant()
    def the_ledger_checks_out(self) -> None:
        from games.services.ledger import ledger_check

        assert self.session is not None
        assert ledger_check(self.session) == []

    @invariant()
    def no_chip_is_lost(self) -> None:
        from games.selectors import session_next
        from games.services.ledger import ledger_balances

        m = self.model
        assert m is not None and self.session is not None
        balances = ledger_balances(self.session)
        assert sum(balances.values()) == 0
        assert balances == m.balances()
        revisions = stored_deals(self.session)
        for rev in revisions:
            assert sum(rev.deltas.values()) + rev.pool_after - rev.pool_before == 0
        if not m.closed:
            assert balances[POOL] == (revisions[-1].pool_after if revisions else 0)
            turn = m.next_turn()
            nxt = session_next(self.session)
            assert (nxt.number, nxt.dealer, nxt.pool, nxt.first_of_series) == (
                turn.number, turn.dealer, turn.pool, turn.first_of_series)
            assert (list(nxt.sits_out) if nxt.sits_out is not None else None) == turn.sits_out

    @invariant()
    def stored_verdicts_replay_from_scratch(self) -> None:
        m = self.model
        assert m is not None and self.session is not None
        revisions = stored_deals(self.session)
        verdicts, _ = chain(m.rules, m.first_dealer, [r.record for r in revisions])
        assert [r.verdict for r in revisions] == verdicts
        assert verdicts == m.verdicts()
        turn = Turn(1, m.first_dealer, 0, True)
        for rev, verdict in zip(revisions, verdicts, strict=True):
            assert (rev.record["number"], rev.record["pool"], rev.dealer, rev.first_of_series) == (
                turn.number, turn.pool, turn.dealer, turn.first_of_series)
            turn = turn.following(verdict)

    @invariant()
    def nobody_below_zero_without_credit(self) -> None:
        from games.services.ledger import ledger_timeline

        m = self.model
        assert m is not None and self.session is not None
        if m.allow_credit:
            return
        for row in ledger_timeline(self.session):
            assert all(row.balances[s] >= 0 for s in m.seats), (row.position, row.balances)


def test_a_session_never_loses_a_chip(club, member_for):
    """Random sessions through the services: every invariant after every step."""
    SessionMachine.club = club
    SessionMachine.owner = member_for("owner").user
    run_state_machine_as_test(SessionMachine, settings=machine_settings())
