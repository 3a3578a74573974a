"""Replaying a session file (JSON Lines): a header, then deal records in order.

The pool and the dealer carry from each verdict's ``next`` to the following deal; a record
whose own ``dealer``, ``pool``, ``number``, ``rules`` (resolved), ``redeal`` or ``sits_out``
disagrees with what the ledger expects is a record error, named by its line and deal number.
A ``{"purchase": ...}`` line (the service's chip purchases) moves chips between a player and
the banker, not the pool, a ``{"payment": ...}`` line (money paid later for chips bought on
credit) moves no chip at all, a ``{"close": ...}`` line (the service closed the session there:
the end pool shared out, the chips bought back) and a
``{"reopen": ...}`` line (the service reopened it: the closing reversed, the pool as the last
deal left it) and a ``{"void": ...}`` line (a purchase keyed in by mistake, its chips handed
back to the banker) come between deals, so the replay passes over all five. Each holds its one
key alone (``beside_service_line``), they come in the order the service makes them
(``out_of_order``: a reopen line after its close line, only payments between the two), and no
deal comes between a close line and its reopen line.
"""
from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from .errors import RecordError, RuleError, as_json, record_error, shown
from .jsontext import UnreadableJSON, json_value
from .options import RuleSet, rules_from
from .record import replay
from .verdict import is_final_deal

SESSION_FORMAT = "loo-session/1"
NO_HEADER = f"a session file starts with a {SESSION_FORMAT} header"
#: the service's lines beside the deals (its extensions of the session file), each an object
#: under its one key: the replay passes over them
SERVICE_LINES = ("purchase", "payment", "close", "reopen", "void")


def service_line(data: Mapping[str, Any]) -> str | None:
    """The service line's key that ``data`` holds (the first of ``SERVICE_LINES``), or None
    for a deal record."""
    return next((key for key in SERVICE_LINES if key in data), None)


def beside_service_line(data: Mapping[str, Any], kind: str) -> str | None:
    """Why a service line holding more than its one key ``kind`` cannot be passed over (None
    when it holds that key alone): what stands beside it, a deal's fields or a second kind,
    would go unread. The replay refuses such a line, as the service's import does, rather than
    drop a deal record that carries a stray key."""
    others = [key for key in data if key != kind]
    if not others:
        return None
    named = ", ".join(json.dumps(key) for key in others)
    return (f'a {kind} line holds "{kind}" alone: {named} beside it would not be read '
            "(one line for each purchase, void, payment, close or reopen)")


def out_of_order(kind: str, closed_at: int) -> str | None:
    """Why a line of ``kind`` (a service line's key, or "deal") cannot come where it stands
    (None when it can), ``closed_at`` being the line of the close line the session stands
    closed at (0: open). The service closes an open session and reopens a closed one, and a
    closed one takes payments alone, so its export writes them in that order: the replay and
    the import refuse any other with these words."""
    if kind == "payment":
        return None
    if kind == "reopen":
        return None if closed_at else (
            "a reopen line with no close line before it to reverse: only a closed session is "
            "reopened, so a reopen line follows its close line (and the payments made while "
            "the session was closed)")
    if not closed_at:
        return None
    if kind == "close":
        return (f"a close line in a closed session (closed at line {closed_at}): a reopen "
                "line comes between two close lines")
    what = {"purchase": "a purchase", "void": "a void"}.get(kind, "a deal")
    return (f"{what} after the close line (line {closed_at}): a closed session takes none, so "
            "only payments come between a close line and the reopen line that reopens the "
            "session")


def order_problems(kind: str, closed_at: int, final_at: int = 0) -> list[tuple[str, str]]:
    """Why a line of ``kind`` cannot come where it stands, ``(field, message)`` each, as the
    replay and the import both report it: out of the service's order (``out_of_order``, under
    the field of its kind; a deal's is "close", the line it comes after), and a deal after the
    final deal played at line ``final_at`` (0: none yet), which plays the pool off and ends
    the session ("final")."""
    problems = []
    if (problem := out_of_order(kind, closed_at)) is not None:
        problems.append(("close" if kind == "deal" else kind, problem))
    if kind == "deal" and final_at:
        problems.append(("final", (f"a deal after the final deal (line {final_at}), which "
                                   "plays the pool off: it is the session's last")))
    return problems


