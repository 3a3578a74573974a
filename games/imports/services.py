"""Importing a JSON Lines session file: validate every line, then store the session at once.

File format (`deal-record.md`, "Many deals at once"): line 1 is the session header
`{"format": "loo-session/1", "seats": [...], "rules": {...}, "first_dealer": "ann", "pool": 0,
"banker": "club" | seat, "chip_value": int, "buy_ins": {seat: chips}}` (optional `date`,
`name`, `currency`, `allow_credit`); every later line is a deal record (`loo-deal/1`). As an
extension a line `{"purchase": {"player": "dan", "chips": 20, "money": 200, "paid": false}}`
records a rebuy between deals, and a line `{"payment": {"player": "dan", "money": 100}}` money
paid later toward chips bought on credit (negative: a refund), checked as the payments endpoint
checks it in an open session. A line `{"close": {"reason": "..."}}` closes the session there
with the closing service (the end pool and the buy-back worked out again, never read from the
file), and the payment lines after it are checked as the payments endpoint checks them once the
session is closed (at most what the closing left owing; a refund only by an owner). A line
`{"reopen": {"reason": "..."}}` after it reopens the session with the reopening service, and
deals, purchases and payments go on as before the close, up to the next close line. Between a
close line and its reopen line only payments come. A line
`{"void": {"purchase": 3, "reason": "keyed twice"}}` voids a purchase keyed in by mistake
there (``purchase_void``): the third of the session's purchases in posting order, the
header's buy-ins first (in seat order, as the session records them) and then the purchase
lines; it must name a purchase made before it, not voided already, and without credit the
player must hold the chips it takes back. Blank lines are skipped; line numbers count
from 1. A file holds at most what a session does (``games.services.limits``: as many deals,
purchases, payments and reopenings, each line no larger, in no more bytes): what the export
writes of any stored session imports back.

Validation replays the whole session through the engine before anything is stored, and every
bad line is reported (after a bad deal line the carried pool and dealer are unknown, so later
lines are checked against what they state themselves, and those that state nothing are said to
be unchecked: ``Unchecked``). Storing then goes through the same
services as the REST API, in one transaction: all or nothing.
"""
from __future__ import annotations

import json
import logging
import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from accounts.models import Club, Member, lock_club
from games.imports.models import ImportJob
from games.models import ChipPurchase, GameSession
from games.rules import is_final_deal
from games.rules.jsontext import UnreadableJSON, json_value
from games.rules.session import (
    NOT_AN_OBJECT,
    SESSION_FORMAT,
    beside_service_line,
    first_dealer,
    first_dealer_problem,
    not_json,
    order_problems,
    service_line,
)
from games.selectors import NextDeal
from games.services import limits
from games.services.closing import (
    close_line,
    closing_figures,
    final_deal_missing,
    reopen_line,
    reopen_reason_problem,
    session_close,
    session_reopen,
)
from games.services.deals import deal_record, session_record
from games.services.engine import engine_replay, record_problem, rules_resolve
from games.services.ledger import credit_errors
from games.services.payments import (
    OWNER_REFUNDS,
    closed_payment_problem,
    may_refund_after_close,
    payment_line,
    payment_problem,
    payment_record,
    refund_problem,
)
from games.services.sessions import (
    CLUB_BANKER,
    purchase_line,
    purchase_problems,
    purchase_record,
    purchase_void,
    reserved_seat_problem,
    session_create,
    void_chips_problem,
    void_line,
    void_reason_problem,
)
from games.settlement import eldest_after
from loo_ledger.fields import as_written, is_whole, read_day, unknown_fields
from loo_ledger.parsers import text_unstorable, unstorable
from loo_ledger.problems import Problem

logger = logging.getLogger(__name__)

#: bad lines and errors listed at most: past them the file is read no further (a file of
#: 200,000 bad lines must not store and serve 200,000 errors)
MAX_ERRORS = 100
#: runs of one job begun at most, each time it is queued (uploaded or retried); the delivery
#: after the last start fails the job instead (``_given_up``). One cap for every task's job:
#: settings.LOO_TASK_MAX_STARTS says why
MAX_STARTS: int = settings.LOO_TASK_MAX_STARTS
#: Fault injection for the worker-death tests: when set, a run of an import that finds no such
#: file stops half-way through storing (inside its transaction), writes its process id to this
#: file and waits to be killed (a test removes the file to hold the next run too).
HOLD_ENV = "LOO_IMPORT_HOLD_FILE"

Progress = Callable[[str, int, int], None]  # (phase, done, total)


@dataclass
class Line:
    """One meaningful line of the file: a deal record, a purchase, a purchase's void, a
    payment, a close or a reopen."""

    number: int  # line number in the file, from 1
    # "deal" | "purchase" | "void" | "payment" | "close" | "reopen" | "unreadable" (taken for a deal)
    # | "bad" (not a deal)
    kind: str
    data: dict[str, Any]


@dataclass
class SessionFile:
    header: dict[str, Any]
    lines: list[Line] = field(default_factory=list)
    errors: list[dict[str, Any]] = field(default_factory=list)  # unreadable lines
    #: line 1 is no JSON object: its error is all that is said of the header (nothing in it
    #: can be checked, and "first_dealer None is not seated" would only say it is missing)
    header_unreadable: bool = False

    @property
    def deal_lines(self) -> list[int]:
        """The line numbers of the deals (an unreadable line is taken for one)."""
        return [x.number for x in self.lines if x.kind in ("deal", "unreadable")]

    @property
    def deals(self) -> int:
        return len(self.deal_lines)

    @property
    def reopened_closes(self) -> set[int]:
        """The line numbers of the close lines a reopen line reverses (the next close or
        reopen line after each is a reopen line): closings the import makes and undoes."""
        reopened, last_close = set(), None
        for x in self.lines:
            if x.kind == "close":
                last_close = x.number
            elif x.kind == "reopen" and last_close is not None:
                reopened.add(last_close)
                last_close = None
        return reopened


