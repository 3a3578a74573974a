"""Password guessing through the session logins (admin, browsable API) is limited like the
token endpoint, and by the same count: a client address gets LOO_LOGIN_RATE tries in all."""
from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db

ADDRESS = "203.0.113.7"
PASSWORD = "staff-password-123"


@pytest.fixture
def staff(db):
    return get_user_model().objects.create_user("root", password=PASSWORD, is_staff=True,
                                                is_superuser=True)


def _admin_login(password: str, address: str = ADDRESS, **headers: str):
    return Client().post("/admin/login/?next=/admin/", {"username": "root", "password": password},
                         REMOTE_ADDR=address, **headers)


def _api_auth_login(password: str, address: str = ADDRESS):
    return Client().post("/api-auth/login/", {"username": "root", "password": password},
                         REMOTE_ADDR=address)


def _token(password: str, address: str = ADDRESS):
    return APIClient().post("/api/v1/auth/token/", {"username": "root", "password": password},
                            format="json", REMOTE_ADDR=address)


def test_admin_login_refuses_the_eleventh_try_even_with_the_right_password(staff):
    assert [_admin_login(f"guess-{i}").status_code for i in range(10)] == [200] * 10  # form again
    refused = _admin_login(PASSWORD)
    assert refused.status_code == 429
    assert 0 < int(refused["Retry-After"]) <= 60
    assert "Too many login attempts" in refused.content.decode()
    assert "_auth_user_id" not in refused.wsgi_request.session  # not logged in
    # another address is counted on its own, and logs in
    other = _admin_login(PASSWORD, address="198.51.100.9")
    assert other.status_code == 302 and other["Location"] == "/admin/"


def test_the_three_login_forms_share_one_count(staff):
    for i in range(4):
        assert _token(f"guess-{i}").status_code == 400
    for i in range(3):
        assert _api_auth_login(f"guess-{i}").status_code == 200
    for i in range(3):
        assert _admin_login(f"guess-{i}").status_code == 200
    assert _api_auth_login(PASSWORD).status_code == 429
    assert _token(PASSWORD).status_code == 429
    assert _admin_login(PASSWORD).status_code == 429


def test_the_login_pages_still_show_and_a_right_password_counts_as_a_try(staff):
    for _ in range(10):
        assert _api_auth_login(PASSWORD).status_code == 302  # logged in each time
    assert _admin_login(PASSWORD).status_code == 429
    page = Client().get("/admin/login/", REMOTE_ADDR=ADDRESS)
    assert page.status_code == 200 and b"password" in page.content


def test_a_forged_forwarded_for_does_not_reset_the_admin_count(staff):
    for i in range(10):
        _admin_login(f"guess-{i}", HTTP_X_FORWARDED_FOR=f"192.0.2.{i}")
    assert _admin_login(PASSWORD, HTTP_X_FORWARDED_FOR="192.0.2.200").status_code == 429


def _admin_password_change(client: Client, old: str, address: str = ADDRESS):
    return client.post("/admin/password_change/", {
        "old_password": old, "new_password1": "a-new-staff-password-9",
        "new_password2": "a-new-staff-password-9"}, REMOTE_ADDR=address)


def test_the_admins_password_change_is_counted_as_the_rest_one_is(staff):
    """The admin's own password change asks for the current password, a guess as the REST
    password change's is (which counts): it was the one form left where a session could guess
    without end."""
    browser = Client()
    browser.force_login(staff)
    tries = [_admin_password_change(browser, f"guess-{i}").status_code for i in range(10)]
    assert tries == [200] * 10  # the form again, with its error
    refused = _admin_password_change(browser, PASSWORD)
    assert refused.status_code == 429 and int(refused["Retry-After"]) > 0
    assert get_user_model().objects.get(username="root").check_password(PASSWORD)
    assert _token(PASSWORD).status_code == 429  # one count with the other forms
    assert browser.get("/admin/password_change/", REMOTE_ADDR=ADDRESS).status_code == 200