def first_dealer(header: Mapping[str, Any], seats: list[Any]) -> Any:
    """Who deals the session's first deal: the header's ``first_dealer``, or, left out, the
    first seat (deal-record.md's header names the seats, rules, banker, chip value and
    buy-ins, not who deals first). ``first_dealer_problem`` says whether it is seated."""
    return header["first_dealer"] if "first_dealer" in header else (seats or [None])[0]


def first_dealer_problem(header: Mapping[str, Any], seats: list[Any]) -> str | None:
    """Why the header's ``first_dealer`` names no seat of ``seats`` (None when it does, or is
    left out). JSON null is no seat: read as left out it would quietly deal the first deal to
    the first seat, where the writer meant someone (the import and the replay both refuse it)."""
    if "first_dealer" not in header:
        return None
    given = header["first_dealer"]
    if given is None:
        return ("first_dealer: null is no seat; name the player who deals first, or leave "
                "first_dealer out for the first seat")
    if isinstance(given, str) and given in seats:
        return None
    return f"first_dealer: {shown(given, write=as_json)} is not seated"


def _at_line(line_no: int, message: str, field: str, deal: int | None = None
             ) -> dict[str, Any]:
    """A record error of the file's line ``line_no`` (and of its deal, on a deal line): every
    error of a session file names its line, as the service's import names it."""
    error = dict(record_error(message, field=field), line=line_no)
    return error if deal is None else dict(error, deal=deal)


def _line_error(line_no: int, problem: str, field: str) -> RecordError:
    """A record error of a line that is no deal (named by its line alone)."""
    return RecordError([_at_line(line_no, f"line {line_no}: {problem}", field)])


#: the words for a line that is JSON but no object, the replay's and the import's
NOT_AN_OBJECT = "each line must be a JSON object"


def not_json(err: json.JSONDecodeError) -> str:
    """The words for a line that is no JSON, the replay's and the import's (where on the line:
    a line of a session file is one JSON object, so its column says where it went wrong)."""
    return f"not JSON: {err.msg} at column {err.colno}"


def _load(line: str | Mapping[str, Any], number: int) -> Mapping[str, Any]:
    if isinstance(line, Mapping):
        return line
    try:
        value = json_value(line)
    except json.JSONDecodeError as err:
        raise _line_error(number, not_json(err), "line") from None
    except UnreadableJSON as err:  # NaN, Infinity, 4,301 digits: the import's words
        raise _line_error(number, str(err), "line") from None
    if not isinstance(value, Mapping):
        raise _line_error(number, NOT_AN_OBJECT, "line")
    return value


def _header_problems(header: Mapping[str, Any], line_no: int) -> tuple[RuleSet | None,
                                                                     list[dict[str, Any]]]:
    """The header's rules, and the errors of the header's line the replay cannot start from
    (every one found, each naming its field and the line, as the import lists them): rules that
    cannot be played (None then), the seats, the pool, who deals first."""
    errors, rules = [], None
    try:
        rules = rules_from(header.get("rules"))
    except RuleError as err:  # (a record error of the line, not a bare RuleError)
        errors += [_at_line(line_no, e, "rules") for e in err.errors]
    seats, pool = header.get("seats"), header.get("pool", 0)
    if not isinstance(seats, list) or not seats:
        return rules, errors + [_at_line(line_no, "seats: the session header lists the players",
                                         "seats")]
    if not isinstance(pool, int) or isinstance(pool, bool) or pool < 0:
        errors.append(_at_line(line_no, f"pool: {shown(pool)} is not a number of units", "pool"))
    if (problem := first_dealer_problem(header, seats)) is not None:
        errors.append(_at_line(line_no, problem, "first_dealer"))
    return rules, errors


def _redeal_problems(record: Mapping[str, Any], number: int, redeal: bool,
                     sits_out: list[str]) -> list[str]:
    """A record's own ``redeal`` / ``sits_out`` that disagree with the ledger (poker-Loo: the
    hand thrown in for an offence is dealt again, no antes, the offender sitting out)."""
    given, out = record.get("redeal"), record.get("sits_out")
    if given is (not redeal):  # (neither true nor false: the record's own error)
        return [(f"redeal: deal {number} is {'a' if redeal else 'not a'} redeal by the same "
                 "dealer")]
    expected = sits_out if redeal else []
    if isinstance(out, list) and all(isinstance(p, str) for p in out) \
            and set(out) != set(expected):
        return [(f"sits_out: deal {number} is sat out by {', '.join(expected) or 'nobody'}, "
                 f"not {', '.join(out) or 'nobody'}")]
    return []


