"""Money paid later for chips bought on credit, and what each player still owes for chips.

A purchase with ``paid=False`` is money owed to the banker; a ``ChipPayment`` pays some or all
of it off (a negative one refunds a payment entered by mistake). No chip moves: the chip
ledger is untouched, only the money figures of the ledger statement and the report change.
So, unlike a purchase, a payment may also be recorded once the session is closed, but only
for what the closing left the player owing the banker: the banker lines net a debt against the
buy-back, so the part the buy-back covered is settled already and paying it again would count
it twice. What the closing left owing includes chips lost on credit (``allow_credit``): a
buy-back below zero is money the player hands the banker, and paying it is recorded the same
way.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import transaction

from accounts.models import Member, Role
from games.models import ChipPayment, GameSession
from games.selectors import standing_closing
from games.services import limits
from games.services.ledger import money_owed, paid_later, session_lock
from games.services.limits import MAX_MONEY
from games.services.sessions import invalid, memo_problem
from games.settlement import left_to_pay
from loo_ledger.fields import MONEY_UNIT, is_whole, whole_number_message
from loo_ledger.problems import Problem


def payment_line(*, player: str, money: int, memo: str) -> dict[str, Any]:
    """A payment's line in the session file, which the import reads back as a payment (and
    ``limits.payment_line_bytes`` measures at its largest)."""
    return {"payment": {"player": player, "money": money, "memo": memo}}


def payment_problem(player: str, money: Any, *, seats: Sequence[str], banker: str | None,
                    owed: int, is_open: bool = True, memo: Any = "") -> dict[str, Any] | None:
    """Why ``player`` cannot pay ``money`` now (None when they can), from the figures alone:
    a seat, a whole non-zero amount (at most ``MAX_MONEY`` either way), a memo within
    ``limits.MAX_MEMO_CHARS`` (refused, not cut), not the banker, and while the session is open
    not more than ``owed`` for chips (below zero when more was paid than the chips standing
    cost, as after a purchase paid for later is voided: then no payment, and any refund up to
    what was paid). The payments endpoint and a session file's payment lines ask it."""
    if player not in seats:
        return {"field": "player", "player": player,
                "message": f"'{player}' is not seated in this session."}
    if not is_whole(money):
        return {"field": "money", "player": player,
                "message": whole_number_message("money", MONEY_UNIT)}
    if money == 0 or abs(money) > MAX_MONEY:
        return {"field": "money", "player": player,
                "message": "money is a whole, non-zero number of the smallest currency unit "
                           "(negative: a refund)."}
    if (problem := memo_problem(memo)) is not None:
        return {"field": "memo", "message": problem}
    if player == banker:
        return {"field": "player", "player": player,
                "message": f"{player} is the banker: the banker's own chips are paid to nobody."}
    due = max(owed, 0)  # (a refund is held to what was paid: refund_problem)
    if is_open and money > due:
        return {"field": "money", "player": player,
                "message": f"{player} owes {due} for chips and cannot pay {money}."}
    return None


def closed_payment_problem(player: str, money: int, *, owed: int, bought_back: int,
                           allow_credit: bool, reopened_later: bool = False,
                           ) -> dict[str, Any] | None:
    """Why ``player`` cannot pay ``money`` once the session is closed (None when they can):
    more than the closing left them owing the banker, ``owed`` for chips less the buy-back's
    money ``bought_back`` (as the report's owed_to_banker says). The payments endpoint and a
    session file's payment lines after a close line ask it.

    ``reopened_later``: the import's payment under a close line its file reopens later. That
    closing is worked out again from the deals as they stand now, and a correction made after
    the reopening may have changed what it leaves owing since the payment was made, so the
    payment is held to what any closing leaves: without credit, at most the debt for chips (a
    buy-back is never below zero); with credit, no more than that is known (chips lost on
    credit may have been corrected away)."""
    if reopened_later:
        if allow_credit or money <= owed:
            return None
        return {"field": "money", "player": player,
                "message": f"{player} owes {max(owed, 0)} for chips and cannot pay {money}: "
                           "without credit no closing leaves more owing than the chips cost."}
    still = left_to_pay(owed, bought_back)
    if money > still:
        return {"field": "money", "player": player,
                "message": f"{player} owes the banker {still} after the closing "
                           f"({_for_chips(owed)}, {_bought_back(bought_back)}): {money} cannot "
                           "be paid now."}
    return None


