"""Changing your own password: the old one must be right, the new one valid; every old token
is revoked and a new one answered; the tries count against the login limit."""
from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from rest_framework.test import APIClient

from tests.conftest import TEST_PASSWORD

from .conftest import problem

pytestmark = pytest.mark.django_db

URL = "/api/v1/auth/password/"
NEW = "a-much-better-passphrase"


def _change(client, old: str, new: str, **extra):
    return client.post(URL, {"old_password": old, "new_password": new}, format="json", **extra)


def test_a_change_revokes_every_token_and_answers_a_new_one(scorer_client):
    stale = APIClient()
    stale.credentials(HTTP_AUTHORIZATION=scorer_client._credentials["HTTP_AUTHORIZATION"])
    response = _change(scorer_client, TEST_PASSWORD, NEW)
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["username"] == "sam" and body["token"]
    assert problem(stale.get("/api/v1/clubs/"), 401)["code"] == "authentication-failed"
    fresh = APIClient()
    fresh.credentials(HTTP_AUTHORIZATION=f"Token {body['token']}")
    assert fresh.get("/api/v1/clubs/").status_code == 200
    user = get_user_model().objects.get(username="sam")
    assert user.check_password(NEW) and not user.check_password(TEST_PASSWORD)
    logins = APIClient().post("/api/v1/auth/token/", {"username": "sam", "password": NEW},
                              format="json")
    assert logins.status_code == 200 and logins.json()["token"] == body["token"]


def test_a_browser_session_stays_logged_in(club):
    browser = Client()
    browser.force_login(get_user_model().objects.get(username="sam"))
    response = browser.post(URL, {"old_password": TEST_PASSWORD, "new_password": NEW},
                            content_type="application/json")
    assert response.status_code == 200, response.content
    assert browser.get("/api/v1/clubs/").status_code == 200


def test_a_wrong_current_password_changes_nothing(scorer_client):
    data = problem(_change(scorer_client, "not-it", NEW), 400)
    assert data["errors"] == [{"field": "old_password", "message": "Wrong password.",
                               "code": "invalid"}]
    assert get_user_model().objects.get(username="sam").check_password(TEST_PASSWORD)
    assert scorer_client.get("/api/v1/clubs/").status_code == 200  # the token still works


def test_a_too_short_new_password_is_refused_by_the_validators(scorer_client):
    data = problem(_change(scorer_client, TEST_PASSWORD, "short"), 400)
    assert data["errors"][0]["field"] == "new_password"
    assert "too short" in data["errors"][0]["message"]
    assert get_user_model().objects.get(username="sam").check_password(TEST_PASSWORD)


def test_a_missing_field_is_named(scorer_client):
    data = problem(scorer_client.post(URL, {"old_password": TEST_PASSWORD}, format="json"), 400)
    assert [e["field"] for e in data["errors"]] == ["new_password"]


def test_without_credentials_it_is_401(anon_client):
    assert problem(_change(anon_client, TEST_PASSWORD, NEW), 401)["code"] == "not-authenticated"


def test_guessing_the_current_password_meets_the_login_limit(scorer_client):
    address = "198.51.100.9"
    tries = [_change(scorer_client, f"guess-{i}", NEW, REMOTE_ADDR=address).status_code
             for i in range(10)]
    assert tries == [400] * 10
    refused = _change(scorer_client, TEST_PASSWORD, NEW, REMOTE_ADDR=address)
    assert problem(refused, 429)["code"] == "throttled" and refused["Retry-After"]
    assert get_user_model().objects.get(username="sam").check_password(TEST_PASSWORD)


@pytest.mark.parametrize("method", ["get", "options"])
def test_showing_the_form_is_no_login_try(scorer_client, method):
    """Only a POST guesses a password: the browsable API's GET of the form and an OPTIONS
    counted as tries too, so a member who opened the page ten times was locked out of logging
    in (the token endpoint counts its POSTs alone, and the login pages' views are free)."""
    address = "198.51.100.10"
    shown = [getattr(scorer_client, method)(URL, REMOTE_ADDR=address).status_code
             for _ in range(12)]
    assert 429 not in shown, shown
    login = APIClient().post("/api/v1/auth/token/", {"username": "sam", "password": TEST_PASSWORD},
                             format="json", REMOTE_ADDR=address)
    assert login.status_code == 200, login.content
    assert _change(scorer_client, TEST_PASSWORD, NEW, REMOTE_ADDR=address).status_code == 200


def test_a_token_client_gets_no_session_cookie(scorer_client):
    response = _change(scorer_client, TEST_PASSWORD, NEW)
    assert response.status_code == 200 and "sessionid" not in response.cookies


def test_other_browser_sessions_are_logged_out(club):
    sam = get_user_model().objects.get(username="sam")
    here, elsewhere = Client(), Client()
    here.force_login(sam)
    elsewhere.force_login(sam)
    assert here.post(URL, {"old_password": TEST_PASSWORD, "new_password": NEW},
                     content_type="application/json").status_code == 200
    assert here.get("/api/v1/clubs/").status_code == 200
    assert elsewhere.get("/api/v1/clubs/").status_code in (401, 403)


def test_a_browser_post_without_the_csrf_token_is_refused(club):
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(get_user_model().objects.get(username="sam"))
    response = browser.post(URL, {"old_password": TEST_PASSWORD, "new_password": NEW},
                            content_type="application/json")
    assert response.status_code == 403
    assert get_user_model().objects.get(username="sam").check_password(TEST_PASSWORD)


@pytest.mark.parametrize("new, says", [("12345678901", "entirely numeric"),
                                       ("password123", "too common")])
def test_weak_new_passwords_are_refused(scorer_client, new, says):
    data = problem(_change(scorer_client, TEST_PASSWORD, new), 400)
    assert any(says in e["message"] for e in data["errors"]), data["errors"]


def test_the_browsable_api_offers_a_form_with_both_fields(club):
    browser = Client()
    browser.force_login(get_user_model().objects.get(username="sam"))
    html = browser.get(URL, HTTP_ACCEPT="text/html").content.decode()
    assert 'name="old_password"' in html and 'name="new_password"' in html


def _directives(response) -> set[str]:
    return {part.strip() for part in response.get("Cache-Control", "").split(",")}


def test_no_cache_keeps_an_answer_that_carries_a_token(scorer_client):
    """RFC 6749 5.1: a token answer is `no-store` (a login held on disk is a login kept)."""
    changed = _change(scorer_client, TEST_PASSWORD, NEW)
    assert changed.status_code == 200 and "no-store" in _directives(changed)
    login = APIClient().post("/api/v1/auth/token/", {"username": "sam", "password": NEW},
                             format="json")
    assert login.status_code == 200 and "no-store" in _directives(login)
    refused = APIClient().post("/api/v1/auth/token/", {"username": "sam", "password": "wrong"},
                               format="json")
    assert refused.status_code == 400 and "no-store" not in _directives(refused)
