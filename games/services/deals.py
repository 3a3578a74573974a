"""Recording deals and correcting them, with the ledger kept exact throughout.

Each write locks the session row first, so deals of one session are recorded strictly one
after another; the unique (session, number) constraint is the backstop.
"""
from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from itertools import chain
from typing import Any

from django.db import IntegrityError, transaction

from games.models import Deal, DealRevision, GameSession, PurchaseVoid, Violation
from games.rules import is_final_deal
from games.rules.errors import shown
from games.rules.version import RECORD_FORMAT
from games.selectors import NextDeal, session_next
from games.services import limits
from games.services.engine import engine_replay, engine_version, record_problem, rules_resolve
from games.services.ledger import (
    NO_BUY_BACK_THEN,
    credit_errors,
    ledger_balances,
    ledger_timeline,
    next_posting,
    post_reversal,
    post_settlement,
    session_lock,
)
from games.services.limits import MAX_POOL
from games.services.sessions import invalid, require_open
from loo_ledger.fields import as_written, is_whole, true_false_message, whole_number_message
from loo_ledger.problems import Problem


def _mismatch(errors: list[dict[str, Any]]) -> Problem:
    detail = errors[0]["message"] if len(errors) == 1 else f"{len(errors)} errors."
    return Problem(400, "The record disagrees with the session", detail=detail, errors=errors,
                   code="record-mismatch")


def session_record(session: GameSession, record: Mapping[str, Any], expected: NextDeal) -> dict[str, Any]:
    """The record completed with what the session knows (seats, number, dealer, pool).

    Whatever the client stated must agree: seats, number, rules, the dealer whose turn it is and
    the pool the ledger holds; each disagreement is reported saying what was expected. A
    number, pool or redeal of the wrong kind (2.0, "6", true) is refused as such (a validation
    error), never read as the value it equals. Then it
    must fit its session-file line: at most ``limits.MAX_RECORD_BYTES`` as the export would write
    it (``limits.record_bytes``; else a 400), so that every session stored exports into a file
    the import takes back.
    """
    if not isinstance(record, Mapping):
        raise _mismatch([{"field": "record", "message": "The record must be a JSON object."}])
    errors: list[dict[str, Any]] = []
    number, dealer, pool = expected.number, expected.dealer, expected.pool
    rec = dict(record)
    # the record's own figures are JSON integers and true/false, as the request's are: 2.0,
    # "2" or true is refused, never read as the number it equals
    for key, unit in (("number", ""), ("pool", "of chips")):
        if key in rec and not is_whole(rec[key]):
            errors.append({"field": f"record.{key}",
                           "message": whole_number_message(f"record.{key}", unit)})
    if "redeal" in rec and type(rec["redeal"]) is not bool:
        errors.append({"field": "record.redeal", "message": true_false_message("record.redeal")})
    mistyped = {e["field"].removeprefix("record.") for e in errors}
    if "seats" in rec and rec["seats"] != session.seats:
        errors.append({"field": "record.seats",
                       "message": f"This session seats {', '.join(session.seats)} (clockwise); the record says {shown(rec['seats'], bare=True)}."})
    if "number" in rec and "number" not in mistyped and rec["number"] != number:
        errors.append({"field": "record.number",
                       "message": f"The record says deal {shown(rec['number'], bare=True)}, the request deal {number}."})
    if "dealer" in rec and rec["dealer"] != dealer:
        named = rec["dealer"] if isinstance(rec["dealer"], str) else None  # errors name seats
        errors.append({"field": "record.dealer", "player": named,
                       "message": f"Deal {number} is {dealer}'s deal, not {shown(named, bare=True)}'s." if named
                       else f"Deal {number} is {dealer}'s deal; the record's dealer "
                            f"{as_written(rec['dealer'])} is not a seat's name."})
    if "pool" in rec and "pool" not in mistyped and rec["pool"] != pool:
        errors.append({"field": "record.pool",
                       "message": f"The ledger holds {pool} in the pool before deal {number}; the record says {as_written(rec['pool'])}."})
    if rec.get("final") is True and session.end_pool_mode != "final-deal":  # (not true or false: the engine's error)
        errors.append({"field": "record.final",
                       "message": f"This session's rules say end_pool: {session.end_pool_mode}, so no deal is a "
                                  "final deal; leave final out."})
    redeal = expected.sits_out is not None
    if "redeal" in rec and "redeal" not in mistyped and rec["redeal"] != redeal:
        errors.append({"field": "record.redeal",
                       "message": f"Deal {number} is {'a' if redeal else 'not a'} redeal by the same dealer."})
    if redeal and "sits_out" in rec and rec["sits_out"] != list(expected.sits_out or ()):
        errors.append({"field": "record.sits_out",
                       "message": f"Sitting out deal {number}: {', '.join(expected.sits_out or ()) or 'nobody'}."})
    if "rules" in rec and rules_resolve(rec["rules"]) != session.resolved_rules:
        errors.append({"field": "record.rules",
                       "message": "The record's rules differ from the session's; leave them out inside a session."})
    if errors:  # (a value of the wrong kind is a validation error, whatever else disagrees)
        raise invalid(errors) if mistyped else _mismatch(errors)
    rec.pop("rules", None)
    rec.update(format=rec.get("format", RECORD_FORMAT), seats=list(session.seats), number=number,
               dealer=dealer, pool=pool)
    if expected.sits_out is not None:
        rec.setdefault("redeal", True)
        rec.setdefault("sits_out", list(expected.sits_out))
    size = limits.record_bytes(stored_record(rec))
    if size > limits.MAX_RECORD_BYTES:
        raise limits.record_too_large(number, size)
    return rec