def _for_chips(owed: int) -> str:
    """What a player owes for chips, in words: below zero they paid more than the chips cost
    (money paid toward a purchase voided since, or toward chips lost on credit)."""
    return f"{owed} for chips" if owed >= 0 else f"{-owed} paid beyond what the chips cost"


def _bought_back(money: int) -> str:
    """The buy-back's money, in words: below zero, with credit, it is chips lost on credit."""
    return f"the buy-back {money}" if money >= 0 else f"{-money} for chips lost on credit"


#: why a refund once the session is closed is refused to anyone but an owner
OWNER_REFUNDS = ("After closing, only an owner may refund a payment: it reopens a debt the "
                 "closing had settled.")


def may_refund_after_close(club_id: int, user: Any) -> bool:
    """Whether ``user`` may refund a payment in a closed session of club ``club_id``: an owner
    of that club. The payments service asks it, and the import of a file with a refund after a
    close line, before anything is stored."""
    pk = getattr(user, "pk", None)  # none (the shell): no owner, not an owner without a login
    return pk is not None and Member.objects.filter(club_id=club_id, user_id=pk,
                                                    role=Role.OWNER).exists()


def refund_problem(player: str, money: int, paid: int) -> dict[str, Any] | None:
    """Why a refund of ``-money`` is more than ``player`` has ``paid`` later (None if not)."""
    if -money > paid:
        return {"field": "money", "player": player,
                "message": f"{player} has paid {paid} later and cannot be refunded {-money}."}
    return None


@transaction.atomic
def payment_record(*, session: GameSession, player: str, money: int, memo: str = "",
                   user: Any = None, reopened_later: bool = False) -> ChipPayment:
    """``player`` pays ``money`` toward chips bought on credit (negative: a refund).

    Refused (400) when the player is not seated, the amount is zero, the memo is longer than
    ``limits.MAX_MEMO_CHARS`` (:func:`payment_problem`), or it would pay more than is owed or
    refund more than was paid. The session may be open or closed; after closing a payment
    settles only what the buy-back left owing, and a refund is an owner's call (403).
    Refused, 409 ``session-full``, once the session holds ``limits.MAX_PAYMENTS``.
    ``reopened_later`` is the import's, for a payment under a close line its file reopens
    later (:func:`closed_payment_problem`).
    """
    locked = session_lock(session)  # one writer at a time: two payments cannot both pass
    if ChipPayment.objects.filter(session=locked).count() >= limits.MAX_PAYMENTS:
        raise limits.session_full("payments", limits.MAX_PAYMENTS,
                                  "no more can be recorded for it.")
    paid = paid_later(locked)
    owed = money_owed(locked, paid=paid).get(player, 0)
    problem = payment_problem(player, money, seats=locked.seats, banker=locked.banker,
                              owed=owed, is_open=locked.is_open, memo=memo)
    if problem:
        raise invalid([problem])
    if not locked.is_open and money < 0 and not may_refund_after_close(locked.club_id, user):
        raise Problem(403, detail=OWNER_REFUNDS, code="permission-denied")
    if not locked.is_open:
        closing = standing_closing(locked)
        returned = closing.returned if closing is not None else {}
        problem = closed_payment_problem(player, money, owed=owed,
                                         bought_back=returned.get(player, 0) * locked.chip_value,
                                         allow_credit=locked.allow_credit,
                                         reopened_later=reopened_later)
        if problem:
            raise invalid([problem])
    problem = refund_problem(player, money, paid.get(player, 0))
    if problem:
        raise invalid([problem])
    return ChipPayment.objects.create(session=locked, player=player, money=money,
                                      memo=memo, created_by=user)

