"""Creating sessions and recording chip purchases, and the session file's lines for each."""
from __future__ import annotations

import datetime as dt
import re
from collections.abc import Mapping, Sequence
from typing import Any

from django.db import transaction

from accounts.models import RESERVED_HANDLES, Club, Member
from games.models import BANK, ChipPurchase, GameSession, LedgerEntry, PurchaseVoid
from games.rules.errors import shown
from games.rules.session import SESSION_FORMAT
from games.services import limits
from games.services.engine import rules_check_seats, rules_resolve
from games.services.ledger import ledger_balances, ledger_post, next_posting, session_lock
from games.services.limits import MAX_CHIPS, MAX_MONEY
from loo_ledger.fields import CHIPS_UNIT, MONEY_UNIT, is_whole, whole_number_message
from loo_ledger.problems import Problem

CLUB_BANKER = "club"
#: names no seat may have: the ledger's own accounts (a seat "pool" would buy chips into the
#: pool, a seat "bank" would buy them from itself and lose them) and the club as banker (the
#: report would take a seat "club" for the banker and settle nothing with it). No member may
#: take one now; a member who has one from before cannot be seated.
RESERVED_SEATS = RESERVED_HANDLES


def reserved_seat_problem(seat: str) -> str | None:
    """Why ``seat`` cannot sit at a table although a member may have that handle (None when it
    can). ``session_create`` and a session file's header ask it."""
    if seat in RESERVED_SEATS:
        return (f"'{seat}' cannot be seated: the name stands for {RESERVED_SEATS[seat]}. "
                "Seat the player under another handle.")
    return None


def session_header(session: GameSession) -> dict[str, Any]:
    """The session's line in its session file, the first (``games.imports.export``). Buy-ins
    are left to the purchase lines, which keep each one's price, memo and whether it was paid,
    as the header's ``buy_ins`` could not. (``str`` of the date: its ISO form, and a session
    not yet saved may hold the string a caller gave.)"""
    return {
        "format": SESSION_FORMAT, "name": session.name, "date": str(session.date),
        "seats": list(session.seats), "first_dealer": session.first_dealer,
        "rules": file_rules(session), "pool": 0, "banker": session.banker or CLUB_BANKER,
        "chip_value": session.chip_value, "currency": session.currency,
        "allow_credit": session.allow_credit, "buy_ins": {},
    }


def file_rules(session: GameSession) -> dict[str, Any]:
    """The rules a session file's header carries: as the session was opened with them while
    they still resolve to the rules it plays (``resolved_rules``), else those, every option
    spelt out. The session keeps the rules it resolved when opened; an engine that reads an
    option otherwise since (Engine 1.2.0: an ante object's part left out) would give the
    import other rules, and every deal of the copy other figures."""
    try:
        if rules_resolve(session.rules) == session.resolved_rules:
            return session.rules
    except Problem:  # rules refused now: those it plays are all the file can hold
        pass
    return session.resolved_rules


def purchase_line(*, player: str, chips: int, money: int, paid: bool, memo: str) -> dict[str, Any]:
    """A chip purchase's line in the session file, which the import reads back as a purchase."""
    return {"purchase": {"player": player, "chips": chips, "money": money, "paid": paid,
                         "memo": memo}}


def void_line(*, purchase: int, reason: str) -> dict[str, Any]:
    """A purchase's void in the session file: ``purchase`` is the voided purchase's place
    (from 1) among the session's purchases in posting order, the header's buy-ins first (in
    seat order) and then the purchase lines; the import voids that purchase there."""
    return {"void": {"purchase": purchase, "reason": reason}}


def price_problem(chips: int, money: Any, chip_value: int) -> str | None:
    """Why ``money`` cannot be the price of ``chips`` (None when it can).

    The banker sells every chip at the session's chip value, as he buys every chip back at
    it: a result in money is (chips returned - chips bought) x chip value, and the results sum
    to zero only if every chip was sold at that value too. A price off it is a keying slip
    (and would leave the banker lines unable to balance), so it is refused, not stored.
    """
    price = chips * chip_value
    if money is not None and money != price:
        return (f"money must be the chips' value at the session's chip value: {chips} x "
                f"{chip_value} = {price}, not {shown(money)} (leave money out to use it).")
    if price > MAX_MONEY:
        return f"{chips} chips at {chip_value} cost more than {MAX_MONEY}, the most one purchase can be."
    return None


