"""The chip ledger: postings, balances, the timeline of balances, and the invariant check.

A *posting* is a group of entries summing to zero. Every posting has a number (its position in
the session's timeline); a deal's settlement, its reversals and re-settlements after a
correction are all *attributed to the deal's own position*, so the running balances after deal
N are always those of the deals' current revisions, whatever was corrected later.
"""
from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Iterator, Mapping
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from typing import Any

from django.db import connection, transaction
from django.db.models import Max, QuerySet, Sum

from games.models import (
    BANK,
    POOL,
    ChipPayment,
    ChipPurchase,
    Deal,
    DealRevision,
    GameSession,
    LedgerEntry,
)
from games.rules.errors import shown

Kind = LedgerEntry.Kind


@dataclass(frozen=True)
class LedgerLine:
    """One line of a posting: ``chips`` (signed) to ``account``; ``kind`` defaults to the posting's."""

    account: str
    chips: int
    kind: str | None = None
    memo: str = ""


def session_lock(session: GameSession | int) -> GameSession:
    """The session row, locked for the rest of the transaction (every write starts here)."""
    pk = session.pk if isinstance(session, GameSession) else session
    return GameSession.objects.select_for_update().get(pk=pk)


def next_posting(session: GameSession) -> int:
    """The next free timeline position (call under the session lock)."""
    last_entry = LedgerEntry.objects.filter(session=session).aggregate(m=Max("posting"))["m"] or 0
    last_deal = Deal.objects.filter(session=session).aggregate(m=Max("posting"))["m"] or 0
    return max(last_entry, last_deal) + 1


def _as_line(line: LedgerLine | tuple[Any, ...]) -> LedgerLine:
    return line if isinstance(line, LedgerLine) else LedgerLine(*line)


@transaction.atomic
def ledger_post(
    *,
    session: GameSession,
    kind: str,
    lines: Iterable[LedgerLine | tuple[Any, ...]],
    deal: Deal | None = None,
    revision: DealRevision | None = None,
    purchase: ChipPurchase | None = None,
    memo: str = "",
    posting: int | None = None,
) -> list[LedgerEntry]:
    """Append one balanced posting to the session's ledger and return its entries.

    ``lines`` are :class:`LedgerLine` or ``(account, chips[, kind[, memo]])`` tuples; accounts
    are a seat, ``"pool"`` or ``"bank"``; zero lines are dropped. Raises ``TypeError`` for
    chips that are not integers and ``ValueError`` for an unknown account or kind or lines that
    do not sum to zero. Locks the session row (a no-op if the caller already holds it).
    ``posting`` (timeline position) defaults to the next free one.
    """
    locked = session_lock(session)
    items = [_as_line(x) for x in lines]
    allowed = set(locked.seats) | {POOL, BANK}
    kinds = set(Kind.values)
    for x in items:
        if not isinstance(x.chips, int) or isinstance(x.chips, bool):
            raise TypeError(f"chips must be integers, got {shown(x.chips)}")
        if x.account not in allowed:
            raise ValueError(f"no ledger account {shown(x.account)} in session {locked.pk}")
        if (x.kind or kind) not in kinds:
            raise ValueError(f"no ledger entry kind {shown(x.kind or kind)}")
    total = sum(x.chips for x in items)
    if total != 0:
        raise ValueError(f"a posting must sum to zero, these lines sum to {total}")
    if posting is None:
        posting = next_posting(locked)
    last = LedgerEntry.objects.filter(session=locked).order_by("-seq").values("seq", "digest").first()
    seq, digest = (last["seq"], last["digest"]) if last else (0, "")
    entries = []
    for x in items:
        if x.chips == 0:
            continue
        seq += 1
        entry = LedgerEntry(
            session=locked, deal=deal, revision=revision, purchase=purchase, seq=seq,
            posting=posting, kind=x.kind or kind, account=x.account, chips=x.chips,
            memo=(x.memo or memo)[:200],
        )
        entry.digest = digest = entry.compute_digest(digest)
        entries.append(entry)
    return LedgerEntry.objects.bulk_create(entries)