class ImportRefused(Exception):
    """The file cannot be imported; `errors` names every bad line (the first `MAX_ERRORS` of
    them, and a last entry saying the rest was not checked). ``notes`` say where lines were
    left unchecked (``Unchecked``): listed among the errors in line order, as the cap's entry
    is, but no bad line of their own."""

    def __init__(self, errors: list[dict[str, Any]], detail: str = "", *,
                 notes: list[dict[str, Any]] | None = None):
        if notes:
            errors = sorted(errors + notes, key=lambda e: e["line"])
        if len(errors) > MAX_ERRORS:
            errors = errors[:MAX_ERRORS] + [_err(
                errors[MAX_ERRORS]["line"], f"more than {MAX_ERRORS} errors: the first "
                f"{MAX_ERRORS} are listed and the file was checked no further", code=UNCHECKED)]
        self.errors = errors
        bad = len({e.get("line") for e in errors if e not in (notes or [])})
        unchecked = ", and lines left unchecked after a bad deal line (see the errors)" if notes else ""
        self.detail = detail or f"{bad} bad line(s){unchecked}; nothing was stored."
        super().__init__(self.detail)


def earlier_import(club: Club, source: str, *, besides: int | None = None) -> ImportJob | None:
    """The first import of this very file in this club that stored it, or still may: done,
    queued or under way (a failed one does not count), other than job ``besides``."""
    return (ImportJob.objects.filter(club=club, source=source).exclude(pk=besides)
            .exclude(status=ImportJob.Status.FAILED).order_by("pk").first())


def refuse_duplicate(club: Club, source: str, *, besides: int | None = None) -> None:
    """409 ``duplicate-import`` naming the import, when this club has imported this very file
    already or is importing it (call under the club's lock, ``lock_club``): a second upload is
    almost always a scorer's slip, and it would store every deal twice."""
    earlier = earlier_import(club, source, besides=besides)
    if earlier is None:
        return
    made = (f"was imported already as session {earlier.session_id}"
            if earlier.session_id else f"is being imported already ({earlier.status})")
    raise Problem(409, "Already imported",
                  detail=f"This file {made} (import {earlier.pk}). Send it with "
                         "allow_duplicate=true to import it again as a new session.",
                  code="duplicate-import", session=earlier.session_id, job=earlier.pk)


def import_job_open(*, club: Club, user: Any, source: str, filename: str = "",
                    allow_duplicate: bool = False) -> ImportJob:
    """The job row for a session file, refused as a duplicate (``refuse_duplicate``) unless
    ``allow_duplicate``, a choice the job keeps for its retries. The check and the new row are
    made under the club's lock, so two uploads of one file at once cannot both pass."""
    if (problem := text_unstorable(filename)) is not None:  # (a form post's, past the parser)
        message = f"The file name is refused: {problem}."
        raise Problem(400, detail=message, code="validation-error",
                      errors=[{"field": "filename", "message": message}])
    with transaction.atomic():
        lock_club(club.pk)
        if not allow_duplicate:
            refuse_duplicate(club, source)
        return ImportJob.objects.create(club=club, created_by=user, source=source,
                                        filename=filename[:200], allow_duplicate=allow_duplicate)


def import_job_create(*, club: Club, user: Any, source: str, filename: str = "",
                      allow_duplicate: bool = False) -> ImportJob:
    """Open the job (``import_job_open``) and queue it once the transaction commits."""
    from games.imports.tasks import publish

    with transaction.atomic():
        job = import_job_open(club=club, user=user, source=source, filename=filename,
                              allow_duplicate=allow_duplicate)
        publish(job.pk)
    return job


def no_such_import(job_id: int) -> Problem:
    """The 404 of an import this club does not have (its own, or as good as another club's)."""
    return Problem(404, detail=f"No import {job_id} in this club.", code="not-found")


def import_job_retry(*, club: Club, job_id: int) -> ImportJob:
    """Queue a job again (a failed one, or one whose worker died), once the transaction commits.
    Refused, 409, once the job stored its session (whatever a run under way says of it), and as a
    duplicate, as its creation would be now, when the same file has been imported since by
    another job (unless the job was made with ``allow_duplicate``): the check under the club's
    lock, as ``import_job_open`` makes it. 404 for another club's job."""
    from games.imports.tasks import publish

    with transaction.atomic():
        lock_club(club.pk)  # before the job's row: the lock order (accounts.tenancy)
        job = (ImportJob.objects.select_for_update(of=("self",)).select_related("club")
               .filter(pk=job_id, club=club).first())
        if job is None:
            raise no_such_import(job_id)
        if job.session_id is not None:
            raise Problem(409, "Already imported",
                          detail=f"Import {job.pk} already stored session {job.session_id}.",
                          code="conflict", session=job.session_id)
        if not job.allow_duplicate:
            refuse_duplicate(club, job.source, besides=job.pk)
        job.status, job.detail, job.starts = ImportJob.Status.QUEUED, "", 0  # the cause may be
        job.save(update_fields=["status", "detail", "starts"])  # fixed: MAX_STARTS runs afresh
        publish(job.pk)
    return job


#: the ``code`` of a job's entry saying where the file was not checked (past the error cap, or
#: after a bad deal line), rather than a bad line of its own
UNCHECKED = "unchecked"


def _err(line: int, message: str, **extra: Any) -> dict[str, Any]:
    return {"line": line, "message": message, **{k: v for k, v in extra.items() if v is not None}}