def pool_over(verdict: Mapping[str, Any]) -> int | None:
    """The verdict's pool (played for, or left after the deal) when it is more than the ledger
    holds (``MAX_POOL``), as an unlimited loo doubling the pool deal after deal eventually makes
    it; None when it fits. Checked for every deal stored, re-settled ones included."""
    st = verdict["settlement"]
    largest = max(st["pool"], st["pool_after"])
    return largest if largest > MAX_POOL else None


def _replay(session: GameSession, record: dict[str, Any], *, pool: int, first_of_series: bool) -> dict[str, Any]:
    """The verdict of a deal to be stored; refused (400) when its pool would outgrow the ledger
    (``pool_over``)."""
    from games.rules import RecordError

    try:
        verdict = engine_replay(record, session.resolved_rules, pool=pool, first_of_series=first_of_series)
    except RecordError as exc:
        raise record_problem(exc) from exc
    largest = pool_over(verdict)
    if largest is not None:
        number = record.get("number")
        message = (f"Deal {number} would make the pool {largest:,} units; the ledger holds at most "
                   f"{MAX_POOL:,}. Close the session (or cap the loo) before the pool grows so large.")
        raise Problem(400, "Pool too large", detail=message, code="validation-error",
                      errors=[{"field": "record", "message": message}])
    return verdict


def _revision_create(
    *, deal: Deal, record: dict[str, Any], verdict: dict[str, Any], first_of_series: bool,
    cause: str, reason: str, user: Any,
) -> DealRevision:
    last = deal.revisions.order_by("-revision").values_list("revision", flat=True).first() or 0
    st = verdict["settlement"]
    rev = DealRevision.objects.create(
        deal=deal, revision=last + 1, record=record, verdict=verdict,
        status=verdict.get("status", ""), dealer=verdict.get("dealer") or record["dealer"],
        pool_before=st["pool_before"], pool_after=st["pool_after"],
        first_of_series=first_of_series, cause=cause, reason=reason, engine_version=engine_version(),
        created_by=user if getattr(user, "is_authenticated", False) else None,
    )
    Violation.objects.bulk_create(
        Violation(revision=rev, player=v.get("player") or "", rule=v.get("rule") or "",
                  trick=v.get("trick"), card=v.get("card"), evidence=v.get("evidence") or "",
                  penalty=v.get("penalty") or "")
        for v in verdict.get("violations") or []
    )
    return rev