def settlement_lines(verdict: Mapping[str, Any]) -> list[LedgerLine]:
    """A verdict's settlement as ledger lines: antes, loos, penalties and payouts, each kind
    balanced against the pool.

    Any part of a player's ``delta`` not explained by those (e.g. loos paid straight to a flush
    holder) is booked as a direct ``payout`` line, and a last pool line makes up any rest, so the
    posting moves each player by exactly ``deltas[p]`` and the pool by ``pool_after - pool_before``.
    """
    st = verdict["settlement"]
    deltas: dict[str, int] = {p: int(d) for p, d in st.get("deltas", {}).items()}
    pool_move = int(st["pool_after"]) - int(st["pool_before"])
    lines: list[LedgerLine] = []
    explained: dict[str, int] = defaultdict(int)
    for key, kind, sign in (
        ("antes", Kind.ANTE, -1), ("loo_payments", Kind.LOO, -1),
        ("penalties", Kind.PENALTY, -1), ("payouts", Kind.PAYOUT, +1),
    ):
        total = 0
        for player, amount in (st.get(key) or {}).items():
            amount = int(amount)
            if amount and player in deltas:
                lines.append(LedgerLine(player, sign * amount, kind))
                explained[player] += sign * amount
                total += sign * amount
        if total:
            lines.append(LedgerLine(POOL, -total, kind))
    for player, delta in deltas.items():
        rest = delta - explained[player]
        if rest:
            lines.append(LedgerLine(player, rest, Kind.PAYOUT, "direct"))
    pool_rest = pool_move - sum(x.chips for x in lines if x.account == POOL)
    if pool_rest:
        lines.append(LedgerLine(POOL, pool_rest, Kind.PAYOUT, "direct"))
    if sum(x.chips for x in lines) != 0:
        raise ValueError(f"verdict does not conserve chips: deltas {deltas}, pool moves {pool_move}")
    return lines


def post_settlement(
    *, session: GameSession, deal: Deal, revision: DealRevision, posting: int | None = None
) -> list[LedgerEntry]:
    """Book a revision's verdict at the deal's timeline position."""
    return ledger_post(
        session=session, kind=Kind.PAYOUT, lines=settlement_lines(revision.verdict), deal=deal,
        revision=revision, posting=deal.posting if posting is None else posting,
        memo=f"deal {deal.number} r{revision.revision}",
    )


def deal_net(deal: Deal) -> QuerySet:
    """Rows ``{"account", "total"}``: what is booked for ``deal`` now, per account.

    Filtered by the deal alone (its entries are all in its session: only its session's
    services book them), so the deal's index is used. With the session in the filter too,
    SQLite chose the (session, account) index, which hands the rows over already grouped, and
    read every entry of the session for each deal a correction re-settles.
    """
    return (LedgerEntry.objects.filter(deal=deal)
            .values("account").annotate(total=Sum("chips")).order_by("account"))


def post_reversal(
    *, session: GameSession, deal: Deal, memo: str, posting: int | None = None
) -> list[LedgerEntry]:
    """Undo everything currently booked for ``deal`` (its net per account), as one posting
    (``posting``: its number, by default the next free one)."""
    lines = [LedgerLine(row["account"], -row["total"]) for row in deal_net(deal) if row["total"]]
    return ledger_post(
        session=session, kind=Kind.REVERSAL, lines=lines, deal=deal, revision=deal.current, memo=memo,
        posting=posting,
    )


def ledger_balances(session: GameSession) -> dict[str, int]:
    """Every account's balance now: each seat, ``pool`` and ``bank`` (0 when untouched)."""
    out = {name: 0 for name in [*session.seats, POOL, BANK]}
    for row in (
        LedgerEntry.objects.filter(session=session).values("account").annotate(total=Sum("chips"))
    ):
        out[row["account"]] = out.get(row["account"], 0) + int(row["total"])
    return out


@dataclass
class TimelineRow:
    """One step of the session: a deal (its current revision), a purchase, or another posting."""

    position: int
    kind: str  # "deal" | "purchase" | "void" | "end-pool" | "buyback" | ...
    deal: int | None = None
    dealer: str | None = None
    revision: int | None = None  # a deal's current revision: above 1, it was corrected
    changes: dict[str, int] = field(default_factory=dict)
    balances: dict[str, int] = field(default_factory=dict)  # seats, pool and bank after this row

    def as_dict(self) -> dict[str, Any]:
        seats = {k: v for k, v in self.balances.items() if k not in (POOL, BANK)}
        return {
            "position": self.position, "kind": self.kind, "deal": self.deal, "dealer": self.dealer,
            "revision": self.revision, "changes": self.changes, "balances": seats,
            "pool": self.balances.get(POOL, 0), "issued": -self.balances.get(BANK, 0),
        }