#: what a close, reopen or void line holds, as its refusal says when it holds something else
_LINE_SHAPES = {"close": '{"reason": text}', "reopen": '{"reason": text}',
                "void": '{"purchase": its place from 1, "reason": text}'}


def _line_fields() -> dict[str, tuple[str, ...]]:
    """The fields each line beside the deals holds, as the session file's writers write them
    (a purchase's player, chips, money, paid and memo; a close's and a reopen's reason; ...)."""
    written = (purchase_line(player="", chips=0, money=0, paid=True, memo=""),
               void_line(purchase=0, reason=""), payment_line(player="", money=0, memo=""),
               close_line(reason=""), reopen_line(reason=""))
    return {kind: tuple(line[kind]) for line in written for kind in line}


#: the fields of each line beside the deals (``_line_fields``), read once
LINE_FIELDS = _line_fields()


def _beside_the_line(data: dict[str, Any], kind: str) -> str | None:
    """Why a purchase, void, payment, close or reopen line cannot be read whole (None when it
    can): it holds its one key, and anything beside it (a second kind, a memo put outside)
    would be passed over unread, as the API refuses a field it does not have; and so would a
    key inside it that is none of its fields (``{"reopen": {"reason": ..., "end_pool_mode":
    ""}}``: a reopening takes a reason alone)."""
    if (beside := beside_service_line(data, kind)) is not None:
        return beside
    fields = LINE_FIELDS[kind]
    unknown = unknown_fields(data[kind], fields, fields)
    if not unknown:
        return None
    return f"a {kind} line: " + " ".join(m for ms in unknown.values() for m in ms)


def parse_session_file(text: str) -> SessionFile:
    """Split the file into header and lines. A bad line is kept with its error, so validation
    still checks and reports every other line: an unreadable one (kind "unreadable") is taken
    for a deal line; a purchase, a payment or a second header that cannot be used (kind "bad")
    is not."""
    header: dict[str, Any] | None = None
    sf = SessionFile({})
    most_lines = limits.session_file_lines()
    # JSON Lines end at "\n" (or "\r\n") only: str.splitlines() would also break a line at
    # U+2028, U+2029 or U+0085, which JSON leaves unescaped inside a string
    for number, raw in enumerate(text.removeprefix("\ufeff").split("\n"), start=1):
        raw = raw.removesuffix("\r")
        if not raw.strip():
            continue
        try:
            # (NaN and Infinity refused: nor the API's parser nor PostgreSQL's jsonb reads them)
            data = json_value(raw)
        except json.JSONDecodeError as exc:
            data, problem = None, not_json(exc)  # (the replay's words)
        except UnreadableJSON as exc:  # NaN, Infinity, 4,301 digits, nested too deeply
            data, problem = None, str(exc)
        else:
            problem = NOT_AN_OBJECT if not isinstance(data, dict) else unstorable(data)
        # a line beside the deals (games.rules.session.service_line, which the engine's
        # replay passes over): chips bought, money paid later, a closing, a reopening
        extra = service_line(data) if isinstance(data, dict) else None
        not_a_deal = isinstance(data, dict) and header is not None and (
            extra is not None or data.get("format") == SESSION_FORMAT)
        if problem is None and not_a_deal and extra is None:
            problem = "a second session header: a file holds one session"
        if problem is None and not_a_deal and extra in _LINE_SHAPES \
                and not isinstance(data[extra], dict):
            problem = f'a {extra} line is {{"{extra}": {_LINE_SHAPES[extra]}}}'
        if problem is None and not_a_deal and extra is not None:
            problem = _beside_the_line(data, extra)
        if problem:
            if header is None:
                header, sf.header_unreadable = {}, True
                sf.errors.append(_err(number, f"the session header is unreadable: {problem}"))
            else:
                sf.lines.append(Line(number, "bad" if not_a_deal else "unreadable", {}))
                # a line beside the deals under the field of its kind, as the replay names it
                sf.errors.append(_err(number, problem, field=extra if not_a_deal else None))
            if len(sf.errors) > MAX_ERRORS:
                raise ImportRefused(sf.errors)
        elif header is None:
            header = data
        elif extra is not None:  # a purchase, a void, a payment, a close or a reopen
            sf.lines.append(Line(number, extra, data[extra] if isinstance(data[extra], dict) else {}))
        else:
            sf.lines.append(Line(number, "deal", data))
        if len(sf.lines) > most_lines:
            raise ImportRefused([_err(number, f"more than {most_lines:,} lines after the "
                                      f"header: a session holds at most "
                                      f"{limits.MAX_DEALS:,} deals, {limits.MAX_PURCHASES:,} "
                                      f"purchases and as many voids, "
                                      f"{limits.MAX_PAYMENTS:,} payments and "
                                      f"{limits.MAX_REOPENS:,} reopenings, a close line before "
                                      "each and one more; split the file")])
    if header is None:
        raise ImportRefused([_err(1, "the file is empty: the first line must be the session header")])
    sf.header = header
    _refuse_past_limits(sf)
    return sf


