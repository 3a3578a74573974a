"""How much one session holds, in one place: how many deals, purchases and payments, and how
large each may be.

The caps keep one session (its import, ledger and report) from being made large enough to tie up
a worker, and they agree with the session file: the export (``games.imports.export``) writes
one line a deal, one a purchase, one a purchase's void and one a payment after the header, and one a close and one a
reopen of the session's closings (at most ``MAX_REOPENS`` reopenings, so one close more), and
the import reads at most :func:`session_file_lines` of them and at most :func:`max_file_bytes`
bytes, a cap computed from the bounds here: the largest file those lines can make
(:func:`session_file_bytes`) and a quarter more. So every session the service can store exports
into a file the import takes back. Corrections are no line of the file: it carries each deal's
current record.

Sizes are bytes of a line as the export writes it (:func:`session_line`: compact JSON, UTF-8,
no ASCII escapes), so a record is measured alike whether it came in over the API or in a file,
and whatever escapes its sender used. Free text (a session's name, a memo) is bounded in
characters, as the database columns count them; a character takes at most six bytes in a line
(a control character, which JSON writes as ``\\u0001``).

The services and the import read these names from this module when they check (``limits.X``),
so a test may lower them with ``monkeypatch.setattr(limits, "MAX_DEALS", 3)`` and every check
follows.
"""
from __future__ import annotations

import json
from typing import Any

from loo_ledger.parsers import text_unstorable
from loo_ledger.problems import Problem

#: the most deals one session holds: an evening is a hundred or so
MAX_DEALS = 1_000
#: the most chip purchases (buy-ins and rebuys) one session holds: two a deal, more than any
#: table buys
MAX_PURCHASES = 2 * MAX_DEALS
#: the most payments (and refunds) of chips bought on credit one session holds
MAX_PAYMENTS = MAX_PURCHASES
#: the most times one session is reopened (an owner's call, to correct a deal found wrong after
#: the close): the session file carries every close and reopen, each line up to 6 KB
MAX_REOPENS = 20

#: the most chips one purchase (or one chip value) can be: every integer inside its column
MAX_CHIPS = 1_000_000_000
#: the most money one purchase or payment can be, in the smallest currency unit
MAX_MONEY = 10**15
#: the largest pool a deal revision can hold (its pool columns are 32-bit integers)
MAX_POOL = 2_147_483_647

#: the longest session name, in characters
MAX_NAME_CHARS = 120
#: the longest memo of a chip purchase or payment, in characters
MAX_MEMO_CHARS = 200
#: the longest reason given for closing or reopening a session, in characters (a session
#: file's close and reopen lines carry it)
MAX_REASON_CHARS = 1_000
#: a purchase's void says why in a note as long as a memo: a session may void each of its
#: purchases, and its file carries every reason, so a longer one would raise the import's cap
MAX_VOID_REASON_CHARS = MAX_MEMO_CHARS
#: the largest deal record, in bytes of its session-file line (:func:`record_bytes`). The largest
#: legal deal, 16 seats of Irish Loo with 32-character names and every hand shown, is under
#: 8 KiB; a five-card deal at six seats with every action and hand under 2.5 KiB, an ordinary
#: deal about 1 KiB. So only what the engine does not read (notes, memos, client fields) grown
#: past any table's need is refused.
MAX_RECORD_BYTES = 16 * 1024
#: the largest session header (the file's first line), in bytes: a 120-character name, 16 seats
#: of 32-character names and rules spelling out every option come to under 3 KiB
MAX_HEADER_BYTES = 8 * 1024

MIB = 1024 * 1024


