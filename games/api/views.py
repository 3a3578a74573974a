"""Thin REST views: parse, call a service or selector, serialize. Errors are problem+json."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from django.db import transaction
from django.db.models import QuerySet
from django.urls import reverse
from drf_spectacular.utils import extend_schema, extend_schema_view
from rest_framework import generics, serializers, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.tenancy import (
    CanRead,
    ClubScopedAPIView,
    ClubScopedGenericAPIView,
    lock_club_and_recheck,
)
from games.models import ChipPayment, ChipPurchase, Deal, GameSession
from games.selectors import deal_get, deal_list, session_get, session_list_with_next
from games.services.deals import Correction, deal_correct, deal_record
from games.services.engine import engine_replay, record_problem
from games.services.idempotency import IDEMPOTENCY_PARAM, idempotent
from games.services.ledger import ledger_statement, session_lock
from games.services.payments import payment_record
from games.services.sessions import purchase_record, purchase_void, session_create
from loo_ledger.bodies import BodySerializer
from loo_ledger.locations import location
from loo_ledger.problems import Problem
from loo_ledger.query import KnownQuery

from . import serializers as s
from .filters import DealFilter, SessionFilter
from .schema import VerdictSchema, problems

WRITE_ERRORS = problems(400, 401, 403, 404, 409, 422)


class ClubListMixin:
    """``get_queryset`` from the view's selector, empty when there is no club (schema generation)."""

    queryset: QuerySet

    def get_queryset(self) -> QuerySet:
        if self.club is None:  # type: ignore[attr-defined]
            return self.queryset
        return self.select()

    def select(self) -> QuerySet:
        raise NotImplementedError


class SessionScopedMixin:
    """Resolves ``self.session`` (of this club, else 404) from the ``session_id`` URL kwarg."""

    def get_session(self) -> GameSession:
        found = session_get(club=self.club, session_id=self.kwargs["session_id"])  # type: ignore[attr-defined]
        if found is None:
            raise Problem(404, detail="No such session in this club.", code="not-found")
        return found

    def session_for_write(self) -> GameSession:
        """The session (404 if not this club's), locked for the rest of the transaction, once the
        caller's role is checked again under the lock: the write that held it may have been the
        caller's demotion or removal. Every view that writes to a session starts here, inside the
        transaction of its write."""
        session = self.get_session()
        locked = session_lock(session)
        self.recheck_permissions(self.request)  # type: ignore[attr-defined]
        return locked

    def session_and_input(self, serializer: type[serializers.Serializer], request: Request
                          ) -> tuple[GameSession, dict[str, Any]]:
        """The session, locked for the write (404 first: an outsider learns nothing from a body
        error; then the role again), then the body."""
        session = self.session_for_write()
        data = serializer(data=request.data)
        data.is_valid(raise_exception=True)
        return session, dict(data.validated_data)


