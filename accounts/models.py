"""Clubs and their members.

A club is the tenant: every session, deal and report belongs to exactly one club, and a user
sees a club only through a :class:`Member` row. A member is a *player at the table* first (the
short ``name`` used in deal records' seats) and optionally a login (``user``).
"""
from __future__ import annotations

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import RegexValidator
from django.db import models
from django.db.models import Q

HANDLE_PATTERN = r"^[a-z0-9][a-z0-9_-]{0,31}$"
handle_validator = RegexValidator(
    HANDLE_PATTERN,
    "Use 1-32 lower-case letters, digits, '-' or '_', starting with a letter or digit.",
)

#: handles no member may take: a session's ledger keeps accounts of these names (a seat "pool"
#: would buy its chips into the pool, a seat "bank" from itself) and a session's banker "club"
#: is the club itself, so a member of that name could not be told apart from it
RESERVED_HANDLES: dict[str, str] = {
    "pool": "the pool's ledger account",
    "bank": "the bank's ledger account",
    "club": "the club as banker",
}


def reserved_handle_validator(value: str) -> None:
    """Refuse a member handle the ledger uses for one of its own accounts."""
    if value in RESERVED_HANDLES:
        raise ValidationError(
            f"'{value}' is reserved: it stands for {RESERVED_HANDLES[value]}. Choose another handle.",
            code="reserved",
        )


class Club(models.Model):
    """A card club: the unit of tenancy (its slug is in every API URL)."""

    slug = models.CharField(max_length=32, unique=True, validators=[handle_validator])
    name = models.CharField(max_length=120)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["slug"]

    def __str__(self) -> str:
        return self.name or self.slug


class Role(models.TextChoices):
    """What a member may do in a club (see docs/accounts.md for the full table)."""

    OWNER = "owner", "Owner"  # everything, incl. reopening a closed session and managing members
    SCORER = "scorer", "Scorer"  # record and correct deals, manage sessions
    PLAYER = "player", "Player"  # read only
    VIEWER = "viewer", "Viewer"  # read only


#: Roles allowed to write game data (sessions, deals, corrections, purchases, imports).
RECORDING_ROLES: frozenset[str] = frozenset({Role.OWNER, Role.SCORER})


class Member(models.Model):
    """A person in a club: a seat name at the table, optionally linked to a login."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="members")
    name = models.CharField(
        max_length=32,
        validators=[handle_validator, reserved_handle_validator],
        help_text="Short handle used in deal records' seats, e.g. 'ann' (not pool, bank or club).",
    )
    display_name = models.CharField(max_length=120, blank=True)
    # PROTECT: deleting a login must not quietly strip a club of its owner; unlink the member
    # (the last owner cannot be unlinked) or deactivate the login instead
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="memberships",
    )
    role = models.CharField(max_length=16, choices=Role.choices, default=Role.PLAYER)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["club", "name"]
        constraints = [
            models.UniqueConstraint(fields=["club", "name"], name="member_unique_name_per_club"),
            models.UniqueConstraint(
                fields=["club", "user"],
                condition=Q(user__isnull=False),
                name="member_unique_user_per_club",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.role}) @ {self.club.slug}"

    @property
    def can_record(self) -> bool:
        """True for roles that may write game data."""
        return self.role in RECORDING_ROLES

    @property
    def is_owner(self) -> bool:
        return self.role == Role.OWNER

    #: what every refusal of ``leaves_club_without_owner`` says (REST, admin, command line)
    KEEP_AN_OWNER = "A club must keep at least one owner with a login."

    def leaves_club_without_owner(self, *, role: str, user: object) -> bool:
        """True when giving this member ``role`` and ``user`` would leave the club with no owner
        who can log in (an active login): nobody could then manage members or reopen a session.
        The REST API, the admin and ``manage.py club_member`` all ask this before saving, inside
        a transaction holding ``lock_club``, so two owners stepping down at once cannot both
        pass."""
        usable = Member.objects.filter(club_id=self.club_id, role=Role.OWNER,
                                       user__is_active=True)
        if self.pk is None or not usable.filter(pk=self.pk).exists():
            return False
        if role == Role.OWNER and getattr(user, "is_active", False):
            return False
        return not usable.exclude(pk=self.pk).exists()


def lock_club(club_id: int) -> None:
    """Hold the club's row until the transaction ends (serialises changes to its owners).

    ``FOR NO KEY UPDATE`` on PostgreSQL: it excludes every other club lock, but not the
    ``FOR KEY SHARE`` a foreign-key check takes on the club row when a row pointing at it (a new
    session, an import's) is committed. A full ``FOR UPDATE`` would make an import storing a
    session and a retry of that import wait for each other in a circle (a deadlock)."""
    Club.objects.select_for_update(no_key=True).filter(pk=club_id).first()
