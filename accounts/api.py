"""REST views: auth token, clubs and members (thin: rules live in serializers and services)."""
from __future__ import annotations

from typing import Any

import django_filters
from django.contrib.auth import update_session_auth_hash
from django.db import transaction
from django.db.models import QuerySet
from django.http import Http404
from django.urls import reverse
from django.utils.cache import patch_cache_control
from drf_spectacular.utils import OpenApiResponse, extend_schema, extend_schema_view
from rest_framework import generics, serializers, status
from rest_framework.authentication import SessionAuthentication
from rest_framework.authtoken.models import Token
from rest_framework.authtoken.serializers import AuthTokenSerializer
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.rules.errors import shown
from games.services.idempotency import IDEMPOTENCY_PARAM, idempotent
from loo_ledger.bodies import BodySerializer
from loo_ledger.filters import choice_filter
from loo_ledger.locations import location
from loo_ledger.problems import Problem
from loo_ledger.query import KnownQuery

from .login_limits import LoginTriesArePosts
from .models import Club, Member, Role
from .serializers import (
    ClubSerializer,
    ClubUpdateSerializer,
    MemberSerializer,
    MemberUpdateSerializer,
    PasswordChangeSerializer,
    TokenSerializer,
)
from .services import club_create, member_unlink, password_change, token_for_login
from .tenancy import (
    ClubScopedGenericAPIView,
    IsClubOwner,
    IsClubOwnerOrThisMember,
    lock_club_and_recheck,
)


def token_answer(token: Token, username: str) -> Response:
    """An answer carrying a token, which no cache may keep, the client's own included
    (``Cache-Control: no-store``, as RFC 6749 section 5.1 asks of a token answer): a browser or
    proxy holding it on disk holds the login."""
    response = Response({"token": token.key, "username": username})
    patch_cache_control(response, no_store=True)
    return response


class ObtainTokenView(LoginTriesArePosts, KnownQuery, APIView):
    """POST: exchange a username and password for your API token (created on first use).
    DELETE: revoke your token (log out every client using it); the next POST makes a new one.
    Each POST is a login try (``LoginTriesArePosts``: LOO_LOGIN_RATE per client address, counted
    together with the admin's and the browsable API's login forms; then a 429)."""

    name = "API token"  # the browsable API's title and breadcrumb

    serializer_class = AuthTokenSerializer

    def get_authenticators(self) -> list:
        # Getting a token needs no credentials (a stale token header must not get in the way).
        return [] if self._is_post() else super().get_authenticators()

    def get_permissions(self) -> list:
        return [AllowAny()] if self._is_post() else [IsAuthenticated()]

    def _is_post(self) -> bool:
        return getattr(getattr(self, "request", None), "method", None) == "POST"

    @extend_schema(
        request=AuthTokenSerializer,
        responses={
            200: TokenSerializer,
            429: OpenApiResponse(description="Too many tries from this address; retry after "
                                             "`Retry-After` seconds."),
        },
        summary="Get an API token",
        description="Rate-limited per client address (`LOO_LOGIN_RATE`, default 10/min).",
        tags=["auth"],
    )
    def post(self, request: Request) -> Response:
        serializer = AuthTokenSerializer(data=request.data, context={"request": request})
        serializer.is_valid(raise_exception=True)
        user = serializer.validated_data["user"]
        token = token_for_login(user=user)  # refused if the password changed since the check
        return token_answer(token, user.get_username())

    @extend_schema(request=None, responses={204: None}, summary="Revoke your API token", tags=["auth"])
    def delete(self, request: Request) -> Response:
        Token.objects.filter(user=request.user).delete()
        return Response(status=status.HTTP_204_NO_CONTENT)


class PasswordChangeView(LoginTriesArePosts, KnownQuery, generics.GenericAPIView):
    """POST: change your password. Every token of yours is revoked and a new one answered, so
    other clients must log in again; this browser session stays logged in."""

    name = "Change your password"  # the browsable API's title and breadcrumb

    permission_classes = [IsAuthenticated]
    serializer_class = PasswordChangeSerializer  # the browsable API's form
    # (LoginTriesArePosts: the old password is a password guess too, its form's GET none)

    @extend_schema(
        request=PasswordChangeSerializer,
        responses={200: TokenSerializer,
                   429: OpenApiResponse(description="Too many tries from this address.")},
        summary="Change your password", tags=["auth"],
    )
    def post(self, request: Request) -> Response:
        data = self.get_serializer(data=request.data)
        data.is_valid(raise_exception=True)
        token = password_change(user=request.user, **data.validated_data)
        if isinstance(request.successful_authenticator, SessionAuthentication):
            update_session_auth_hash(request._request, token.user)  # this browser stays in
        return token_answer(token, request.user.get_username())


@extend_schema(tags=["clubs"])
class ClubListCreateView(KnownQuery, generics.ListCreateAPIView):
    """The clubs you are a member of; creating a club makes you its owner."""

    name = "Clubs"  # the browsable API's title and breadcrumb

    serializer_class = ClubSerializer
    permission_classes = [IsAuthenticated]
    filterset_fields: list[str] = []

    def get_queryset(self) -> QuerySet[Club]:
        if getattr(self, "swagger_fake_view", False):
            return Club.objects.none()
        return Club.objects.filter(members__user=self.request.user).order_by("slug")

    def get_serializer_context(self) -> dict[str, Any]:
        context = super().get_serializer_context()
        if not getattr(self, "swagger_fake_view", False) and self.request.user.is_authenticated:
            context["roles"] = dict(
                Member.objects.filter(user=self.request.user).values_list("club_id", "role")
            )
        return context

    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        serializer = self.get_serializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        member = club_create(
            slug=data["slug"], name=data["name"], owner=request.user,
            member_name=data.get("member_name"),
        )
        out = ClubSerializer(member.club, context={"member": member, "request": request})
        return Response(out.data, status=status.HTTP_201_CREATED,
                        headers=location(request, reverse("club-detail", args=[member.club.slug])))


