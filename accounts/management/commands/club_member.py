"""Add or change a club member from the shell (and create the club or the login if asked).

    manage.py club_member oak olga --role owner --user olga --password 's3cret-pass' --club-name "Oak Club"
    manage.py club_member oak bob                      # a player without a login
    manage.py club_member oak bob --role viewer        # change bob's role

The first owner of a new club has to come from somewhere: this, the admin, or
``POST /api/v1/clubs/`` by a logged-in user.
"""
from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction

from accounts.models import Club, Member, Role, lock_club


class Command(BaseCommand):
    help = "Add a member to a club or change their role/login; optionally create the club and the login."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("club", help="Club slug.")
        parser.add_argument("name", help="The member's seat handle, e.g. 'ann'.")
        parser.add_argument("--role", choices=Role.values, help="Role (default for a new member: player).")
        parser.add_argument("--user", help="Username of the login to link (created if --password is given).")
        parser.add_argument("--password", help="Password for a login created here.")
        parser.add_argument("--display-name", default="", help="Full name shown in reports.")
        parser.add_argument("--club-name", help="Create the club with this name if it does not exist.")

    @transaction.atomic
    def handle(self, *args: Any, club: str, name: str, role: str | None, user: str | None,
               password: str | None, display_name: str, club_name: str | None, **options: Any) -> None:
        club_obj = self.club(club, club_name)
        login = self.login(user, password) if user else None
        lock_club(club_obj.pk)
        member = Member.objects.filter(club=club_obj, name=name).first()
        created = member is None
        if member is not None and member.leaves_club_without_owner(
                role=role or member.role, user=login if login is not None else member.user):
            raise CommandError(Member.KEEP_AN_OWNER)
        if member is None:
            member = Member(club=club_obj, name=name, role=role or Role.PLAYER,
                            display_name=display_name or name.title())
        elif role:
            member.role = role
        if login is not None:
            member.user = login
        if display_name:
            member.display_name = display_name
        try:
            member.full_clean(exclude=None if created else ["name"])  # (a name never changes)
        except ValidationError as exc:
            raise CommandError("; ".join(f"{k}: {' '.join(v)}" for k, v in exc.message_dict.items())) from exc
        member.save()
        verb = "added to" if created else "updated in"
        login_text = f", login '{member.user.get_username()}'" if member.user else ", no login"
        self.stdout.write(self.style.SUCCESS(f"{member.name} ({member.role}{login_text}) {verb} club {club_obj.slug}."))

    def club(self, slug: str, club_name: str | None) -> Club:
        found = Club.objects.filter(slug=slug).first()
        if found is not None:
            return found
        if not club_name:
            raise CommandError(f"No club '{slug}'. Pass --club-name to create it.")
        club = Club(slug=slug, name=club_name)
        try:
            club.full_clean()
        except ValidationError as exc:
            raise CommandError(f"Bad club: {exc.message_dict}") from exc
        club.save()
        self.stdout.write(f"Created club {slug} ({club_name}).")
        return club

    def login(self, username: str, password: str | None) -> Any:
        users = get_user_model().objects
        found = users.filter(username=username).first()
        if found is not None:
            if password:
                raise CommandError(f"User '{username}' exists; change passwords with `manage.py changepassword`.")
            return found
        if not password:
            raise CommandError(f"No user '{username}'. Pass --password to create the login.")
        user = users.create_user(username=username, password=password)
        self.stdout.write(f"Created login {username}.")
        return user
