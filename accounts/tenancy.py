"""Tenancy: the one base for every club-scoped REST view.

Every club-scoped URL carries the club's slug as the ``club`` kwarg
(``/api/v1/clubs/{club}/...``). :class:`ClubScopedMixin` resolves it, in this order:

1. no (valid) credentials            -> 401 (with ``WWW-Authenticate: Token``);
2. the user is not a member of club  -> 404, the same answer as for a club that does not exist,
   so an outsider never learns that another club exists;
3. the view's permission classes     -> 403 when the member's role may not do this;
4. a query parameter the view does not take, on a read or a write -> 400 naming it
   (``loo_ledger.query``).

Permission classes here let every member *read* (safe methods) and differ only in who may
*write*: :class:`CanRead` (nobody), :class:`CanRecord` (owner, scorer), :class:`IsClubOwner`
(owner), :class:`IsClubOwnerOrThisMember` (owner, or the member the URL names). So a viewer's or player's write is always a 403, and adding a view never forgets reads.

Querysets must be filtered by the club: use :func:`club_queryset` (or ``self.scope(qs)``).

A write that waits on a lock checks the caller's permission a second time once it holds it:
the request it waited for may have been the caller's own demotion or removal. Under the club's
lock through :func:`lock_club_and_recheck`; under a session's lock through the session views'
``session_for_write`` (:meth:`ClubScopedMixin.recheck_permissions`).

Locks are taken in one order, so that no two transactions wait for each other in a circle: the
club's row (member changes, new sessions, imports and their retries), an import job's row, a
session's row (every write to a session), then the caller's member row (the recheck under a
session's lock; an import's uploader, last in its store). The club's lock is ``FOR NO KEY
UPDATE`` (``accounts.models.lock_club``), so the key-share lock a commit takes on the club row
for a new row pointing at it (an import's new session) does not wait for it: the worker storing
an import holds its job's row and commits such a row, while a retry of that job holds the club's
lock and waits for the job's row.
"""
from __future__ import annotations

from typing import Any

from django.db import transaction
from django.db.models import QuerySet
from django.http import Http404
from rest_framework import generics, viewsets
from rest_framework.permissions import SAFE_METHODS, BasePermission
from rest_framework.request import Request
from rest_framework.views import APIView

from loo_ledger.query import KnownQuery

from .models import Club, Member, Role, lock_club

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


class ClubScopedMixin(KnownQuery):
    """Resolves ``self.club`` and ``self.member`` before any permission check (see module doc);
    then the request's query string is checked (:class:`~loo_ledger.query.KnownQuery`).

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
        if not self.takes(request.method):  # a 405 says so whatever the role: not a 403 "read-only"
            self.http_method_not_allowed(request)  # type: ignore[attr-defined]
        super().check_permissions(request)  # type: ignore[misc]

    def takes(self, method: str | None) -> bool:
        """Whether this view has a handler for ``method`` (as DRF's dispatch looks one up)."""
        name = (method or "").lower()
        return name in self.http_method_names and hasattr(self, name)  # type: ignore[attr-defined]

    def recheck_permissions(self, request: Request) -> None:
        """Check the caller's permission again, with their membership as it is now: call it once
        the write holds the lock it may have waited on (DRF checked the membership loaded before),
        when that lock is not the club's, which member changes hold. The member's row is locked
        first, so a change to it that is still being committed is waited for and seen. Refuses as
        the ordinary check does: 403 ``permission-denied``, 404 once no longer a member."""
        if not transaction.get_connection().in_atomic_block:
            raise RuntimeError("recheck_permissions outside a transaction: the lock it follows "
                               "would be released already")
        if self.member is not None:
            Member.objects.select_for_update().filter(pk=self.member.pk).first()
        self.check_permissions(request)  # reloads self.member

    def scope(self, qs: QuerySet, path: str = "club") -> QuerySet:
        """``qs`` restricted to this view's club (empty during schema generation)."""
        return club_queryset(qs, self.club, path)

    def get_serializer_context(self) -> dict[str, Any]:
        context = super().get_serializer_context()  # type: ignore[misc]
        context.update(club=self.club, member=self.member)
        return context


def lock_club_and_recheck(view: ClubScopedMixin, request: Request) -> None:
    """Take the club's lock (the one member changes hold), then check the caller's permission
    again with their membership reloaded: the owner change the lock waited for may have been the
    caller's own demotion or unlinking. Refuses as the ordinary check does (403, or 404 once no
    longer a member). A view's object permission, checked later by ``get_object``, sees the
    reloaded membership too."""
    assert view.club is not None
    lock_club(view.club.pk)  # every member change holds it: none can be in flight now
    view.check_permissions(request)  # reloads view.member


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