def _refuse_past_limits(sf: SessionFile) -> None:
    """Refuse a file with more deals, purchases, voids, payments or reopenings than a session holds
    (``limits``), naming the first line past the cap. The header's buy-ins are purchases too,
    made before any line."""
    buy_ins = sf.header.get("buy_ins")
    opening = sum(1 for n in buy_ins.values() if n) if isinstance(buy_ins, dict) else 0
    kinds = [  # (the lines, how many a session holds of them, the message past it)
        (sf.deal_lines, limits.MAX_DEALS,
         "deal {n:,}: a session holds at most {most:,} deals; split the file"),
        ([1] * opening + [x.number for x in sf.lines if x.kind == "purchase"],
         limits.MAX_PURCHASES, ("purchase {n:,}: a session holds at most {most:,} purchases "
                                "(the header's buy-ins among them); split the file")),
        ([x.number for x in sf.lines if x.kind == "void"], limits.MAX_PURCHASES,
         "void {n:,}: a session holds at most {most:,} purchases, each voided once at most"),
        ([x.number for x in sf.lines if x.kind == "payment"], limits.MAX_PAYMENTS,
         "payment {n:,}: a session holds at most {most:,} payments; split the file"),
        ([x.number for x in sf.lines if x.kind == "reopen"], limits.MAX_REOPENS,
         "reopening {n:,}: a session is reopened at most {most:,} times"),
    ]
    for lines, most, message in kinds:
        if len(lines) > most:
            raise ImportRefused([_err(lines[most], message.format(n=most + 1, most=most))])


def _header_errors(club: Club, h: dict[str, Any]) -> tuple[list[dict[str, Any]], dict[str, Any] | None]:
    """Errors of the header line (line 1 of the file) and the resolved rules if they are valid."""
    errors = []
    if h.get("format") != SESSION_FORMAT:
        errors.append(_err(1, f"format must be {as_written(SESSION_FORMAT)}", field="format"))
    seats = h.get("seats")
    members = set(Member.objects.filter(club=club).values_list("name", flat=True))
    if not isinstance(seats, list) or len(seats) < 2 or not all(isinstance(s, str) for s in seats):
        errors.append(_err(1, "seats must list at least two players", field="seats"))
        seats = []
    for i, seat in enumerate(seats):
        if seat not in members:
            errors.append(_err(1, f"{as_written(seat)} is not a member of this club", field=f"seats[{i}]"))
        elif (problem := reserved_seat_problem(seat)) is not None:
            errors.append(_err(1, problem, field=f"seats[{i}]"))
    if (problem := first_dealer_problem(h, seats)) is not None:  # as replay_session says it
        errors.append(_err(1, problem, field="first_dealer"))
    banker = h.get("banker", CLUB_BANKER)
    if banker not in (None, CLUB_BANKER) and (not isinstance(banker, str) or banker not in members):
        errors.append(_err(1, f"banker {as_written(banker)} is not a member of this club", field="banker"))
    pool = h.get("pool", 0)
    if not is_whole(pool) or pool != 0:  # (false and 0.0 equal 0 in Python, not in the file)
        errors.append(_err(1, "a stored session starts with an empty pool (pool: 0)", field="pool"))
    cv = h.get("chip_value", 1)
    if not is_whole(cv) or not 1 <= cv <= limits.MAX_CHIPS:  # as the session takes it
        errors.append(_err(1, "chip_value is a whole number of the smallest currency unit, "
                              f"from 1 to {limits.MAX_CHIPS}", field="chip_value"))
    buy_ins = h.get("buy_ins", {})
    if not isinstance(buy_ins, dict) or any(
            s not in seats or not is_whole(n) or n < 1 for s, n in buy_ins.items()):
        errors.append(_err(1, "buy_ins maps seated players to whole numbers of chips from 1 (leave "
                              "out a player who buys none)", field="buy_ins"))
    if type(h.get("allow_credit", False)) is not bool:  # (a truth test reads "false" as credit)
        errors.append(_err(1, "allow_credit is true or false", field="allow_credit"))
    if "name" in h and (problem := limits.text_problem(h["name"], limits.MAX_NAME_CHARS, "name")):
        errors.append(_err(1, f"the session's {problem}", field="name"))
    if "date" in h:
        try:
            read_day(h["date"])
        except ValueError:
            errors.append(_err(1, f"date {as_written(h['date'])} is not a day written YYYY-MM-DD", field="date"))
    resolved = None
    try:
        resolved = rules_resolve(h.get("rules", {}))
    except Problem as exc:
        errors += [_err(1, e.get("message", str(exc.detail)), field="rules") for e in exc.errors or []]
    return errors, resolved


