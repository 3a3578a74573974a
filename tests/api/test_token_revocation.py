"""A password change revokes the user's API tokens whichever way it happens (the admin's forms,
``manage.py changepassword``, ``set_password`` + ``save`` in code), and nothing else does."""
from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password
from django.core.management import call_command
from django.test import Client
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from tests.conftest import TEST_PASSWORD

from .conftest import problem

pytestmark = pytest.mark.django_db

NEW = "a-much-better-passphrase"


def _token_client(user) -> APIClient:
    token, _ = Token.objects.get_or_create(user=user)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    return client


def _refused(client: APIClient) -> bool:
    """The token no longer authenticates a real API call."""
    return problem(client.get("/api/v1/clubs/"), 401)["code"] == "authentication-failed"


@pytest.fixture
def sam(club):
    return get_user_model().objects.get(username="sam")


@pytest.fixture
def root(django_user_model):
    return django_user_model.objects.create_superuser("root", password="root-password-1")


def test_the_admins_own_password_change_revokes_their_token(club, root):
    stale = _token_client(root)
    browser = Client()
    browser.force_login(root)
    response = browser.post("/admin/password_change/", {
        "old_password": "root-password-1", "new_password1": NEW, "new_password2": NEW})
    assert response.status_code == 302, response.content[:300]
    assert _refused(stale)
    assert not Token.objects.filter(user=root).exists()


def test_a_superuser_setting_a_users_password_in_the_user_admin_revokes_it(sam, root):
    stale = _token_client(sam)
    browser = Client()
    browser.force_login(root)
    response = browser.post(f"/admin/auth/user/{sam.pk}/password/", {
        "usable_password": "true", "password1": NEW, "password2": NEW})
    assert response.status_code == 302, response.content[:300]
    sam.refresh_from_db()
    assert sam.check_password(NEW)
    assert _refused(stale)


def test_switching_password_login_off_in_the_user_admin_revokes_it_too(sam, root):
    stale = _token_client(sam)
    browser = Client()
    browser.force_login(root)
    response = browser.post(f"/admin/auth/user/{sam.pk}/password/", {"usable_password": "false", "unset-password": "1"})
    assert response.status_code == 302, response.content[:300]
    sam.refresh_from_db()
    assert not sam.has_usable_password()
    assert _refused(stale)


def test_manage_py_changepassword_revokes_it(sam, monkeypatch):
    from django.contrib.auth.management.commands import changepassword

    stale = _token_client(sam)
    monkeypatch.setattr(changepassword.getpass, "getpass", lambda prompt="": NEW)
    call_command("changepassword", "sam", stdout=None)
    sam.refresh_from_db()
    assert sam.check_password(NEW)
    assert _refused(stale)


def test_set_password_and_save_anywhere_revokes_it(sam):
    stale = _token_client(sam)
    user = get_user_model().objects.get(pk=sam.pk)
    user.set_password(NEW)
    user.save()
    assert _refused(stale)
    fresh = APIClient().post("/api/v1/auth/token/", {"username": "sam", "password": NEW},
                             format="json")
    assert fresh.status_code == 200
    assert fresh.json()["token"] != stale._credentials["HTTP_AUTHORIZATION"].split()[1]


def test_another_users_password_change_leaves_this_token_alone(sam):
    kept = _token_client(sam)
    olga = get_user_model().objects.get(username="olga")
    olga.set_password(NEW)
    olga.save()
    assert kept.get("/api/v1/clubs/").status_code == 200


def test_logging_in_and_saving_other_fields_revoke_nothing(sam):
    kept = _token_client(sam)
    browser = Client()
    assert browser.login(username="sam", password=TEST_PASSWORD)  # saves last_login
    assert browser.post("/api-auth/login/", {"username": "sam", "password": TEST_PASSWORD}
                        ).status_code == 302
    user = get_user_model().objects.get(pk=sam.pk)
    assert user.last_login is not None
    user.first_name = "Sam"
    user.save()  # a full save, the password unchanged
    again = APIClient().post("/api/v1/auth/token/",
                             {"username": "sam", "password": TEST_PASSWORD}, format="json")
    assert again.json()["token"] == Token.objects.get(user=sam).key
    assert kept.get("/api/v1/clubs/").status_code == 200


def test_rehashing_the_same_password_on_login_revokes_nothing(sam):
    """A hasher upgrade re-hashes the password the user just typed: not a change."""
    kept = _token_client(sam)
    weak = make_password(TEST_PASSWORD, salt="short", hasher="md5")  # too little salt: re-hashed
    get_user_model().objects.filter(pk=sam.pk).update(password=weak)
    assert APIClient().post("/api/v1/auth/token/", {"username": "sam", "password": TEST_PASSWORD},
                            format="json").status_code == 200
    assert get_user_model().objects.get(pk=sam.pk).password != weak  # it was re-hashed
    assert kept.get("/api/v1/clubs/").status_code == 200


def test_creating_a_user_is_no_password_change(club):
    user = get_user_model().objects.create_user("newcomer", password=TEST_PASSWORD)
    token = _token_client(user)
    assert token.get("/api/v1/clubs/").status_code == 200
