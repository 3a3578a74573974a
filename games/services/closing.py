"""Closing a session (end pool, buy-back, freeze) and reopening it (owner only, logged).

Closing, in one transaction under the session lock:
1. the pool left after the last deal goes back to the players by the rules' `end_pool`:
   `split` — equal shares, odd units one each in seat order from the *eldest*, which we define
   as the first player to the left of the dealer of the deal that would come next (the
   verdict's `next.dealer`; the first dealer when nothing was dealt);
   `final-deal` — the last recorded deal must be a final deal (`"final": true`: everybody
   stands, no miss, no ante); what it leaves in the pool (odd units, its loos) is then split
   the same way;
2. the banker buys back every player's chips (ledger `buyback` entries player -> bank);
3. the session is frozen (`status = closed`): deals, corrections and purchases are refused.
Reopening posts the exact reverse of the closing's postings (the ledger is append-only), sets
the session open again and logs who, when and why; a session is reopened at most
``limits.MAX_REOPENS`` times, since its session file carries every close and reopen.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction

from games.models import BANK, POOL, Deal, GameSession, LedgerEntry, SessionClosing
from games.rules import is_final_deal, played_to_a_result
from games.selectors import standing_closing
from games.services import limits
from games.services.deals import stored_record
from games.services.ledger import LedgerLine, ledger_balances, ledger_post, session_lock
from games.services.sessions import invalid
from games.settlement import eldest_after, split_pool, turns_dealt
from loo_ledger.problems import Problem

Kind = LedgerEntry.Kind


@dataclass
class ClosingResult:
    """What a close did: the end-pool share-out, the chips bought back and the warnings."""

    closing: SessionClosing
    end_pool_mode: str
    end_pool: int
    eldest: str
    shares: dict[str, int]
    returned: dict[str, int]
    warnings: list[str] = field(default_factory=list)


def _current_verdicts(session: GameSession) -> list[tuple[int, dict[str, Any], dict[str, Any]]]:
    """(number, record, verdict) of every deal's current revision, in order, each record read
    as the engine read it (``stored_record``: a ``"final": 1`` stored before the engine
    checked it was the final deal)."""
    return [
        (d.number, stored_record(d.current.record), d.current.verdict)
        for d in Deal.objects.filter(session=session, current__isnull=False)
        .select_related("current").order_by("number")
    ]


def closing_warnings(seats: Sequence[str],
                     deals: Sequence[tuple[Mapping[str, Any], Mapping[str, Any]]]) -> list[str]:
    """Unequal turns at the deal (``turns_dealt``: a deal dealt again by the same dealer, as
    after a misdeal, is one turn, the final deal none), from the deals' ``(record, verdict)``
    in order (deal 1 first); and the older rule's (``older_rule_warning``)."""
    warnings = []
    counts = turns_dealt(seats, deals)
    if deals and len(set(counts.values())) > 1:
        listed = ", ".join(f"{s} {n}" for s, n in counts.items())
        warnings.append(f"Players have not dealt equally often: {listed}.")
    if (older := older_rule_warning(seats, deals)) is not None:
        warnings.append(older)
    return warnings


def older_rule_warning(seats: Sequence[str],
                       deals: Sequence[tuple[Mapping[str, Any], Mapping[str, Any]]]) -> str | None:
    """By the older rule a round that ends with a loo is played on until a deal without a loo
    (loo-rules.md s.7): the warning when the last deal played to a result (``played_to_a_result``)
    ended in one. A misdeal or a poker-Loo throw-in after it is void, dealt again for the same
    pool, and hides nothing (nor is a throw-in's burn, a revoke's penalty with the hand never
    played, such a loo); a final deal played is none of this: nothing may be dealt after it,
    and what its loos leave is split (its own warning)."""
    found = next(((n, record, verdict) for n, (record, verdict) in
                  reversed(list(enumerate(deals, 1))) if played_to_a_result(verdict)), None)
    if found is None or is_final_deal(found[1], found[2]):
        return None
    number, _, verdict = found
    loos = verdict["settlement"].get("loo_payments") or {}
    if not any(loos.values()):
        return None
    who = ", ".join(f"{p} paid {loos[p]}" for p in seats if loos.get(p))
    which = "The last deal" if number == len(deals) else (
        f"Deal {number}, the last deal played (what came after it was void: a misdeal or a "
        "hand thrown in, to be dealt again),")
    return (f"{which} ended in a loo ({who}): by the older rule the round is played on until "
            "a deal without a loo.")