def validate_session_file(club: Club, sf: SessionFile, progress: Progress | None = None,
                          user: Any = None) -> None:
    """Replay every deal through the engine and check every other line as its service will take
    it when stored by ``user`` (the importer; None from the shell); raise `ImportRefused`
    listing every bad line."""
    if sf.header_unreadable:
        raise ImportRefused(sorted(sf.errors, key=lambda e: e["line"]))
    errors, resolved = _header_errors(club, sf.header)
    errors = sf.errors + errors
    if resolved is None or not sf.header or any(e["line"] == 1 for e in errors):
        raise ImportRefused(sorted(errors, key=lambda e: e["line"]))
    h = sf.header
    seats = list(h.get("seats") or [])
    table = GameSession(club=club, seats=seats, resolved_rules=resolved,  # never saved
                        chip_value=h.get("chip_value", 1))
    held = {s: 0 for s in seats}
    for s, n in (h.get("buy_ins") or {}).items():
        held[s] = held.get(s, 0) + n
    # the purchases so far, in posting order, as a void line names them: the header's buy-ins
    # (in seat order, as session_create records them), then each purchase line
    bought = Bought([(s, h["buy_ins"][s], True) for s in seats if (h.get("buy_ins") or {}).get(s)])
    owed = {s: 0 for s in seats}  # money owed for chips bought on credit (buy-ins are paid)
    paid = {s: 0 for s in seats}  # money paid later, as the payment lines so far say
    banker = h.get("banker")
    carry: NextDeal | None = NextDeal(1, str(first_dealer(h, seats)), 0, True)
    number = 0
    total = sf.deals
    final_line: int | None = None  # the line of the final deal, once played
    last_deal: tuple[int, bool] | None = None  # the last deal's number, and if it was the final
    closed: Closed | None = None  # from a close line to the reopen line after it
    may_refund = may_refund_after_close(club.pk, user)
    reopened = sf.reopened_closes
    unchecked = Unchecked()
    for line in sf.lines:
        if len(errors) > MAX_ERRORS:
            break
        if line.kind == "bad":
            continue  # its error is already listed; it is not a deal
        is_deal = line.kind in ("deal", "unreadable")
        if is_deal:
            stated = line.data.get("number")
            if carry is None and type(stated) is int and stated >= 1:
                number = stated  # after a bad line, the record says where it stands
            else:
                number += 1
        # in the order the service makes them, and none after the final deal, as the
        # engine's replay reads them and in its words, fields and deal numbers
        order = order_problems("deal" if is_deal else line.kind, closed.line if closed else 0,
                               final_line or 0)
        errors += [_err(line.number, message, field=field, deal=number if is_deal else None)
                   for field, message in order]
        if order and line.kind == "close":
            continue  # (the session stays closed at the first close line)
        if line.kind == "close":
            closed = _check_close(line, line.number in reopened, carry, last_deal, table, held,
                                  errors)
            unchecked.follow_close(closed)
            continue
        if line.kind == "reopen":
            _check_reopen(line, errors)
            closed = None
            continue
        if line.kind == "purchase":
            p = line.data
            problems = purchase_problems(p.get("player"), p.get("chips"), p.get("money"),
                                         _memo(line), seats=seats, chip_value=table.chip_value,
                                         paid=p.get("paid", True), banker=banker)
            who = p.get("player") if isinstance(p.get("player"), str) else None
            errors += [_err(line.number, e["message"], player=who, field=e["field"])
                       for e in problems]
            if any(e["field"] in ("player", "chips") for e in problems):
                bought.lines.append(None)  # a purchase all the same: it takes its place
                continue  # no chips to count
            bought.lines.append((p["player"], p["chips"], p.get("paid") is not False))
            held[p["player"]] += p["chips"]
            if p.get("paid") is False:  # as the purchase will be stored
                owed[p["player"]] += p["chips"] * table.chip_value
            continue
        if line.kind == "void":
            _check_void(line, bought, held, owed, table.chip_value, errors,
                        bool(h.get("allow_credit")))
            continue
        if line.kind == "payment":
            _check_payment(line, seats, None if banker == CLUB_BANKER else banker, owed, paid,
                           errors, bool(h.get("allow_credit")), closed, may_refund)
            continue
        before = carry
        carry, final = _check_deal(line, number, carry, table, held, errors,
                                   bool(h.get("allow_credit")))
        unchecked.follow(line, before, carry)
        last_deal = (number, final)
        if final and final_line is None:
            final_line = line.number
        if progress:
            progress("validating", number, total)
    if errors:
        raise ImportRefused(sorted(errors, key=lambda e: e["line"]), notes=unchecked.notes())


@dataclass
class Unchecked:
    """The lines validation could not check. After a bad deal line (unreadable, or one the
    engine refuses) the pool and the dealer the next deal starts from are unknown, so a
    record that does not state them (``_states_its_start``) cannot be checked, nor can the
    ones after it until a record states them again. Each such run is said once, at its first
    line (:meth:`notes`), as the error cap is said: fixing the bad line may show more errors.
    So is a close line that comes while they are unknown: whether the final deal was played,
    and the buy-back that bounds the payments after it, cannot be worked out."""

    #: (the bad deal line, the run's first and last line)
    runs: list[tuple[int, int, int]] = field(default_factory=list)
    #: (the bad deal line, the close line left unchecked after it)
    closes: list[tuple[int, int]] = field(default_factory=list)
    bad: int = 0  # the last bad deal line: from it on the start of a deal is unknown
    going_on: bool = False  # no deal line has been checked since the last run began

    def follow(self, line: Line, before: NextDeal | None, after: NextDeal | None) -> None:
        """Note deal ``line``, which started from ``before`` and leaves ``after`` (each None
        when unknown)."""
        if before is None and line.kind == "deal" and not _states_its_start(line.data):
            if self.going_on:
                bad, first, _last = self.runs[-1]
                self.runs[-1] = (bad, first, line.number)
            else:
                self.runs.append((self.bad, line.number, line.number))
                self.going_on = True
            return
        self.going_on = False
        if after is None:
            self.bad = line.number

    def follow_close(self, closed: Closed) -> None:
        """Note a close line whose closing could not be worked out (``closed.bought_back`` is
        None after a bad deal line). One a reopen line reverses asks for neither check."""
        if closed.bought_back is None and not closed.reopened_later:
            self.closes.append((self.bad, closed.line))

    def notes(self) -> list[dict[str, Any]]:
        """One entry a run, at its first line, saying which deal lines were not checked, and
        one at each close line left unchecked."""
        notes = [_err(line, f"this close line was not checked, nor the payments after it: "
                            f"after the bad deal line {bad} the pool the session closes with "
                            "is unknown, so whether the final deal was played and what the "
                            "closing buys back (which bounds those payments) cannot be worked "
                            f"out; fix line {bad} and import again to have them checked",
                      code=UNCHECKED)
                 for bad, line in self.closes]
        for i, (bad, first, last) in enumerate(self.runs):
            span = ("from here on" if self.going_on and i == len(self.runs) - 1
                    else f"from here to line {last}")
            notes.append(_err(first, f"the deal lines {span} were not checked: after the bad "
                                     f"deal line {bad} the pool and the dealer they start from "
                                     f"are unknown, and they do not state them; fix line {bad} "
                                     "and import again to have them checked", code=UNCHECKED))
        return notes


