"""Account services: writes that touch more than one row."""
from __future__ import annotations

from typing import Any

from django.db import transaction

from loo_ledger.problems import Problem

from .models import Club, Member, Role
from .serializers import handle_from_username


@transaction.atomic
def club_create(*, slug: str, name: str, owner: Any, member_name: str | None = None) -> Member:
    """Create a club and make ``owner`` (a User) its first owner; returns that membership."""
    if Club.objects.filter(slug=slug).exists():
        raise Problem(409, detail=f"The club slug '{slug}' is taken; choose another.",
                      code="conflict", errors=[{"field": "slug", "message": "Slug taken."}])
    club = Club.objects.create(slug=slug, name=name)
    return Member.objects.create(
        club=club,
        name=member_name or handle_from_username(owner.get_username()),
        display_name=owner.get_full_name() or owner.get_username(),
        user=owner,
        role=Role.OWNER,
    )


def member_ensure(
    *, club: Club, name: str, role: str = Role.PLAYER, user: Any = None, display_name: str = ""
) -> Member:
    """The member ``name`` of ``club``, created if missing (role/user set only on creation)."""
    member, _ = Member.objects.get_or_create(
        club=club, name=name,
        defaults={"role": role, "user": user, "display_name": display_name or name.title()},
    )
    return member
