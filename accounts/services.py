"""Account services: writes that touch more than one row."""
from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext_lazy
from rest_framework.authtoken.models import Token

from games.rules.errors import shown
from loo_ledger.problems import Problem

from .models import Club, Member, Role, lock_club
from .serializers import handle_from_username


@transaction.atomic
def club_create(*, slug: str, name: str, owner: Any, member_name: str | None = None) -> Member:
    """Create a club and make ``owner`` (a User) its first owner; returns that membership."""
    if Club.objects.filter(slug=slug).exists():
        raise Problem(409, detail=f"The club slug '{shown(slug, bare=True)}' is taken; choose another.",
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


#: DRF's own refusal of a wrong username or password (the same words, the same translation)
BAD_CREDENTIALS = gettext_lazy("Unable to log in with provided credentials.")


@transaction.atomic
def token_for_login(*, user: Any) -> Token:
    """The API token of ``user``, whose password was just checked (created on first use).

    ``user`` carries the hash its password was checked against. Under the user's row lock (the
    one ``password_change`` takes) that hash must still be the stored one: a password change
    that committed after the check revoked every token and made a new one, which a login with
    the old password must not get. Refused like a wrong password (400, DRF's words)."""
    locked = get_user_model().objects.select_for_update().filter(pk=user.pk).first()
    if locked is None or locked.password != user.password or not locked.is_active:
        raise Problem(400, detail=str(BAD_CREDENTIALS), code="validation-error",
                      errors=[{"field": None, "message": str(BAD_CREDENTIALS),
                               "code": "authorization"}])
    token, _created = Token.objects.get_or_create(user=locked)
    return token


@transaction.atomic
def password_change(*, user: Any, old_password: str, new_password: str) -> Token:
    """Change ``user``'s password; every client holding the old token is logged out (the save
    revokes every token, see ``accounts.signals``) and the caller gets a new one. The old password must be right and the new one pass the
    project's password validators (400 naming the field otherwise)."""
    user = get_user_model().objects.select_for_update().get(pk=user.pk)  # one change at a time
    if not user.check_password(old_password):
        raise Problem(400, detail="The current password is wrong.", code="validation-error",
                      errors=[{"field": "old_password", "message": "Wrong password."}])
    try:
        validate_password(new_password, user)
    except ValidationError as err:
        raise Problem(400, detail=" ".join(err.messages), code="validation-error",
                      errors=[{"field": "new_password", "message": m, "code": e.code}
                              for e in err.error_list for m in e.messages]
                      ) from None
    user.set_password(new_password)
    user.save(update_fields=["password"])
    return Token.objects.create(user=user)


@transaction.atomic
def member_unlink(*, member: Member) -> Member:
    """Take the login off ``member``: that person no longer sees the club. The member stays
    (deal records name it) and keeps its role; unlinking a member without a login changes
    nothing. Refused (400) when the club would have no owner with an active login left; the
    club's lock serialises this with every other owner change."""
    lock_club(member.club_id)
    member = Member.objects.get(pk=member.pk)
    if member.user_id is None:
        return member
    if member.leaves_club_without_owner(role=member.role, user=None):
        raise Problem(400, detail=Member.KEEP_AN_OWNER, code="validation-error",
                      errors=[{"field": "user", "message": Member.KEEP_AN_OWNER,
                               "code": "invalid"}])  # as a PATCH's refusal carries it
    member.user = None
    member.save(update_fields=["user"])
    return member