def updates_answered_as(update: type[serializers.Serializer], shown: type[serializers.Serializer]
                        ) -> dict[str, Any]:
    """The schema of a :class:`~loo_ledger.bodies.BodySerializer`'s PUT and PATCH: the body is ``update``'s, the
    answer the object as a GET shows it (``shown``: one component for all three)."""
    return {method: extend_schema(request=update, responses=shown)
            for method in ("put", "patch")}


@extend_schema(tags=["clubs"])
@extend_schema_view(**updates_answered_as(ClubUpdateSerializer, ClubSerializer))
class ClubDetailView(BodySerializer, ClubScopedGenericAPIView, generics.RetrieveUpdateAPIView):
    """One club; any member may read it, its owners may rename it."""

    name = "Club"  # the browsable API's title and breadcrumb

    serializer_class = ClubSerializer
    update_serializer_class = ClubUpdateSerializer
    permission_classes = [IsClubOwner]

    def get_object(self) -> Club:
        assert self.club is not None
        return self.club

    def update(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        with transaction.atomic():  # an owner demoted while this waited renames nothing
            lock_club_and_recheck(self, request)
            return super().update(request, *args, **kwargs)


class MemberFilter(django_filters.FilterSet):
    role = choice_filter("role", Role.choices)

    class Meta:
        model = Member
        fields = ["role"]


@extend_schema(tags=["clubs"])
class MemberListCreateView(ClubScopedGenericAPIView, generics.ListCreateAPIView):
    """The club's members (players at the table, with or without a login); owners add members."""

    name = "Members"  # the browsable API's title and breadcrumb

    serializer_class = MemberSerializer
    permission_classes = [IsClubOwner]
    filterset_class = MemberFilter

    def get_queryset(self) -> QuerySet[Member]:
        return self.scope(Member.objects.select_related("user")).order_by("name")

    @extend_schema(parameters=[IDEMPOTENCY_PARAM], responses={
        201: MemberSerializer, 409: OpenApiResponse(description="`conflict`: a request with this "
                                                    "`Idempotency-Key` is still in flight."),
        422: OpenApiResponse(description="`unprocessable`: the `Idempotency-Key` was used for "
                                         "another request."),
    })
    @idempotent  # like every POST under a club: a retry gets the first answer, not "already a member"
    def post(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return self.create(request, *args, **kwargs)

    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        with transaction.atomic():  # an owner demoted while this waited adds nobody
            lock_club_and_recheck(self, request)
            return super().create(request, *args, **kwargs)

    def perform_create(self, serializer: MemberSerializer) -> None:
        serializer.save(club=self.club)

    def get_success_headers(self, data: Any) -> dict[str, str]:
        """``Location``: the new member's URL, as a new session's or deal's answer has."""
        return location(self.request, reverse("member-detail", args=[self.club.slug, data["name"]]))


class MemberByName:
    """A member looked up by the ``name`` in the URL; an unknown one is a 404 that says so
    (not Django's "No Member matches the given query.")."""

    lookup_field = "name"
    kwargs: dict[str, Any]

    def get_object(self) -> Member:
        try:
            return super().get_object()  # type: ignore[misc]
        except Http404:
            raise Problem(404, detail=f"No member named '{shown(self.kwargs['name'], bare=True)}' in this club.",
                          code="not-found") from None


@extend_schema(tags=["clubs"])
@extend_schema_view(**updates_answered_as(MemberUpdateSerializer, MemberSerializer))
class MemberDetailView(BodySerializer, MemberByName, ClubScopedGenericAPIView,
                       generics.RetrieveUpdateAPIView):
    """One member; owners change the display name, the role or the linked login."""

    name = "Member"  # the browsable API's title and breadcrumb

    serializer_class = MemberSerializer
    update_serializer_class = MemberUpdateSerializer
    permission_classes = [IsClubOwner]

    def get_queryset(self) -> QuerySet[Member]:
        return self.scope(Member.objects.select_related("user"))

    def update(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        with transaction.atomic():  # the last-owner check and the save, one owner change at a time
            lock_club_and_recheck(self, request)
            return super().update(request, *args, **kwargs)


@extend_schema(tags=["clubs"])
class MemberLoginView(MemberByName, ClubScopedGenericAPIView):
    """DELETE: unlink the member's login. Owners may unlink anyone; any member may unlink their
    own login, i.e. leave the club (an owner linked them, maybe without asking). The member and
    its name stay; the club keeps an owner who can log in."""

    name = "Member's login"  # the browsable API's title and breadcrumb

    permission_classes = [IsClubOwnerOrThisMember]

    def get_queryset(self) -> QuerySet[Member]:
        return self.scope(Member.objects.all())

    @extend_schema(request=None, responses={
        204: None,
        400: OpenApiResponse(description="The club's last owner with a login cannot leave."),
    }, summary="Unlink a member's login (leave the club)")
    def delete(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        with transaction.atomic():  # the object permission and the unlink under the club's lock
            lock_club_and_recheck(self, request)
            member_unlink(member=self.get_object())
        return Response(status=status.HTTP_204_NO_CONTENT)