def session_line(value: Any) -> str:
    """One line of a session file, without its newline: compact JSON, UTF-8 as written (no
    ASCII escapes). The export writes every line with it and the bounds are measured in it."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def line_bytes(value: Any) -> int:
    """Bytes ``value`` takes as one line of a session file (without its newline)."""
    return len(session_line(value).encode())


def record_bytes(record: dict[str, Any]) -> int:
    """Bytes a stored deal record takes as its session-file line, at most: measured with its
    pool at the widest the ledger holds, so that a correction of an earlier deal, which
    re-settles it with another pool, never makes its line larger than it was measured (nor an
    import of that line refuse it)."""
    return line_bytes({**record, "pool": MAX_POOL})


def text_problem(value: Any, most: int, what: str) -> str | None:
    """Why ``value`` cannot be stored as the free text ``what`` of at most ``most`` characters
    (None when it can): text, short enough, with no character no database can store (a form
    post's ``%00``: PostgreSQL refuses it, and a session file carrying it does not import)."""
    if not isinstance(value, str):
        return f"{what} must be text"
    if len(value) > most:
        return f"{what} is {len(value):,} characters long; it may be at most {most:,}"
    if (problem := text_unstorable(value)) is not None:  # (a form post's, past the JSON parser)
        return f"{what} is refused: {problem}"
    return None


def required_reason_problem(reason: Any, whose: str, why: str, most: int = MAX_REASON_CHARS,
                            ) -> str | None:
    """Why ``reason`` cannot be the reason an act must give (None when it can): some text (blank
    is no reason), in at most ``most`` characters once stripped, as it is stored.
    ``whose`` names the act ("The reopening's"), ``why`` what the reason says ("the session is
    reopened"). A reopening and a purchase's void ask it, and so do their session-file lines."""
    if isinstance(reason, str) and not reason.strip():
        return f"A reason is required: say why {why}."
    problem = text_problem(reason.strip() if isinstance(reason, str) else reason, most, "reason")
    return f"{whose} {problem}." if problem else None


def record_too_large(number: int, size: int) -> Problem:
    """400: deal ``number``'s record takes ``size`` bytes, more than ``MAX_RECORD_BYTES``."""
    message = (f"Deal {number}'s record is {size:,} bytes as a session file writes it (its pool "
               f"at the widest); a deal record may be at most {MAX_RECORD_BYTES:,} bytes. Leave "
               "out what the engine does not read (notes, client fields).")
    return Problem(400, "Record too large", detail=message, code="validation-error",
                   record_bytes=size, max_record_bytes=MAX_RECORD_BYTES,
                   errors=[{"field": "record", "message": message}])


def session_file_lines() -> int:
    """The most lines a session file holds after its header: a full session's deals,
    purchases, voids (one a purchase at most) and payments, one line each, and its closings: a
    close line, and a reopen and a close line for each reopening."""
    return MAX_DEALS + 2 * MAX_PURCHASES + MAX_PAYMENTS + 2 * MAX_REOPENS + 1


def purchase_line_bytes() -> int:
    """The most bytes a purchase's line takes: the longest player and memo, every character one
    JSON writes as six bytes, the most chips at the dearest price, owed."""
    from games.models import ChipPurchase
    from games.services.sessions import purchase_line

    player = ChipPurchase._meta.get_field("player").max_length or 0
    return line_bytes(purchase_line(player="\x01" * player, chips=MAX_CHIPS, money=MAX_MONEY,
                                    paid=False, memo="\x01" * MAX_MEMO_CHARS))


def void_line_bytes() -> int:
    """The most bytes a void's line takes: the last purchase's place and the longest reason,
    every character one JSON writes as six bytes."""
    from games.services.sessions import void_line

    return line_bytes(void_line(purchase=MAX_PURCHASES, reason="\x01" * MAX_VOID_REASON_CHARS))


def payment_line_bytes() -> int:
    """The most bytes a payment's line takes: the longest player and memo, every character one
    JSON writes as six bytes, the largest refund (its minus sign one byte more than a payment)."""
    from games.models import ChipPayment
    from games.services.payments import payment_line

    player = ChipPayment._meta.get_field("player").max_length or 0
    return line_bytes(payment_line(player="\x01" * player, money=-MAX_MONEY,
                                   memo="\x01" * MAX_MEMO_CHARS))


def close_line_bytes() -> int:
    """The most bytes a close line takes: the longest reason, every character one JSON writes
    as six bytes."""
    from games.services.closing import close_line

    return line_bytes(close_line(reason="\x01" * MAX_REASON_CHARS))


def reopen_line_bytes() -> int:
    """The most bytes a reopen line takes: the longest reason, every character one JSON writes
    as six bytes."""
    from games.services.closing import reopen_line

    return line_bytes(reopen_line(reason="\x01" * MAX_REASON_CHARS))


def session_file_bytes() -> int:
    """The largest session file the export writes of a session within these bounds: the header
    and every deal, purchase (each voided) and payment at its largest, and the most close and
    reopen lines, a newline after each line."""
    return (MAX_HEADER_BYTES + 1 + MAX_DEALS * (MAX_RECORD_BYTES + 1)
            + MAX_PURCHASES * (purchase_line_bytes() + 1)
            + MAX_PURCHASES * (void_line_bytes() + 1)
            + MAX_PAYMENTS * (payment_line_bytes() + 1)
            + (MAX_REOPENS + 1) * (close_line_bytes() + 1)
            + MAX_REOPENS * (reopen_line_bytes() + 1))


def max_file_bytes() -> int:
    """The import's byte cap (raw or uploaded; a larger file is a 413): the largest file the
    export writes and a quarter more, rounded up to a whole MiB. The quarter is room for a file
    another tool wrote (spaces after separators, ASCII escapes)."""
    most = session_file_bytes() * 5 // 4
    return -(-most // MIB) * MIB


def session_full(what: str, most: int, advice: str) -> Problem:
    """409 ``session-full``: the session holds ``most`` ``what`` (deals, purchases, payments,
    reopenings) already; the body names the cap as ``max_<what>``."""
    return Problem(409, "Session full", code="session-full", **{f"max_{what}": most},
                   detail=f"A session holds at most {most:,} {what}: {advice}")
