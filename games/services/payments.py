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
from loo_ledger.problems import Problem


@transaction.atomic
def payment_record(*, session: GameSession, player: str, money: int, memo: str = "",
                   user: Any = None) -> ChipPayment:
    """``player`` pays ``money`` toward chips bought on credit (negative: a refund).

    Refused (400) when the player is not seated, the amount is zero, the memo is longer than
    ``limits.MAX_MEMO_CHARS``, or it would pay more than is owed or refund more than was paid. The session may be open or closed; after closing a
    payment settles only what the buy-back left owing, and a refund is an owner's call (403).
    Refused, 409 ``session-full``, once the session holds ``limits.MAX_PAYMENTS``.
    """
    locked = session_lock(session)  # one writer at a time: two payments cannot both pass
    if ChipPayment.objects.filter(session=locked).count() >= limits.MAX_PAYMENTS:
        raise limits.session_full("payments", limits.MAX_PAYMENTS,
                                  "no more can be recorded for it.")
    if player not in locked.seats:
        raise invalid([{"field": "player", "player": player,
                        "message": f"'{player}' is not seated in this session."}])
    if not isinstance(money, int) or isinstance(money, bool) or money == 0 \
            or abs(money) > MAX_MONEY:
        raise invalid([{"field": "money", "player": player,
                        "message": "money is a whole, non-zero number of the smallest currency "
                                   "unit (negative: a refund)."}])
    if (problem := memo_problem(memo)) is not None:
        raise invalid([{"field": "memo", "message": problem}])
    if player == locked.banker:
        raise invalid([{"field": "player", "player": player,
                        "message": f"{player} is the banker: the banker's own chips are paid "
                                   "to nobody."}])
    paid = paid_later(locked)
    owed = money_owed(locked, paid=paid).get(player, 0)
    if locked.is_open and money > owed:
        raise invalid([{"field": "money", "player": player,
                        "message": f"{player} owes {owed} for chips and cannot pay {money}."}])
    if not locked.is_open and money < 0 and not Member.objects.filter(
            club_id=locked.club_id, user_id=getattr(user, "pk", None), role=Role.OWNER).exists():
        raise Problem(403, detail="After closing, only an owner may refund a payment: it "
                      "reopens a debt the closing had settled.", code="permission-denied")
    if not locked.is_open:
        closing = standing_closing(locked)
        returned = closing.returned if closing is not None else {}
        bought_back = returned.get(player, 0) * locked.chip_value
        still = left_to_pay(owed, bought_back)  # as the report's owed_to_banker says
        if money > still:
            raise invalid([{"field": "money", "player": player,
                            "message": f"{player} owes the banker {still} after the closing "
                                       f"({owed} for chips, the buy-back {bought_back}): "
                                       f"{money} cannot be paid now."}])
    if -money > paid.get(player, 0):
        raise invalid([{"field": "money", "player": player,
                        "message": f"{player} has paid {paid.get(player, 0)} later and cannot "
                                   f"be refunded {-money}."}])
    return ChipPayment.objects.create(session=locked, player=player, money=money,
                                      memo=memo, created_by=user)

