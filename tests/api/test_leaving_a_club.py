"""``DELETE /api/v1/clubs/{club}/members/{name}/user/``: a member unlinks their own login (leaves
the club), an owner unlinks anyone's; the member and its name stay, and the club keeps an owner
who can log in."""
from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from accounts.models import Member

from .conftest import problem

pytestmark = pytest.mark.django_db

KEEP = "A club must keep at least one owner with a login."


def _unlink(client, name: str, club: str = "oak"):
    return client.delete(f"/api/v1/clubs/{club}/members/{name}/user/")


def _member(name: str, club: str = "oak") -> Member:
    return Member.objects.select_related("user").get(club__slug=club, name=name)


@pytest.mark.parametrize("role, name", [("viewer", "vic"), ("player", "ann"), ("scorer", "sam")])
def test_a_member_leaves_the_club(club, api_client_for, role, name):
    client = api_client_for(role)
    response = _unlink(client, name)
    assert response.status_code == 204, response.content
    member = _member(name)
    assert member.user is None and member.role == role  # the member and its seat name stay
    assert problem(client.get("/api/v1/clubs/oak/"), 404)["code"] == "not-found"
    assert client.get("/api/v1/clubs/").json()["results"] == []
    assert get_user_model().objects.filter(username=name).exists()  # the login itself stays


def test_a_member_may_not_unlink_someone_else(club, api_client_for):
    for role, name in [("viewer", "sam"), ("player", "vic"), ("scorer", "ann")]:
        body = problem(_unlink(api_client_for(role), name), 403)
        assert body["code"] == "permission-denied"
        assert _member(name).user is not None


def test_an_owner_unlinks_any_member(club, owner_client, scorer_client):
    assert _unlink(owner_client, "sam").status_code == 204
    assert _member("sam").user is None
    problem(scorer_client.get("/api/v1/clubs/oak/"), 404)


def test_unlinking_a_member_without_a_login_changes_nothing(club, owner_client):
    assert _unlink(owner_client, "bob").status_code == 204
    assert _member("bob").user is None


def test_the_last_owner_cannot_leave(club, owner_client):
    body = problem(_unlink(owner_client, "olga"), 400)
    assert body["code"] == "validation-error"
    assert body["errors"] == [{"field": "user", "message": KEEP, "code": "invalid"}]
    assert _member("olga").user.username == "olga"
    assert owner_client.get("/api/v1/clubs/oak/").status_code == 200


def test_an_owner_leaves_once_another_owner_can_log_in(club, owner_client):
    owner_client.patch("/api/v1/clubs/oak/members/sam/", {"role": "owner"}, format="json")
    sam = _member("sam").user
    sam.is_active = False
    sam.save()
    problem(_unlink(owner_client, "olga"), 400)  # an inactive login is no owner to keep
    sam.is_active = True
    sam.save()
    assert _unlink(owner_client, "olga").status_code == 204
    assert _member("olga").user is None and _member("sam").user.username == "sam"


def test_leaving_one_club_keeps_the_others(club, other_club, owner_client):
    from accounts.services import member_ensure

    olga = _member("olga").user
    member_ensure(club=other_club, name="olga", role="viewer", user=olga)
    owner_client.patch("/api/v1/clubs/oak/members/sam/", {"role": "owner"}, format="json")
    assert _unlink(owner_client, "olga", club="elm").status_code == 204
    assert [c["slug"] for c in owner_client.get("/api/v1/clubs/").json()["results"]] == ["oak"]
    assert _member("olga", club="elm").user is None


def test_a_former_member_and_an_outsider_get_404(club, other_club, api_client_for):
    viewer = api_client_for("viewer")
    assert _unlink(viewer, "vic").status_code == 204
    problem(_unlink(viewer, "vic"), 404)  # no longer a member: the club is not there for vic
    problem(_unlink(api_client_for("outsider"), "otto"), 404)  # otto is elm's, not oak's
    assert _member("otto", club="elm").user.username == "otto"


def test_an_unknown_member_is_404(club, owner_client):
    problem(_unlink(owner_client, "zed"), 404)


def test_anonymous_is_401(club, anon_client):
    problem(_unlink(anon_client, "vic"), 401)
    assert _member("vic").user is not None


def test_other_methods_are_not_allowed(club, owner_client):
    for method in ("get", "post", "put", "patch"):
        assert problem(getattr(owner_client, method)("/api/v1/clubs/oak/members/vic/user/"),
                       405)["code"] == "method-not-allowed"
    assert _member("vic").user is not None