def _rules_problems(record: Mapping[str, Any], number: int, rules: RuleSet) -> list[str]:
    """A record's own ``rules`` that are not the session's: the deal is judged by the header's,
    so rules resolving otherwise would be quietly set aside (written another way, they pass)."""
    if "rules" not in record:
        return []
    own, why = record["rules"], "differ from the session's"
    if not isinstance(own, Mapping):  # (null is no rules: from_options would read defaults)
        why = f"are not an object of options ({shown(own)})"
    else:
        try:
            if RuleSet.from_options(own) == rules:
                return []
        except RuleError as err:
            why = f"are refused ({err})"
    return [f"rules: deal {number}'s own rules {why}; leave them out inside a session"]


def replay_session(lines: Iterable[str | Mapping[str, Any]]) -> Iterator[dict]:
    """One verdict per deal (each with ``number``), the pool and dealer carried along."""
    header: Mapping[str, Any] | None = None
    number = 0
    for line_no, line in enumerate(lines, 1):
        if isinstance(line, str) and not line.strip():
            continue
        data = _load(line, line_no)
        if header is None:
            if data.get("format") != SESSION_FORMAT:
                raise _line_error(line_no, NO_HEADER, "format")
            header = data
            header_rules, errors = _header_problems(header, line_no)
            if errors or header_rules is None:  # (no rules comes with the errors saying why)
                raise RecordError(errors)
            rules = header_rules
            seats, pool = header["seats"], header.get("pool", 0)
            dealer = first_dealer(header, seats)
            first, redeal = True, False
            sits_out: list[str] = []  # who sits a redeal out (poker-Loo), carried to the redeal
            final = 0  # the line of end_pool "final-deal"'s final deal, once played: the last
            closed = 0  # the close line the session stands closed at (0: open)
            continue
        if (kind := service_line(data)) is not None:
            beside = beside_service_line(data, kind)
            if misplaced := [(kind, beside)] if beside else order_problems(kind, closed):
                raise RecordError([_at_line(line_no, f"line {line_no}: {m}", f)
                                   for f, m in misplaced])
            if kind in ("close", "reopen"):
                closed = line_no if kind == "close" else 0
            continue  # chips bought from the banker (or a purchase voided), money paid him, a
            # closing and its reopening (which gives the pool back): nothing deals are judged on
        number += 1
        record = dict(data)
        record.setdefault("seats", seats)
        problems = []
        if record["seats"] != seats:
            problems.append(f"seats: deal {number} seats {shown(record['seats'], bare=True)}, "
                            f"session has {shown(seats, bare=True)}")
        if record.get("dealer", dealer) != dealer:
            problems.append(f"dealer: deal {number} is dealt by {shown(record['dealer'], bare=True)}, "
                            f"expected {dealer}")
        if "number" in record and record["number"] != number:
            problems.append(f"number: the record says deal {shown(record['number'])}, this is deal "
                            f"{number} of the session")
        problems += _rules_problems(record, number, rules)
        problems += _redeal_problems(record, number, redeal, sits_out)
        # where the line stands first, then the record's own (as the import lists them)
        errors = [_at_line(line_no, f"line {line_no}: {m}", f, number)
                  for f, m in order_problems("deal", closed, final)]
        errors += [_at_line(line_no, p, p.split(":")[0], number) for p in problems]
        if errors:
            raise RecordError(errors)
        record["dealer"] = dealer
        if redeal:
            record.setdefault("redeal", True)
            record.setdefault("sits_out", sits_out)
        try:
            verdict = replay(record, rules, pool=pool, first_of_series=first)
        except RecordError as err:
            for e in err.errors:
                e["line"], e["deal"] = line_no, number
            raise
        verdict["number"] = number
        if is_final_deal(record, verdict):
            final = line_no
        following = verdict["next"]
        dealer, pool, first = following["dealer"], following["pool"], following["first_of_series"]
        redeal = "redeal" in verdict
        sits_out = verdict["redeal"]["sits_out"] if redeal else []
        yield verdict
    if header is None:  # (no line at all, or blank ones alone)
        raise _line_error(1, f"{NO_HEADER} (the file is empty)", "format")