def memo_problem(memo: Any) -> str | None:
    """Why ``memo`` cannot be a purchase's or a payment's memo (None when it can)."""
    problem = limits.text_problem(memo, limits.MAX_MEMO_CHARS, "memo")
    return None if problem is None else f"The {problem}."


def invalid(errors: list[dict[str, Any]]) -> Problem:
    detail = errors[0]["message"] if len(errors) == 1 else f"{len(errors)} errors."
    return Problem(400, detail=detail, errors=errors, code="validation-error")


def require_open(session: GameSession) -> None:
    """Refuse any write to a closed session (409: it is frozen until an owner reopens it)."""
    if not session.is_open:
        raise Problem(
            409, "Session closed",
            detail=f"Session {session.pk} is closed; an owner must reopen it before anything is recorded.",
            code="session-closed",
        )


@transaction.atomic
def session_create(
    *,
    club: Club,
    date: dt.date,
    seats: Sequence[str],
    first_dealer: str,
    rules: Mapping[str, Any],
    banker: str | None = None,
    chip_value: int = 1,
    currency: str = "GBP",
    allow_credit: bool = False,
    name: str = "",
    buy_ins: Mapping[str, int] | None = None,
    user: Any = None,
) -> GameSession:
    """Open a session after the engine has validated its rules for these seats.

    ``buy_ins`` (seat -> chips) records each player's opening purchase, paid on the spot.
    """
    errors: list[dict[str, Any]] = []
    seats = list(seats)
    members = set(Member.objects.filter(club=club).values_list("name", flat=True))
    if len(seats) < 2:
        errors.append({"field": "seats", "message": "A table needs at least two players."})
    if len(set(seats)) != len(seats):
        errors.append({"field": "seats", "message": "A player may sit only once."})
    for i, seat in enumerate(seats):
        if seat not in members:
            errors.append({"field": f"seats[{i}]", "message": f"'{shown(seat, bare=True)}' is not a member of this club."})
        elif (problem := reserved_seat_problem(seat)) is not None:
            errors.append({"field": f"seats[{i}]", "message": problem})
    if first_dealer not in seats:
        errors.append({"field": "first_dealer", "message": f"'{shown(first_dealer, bare=True)}' is not seated."})
    if banker == CLUB_BANKER:
        banker = None
    if banker is not None and (not isinstance(banker, str) or banker not in members):
        errors.append({"field": "banker", "message": f"'{shown(banker, bare=True)}' is not a member of this club (null: the club banks)."})
    if not is_whole(chip_value) or not 1 <= chip_value <= MAX_CHIPS:
        errors.append({"field": "chip_value", "message": f"chip_value is a whole number of currency units, from 1 to {MAX_CHIPS}."})
    if (problem := limits.text_problem(name, limits.MAX_NAME_CHARS, "name")) is not None:
        errors.append({"field": "name", "message": f"The session's {problem}."})
    if not isinstance(currency, str) or not re.fullmatch(r"[A-Z]{3}", currency):
        errors.append({"field": "currency", "message": "Use a three-letter ISO 4217 code such as GBP."})
    for seat, chips in (buy_ins or {}).items():
        if seat not in seats:
            errors.append({"field": f"buy_ins.{seat}", "message": f"'{shown(seat, bare=True)}' is not seated."})
        elif not is_whole(chips) or not 1 <= chips <= MAX_CHIPS:
            errors.append({"field": f"buy_ins.{seat}", "message": "A buy-in is a positive number of chips."})
        elif is_whole(chip_value) and (problem := price_problem(chips, None, chip_value)):
            errors.append({"field": f"buy_ins.{seat}", "message": problem})
    if errors:
        raise invalid(errors)
    resolved = rules_resolve(rules)
    rules_check_seats(resolved, seats)
    session = GameSession(
        club=club, date=date, name=name, seats=seats, first_dealer=first_dealer, rules=dict(rules),
        resolved_rules=resolved, banker=banker, chip_value=chip_value, currency=currency,
        allow_credit=allow_credit, created_by=user,
    )
    header = limits.line_bytes(session_header(session))
    if header > limits.MAX_HEADER_BYTES:  # (the name and the rules' own bounds keep it far below)
        raise invalid([{"field": "header", "message": (
            f"The session's line in its session file (name, seats, rules) would be {header:,} "
            f"bytes; it may be at most {limits.MAX_HEADER_BYTES:,}.")}])
    session.save(force_insert=True)
    for seat in seats:
        if (buy_ins or {}).get(seat):
            purchase_record(session=session, player=seat, chips=buy_ins[seat], user=user, memo="buy-in")
    return session