def _states_its_start(record: dict[str, Any]) -> bool:
    """Whether a deal record states the dealer and the pool it starts from, so that it can be
    checked after a bad line, which leaves them unknown."""
    return "dealer" in record and "pool" in record


@dataclass
class Closed:
    """A close line of the file: where it is, whether a reopen line reverses it later, and the
    money the closing's buy-back comes to for each seat (None when unknown: a bad deal line
    came before it)."""

    line: int
    reopened_later: bool
    bought_back: dict[str, int] | None


def _check_close(line: Line, reopened_later: bool, carry: NextDeal | None,
                 last_deal: tuple[int, bool] | None, table: GameSession, held: dict[str, int],
                 errors: list[dict[str, Any]]) -> Closed:
    """A close line, as the closing takes it (``session_close``, ``reopened_later`` when a
    reopen line reverses it): its reason within bounds, the final deal played when the rules
    and the pool ask for one (unless reopened later); and what the closing would buy back,
    worked out as it works it out, for the payments after it."""
    reason = line.data.get("reason", "")
    if (problem := limits.text_problem(reason, limits.MAX_REASON_CHARS, "reason")) is not None:
        errors.append(_err(line.number, f"the closing's {problem}", field="reason"))
    if carry is None:  # after a bad deal line the pool and the next dealer are unknown
        return Closed(line.number, reopened_later, None)
    missing = final_deal_missing(table.end_pool_mode, carry.pool, last_deal)
    if missing is not None and not reopened_later:
        errors.append(_err(line.number, str(missing.detail)))
    seats = list(table.seats)
    _shares, returned = closing_figures(seats, held, carry.pool, eldest_after(seats, carry.dealer))
    return Closed(line.number, reopened_later,
                  {s: n * table.chip_value for s, n in returned.items()})


def _check_payment(line: Line, seats: list[str], banker: str | None, owed: dict[str, int],
                   paid: dict[str, int], errors: list[dict[str, Any]], allow_credit: bool,
                   closed: Closed | None, may_refund: bool) -> None:
    """A payment line, as the payments endpoint takes one: in an open session outside the
    file's close lines, in the closed one after a close line (at most what the closing left
    owing, when ``closed`` knows the buy-back; a refund only when the importer ``may_refund``,
    an owner); ``owed`` and ``paid`` (per seat) follow it when it is good. More than the debt
    for chips in an open session can only have been paid after a closing, toward chips lost on
    credit: the error says what to do."""
    player, money = line.data.get("player"), line.data.get("money")
    if not isinstance(player, str):
        errors.append(_err(line.number, 'a payment is {"player": seat, "money": units}',
                           field="player"))
        return
    debt = owed.get(player, 0) - paid.get(player, 0)
    problem = payment_problem(player, money, seats=seats, banker=banker, owed=debt,
                              is_open=closed is None, memo=_memo(line))
    if problem is None and closed is not None and money < 0 and not may_refund:
        problem = {"field": "money", "player": player,
                   "message": f"{OWNER_REFUNDS} The importer is not an owner of this club."}
    if problem is None and closed is not None and (
            closed.bought_back is not None or closed.reopened_later):
        problem = closed_payment_problem(player, money, owed=debt,
                                         bought_back=(closed.bought_back or {}).get(player, 0),
                                         allow_credit=allow_credit,
                                         reopened_later=closed.reopened_later)
    problem = problem or refund_problem(player, money, paid.get(player, 0))
    if problem:
        message = problem["message"]
        if allow_credit and closed is None and isinstance(money, int) and money > 0 \
                and problem["field"] == "money":
            message += (" A payment made after closing toward chips lost on credit comes after "
                        'the session\'s close line ({"close": {"reason": ...}}).')
        errors.append(_err(line.number, message, player=player, field=problem["field"]))
        return
    paid[player] += money


@dataclass
class Bought:
    """The purchases a void line may name, in posting order: ``(player, chips, paid)`` each,
    None for a purchase line too bad to count; and where each voided one was voided."""

    lines: list[tuple[str, int, bool] | None]
    voided: dict[int, int] = field(default_factory=dict)  # place -> the void's line


def _check_void(line: Line, bought: Bought, held: dict[str, int], owed: dict[str, int],
                chip_value: int, errors: list[dict[str, Any]], allow_credit: bool) -> None:
    """A void line, as ``purchase_void`` takes it: a reason, a purchase made before it (its
    place from 1 among ``bought``) not voided already, and without credit the player holding
    the chips it takes back; ``held`` and ``owed`` follow it when it is good."""
    place, reason = line.data.get("purchase"), line.data.get("reason", "")
    if (problem := void_reason_problem(reason)) is not None:
        errors.append(_err(line.number, problem, field="reason"))
    if not is_whole(place) or not 1 <= place <= len(bought.lines):
        errors.append(_err(line.number, (
            f"a void names the purchase it voids by its place among the session's purchases "
            f"before it, from 1 (the header's buy-ins first): there are {len(bought.lines)}, "
            f"so {as_written(place)} names none"), field="purchase"))
        return
    if place in bought.voided:
        errors.append(_err(line.number, f"purchase {place} was voided already (line "
                                        f"{bought.voided[place]}): a purchase is voided once",
                           field="purchase"))
        return
    bought.voided[place] = line.number
    purchase = bought.lines[place - 1]
    if purchase is None:
        return  # that purchase line's own error is listed
    player, chips, paid = purchase
    if not allow_credit and (problem := void_chips_problem(player, held[player], chips)):
        errors.append(_err(line.number, problem["message"], **_where(problem)))
    held[player] -= chips
    if not paid:
        owed[player] -= chips * chip_value