def close_line(*, reason: str) -> dict[str, Any]:
    """A closing's line in the session file: the import closes the session it rebuilds there,
    with this reason, and the closing works out its figures again (``session_close``)."""
    return {"close": {"reason": reason}}


def reopen_line(*, reason: str) -> dict[str, Any]:
    """A reopening's line in the session file, after the close line it reverses: the import
    reopens the session it rebuilds there, with this reason (``session_reopen``)."""
    return {"reopen": {"reason": reason}}


def reopen_reason_problem(reason: Any) -> str | None:
    """Why ``reason`` cannot be a reopening's (None when it can): a reopening says why
    (``limits.required_reason_problem``). ``session_reopen`` and a session file's reopen line
    ask it."""
    return limits.required_reason_problem(reason, "The reopening's", "the session is reopened")


def final_deal_missing(mode: str, pool: int, last: tuple[int, bool] | None) -> Problem | None:
    """409 ``final-deal-required`` when the rules say ``end_pool: final-deal``, ``pool`` units
    are left and the last deal (``last``: its number and whether it was the final deal, played;
    None before any deal) is not the final deal. The closing asks it, and so does a session
    file's close line before anything is stored."""
    if mode != "final-deal" or pool <= 0 or (last is not None and last[1]):
        return None
    where = f"deal {last[0]} is not one" if last is not None else "no deal was recorded"
    return Problem(
        409, "Final deal missing",
        detail=(f"The rules say end_pool: final-deal and {pool} units are in the pool: "
                f"record a final deal in which everybody stands and there is no miss "
                f"(a record with \"final\": true) before closing ({where})."),
        code="final-deal-required", pool=pool)


def closing_figures(seats: Sequence[str], held: Mapping[str, int], pool: int, eldest: str,
                    ) -> tuple[dict[str, int], dict[str, int]]:
    """The end pool's shares (split from ``eldest``) and the chips the banker then buys back
    from each seat (``held`` now plus its share; below zero for chips lost on credit). The
    closing posts them; a session file's close line is checked against them."""
    shares = split_pool(pool, seats, eldest)
    return shares, {s: held.get(s, 0) + shares[s] for s in seats}


@transaction.atomic
def session_close(*, session: GameSession, user: Any = None, reason: str = "",
                  reopened_later: bool = False) -> ClosingResult:
    """Apply the end-pool rule, buy back every chip and freeze the session (see module doc).
    The reason is refused (400) past ``limits.MAX_REASON_CHARS``: a session file carries it.

    ``reopened_later`` is the import's, for a close line its file reopens later: that closing
    is worked out again from the deals as they stand now, which a correction made after the
    reopening may have changed (a final deal made an ordinary one, to play on), so a final deal
    missing then is no refusal: the pool is split, with a warning, and the reopening reverses
    it at once."""
    if (problem := limits.text_problem(reason, limits.MAX_REASON_CHARS, "reason")) is not None:
        raise invalid([{"field": "reason", "message": f"The closing's {problem}."}])
    locked = session_lock(session)
    if not locked.is_open:
        raise Problem(409, "Session already closed",
                      detail=f"Session {locked.pk} is already closed.", code="session-closed")
    seats = list(locked.seats)
    deals = _current_verdicts(locked)
    verdicts = [v for _, _, v in deals]
    mode = locked.end_pool_mode
    balances = ledger_balances(locked)
    pool = balances[POOL]
    eldest = eldest_after(seats, next_dealer(locked, verdicts))
    warnings = closing_warnings(seats, [(r, v) for _, r, v in deals])

    last = (deals[-1][0], is_final_deal(deals[-1][1], deals[-1][2])) if deals else None
    missing = final_deal_missing(mode, pool, last)
    if missing is not None and not reopened_later:
        raise missing
    if missing is not None:
        warnings.append(f"No final deal was played: the {pool} units in the pool were split "
                        f"from {eldest} (a closing a session file reopens later, its deals "
                        "corrected since).")
    elif mode == "final-deal" and pool:
        warnings.append(f"The final deal left {pool} units in the pool: split from {eldest}.")

    postings = []
    shares, held = closing_figures(seats, balances, pool, eldest)
    if pool:
        entries = ledger_post(
            session=locked, kind=Kind.END_POOL,
            lines=[LedgerLine(POOL, -pool)] + [LedgerLine(s, n) for s, n in shares.items() if n],
            memo=f"end of session: {pool} left in the pool split from {eldest}")
        postings.append(entries[0].posting)
    if any(held.values()):
        entries = ledger_post(
            session=locked, kind=Kind.BUYBACK,
            lines=[LedgerLine(s, -n) for s, n in held.items() if n]
            + [LedgerLine(BANK, sum(held.values()))],
            memo="the banker buys back every chip")
        postings.append(entries[0].posting)

    closing = SessionClosing.objects.create(
        session=locked, action=SessionClosing.Action.CLOSE, by=_user(user), reason=reason,
        end_pool_mode=mode, end_pool=pool, end_pool_shares=shares, returned=held,
        warnings=warnings, postings=postings)
    locked.status = GameSession.Status.CLOSED
    locked.closed_at = closing.at  # one moment: the session's and its closings log's agree
    locked.save(update_fields=["status", "closed_at"])
    session.status, session.closed_at = locked.status, locked.closed_at
    return ClosingResult(closing, mode, pool, eldest, shares, held, warnings)