def ledger_timeline(session: GameSession) -> list[TimelineRow]:
    """Balances after every step in play order, computed from the ledger itself.

    A deal row needs only its current revision's dealer and number, so the revisions' records
    and verdicts are not read: decoding them took most of the walk (260 of 370 ms at 1,000
    deals on SQLite), which every correction pays for its credit check.
    """
    rows: dict[int, TimelineRow] = {}
    deals = Deal.objects.filter(session=session).values_list(
        "posting", "number", "current__dealer", "current__revision")
    for posting, number, dealer, revision in deals:
        rows[posting] = TimelineRow(posting, "deal", number, dealer, revision)
    entries = (
        LedgerEntry.objects.filter(session=session)
        .values_list("posting", "kind", "account", "chips", "deal__posting")
        .order_by("seq")
    )
    for posting, kind, account, chips, deal_posting in entries:  # (tuples: a third faster than dicts)
        pos = deal_posting or posting
        row = rows.get(pos)
        if row is None:
            row = rows[pos] = TimelineRow(pos, kind)
        row.changes[account] = row.changes.get(account, 0) + chips
    running = {name: 0 for name in [*session.seats, POOL, BANK]}
    out = []
    for pos in sorted(rows):
        row = rows[pos]
        row.changes = {k: v for k, v in row.changes.items() if v}
        if not row.changes and row.kind != "deal":
            continue  # a closing that was reopened: reversed in its own place, it moved nothing
        for account, chips in row.changes.items():
            running[account] = running.get(account, 0) + chips
        row.balances = dict(running)
        out.append(row)
    return out


#: what a player short of chips can do about the deal being recorded now
BUY_FIRST = "record a purchase first"
#: ...and about a later deal a correction re-settles: a purchase counts from when it is recorded
NO_BUY_BACK_THEN = "a purchase recorded now would come after that deal"


def credit_errors(balances: Mapping[str, int], deltas: Mapping[str, int], *, deal: int | None = None,
                  advice: str = BUY_FIRST) -> list[dict[str, Any]]:
    """Players a deal would take below zero: "dan holds 2 and owes 3: record a purchase first"."""
    errors = []
    for player, delta in deltas.items():
        held = balances.get(player, 0)
        if delta < 0 and held + delta < 0:
            item: dict[str, Any] = {
                "player": player, "field": "record", "holds": held, "owes": -delta,
                "code": "insufficient-chips",  # beside a correction's other refusals too
                "message": f"{player} holds {held} and owes {-delta}: {advice}",
            }
            if deal is not None:
                item["deal"] = deal
            errors.append(item)
    return errors


def ledger_check(session: GameSession) -> list[str]:
    """Every break of the ledger's invariants for one session (empty list: all is well).

    Checks: seq runs 1..n with an unbroken digest chain; every posting sums to zero; the bank
    has issued exactly the chips purchased and not voided (less any bought back), so players + pool = issued;
    the pool never goes below zero; and after every deal the ledger agrees with the deal's
    current verdict (each player's change and the pool).
    """
    problems: list[str] = []
    previous = ""
    postings: dict[int, int] = defaultdict(int)
    expected_seq = 1
    for entry in LedgerEntry.objects.filter(session=session).order_by("seq"):
        if entry.seq != expected_seq:
            problems.append(f"entry seq {entry.seq} where {expected_seq} was expected (gap or reorder)")
            expected_seq = entry.seq
        if entry.compute_digest(previous) != entry.digest:
            problems.append(f"entry seq {entry.seq}: digest chain broken (entry altered)")
        previous = entry.digest
        expected_seq += 1
        postings[entry.posting] += entry.chips
    problems += [f"posting {p} sums to {total}, not 0" for p, total in sorted(postings.items()) if total]

    balances = ledger_balances(session)
    purchased = standing_purchases(session).aggregate(s=Sum("chips"))["s"] or 0
    bought_back = -(
        LedgerEntry.objects.filter(session=session, kind=Kind.BUYBACK, account=BANK)
        .aggregate(s=Sum("chips"))["s"] or 0
    )
    issued = purchased + bought_back
    if -balances[BANK] != issued:
        problems.append(f"bank shows {-balances[BANK]} chips issued, purchases and buy-backs say {issued}")
    held = sum(v for k, v in balances.items() if k != BANK)
    if held != -balances[BANK]:
        problems.append(f"players and pool hold {held}, but {-balances[BANK]} chips were issued")

    currents = {
        d.number: d.current for d in Deal.objects.filter(session=session).select_related("current")
    }
    for row in ledger_timeline(session):
        if row.balances.get(POOL, 0) < 0:
            problems.append(f"pool below zero ({row.balances[POOL]}) at position {row.position}")
        if row.kind != "deal":
            continue
        rev = currents.get(row.deal)
        if rev is None:
            problems.append(f"deal {row.deal} has no current revision")
            continue
        want = {p: d for p, d in rev.deltas.items() if d}
        pool_move = rev.pool_after - rev.pool_before
        if pool_move:
            want[POOL] = pool_move
        if row.changes != want:
            problems.append(f"deal {row.deal}: ledger moves {row.changes}, verdict r{rev.revision} says {want}")
        if row.balances.get(POOL, 0) != rev.pool_after:
            problems.append(
                f"deal {row.deal}: pool after is {row.balances.get(POOL, 0)} in the ledger, "
                f"{rev.pool_after} in the verdict"
            )
    return problems