def _check_reopen(line: Line, errors: list[dict[str, Any]]) -> None:
    """A reopen line's reason, as the reopening takes it (``session_reopen``): within bounds.
    (That it follows a close line, ``out_of_order`` says.)"""
    if (problem := reopen_reason_problem(line.data.get("reason", ""))) is not None:
        errors.append(_err(line.number, problem, field="reason"))


def _check_deal(line: Line, number: int, carry: NextDeal | None, table: GameSession,
                held: dict[str, int], errors: list[dict[str, Any]], allow_credit: bool,
                ) -> tuple[NextDeal | None, bool]:
    """Replay one deal line as the session would store it; returns what the next deal expects
    (None when unknown: this line was bad) and whether it was the final deal, played. Errors are
    appended, chips `held` updated."""
    from games.rules import RecordError

    rec = line.data
    if line.kind == "unreadable":
        return None, False
    if carry is None:  # after a bad line: check against what this record states, if it can
        if not _states_its_start(rec):
            return None, False
        carry = NextDeal(number, str(rec["dealer"]), rec["pool"], rec.get("number", number) == 1)
    try:
        full = session_record(table, rec, carry)
        verdict = engine_replay(full, table.resolved_rules, pool=carry.pool,
                                first_of_series=carry.first_of_series)
    except (Problem, RecordError) as exc:
        found = exc.errors if isinstance(exc, Problem) else record_problem(exc).errors
        errors += [_err(line.number, e.get("message", ""), deal=number, **_where(e)) for e in found or []]
        return None, False
    deltas = verdict["settlement"]["deltas"]
    if not allow_credit:
        errors += [_err(line.number, e["message"], deal=number, player=e["player"], code=e["code"])
                   for e in credit_errors(held, deltas)]
    for seat, delta in deltas.items():
        held[seat] = held.get(seat, 0) + delta
    return NextDeal.after(verdict, number), is_final_deal(full, verdict)


def _where(e: dict[str, Any]) -> dict[str, Any]:
    """Where a service's or the engine's error points, and its ``code``, for a line's error."""
    return {k: e.get(k) for k in ("index", "player", "card", "field", "code")}


def _memo(line: Line) -> Any:
    """A purchase's or a payment's line's memo as it is stored (when the line has none, "rebuy"
    for a purchase, nothing for a payment). As the line gives it, not made text: a memo that is
    no text is the line's error (``memo_problem``), as the endpoints' is."""
    return line.data.get("memo", "rebuy" if line.kind == "purchase" else "")


def _refused_at(line: int, exc: Problem) -> ImportRefused:
    """A service's refusal while storing, as the errors of the file's ``line``."""
    return ImportRefused([_err(line, e.get("message", str(exc.detail)), **_where(e))
                          for e in exc.errors or [{"message": str(exc.detail)}]])


def store_session_file(club: Club, sf: SessionFile, user: Any = None,
                       progress: Progress | None = None, hold: Callable[[int], None] | None = None,
                       ) -> GameSession:
    """Create the session and record every purchase, void, deal and payment, close it at each
    close line and reopen it at each reopen line (the caller holds the transaction)."""
    h = sf.header
    try:
        session = session_create(
            club=club, date=read_day(h["date"]) if h.get("date") else timezone.localdate(),
            seats=h["seats"], first_dealer=first_dealer(h, h["seats"]), rules=h.get("rules", {}),
            banker=h.get("banker"), chip_value=h.get("chip_value", 1), currency=h.get("currency", "GBP"),
            allow_credit=h.get("allow_credit", False), name=h.get("name", ""),
            buy_ins={s: n for s, n in (h.get("buy_ins") or {}).items() if n}, user=user,
        )
    except Problem as exc:  # what only the session can check: the header's line
        raise _refused_at(1, exc) from exc
    number, total = 0, sf.deals
    reopened = sf.reopened_closes
    closed_at: int | None = None  # the close line the session stands closed by
    # the purchases in posting order, as a void line names them (the buy-ins first)
    placed = list(ChipPurchase.objects.filter(session=session).order_by("posting", "id")
                  .values_list("pk", flat=True))
    for line in sf.lines:
        try:
            if line.kind == "purchase":
                p = line.data
                placed.append(purchase_record(
                    session=session, player=p["player"], chips=p["chips"], money=p.get("money"),
                    paid=p.get("paid", True), memo=_memo(line), user=user).pk)
                continue
            if line.kind == "void":
                purchase_void(session=session, purchase_id=placed[line.data["purchase"] - 1],
                              reason=line.data.get("reason", ""), user=user)
                continue
            if line.kind == "payment":
                p = line.data
                payment_record(session=session, player=p["player"], money=p["money"],
                               memo=_memo(line), user=user, reopened_later=closed_at in reopened)
                continue
            if line.kind == "close":  # the figures are the closing's own, not the file's
                closed_at = line.number
                session_close(session=session, user=user, reason=line.data.get("reason", ""),
                              reopened_later=closed_at in reopened)
                continue
            if line.kind == "reopen":
                closed_at = None
                session_reopen(session=session, user=user, reason=line.data.get("reason", ""))
                continue
            number += 1
            deal_record(session=session, number=number, record=line.data, user=user)
        except Problem as exc:
            raise _refused_at(line.number, exc) from exc
        if progress:
            progress("storing", number, total)
        if hold:
            hold(number)
    return session