@transaction.atomic
def deal_record(*, session: GameSession, number: int, record: Mapping[str, Any], user: Any = None) -> Deal:
    """Replay and store deal ``number`` (which must be the next one) with its ledger posting."""
    locked = session_lock(session)
    require_open(locked)
    nxt = session_next(locked)
    if number != nxt.number:
        raise number_conflict(number, nxt)
    if number > limits.MAX_DEALS:
        raise limits.session_full("deals", limits.MAX_DEALS,
                                  "close this one and open another for the deals that follow.")
    last = Deal.objects.filter(session=locked, number=number - 1).select_related("current").first()
    if last is not None and is_final_deal(stored_record(last.current.record), last.current.verdict):
        raise Problem(409, "Final deal played",
                      detail=f"Deal {last.number} was the final deal, which plays the pool off: no "
                             "deal comes after it. Close the session, or correct deal "
                             f"{last.number} if it was not the final deal.",
                      code="final-deal-played", final_deal=last.number)
    rec = session_record(locked, record, nxt)
    verdict = _replay(locked, rec, pool=nxt.pool, first_of_series=nxt.first_of_series)
    if not locked.allow_credit:
        errors = credit_errors(ledger_balances(locked), verdict["settlement"]["deltas"])
        if errors:
            raise Problem(400, "Not enough chips", detail="; ".join(e["message"] for e in errors),
                          errors=errors, code="insufficient-chips")
    try:
        with transaction.atomic():
            deal = Deal.objects.create(session=locked, number=number, posting=next_posting(locked))
    except IntegrityError as exc:  # backstop: another writer got the number past the lock
        raise number_conflict(number, session_next(locked)) from exc
    rev = _revision_create(deal=deal, record=rec, verdict=verdict, first_of_series=nxt.first_of_series,
                           cause=DealRevision.Cause.RECORDED, reason="", user=user)
    post_settlement(session=locked, deal=deal, revision=rev)
    deal.current = rev
    deal.save(update_fields=["current"])
    return deal


def number_conflict(number: int, nxt: NextDeal) -> Problem:
    current = nxt.number - 1
    recorded = f"deals 1-{current} are recorded" if current > 1 else (
        "deal 1 is recorded" if current == 1 else "no deal is recorded yet")
    return Problem(
        409, "Not the next deal",
        detail=f"Deal {number} cannot be recorded: {recorded}, the next is deal {nxt.number}.",
        code="deal-number-conflict", current_number=current, next_number=nxt.number,
    )


@dataclass
class DealChange:
    """What a correction did to one deal."""

    number: int
    revision: int
    cause: str
    dealer: str
    deltas_before: dict[str, int]
    deltas_after: dict[str, int]
    pool_after_before: int
    pool_after_after: int


@dataclass
class Correction:
    deal: Deal
    revision: DealRevision
    changes: list[DealChange] = field(default_factory=list)


@dataclass
class _Step:
    deal: Deal
    record: dict[str, Any]
    verdict: dict[str, Any]
    first_of_series: bool
    cause: str


def stored_record(record: Mapping[str, Any]) -> dict[str, Any]:
    """A stored record, ready to replay again after an earlier deal changed: without the redeal
    fields (the new carry decides them), and read as the engine read it when it was stored.
    Records stored before the engine checked them may carry any ``format`` and a ``final`` of
    ``null``, ``0`` or ``"yes"``, which the engine then read as a truth value. So whatever
    asks a stored record whether it is the final deal (the next deal, the closing, the
    report's turns at the deal) reads it through this, as a replay of it does."""
    rec = {k: v for k, v in record.items() if k not in ("redeal", "sits_out")}
    rec["format"] = RECORD_FORMAT
    if "final" in rec and type(rec["final"]) is not bool:
        rec["final"] = bool(rec["final"])
    return rec


def _refused(number: int, errors: list[dict[str, Any]]) -> Problem:
    """409 ``correction-refused``: correcting deal ``number`` would make a later deal (the
    first error's ``deal``) or a later purchase's void (its ``purchase``) impossible."""
    first = errors[0]
    what = f"deal {first['deal']}" if "deal" in first else f"the void of purchase {first['purchase']}"
    return Problem(
        409, "Correction refused",
        detail=f"Correcting deal {number} would make {what} impossible: "
        f"{first['message'].rstrip('.')}. Nothing was changed.",
        errors=errors, code="correction-refused",
        **({"deal": first["deal"]} if "deal" in first else {"purchase": first["purchase"]}),
    )