def next_dealer(session: GameSession, verdicts: Sequence[Mapping[str, Any]]) -> str:
    """Who would deal next: the last verdict's `next.dealer` (the first dealer before any deal)."""
    if not verdicts:
        return session.first_dealer
    last = verdicts[-1]
    return (last.get("next") or {}).get("dealer") or eldest_after(list(session.seats), last["dealer"])


def _user(user: Any) -> Any:
    return user if getattr(user, "is_authenticated", False) else None


@transaction.atomic
def session_reopen(*, session: GameSession, user: Any, reason: str) -> SessionClosing:
    """Reverse the last closing's postings, reopen the session and log who, when and why.
    Refused: a blank reason or one past ``limits.MAX_REASON_CHARS`` (400), an open session
    (409 ``session-open``), a session reopened ``limits.MAX_REOPENS`` times (409
    ``session-full``)."""
    if (problem := reopen_reason_problem(reason or "")) is not None:
        raise invalid([{"field": "reason", "message": problem}])
    locked = session_lock(session)
    if locked.is_open:
        raise Problem(409, "Session is open", detail=f"Session {locked.pk} is not closed.",
                      code="session-open")
    if SessionClosing.objects.filter(session=locked, action=SessionClosing.Action.REOPEN
                                     ).count() >= limits.MAX_REOPENS:
        raise limits.session_full("reopenings", limits.MAX_REOPENS,
                                  "this one cannot be reopened again.")
    closing = standing_closing(locked)
    postings = []
    for posting in reversed(closing.postings if closing else []):  # the buy-back first
        entries = LedgerEntry.objects.filter(session=locked, posting=posting).order_by("seq")
        # Same kind, opposite sign: the buy-back / end-pool totals net to zero again, so the
        # ledger check's "issued = purchased - bought back" still holds after a reopen. Booked
        # under the posting it reverses, as a deal's re-settlement is under the deal's, so
        # the timeline shows the closing netted out in its place rather than a buy-back of
        # chips that later corrections may have moved.
        lines = [LedgerLine(e.account, -e.chips, e.kind) for e in entries]
        if lines:
            posted = ledger_post(session=locked, kind=Kind.REVERSAL, lines=lines,
                                 memo=f"reopened: reverses posting {posting}", posting=posting)
            postings.append(posted[0].posting)
    locked.status = GameSession.Status.OPEN
    locked.closed_at = None
    locked.save(update_fields=["status", "closed_at"])
    session.status, session.closed_at = locked.status, None
    return SessionClosing.objects.create(
        session=locked, action=SessionClosing.Action.REOPEN, by=_user(user), reason=reason.strip(),
        postings=postings)