@extend_schema(tags=["sessions"])
class SessionListCreateView(BodySerializer, ClubListMixin, ClubScopedGenericAPIView,
                            generics.ListAPIView):
    """A club's sessions (filter by date range and status) and opening a new one."""

    name = "Sessions"  # the browsable API's title and breadcrumb

    serializer_class = s.SessionSerializer
    create_serializer_class = s.SessionCreateSerializer
    filterset_class = SessionFilter
    queryset = GameSession.objects.none()

    def select(self) -> QuerySet[GameSession]:
        return session_list_with_next(club=self.club)  # each open session's next deal with it

    @extend_schema(request=s.SessionCreateSerializer, responses={201: s.SessionSerializer, **WRITE_ERRORS},
                   parameters=[IDEMPOTENCY_PARAM])
    @idempotent
    @transaction.atomic  # the role checked again under the club's lock, and the new session
    def post(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        lock_club_and_recheck(self, request)
        data = self.get_serializer(data=request.data)
        data.is_valid(raise_exception=True)
        session = session_create(club=self.club, user=request.user, **data.validated_data)
        session = session_get(club=self.club, session_id=session.pk)
        return Response(s.SessionSerializer(session, context={"request": request}).data,
                        status=status.HTTP_201_CREATED,
                        headers=location(request, reverse("session-detail", args=[self.club.slug, session.pk])))


@extend_schema(tags=["sessions"], responses={200: s.SessionSerializer, **problems(401, 404)})
class SessionDetailView(SessionScopedMixin, ClubScopedAPIView):
    """One session with the next deal the server expects."""

    name = "Session"  # the browsable API's title and breadcrumb

    permission_classes = [CanRead]

    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return Response(s.SessionSerializer(self.get_session(), context={"request": request}).data)


@extend_schema(tags=["deals"])
class DealListCreateView(BodySerializer, ClubListMixin, SessionScopedMixin, ClubScopedGenericAPIView,
                         generics.ListAPIView):
    """A session's deals (filter by status and violation rule) and recording the next deal."""

    name = "Deals"  # the browsable API's title and breadcrumb

    serializer_class = s.DealSerializer
    create_serializer_class = s.DealCreateSerializer
    filterset_class = DealFilter
    queryset = Deal.objects.none()
    session: GameSession | None = None  # the session listed, once ``select`` found it

    def select(self) -> QuerySet[Deal]:
        self.session = self.get_session()  # its seats are what the dealer filter takes
        return deal_list(session=self.session)

    @extend_schema(request=s.DealCreateSerializer, responses={201: s.DealSerializer, **WRITE_ERRORS},
                   parameters=[IDEMPOTENCY_PARAM],
                   description="Replays the record with the session's rules, pool and dealer and stores "
                   "record, verdict and ledger entries in one transaction. 409 when `number` is not the "
                   "next deal (the answer names the current number); 400 for a record error, a wrong "
                   "dealer or pool, or a player who would go below zero chips.")
    @idempotent
    @transaction.atomic  # the session locked and the role checked again, then the write
    def post(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        session, data = self.session_and_input(self.get_serializer_class(), request)
        deal = deal_record(session=session, user=request.user, **data)
        return Response(s.DealSerializer(deal_get(session=session, number=deal.number)).data,
                        status=status.HTTP_201_CREATED, headers=deal_location(request, session, deal.number))


@extend_schema(tags=["deals"], responses={200: s.DealDetailSerializer, **problems(401, 404)})
class DealDetailView(SessionScopedMixin, ClubScopedAPIView):
    """One deal as it stands, with every revision (who changed it, when and why)."""

    name = "Deal"  # the browsable API's title and breadcrumb

    permission_classes = [CanRead]

    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        session = self.get_session()
        deal = deal_get(session=session, number=self.kwargs["number"])
        if deal is None:  # in the words of a correction of it (games.services.deals)
            raise Problem(404, "No such deal", code="not-found",
                          detail=f"Deal {self.kwargs['number']} is not recorded in session {session.pk}.")
        return Response(s.DealDetailSerializer(deal).data)


def deal_location(request: Request, session: GameSession, number: int) -> dict[str, str]:
    """``Location`` of a deal written (recorded, or corrected: its new revision is listed
    there)."""
    return location(request, reverse("deal-detail", args=[session.club.slug, session.pk, number]))


def correction_data(correction: Correction, reason: str) -> dict[str, Any]:
    return {
        "deal": correction.deal.number, "revision": correction.revision.revision, "reason": reason,
        "changes": [vars(c) for c in correction.changes],
    }


@extend_schema(tags=["deals"])
class DealCorrectionView(SessionScopedMixin, ClubScopedAPIView):
    """Correct a deal: a new revision, and the later deals re-settled as far as the change reaches."""

    name = "Correct a deal"  # the browsable API's title and breadcrumb

    @extend_schema(request=s.CorrectionCreateSerializer, responses={201: s.CorrectionSerializer, **WRITE_ERRORS},
                   parameters=[IDEMPOTENCY_PARAM],
                   description="The old revision stays readable. Answers with each changed deal's "
                   "deltas before and after. 409 `correction-refused` (nothing changed) when a later "
                   "deal would become impossible; `errors` name the deal and why.")
    @idempotent
    @transaction.atomic  # the session locked and the role checked again, then the write
    def post(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        session, data = self.session_and_input(s.CorrectionCreateSerializer, request)
        correction = deal_correct(session=session, number=self.kwargs["number"], user=request.user, **data)
        return Response(correction_data(correction, data["reason"]),
                        status=status.HTTP_201_CREATED,
                        headers=deal_location(request, session, correction.deal.number))


@extend_schema(tags=["ledger"], responses={200: s.LedgerSerializer, **problems(401, 404)})
class LedgerView(SessionScopedMixin, ClubScopedAPIView):
    """Each player's balance and the pool after every deal and purchase, with totals."""

    name = "Ledger"  # the browsable API's title and breadcrumb

    permission_classes = [CanRead]

    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return Response(ledger_statement(self.get_session()))


class SessionMoneyView(ClubListMixin, SessionScopedMixin, ClubScopedGenericAPIView, generics.ListAPIView):
    """A session's purchases or payments, oldest first; POST records one through ``record``."""

    model: type[ChipPurchase | ChipPayment]
    #: the service that records one: (session=, user=, **validated fields) -> the new row
    record: ClassVar[Callable[..., ChipPurchase | ChipPayment]]
    #: what each row's answer reads besides the row
    related: ClassVar[tuple[str, ...]] = ("created_by",)

    def select(self) -> QuerySet:
        return self.model.objects.filter(session=self.get_session()).select_related(*self.related)

    @idempotent
    @transaction.atomic  # the session locked and the role checked again, then the write
    def post(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        session, data = self.session_and_input(self.serializer_class, request)
        row = type(self).record(session=session, user=request.user, **data)
        return Response(self.serializer_class(row).data, status=status.HTTP_201_CREATED)


def _money_schema(serializer: type[serializers.Serializer]) -> Any:
    return extend_schema_view(post=extend_schema(
        request=serializer, responses={201: serializer, **WRITE_ERRORS}, parameters=[IDEMPOTENCY_PARAM]))


@extend_schema(tags=["purchases"])
@_money_schema(s.PurchaseSerializer)
class PurchaseListCreateView(SessionMoneyView):
    """Chips bought from the banker: buy-ins and rebuys, paid on the spot or owed."""

    name = "Purchases"  # the browsable API's title and breadcrumb

    serializer_class = s.PurchaseSerializer
    queryset = ChipPurchase.objects.none()
    model = ChipPurchase
    record = staticmethod(purchase_record)
    related = ("created_by", "void__created_by")


@extend_schema(tags=["purchases"])
class PurchaseVoidView(SessionScopedMixin, ClubScopedAPIView):
    """Void a purchase keyed in by mistake: its chips go back to the bank, posted now."""

    name = "Void a purchase"  # the browsable API's title and breadcrumb

    @extend_schema(request=s.PurchaseVoidCreateSerializer,
                   responses={201: s.PurchaseSerializer, **WRITE_ERRORS},
                   parameters=[IDEMPOTENCY_PARAM],
                   description="A new posting now: the player hands the purchase's chips back to "
                   "the bank, and the purchase no longer counts as chips bought or money spent "
                   "(nor owed); the deals since stand as they were settled. Answers with the "
                   "purchase and its void. 409 `purchase-voided` when it was voided already, "
                   "409 `insufficient-chips` (without credit) when the player holds fewer chips "
                   "than it gave, 409 `session-closed`; 404 for a purchase of another session.")
    @idempotent
    @transaction.atomic  # the session locked and the role checked again, then the write
    def post(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        session, data = self.session_and_input(s.PurchaseVoidCreateSerializer, request)
        void = purchase_void(session=session, purchase_id=self.kwargs["purchase_id"],
                             user=request.user, **data)
        return Response(s.PurchaseSerializer(void.purchase).data, status=status.HTTP_201_CREATED)


@extend_schema(tags=["purchases"])
@_money_schema(s.PaymentSerializer)
class PaymentListCreateView(SessionMoneyView):
    """Money paid later toward chips bought on credit (negative: a refund); no chip moves."""

    name = "Payments"  # the browsable API's title and breadcrumb

    serializer_class = s.PaymentSerializer
    queryset = ChipPayment.objects.none()
    model = ChipPayment
    record = staticmethod(payment_record)


@extend_schema(tags=["replay"], request=s.ReplayRequestSerializer,
               responses={200: VerdictSchema, **problems(400, 401)})
class ReplayView(KnownQuery, APIView):
    """Dry run: the verdict on a record under given rules and pool. Stores nothing.

    An ``Idempotency-Key`` is accepted and ignored: nothing is stored, so a retry is safe.
    """

    name = "Replay (dry run)"  # the browsable API's title and breadcrumb

    permission_classes = [IsAuthenticated]

    def post(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        from games.rules import RecordError

        data = s.ReplayRequestSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        record = data.validated_data["record"]
        rules = data.validated_data.get("rules") or record.get("rules")
        if rules is None:
            raise Problem(400, detail="Give the rules beside the record (or inside it).",
                          errors=[{"field": "rules", "message": "Required.", "code": "required"}],
                          code="validation-error")
        pool = data.validated_data.get("pool")
        if pool is None:
            pool = record.get("pool", 0)
        first = data.validated_data.get("first_of_series")
        if first is None:
            first = record.get("number", 1) == 1
        from games.services.engine import rules_resolve

        resolved = rules_resolve(rules)
        try:
            verdict = engine_replay(record, resolved, pool=pool, first_of_series=first)
        except RecordError as exc:
            raise record_problem(exc) from exc
        return Response(verdict)
