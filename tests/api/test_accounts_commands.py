"""`manage.py club_member`: set up clubs, logins and members from the shell."""
from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from rest_framework.test import APIClient

from accounts.models import Club, Member

pytestmark = pytest.mark.django_db


def run(*args: str) -> str:
    out = StringIO()
    call_command("club_member", *args, stdout=out)
    return out.getvalue()


def test_new_club_with_owner_login_who_can_then_get_a_token():
    output = run("ash", "olga", "--role", "owner", "--user", "olga", "--password", "pw-long-enough",
                 "--club-name", "Ash Club")
    assert "Created club ash" in output and "Created login olga" in output
    assert Club.objects.get(slug="ash").name == "Ash Club"
    response = APIClient().post("/api/v1/auth/token/", {"username": "olga", "password": "pw-long-enough"})
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {response.json()['token']}")
    assert client.get("/api/v1/clubs/ash/").json()["role"] == "owner"


def test_player_without_login_then_role_change(club):
    run("oak", "fay", "--display-name", "Fay Wray")
    fay = Member.objects.get(club=club, name="fay")
    assert (fay.role, fay.user, fay.display_name) == ("player", None, "Fay Wray")
    assert "updated in club oak" in run("oak", "fay", "--role", "scorer")
    assert Member.objects.get(club=club, name="fay").role == "scorer"


def test_links_an_existing_login(club, other_club):
    run("oak", "otto", "--user", "otto", "--role", "viewer")
    assert Member.objects.get(club=club, name="otto").user.username == "otto"


@pytest.mark.parametrize(("args", "message"), [
    (["nope", "ann"], "No club 'nope'. Pass --club-name to create it."),
    (["oak", "zed", "--user", "ghost"], "No user 'ghost'. Pass --password to create the login."),
    (["oak", "zed", "--user", "sam", "--password", "x"], "User 'sam' exists"),
    (["oak", "Bad Name"], "name: "),
    (["oak", "sammy", "--user", "sam"], "user"),
    (["oak", "olga", "--role", "viewer"], "A club must keep at least one owner with a login."),
    (["oak", "club"], "name: 'club' is reserved: it stands for the club as banker"),
])
def test_refusals_change_nothing(club, args, message):
    before = (Club.objects.count(), Member.objects.count())
    with pytest.raises(CommandError, match=message):
        run(*args)
    assert (Club.objects.count(), Member.objects.count()) == before


def test_the_last_owner_keeps_the_role(club):
    with pytest.raises(CommandError, match="at least one owner"):
        run("oak", "olga", "--role", "viewer")
    assert Member.objects.get(club=club, name="olga").role == "owner"


def test_a_member_with_a_reserved_handle_from_before_can_still_change_role(club):
    # made before handles were checked (the ORM runs no validators): the name never changes, so
    # it is not judged again when the member is updated
    Member.objects.create(club=club, name="pool")
    assert "updated in club oak" in run("oak", "pool", "--role", "viewer")
    assert Member.objects.get(club=club, name="pool").role == "viewer"