def purchase_problems(player: Any, chips: Any, money: Any, memo: Any, *, seats: Sequence[str],
                      chip_value: int, paid: Any = True, banker: str | None = None,
                      ) -> list[dict[str, Any]]:
    """Why ``player`` cannot buy ``chips`` for ``money`` (none: they can), from the figures
    alone: a seat, a whole number of chips from 1 to ``MAX_CHIPS``, money left out or the
    chips' price (``price_problem``), ``paid`` true or false (a truth test would read the text
    "false" as paid: money owed lost), not owed by the ``banker`` (a seated banker's own chips
    are owed to nobody, and no payment could settle that debt), a memo within
    ``limits.MAX_MEMO_CHARS``. The purchases
    endpoint (through :func:`purchase_record`) and a session file's purchase lines ask it, so
    both say the same of the same line."""
    errors: list[dict[str, Any]] = []
    if not isinstance(player, str):
        errors.append({"field": "player", "message": "A purchase names the seated player who buys the chips."})
    elif player not in seats:
        errors.append({"field": "player", "player": player, "message": f"'{shown(player, bare=True)}' is not seated in this session."})
    if not is_whole(chips):
        errors.append({"field": "chips", "message": whole_number_message("chips", CHIPS_UNIT)})
    elif not 1 <= chips <= MAX_CHIPS:
        errors.append({"field": "chips", "message": f"chips must be a whole number from 1 to {MAX_CHIPS}."})
    if money is not None and not is_whole(money):
        errors.append({"field": "money", "message": whole_number_message("money", MONEY_UNIT)})
    elif money is not None and not 0 <= money <= MAX_MONEY:
        errors.append({"field": "money", "message": f"money is a whole number {MONEY_UNIT} from 0 to {MAX_MONEY}."})
    elif not errors:
        problem = price_problem(chips, money, chip_value)
        if problem:
            errors.append({"field": "money", "player": player, "message": problem})
    if type(paid) is not bool:
        errors.append({"field": "paid", "message": "paid is true (paid on the spot) or false (owed to the banker)."})
    elif not paid and player == banker:
        errors.append({"field": "paid", "player": player, "message": (
            f"{player} is the banker: the banker's own chips are owed to nobody, so his purchase "
            "is paid (paid: true).")})
    if (problem := memo_problem(memo)) is not None:
        errors.append({"field": "memo", "message": problem})
    return errors


@transaction.atomic
def purchase_record(
    *,
    session: GameSession,
    player: str,
    chips: int,
    money: int | None = None,
    paid: bool = True,
    memo: str = "",
    user: Any = None,
) -> ChipPurchase:
    """A player buys ``chips`` from the banker at the chip value; ``money``, when given, must
    be that price (a check on what the scorer keyed in). Refused, 409 ``session-full``, once the
    session holds ``limits.MAX_PURCHASES`` (buy-ins included)."""
    locked = session_lock(session)
    require_open(locked)
    if ChipPurchase.objects.filter(session=locked).count() >= limits.MAX_PURCHASES:
        raise limits.session_full("purchases", limits.MAX_PURCHASES,
                                  "close this one and open another for the play that follows.")
    errors = purchase_problems(player, chips, money, memo, seats=locked.seats,
                               chip_value=locked.chip_value, paid=paid, banker=locked.banker)
    if errors:
        raise invalid(errors)
    money = chips * locked.chip_value
    purchase = ChipPurchase.objects.create(
        session=locked, player=player, chips=chips, money=money, paid=paid, memo=memo,
        posting=next_posting(locked), created_by=user,
    )
    ledger_post(
        session=locked, kind=LedgerEntry.Kind.PURCHASE, lines=[(BANK, -chips), (player, chips)],
        purchase=purchase, posting=purchase.posting,
        memo=f"{player} buys {chips} for {money}{'' if paid else ' (owed)'}",
    )
    return purchase


