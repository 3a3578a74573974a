"""Races between account requests, replayed deterministically (no threads, no sleeps): the other
request's commit is made to land at the exact moment of the race by wrapping a hook the view
calls at that moment.

* A login whose password check passed just before a password change committed must not get the
  token the change made (the old password would survive the change).
* An owner demoted while their request waited for the club's lock must not act as an owner.
"""
from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

import accounts.api
import accounts.tenancy
from accounts.models import Member, Role
from accounts.services import password_change, token_for_login
from loo_ledger.problems import Problem
from tests.conftest import TEST_PASSWORD

from .conftest import problem

pytestmark = pytest.mark.django_db

TOKEN_URL = "/api/v1/auth/token/"
NEW = "a-much-better-passphrase"


def _login(password: str = TEST_PASSWORD) -> Any:
    return APIClient().post(TOKEN_URL, {"username": "sam", "password": password}, format="json")


@pytest.fixture
def sam(club) -> Any:
    return get_user_model().objects.get(username="sam")


# --- F4: a login racing a password change ----------------------------------------------------


def test_a_login_checked_before_a_password_change_gets_no_token(sam, monkeypatch):
    """The change commits between the login's password check and its token: refused exactly
    like a wrong password, and the only token is the one the change answered."""
    changed: list[Token] = []
    real = accounts.api.token_for_login

    def change_first(*, user: Any) -> Token:
        assert user.check_password(TEST_PASSWORD)  # the credentials were checked already
        changed.append(password_change(user=get_user_model().objects.get(pk=user.pk),
                                       old_password=TEST_PASSWORD, new_password=NEW))
        return real(user=user)

    monkeypatch.setattr(accounts.api, "token_for_login", change_first)
    raced = _login()
    monkeypatch.undo()

    assert problem(raced, 400) == problem(_login("not-the-password"), 400)
    assert "token" not in raced.json()
    assert list(Token.objects.filter(user=sam)) == changed  # nothing for the old password
    assert _login().status_code == 400  # and the old password stays refused
    fresh = APIClient().post(TOKEN_URL, {"username": "sam", "password": NEW}, format="json")
    assert fresh.status_code == 200 and fresh.json()["token"] == changed[0].key


def test_the_service_refuses_a_user_checked_against_an_old_hash(sam):
    checked = get_user_model().objects.get(pk=sam.pk)  # what authenticate() returned
    Token.objects.filter(user=sam).delete()
    sam.set_password(NEW)
    sam.save()
    with pytest.raises(Problem) as refused:
        token_for_login(user=checked)
    assert refused.value.status_code == 400 and refused.value.code == "validation-error"
    assert not Token.objects.filter(user=sam).exists()


def test_the_service_refuses_a_login_deactivated_since_the_check(sam):
    checked = get_user_model().objects.get(pk=sam.pk)
    sam.is_active = False
    sam.save(update_fields=["is_active"])
    with pytest.raises(Problem):
        token_for_login(user=checked)


def test_a_login_that_upgrades_the_hash_still_gets_its_token(sam, settings):
    """Django re-hashes a password checked with an old hasher and saves it: that new hash is the
    one the login carries, so the login is not mistaken for a raced password change."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher",
                                 "django.contrib.auth.hashers.PBKDF2PasswordHasher"]
    old_hash = make_password(TEST_PASSWORD, hasher="pbkdf2_sha256")
    get_user_model().objects.filter(pk=sam.pk).update(password=old_hash)
    response = _login()
    assert response.status_code == 200, response.content
    assert get_user_model().objects.get(pk=sam.pk).password.startswith("md5$")


def test_the_service_answers_the_same_token_while_the_hash_is_unchanged(sam):
    first = token_for_login(user=get_user_model().objects.get(pk=sam.pk))
    assert token_for_login(user=get_user_model().objects.get(pk=sam.pk)) == first
    assert Token.objects.filter(user=sam).count() == 1


# --- F5: an owner demoted while their request waits for the club's lock ----------------------


@pytest.fixture
def owners(club) -> None:
    """sam and ann are owners of oak besides olga (ann is the one sam's request acts on)."""
    Member.objects.filter(club=club, name__in=["sam", "ann"]).update(role=Role.OWNER)


def _meanwhile(monkeypatch: pytest.MonkeyPatch, **change: Any) -> None:
    """The next ``lock_club`` of the views first commits another owner's change to sam (the one
    the request's lock waited for), then locks."""
    real = accounts.tenancy.lock_club

    def other_owner_first(club_id: int) -> None:
        Member.objects.filter(club_id=club_id, name="sam").update(**change)
        monkeypatch.setattr(accounts.tenancy, "lock_club", real)
        real(club_id)

    monkeypatch.setattr(accounts.tenancy, "lock_club", other_owner_first)


def _member(name: str) -> Member:
    return Member.objects.get(club__slug="oak", name=name)


def test_a_demoted_owner_queued_change_of_a_role_is_refused(owners, scorer_client, monkeypatch):
    _meanwhile(monkeypatch, role=Role.VIEWER)
    response = scorer_client.patch("/api/v1/clubs/oak/members/ann/", {"role": "player"},
                                   format="json")
    body = problem(response, 403)
    assert body["code"] == "permission-denied"
    assert body["detail"] == "Only the club's owners may do this."  # the ordinary refusal
    assert _member("ann").role == Role.OWNER  # (sam's demotion went with the refused request's
    # transaction here: in the race it is another connection's commit)


def test_a_demoted_owner_queued_unlink_of_another_member_is_refused(owners, scorer_client,
                                                                   monkeypatch):
    _meanwhile(monkeypatch, role=Role.PLAYER)
    body = problem(scorer_client.delete("/api/v1/clubs/oak/members/ann/user/"), 403)
    assert body["code"] == "permission-denied"
    assert body["detail"] == "Only the club's owners, or the member themselves, may do this."
    assert _member("ann").user is not None


def test_a_demoted_owner_may_still_leave_the_club(owners, scorer_client, monkeypatch):
    _meanwhile(monkeypatch, role=Role.VIEWER)
    assert scorer_client.delete("/api/v1/clubs/oak/members/sam/user/").status_code == 204
    assert _member("sam").user is None


def test_an_owner_unlinked_while_queued_is_no_longer_a_member(owners, scorer_client,
                                                             monkeypatch):
    _meanwhile(monkeypatch, user=None)
    response = scorer_client.patch("/api/v1/clubs/oak/members/ann/", {"role": "player"},
                                   format="json")
    assert problem(response, 404)["code"] == "not-found"
    assert _member("ann").role == Role.OWNER


def test_an_owner_still_an_owner_after_the_wait_goes_ahead(owners, scorer_client, monkeypatch):
    _meanwhile(monkeypatch, display_name="Sam, still an owner")
    response = scorer_client.patch("/api/v1/clubs/oak/members/ann/", {"role": "player"},
                                   format="json")
    assert response.status_code == 200, response.content
    assert _member("ann").role == Role.PLAYER