def _sits_out(record: Mapping[str, Any]) -> tuple[str, ...] | None:
    """Who sat out the deal of this stored record when it is a redeal (None: not a redeal)."""
    return tuple(record.get("sits_out") or ()) if record.get("redeal") else None


def _judged_with(deal: Deal) -> NextDeal:
    """What the deal's current revision was judged with besides its record: its dealer, the
    pool carried in, the series flag and, for a redeal, who sat out."""
    cur = deal.current
    return NextDeal(deal.number, cur.dealer, cur.pool_before, cur.first_of_series, _sits_out(cur.record))


def _later_deals(session: GameSession, number: int) -> Iterator[Deal]:
    """The deals after deal ``number`` in order, with their current revisions, read a batch at
    a time (8 deals, then twice as many each time up to 256): a re-settlement that stops after
    a few deals reads only those, one that runs to the end of a 1,000-deal session reads it in
    8 queries."""
    size = 8
    while True:
        batch = list(Deal.objects.filter(session=session, number__gt=number)
                     .select_related("current").order_by("number")[:size])
        yield from batch
        if len(batch) < size:
            return
        number, size = batch[-1].number, min(size * 2, 256)


def _replan(locked: GameSession, later: Iterable[Deal], carry: NextDeal, number: int) -> list[_Step]:
    """Re-replay the deals after a corrected one, carrying the new pool, dealer and series flag,
    up to the first deal dealt into what its current revision was judged with; refused whole when
    one of them can no longer be stored (its dealer, its record, its pool).

    A deal's verdict depends only on its stored record, the session's rules and what the deal
    before it carries (``NextDeal.after``: dealer, pool, series flag, redeal), so from that deal
    on nothing would change and the rest are not read. (A deal judged by an older engine keeps
    its verdict then, as stored deals do until a correction reaches them.)
    """
    from games.rules import RecordError

    steps = []
    for deal in later:
        if carry == _judged_with(deal):
            break
        old = deal.current
        if carry.dealer != old.dealer:
            raise _refused(number, [{
                "deal": deal.number, "player": old.dealer, "field": "record.dealer",
                "message": f"it was dealt by {old.dealer}, but after the correction it would be {carry.dealer}'s deal.",
            }])
        record = stored_record(old.record)
        record["pool"] = carry.pool
        if carry.sits_out is not None:
            record.update(redeal=True, sits_out=list(carry.sits_out))
        try:
            verdict = engine_replay(record, locked.resolved_rules, pool=carry.pool,
                                    first_of_series=carry.first_of_series)
        except RecordError as exc:
            raise _refused(number, [{**e, "deal": deal.number} for e in record_problem(exc).errors]) from exc
        largest = pool_over(verdict)
        if largest is not None:  # (a DataError at the revision's pool column otherwise)
            raise _refused(number, [{
                "deal": deal.number, "field": "record.pool",
                "message": f"its pool would be {largest:,} units, more than the ledger holds "
                           f"({MAX_POOL:,}).",
            }])
        steps.append(_Step(deal, record, verdict, carry.first_of_series, DealRevision.Cause.RESETTLED))
        carry = NextDeal.after(verdict, deal.number)
    return steps