def _hold_for_test(total: int) -> Callable[[int], None] | None:
    """The fault-injection hook (see HOLD_ENV): half-way through storing, while no run holds."""
    path = os.environ.get(HOLD_ENV)
    if not path or Path(path).exists():
        return None

    def hold(number: int) -> None:
        if number == max(total // 2, 1):
            Path(path).write_text(str(os.getpid()))
            while True:  # wait here, transaction open, until the test kills the worker
                time.sleep(0.2)

    return hold


def _stored(job: ImportJob) -> ImportJob:
    """A job with its session is done, whatever a run that found it so had already written."""
    if job.status != ImportJob.Status.DONE:
        job.status, job.done = ImportJob.Status.DONE, job.total
        job.finished_at = job.finished_at or timezone.now()
        job.save(update_fields=["status", "done", "finished_at"])
    return job


def _given_up_detail(starts: int) -> str:
    """The job's ``detail`` once its runs killed their worker ``starts`` times."""
    return (f"the import stopped its worker {starts} times (the worker was killed while running "
            "it, most likely out of memory: the file is probably too large for the server), so "
            "it was not run again; nothing was stored. Split the file into smaller sessions, or "
            "POST .../retry once the cause is fixed")


def _given_up(job: ImportJob) -> ImportJob:
    """A delivery of a job begun ``MAX_STARTS`` times already: if the last run never ended (its
    worker was killed, and the message came back), the job fails, saying why, rather than
    kill a worker again; acknowledged, its message goes. A job whose last run ended (failed)
    is left as it is: this delivery is a stray copy of its message."""
    running = [ImportJob.Status.VALIDATING, ImportJob.Status.STORING]
    if ImportJob.objects.filter(pk=job.pk, session__isnull=True, status__in=running,
                                starts__gte=MAX_STARTS).update(
            status=ImportJob.Status.FAILED, finished_at=timezone.now(),
            detail=_given_up_detail(job.starts)):
        logger.error("import job %s killed its worker %s times: failed, not run again",
                     job.pk, job.starts)
    job.refresh_from_db()
    return job


def _uploader_may_still_record(job: ImportJob) -> None:
    """The last step of the store's transaction: the uploader must still be a member who may
    record (a scorer demoted, or a login unlinked or switched off, since the upload stores
    nothing). Their member row is locked, the last lock of the order in accounts.tenancy, so a
    change still being committed is waited for and a later one comes after this store. A job
    made from the shell (``manage.py import_session``, no uploader) is the operator's."""
    if job.created_by_id is None:
        return
    # the member's row alone: a lock on the login's row would wait for any other write of the
    # uploader's (its rows point at the login) while holding the job's row (a deadlock)
    member = (Member.objects.select_for_update(of=("self",)).select_related("user")
              .filter(club_id=job.club_id, user_id=job.created_by_id).first())
    if member is None or not member.can_record or not member.user.is_active:
        who = member.user.get_username() if member else "the uploader"
        raise ImportRefused([], detail=f"{who} may no longer record in this club (the role "
                                       "changed after the upload); nothing was stored")


def _set(job_id: int, **fields: Any) -> None:
    ImportJob.objects.filter(pk=job_id).update(**fields)


def run_import(job_id: int, progress: Progress | None = None) -> ImportJob:
    """Validate then store the job's file. Safe to run twice: a finished job is left alone, and
    the store transaction locks the job row and stops if another run already stored it."""
    job = ImportJob.objects.select_related("club", "created_by").get(pk=job_id)
    # a stored job is left as it is: another run (a retry, a redelivery) may have stored it
    # since, so the reset only touches a job without its session. The start is counted in this
    # statement's own commit, before any work: a worker killed in the run leaves it counted.
    if not ImportJob.objects.filter(pk=job_id, session__isnull=True, starts__lt=MAX_STARTS).update(
            status=ImportJob.Status.VALIDATING, attempts=F("attempts") + 1,
            starts=F("starts") + 1, started_at=timezone.now(), finished_at=None, errors=[],
            detail="", done=0):
        job.refresh_from_db()
        return _stored(job) if job.session_id is not None else _given_up(job)
    job.refresh_from_db()

    def report(phase: str, done: int, total: int) -> None:
        if phase == "validating" and (done == total or done % 5 == 0):
            _set(job_id, done=done)  # autocommit: visible to GET .../imports/{id} at once
        if progress:
            progress(phase, done, total)

    try:
        sf = parse_session_file(job.source)
        _set(job_id, total=sf.deals)
        validate_session_file(job.club, sf, report, job.created_by)
        _set(job_id, status=ImportJob.Status.STORING)
        hold = _hold_for_test(sf.deals)
        with transaction.atomic():
            locked = ImportJob.objects.select_for_update().get(pk=job_id)
            if locked.session_id is not None:  # stored meanwhile by another run
                return _stored(locked)
            session = store_session_file(job.club, sf, job.created_by, progress, hold)
            _uploader_may_still_record(job)
            locked.session = session
            locked.status = ImportJob.Status.DONE
            locked.done = locked.total = sf.deals
            locked.finished_at = timezone.now()
            locked.save(update_fields=["session", "status", "done", "total", "finished_at"])
    except ImportRefused as exc:
        _set(job_id, status=ImportJob.Status.FAILED, errors=exc.errors, detail=exc.detail,
             finished_at=timezone.now())
    except SoftTimeLimitExceeded:
        logger.warning("import job %s stopped at its time limit", job_id)
        _set(job_id, status=ImportJob.Status.FAILED, finished_at=timezone.now(),
             detail="the import took longer than its time limit and was stopped; nothing was "
                    "stored")
    except Exception as exc:  # a bug or a lost database: the job says so and can be retried
        logger.exception("import job %s failed", job_id)
        _set(job_id, status=ImportJob.Status.FAILED, finished_at=timezone.now(),
             detail=f"internal error ({type(exc).__name__}); nothing was stored: retry the job")
    job.refresh_from_db()
    return job