def standing_purchases(session: GameSession) -> QuerySet[ChipPurchase]:
    """The session's purchases that stand: every one not voided. A voided purchase counts
    nowhere as chips bought or money spent (its void handed the chips back, and any money paid
    on the spot with them); the ledger check, the statement and what is owed read this."""
    return ChipPurchase.objects.filter(session=session, void__isnull=True)


def paid_later(session: GameSession) -> dict[str, int]:
    """Seat -> money paid after the fact (payments less refunds)."""
    rows = (ChipPayment.objects.filter(session=session).values("player")
            .annotate(total=Sum("money")).values_list("player", "total"))
    return {player: int(total) for player, total in rows}


def money_owed(session: GameSession, *, paid: Mapping[str, int] | None = None) -> dict[str, int]:
    """Seat -> money still owed for chips: purchases on credit, not voided, less what was paid
    later (``paid``: the caller's ``paid_later(session)``, when it has it already)."""
    owed = {seat: 0 for seat in session.seats}
    for player, money in standing_purchases(session).filter(paid=False).values_list(
            "player", "money"):
        owed[player] = owed.get(player, 0) + int(money)
    for player, money in (paid_later(session) if paid is None else paid).items():
        owed[player] = owed.get(player, 0) - money
    return owed


@contextmanager
def one_moment() -> Iterator[None]:
    """Reads that all see the session as it stood at one moment, and write nothing: a
    read-only transaction, REPEATABLE READ on PostgreSQL; on SQLite a DEFERRED one, whose
    first read fixes the snapshot that the rest read (in WAL mode it blocks no writer; every
    other transaction there is IMMEDIATE, taking the write lock at BEGIN). Each query saw
    what had committed by then, so a correction committed half-way through a read answered a
    ledger at odds with itself (``ok: false``, "deal 1: ledger moves ..., verdict r3 says
    ..."), a purchase on credit and a payment toward it a file that did not import. Inside a
    transaction already (a write's, under the session's lock) the reads go on in it."""
    if connection.in_atomic_block:
        yield
    elif connection.vendor == "postgresql":
        with transaction.atomic():
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
            yield
    elif connection.vendor == "sqlite":
        with _sqlite_read_transaction():
            yield
    else:
        yield


@contextmanager
def _sqlite_read_transaction() -> Iterator[None]:
    """An atomic block begun DEFERRED on SQLite, on a connection made read-only for it
    (``PRAGMA query_only``, as PostgreSQL's READ ONLY: a write in it is refused, not queued
    behind another writer or failed on a stale snapshot by chance). The connection's
    ``transaction_mode`` is the settings' again once the BEGIN has run, and the pragma is off
    again once the transaction has ended, on an error too (a transaction broken by an error
    takes no statement before its rollback)."""
    connection.ensure_connection()  # connecting sets transaction_mode from the settings
    mode = connection.transaction_mode
    with ExitStack() as stack:
        _query_only(True)
        stack.callback(_query_only, False)
        connection.transaction_mode = "DEFERRED"
        try:
            stack.enter_context(transaction.atomic())
        finally:
            connection.transaction_mode = mode
        yield


def _query_only(on: bool) -> None:
    """SQLite's ``PRAGMA query_only`` on or off, for this connection (none: it was closed, and
    its flag went with it)."""
    if connection.connection is not None:
        with connection.cursor() as cursor:
            cursor.execute(f"PRAGMA query_only = {'ON' if on else 'OFF'}")


def ledger_statement(session: GameSession) -> dict[str, Any]:
    """Everything ``GET .../ledger`` shows: the timeline, the totals and the invariant check,
    read at one moment (``one_moment``)."""
    with one_moment():
        return _statement(session)


def _statement(session: GameSession) -> dict[str, Any]:
    rows = ledger_timeline(session)
    balances = ledger_balances(session)
    purchased: dict[str, int] = {seat: 0 for seat in session.seats}
    money: dict[str, int] = {seat: 0 for seat in session.seats}
    for p in standing_purchases(session):
        purchased[p.player] = purchased.get(p.player, 0) + p.chips
        money[p.player] = money.get(p.player, 0) + p.money
    owed = {s: max(units, 0) for s, units in money_owed(session).items()}  # 0, not a credit
    problems = ledger_check(session)
    return {
        "session": session.pk,
        "seats": list(session.seats),
        "rows": [r.as_dict() for r in rows],
        "totals": {
            "balances": {s: balances.get(s, 0) for s in session.seats},
            "pool": balances[POOL], "issued": -balances[BANK],
            "purchased": purchased, "money": money, "owed": owed,
        },
        "ok": not problems,
        "problems": problems,
    }