def _check_credit_after(locked: GameSession, steps: list[_Step], number: int) -> None:
    """Walk the session's timeline with the new verdicts; refuse if anyone goes below zero.

    Every deal from the corrected one on is checked, re-settled or not: a deal the correction
    does not reach keeps its figures, but what its players hold when it comes may be less. So
    is every purchase's void after it, which takes its chips back where it was posted."""
    if locked.allow_credit:
        return
    replaced = {s.deal.number: s.verdict["settlement"]["deltas"] for s in steps}
    seats = set(locked.seats)
    voids = dict(PurchaseVoid.objects.filter(purchase__session=locked)
                 .values_list("posting", "purchase_id"))
    running: dict[str, int] = {}
    reached = False
    for row in ledger_timeline(locked):
        changes = row.changes
        reached = reached or (row.kind == "deal" and row.deal is not None and row.deal >= number)
        if row.kind == "deal" and reached:
            deltas = replaced.get(row.deal)  # type: ignore[arg-type]
            if deltas is None:
                deltas = {account: chips for account, chips in changes.items() if account in seats}
            else:
                changes = deltas
            errors = credit_errors(running, deltas, deal=row.deal, advice=NO_BUY_BACK_THEN)
            if errors:
                raise _refused(number, errors)
        elif row.position in voids and reached:
            taken = {account: chips for account, chips in changes.items() if account in seats}
            errors = credit_errors(running, taken, advice="the void came after that deal")
            if errors:
                raise _refused(number, [{**e, "purchase": voids[row.position]} for e in errors])
        for account, chips in changes.items():
            running[account] = running.get(account, 0) + chips


@transaction.atomic
def deal_correct(
    *, session: GameSession, number: int, record: Mapping[str, Any], user: Any = None, reason: str = ""
) -> Correction:
    """Store a new revision of deal ``number`` and re-settle it and the later deals it reaches
    (up to the first one dealt into what it was judged with: ``_replan``).

    Refused whole (nothing changes) when a later deal becomes impossible: its dealer no longer
    deals, its record no longer replays, or a player would go below zero chips.
    """
    locked = session_lock(session)
    require_open(locked)
    target = Deal.objects.filter(session=locked, number=number).select_related("current").first()
    if target is None:
        raise Problem(404, "No such deal", detail=f"Deal {number} is not recorded in session {locked.pk}.",
                      code="not-found")
    cur = target.current
    rec = session_record(locked, record, _judged_with(target))
    verdict = _replay(locked, rec, pool=cur.pool_before, first_of_series=cur.first_of_series)
    if rec == cur.record and verdict == cur.verdict:
        raise Problem(409, "Nothing to correct", code="correction-unchanged", deal=number,
                      detail=f"Deal {number} already has this record (revision {cur.revision}) "
                             "and it settles the same. Nothing was changed.")
    later = _later_deals(locked, number)
    following = next(later, None)
    # (only the corrected deal can become the final deal played: a re-settled later deal keeps
    # its record, and whether a deal ends void, misdealt or thrown in, is its record's alone)
    if following is not None and is_final_deal(rec, verdict):
        raise _refused(number, [{"deal": following.number, "field": "record.final",
                                 "message": f"it would come after the final deal {number}, which "
                                            "plays the pool off."}])
    steps = [_Step(target, rec, verdict, cur.first_of_series, DealRevision.Cause.CORRECTED)]
    steps += _replan(locked, chain([following], later) if following else (), NextDeal.after(verdict, number),
                     number)
    _check_credit_after(locked, steps, number)

    changes: list[DealChange] = []
    first_revision: DealRevision | None = None
    posting = next_posting(locked)  # each reversal takes the next (read once: it reads every deal)
    for step in steps:
        old = step.deal.current
        if (step.cause == DealRevision.Cause.RESETTLED and step.verdict == old.verdict
                and step.first_of_series == old.first_of_series
                and _sits_out(step.record) == _sits_out(old.record)):
            continue  # (judged with what it was judged with before: its revision stands)
        why = reason if step.cause == DealRevision.Cause.CORRECTED else f"deal {number} corrected: {reason}"
        if post_reversal(session=locked, deal=step.deal, posting=posting,
                         memo=f"reverses deal {step.deal.number} r{old.revision}"):
            posting += 1
        rev = _revision_create(deal=step.deal, record=step.record, verdict=step.verdict,
                               first_of_series=step.first_of_series, cause=step.cause, reason=why, user=user)
        post_settlement(session=locked, deal=step.deal, revision=rev)
        step.deal.current = rev
        step.deal.save(update_fields=["current"])
        first_revision = first_revision or rev
        changes.append(DealChange(
            step.deal.number, rev.revision, step.cause, rev.dealer, old.deltas, rev.deltas,
            old.pool_after, rev.pool_after,
        ))
    assert first_revision is not None
    return Correction(deal=target, revision=first_revision, changes=changes)
