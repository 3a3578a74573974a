"""Tenancy: the one base for every club-scoped REST view.

Every club-scoped URL carries the club's slug as the ``club`` kwarg
(``/api/v1/clubs/{club}/...``). :class:`ClubScopedMixin` resolves it, in this order:

1. no (valid) credentials            -> 401 (with ``WWW-Authenticate: Token``);
2. the user is not a member of club  -> 404, the same answer as for a club that does not exist,
   so an outsider never learns that another club exists;
3. the view's permission classes     -> 403 when the member's role may not do this.

Permission classes here let every member *read* (safe methods) and differ only in who may
*write*: :class:`CanRead` (nobody), :class:`CanRecord` (owner, scorer), :class:`IsClubOwner`
(owner), :class:`IsClubOwnerOrThisMember` (owner, or the member the URL names). So a viewer's or player's write is always a 403, and adding a view never forgets reads.

Querysets must be filtered by the club: use :func:`club_queryset` (or ``self.scope(qs)``).
"""
from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.http import Http404
from rest_framework import generics, viewsets
from rest_framework.permissions import SAFE_METHODS, BasePermission
from rest_framework.request import Request
from rest_framework.views import APIView

from .models import Club, Member, Role

CLUB_URL_KWARG = "club"


def club_queryset(qs: QuerySet, club: Club | None, path: str = "club") -> QuerySet:
    """Restrict ``qs`` to one club; ``path`` is the lookup to the club (e.g. ``"session__club"``).

    ``club=None`` (schema generation, no request) gives an empty queryset, never all clubs.
    """
    if club is None:
        return qs.none()
    return qs.filter(**{path: club})


def resolve_membership(user: Any, club_slug: str) -> Member:
    """The user's membership in the club with this slug, or 404 (club unknown *or* not a member).

    Raises Django's ``Http404`` so it serves server-rendered pages as well as DRF views (DRF
    turns it into a ``not-found`` problem).
    """
    member = None
    if user is not None and user.is_authenticated:
        member = (
            Member.objects.select_related("club", "user")
            .filter(club__slug=club_slug, user=user)
            .first()
        )
    if member is None:
        raise Http404()
    return member


class _ClubRolePermission(BasePermission):
    """Members may read; unsafe methods need one of ``write_roles``."""

    write_roles: frozenset[str] = frozenset()
    message = "Your role in this club may not do this."

    def has_permission(self, request: Request, view: APIView) -> bool:
        member: Member | None = getattr(view, "member", None)
        if member is None:
            return False
        if request.method in SAFE_METHODS:
            return True
        return member.role in self.write_roles


class CanRead(_ClubRolePermission):
    """Any member may read; nobody may write through this view."""

    write_roles = frozenset()
    message = "This resource is read-only."


class CanRecord(_ClubRolePermission):
    """Any member may read; owners and scorers may write (record/correct deals, manage sessions)."""

    write_roles = frozenset({Role.OWNER, Role.SCORER})
    message = "Only the club's owners and scorers may do this."


class IsClubOwner(_ClubRolePermission):
    """Any member may read; only owners may write (members, roles, reopening a closed session)."""

    write_roles = frozenset({Role.OWNER})
    message = "Only the club's owners may do this."


class IsClubOwnerOrThisMember(_ClubRolePermission):
    """Any member may read; owners may write any member, and a member their own record (so that
    nobody can be held in a club: a login linked by an owner can unlink itself)."""

    write_roles = frozenset({Role.OWNER})
    message = "Only the club's owners, or the member themselves, may do this."

    def has_permission(self, request: Request, view: APIView) -> bool:
        return getattr(view, "member", None) is not None  # which member: has_object_permission

    def has_object_permission(self, request: Request, view: APIView, obj: Any) -> bool:
        member: Member = view.member  # type: ignore[attr-defined]
        return (request.method in SAFE_METHODS or member.role in self.write_roles
                or obj.user_id == member.user_id)


class ClubScopedMixin:
    """Resolves ``self.club`` and ``self.member`` before any permission check (see module doc).

    Default permission: :class:`CanRecord`. Subclasses set ``permission_classes`` to change who
    may write. ``get_serializer_context`` carries ``club`` and ``member`` to serializers.
    """

    club: Club | None = None
    member: Member | None = None
    permission_classes = [CanRecord]

    def check_permissions(self, request: Request) -> None:  # type: ignore[override]
        if not (request.user and request.user.is_authenticated):
            # Raises NotAuthenticated (401) because Token authentication comes first.
            self.permission_denied(request)  # type: ignore[attr-defined]
        self.member = resolve_membership(request.user, self.kwargs[CLUB_URL_KWARG])  # type: ignore[attr-defined]
        self.club = self.member.club
        super().check_permissions(request)  # type: ignore[misc]

    def scope(self, qs: QuerySet, path: str = "club") -> QuerySet:
        """``qs`` restricted to this view's club (empty during schema generation)."""
        return club_queryset(qs, self.club, path)

    def get_serializer_context(self) -> dict[str, Any]:
        context = super().get_serializer_context()  # type: ignore[misc]
        context.update(club=self.club, member=self.member)
        return context


class ClubScopedAPIView(ClubScopedMixin, APIView):
    """A plain APIView under ``/clubs/{club}/``."""

    def get_serializer_context(self) -> dict[str, Any]:
        return {"request": self.request, "view": self, "club": self.club, "member": self.member}


class ClubScopedGenericAPIView(ClubScopedMixin, generics.GenericAPIView):
    """A GenericAPIView under ``/clubs/{club}/``."""


class ClubScopedViewSet(ClubScopedMixin, viewsets.GenericViewSet):
    """A GenericViewSet under ``/clubs/{club}/``; add the mixins (List, Create, ...) you need."""


class ClubScopedModelViewSet(ClubScopedMixin, viewsets.ModelViewSet):
    """A full ModelViewSet under ``/clubs/{club}/``."""