def void_reason_problem(reason: Any) -> str | None:
    """Why ``reason`` cannot be a void's (None when it can): a void says why
    (``limits.required_reason_problem``). ``purchase_void`` and a session file's void line
    ask it."""
    return limits.required_reason_problem(reason, "The void's", "the purchase is voided",
                                          limits.MAX_VOID_REASON_CHARS)


def void_chips_problem(player: str, held: int, chips: int) -> dict[str, Any] | None:
    """Why a void cannot take ``chips`` back from ``player``, who holds ``held``, in a session
    without credit (None when it can): it would take them below zero, as a deal may not.
    ``purchase_void`` and a session file's void line ask it."""
    if held >= chips:
        return None
    return {"field": "purchase", "player": player, "holds": held, "takes": chips,
            "code": "insufficient-chips", "message": f"{player} holds {held} chips and the void takes back {chips}: without "
                       "credit a void may not take a player below zero."}


def voided_already(purchase: ChipPurchase, void: PurchaseVoid) -> Problem:
    """409 ``purchase-voided``: a purchase is voided once."""
    return Problem(409, "Purchase voided already", code="purchase-voided", purchase=purchase.pk,
                   detail=f"Purchase {purchase.pk} ({purchase.player}, {purchase.chips} chips) "
                          f"was voided already (posting {void.posting}: {void.reason}).")


@transaction.atomic
def purchase_void(*, session: GameSession, purchase_id: int, reason: str,
                  user: Any = None) -> PurchaseVoid:
    """Void purchase ``purchase_id`` of an open session, keyed in by mistake, posted now: the
    player hands its chips back to the bank in a new posting (kind ``void``), and the purchase
    no longer counts as chips bought or money spent (nor owed). The deals between the purchase
    and its void stand as they were settled.

    Refused: a blank reason or one past ``limits.MAX_VOID_REASON_CHARS`` (400), a closed session
    (409 ``session-closed``), no such purchase in this session (404), a purchase voided already
    (409 ``purchase-voided``), and without credit a player holding fewer chips than the
    purchase gave (409 ``insufficient-chips``)."""
    if (problem := void_reason_problem(reason)) is not None:
        raise invalid([{"field": "reason", "message": problem}])
    locked = session_lock(session)
    require_open(locked)
    purchase = (ChipPurchase.objects.filter(session=locked, pk=purchase_id)
                .select_related("void").first())
    if purchase is None:
        raise Problem(404, detail=f"No purchase {purchase_id} in session {locked.pk}.",
                      code="not-found")
    if hasattr(purchase, "void"):
        raise voided_already(purchase, purchase.void)
    if not locked.allow_credit:
        held = ledger_balances(locked).get(purchase.player, 0)
        if (problem := void_chips_problem(purchase.player, held, purchase.chips)) is not None:
            raise Problem(409, "Not enough chips", detail=problem["message"], errors=[problem],
                          code="insufficient-chips", purchase=purchase.pk)
    void = PurchaseVoid.objects.create(
        purchase=purchase, posting=next_posting(locked), reason=reason.strip(),
        created_by=user if getattr(user, "is_authenticated", False) else None)
    ledger_post(
        session=locked, kind=LedgerEntry.Kind.VOID,
        lines=[(purchase.player, -purchase.chips), (BANK, purchase.chips)],
        purchase=purchase, posting=void.posting,
        memo=f"voids purchase {purchase.pk}: {purchase.player} hands back {purchase.chips}")
    return void
