"""Clubs, members, roles and tokens over REST: successes and refusals."""
from __future__ import annotations

import json
import re

import pytest
from django.db import IntegrityError
from rest_framework.test import APIClient

from accounts.models import Club, Member, Role

pytestmark = pytest.mark.django_db

PROBLEM = "application/problem+json"


def problem(response, status: int) -> dict:
    """The problem body of a refusal, after checking its status and media type."""
    assert response.status_code == status, response.content
    assert response["Content-Type"].startswith(PROBLEM)
    body = response.json()
    assert body["status"] == status
    return body


# --- auth token -------------------------------------------------------------------------------


def test_token_for_username_and_password_authenticates(club):
    anon = APIClient()
    response = anon.post("/api/v1/auth/token/", {"username": "sam", "password": "test-password-123"},
                         format="json")
    assert response.status_code == 200
    assert response.json()["username"] == "sam"
    anon.credentials(HTTP_AUTHORIZATION=f"Token {response.json()['token']}")
    assert [c["slug"] for c in anon.get("/api/v1/clubs/").json()["results"]] == ["oak"]


def test_token_is_stable_across_logins(club):
    first = APIClient().post("/api/v1/auth/token/", {"username": "sam", "password": "test-password-123"})
    second = APIClient().post("/api/v1/auth/token/", {"username": "sam", "password": "test-password-123"})
    assert first.json()["token"] == second.json()["token"]


def test_token_refused_for_wrong_password(club):
    response = APIClient().post("/api/v1/auth/token/", {"username": "sam", "password": "nope"},
                                format="json")
    body = problem(response, 400)
    assert body["code"] == "validation-error"
    assert body["errors"][0]["message"] == "Unable to log in with provided credentials."


def test_token_refused_without_fields(db):
    body = problem(APIClient().post("/api/v1/auth/token/", {}, format="json"), 400)
    assert sorted(e["field"] for e in body["errors"]) == ["password", "username"]


def test_a_stale_token_header_does_not_stop_getting_a_new_token(club):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION="Token stale")
    response = client.post("/api/v1/auth/token/", {"username": "sam", "password": "test-password-123"})
    assert response.status_code == 200


def _login(password: str, address: str = "203.0.113.7", **headers: str):
    return APIClient().post("/api/v1/auth/token/", {"username": "sam", "password": password},
                            format="json", REMOTE_ADDR=address, **headers)


def test_password_guessing_is_rate_limited_per_address(club, settings):
    # LOO_LOGIN_RATE: 10 tries a minute from one address, right or wrong, then 429
    statuses = [_login(f"guess-{i}").status_code for i in range(10)]
    assert statuses == [400] * 10
    refused = _login("test-password-123")  # even the right password: the address must wait
    body = problem(refused, 429)
    assert body["code"] == "throttled"
    assert 0 < int(refused["Retry-After"]) <= 60
    # another address is counted on its own
    assert _login("test-password-123", address="198.51.100.9").status_code == 200


def test_rate_limit_ignores_a_forged_forwarded_for_unless_behind_a_proxy(club, settings):
    for i in range(10):
        _login(f"guess-{i}", HTTP_X_FORWARDED_FOR=f"192.0.2.{i}")
    # with no proxy configured (LOO_NUM_PROXIES=0) a new X-Forwarded-For does not reset the count
    assert _login("x", HTTP_X_FORWARDED_FOR="192.0.2.200").status_code == 429
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "NUM_PROXIES": 1}
    # behind one proxy the client is the address the proxy appended: counted on its own
    assert _login("test-password-123", HTTP_X_FORWARDED_FOR="192.0.2.200").status_code == 200


def test_token_revocation_and_api_calls_are_not_login_limited(club, scorer_client):
    for i in range(10):
        _login(f"guess-{i}", address="127.0.0.1")
    assert scorer_client.get("/api/v1/clubs/").status_code == 200
    assert scorer_client.delete("/api/v1/auth/token/").status_code == 204


def test_revoking_the_token_logs_out_its_clients(club, scorer_client):
    assert scorer_client.get("/api/v1/clubs/").status_code == 200
    assert scorer_client.delete("/api/v1/auth/token/").status_code == 204
    assert problem(scorer_client.get("/api/v1/clubs/"), 401)["code"] == "authentication-failed"
    fresh = APIClient().post("/api/v1/auth/token/", {"username": "sam", "password": "test-password-123"})
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {fresh.json()['token']}")
    assert client.get("/api/v1/clubs/").status_code == 200


def test_revoking_needs_credentials(club, anon_client):
    assert problem(anon_client.delete("/api/v1/auth/token/"), 401)["code"] == "not-authenticated"


def test_invalid_token_is_401_with_challenge(club):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION="Token not-a-real-token")
    response = client.get("/api/v1/clubs/")
    body = problem(response, 401)
    assert body["code"] == "authentication-failed"
    assert response["WWW-Authenticate"] == "Token"


@pytest.mark.parametrize("key", ["\x00", "abc\x00def"])
def test_a_token_holding_a_nul_is_a_malformed_header_not_a_500(club, key):
    """PostgreSQL cannot compare text holding a NUL character, so looking such a key up was a
    500 (a server that lets the header through: Django's runserver, the test client). No token
    holds one: refused as DRF refuses a key of characters a header cannot carry."""
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    response = client.get("/api/v1/clubs/")
    body = problem(response, 401)
    assert body["code"] == "authentication-failed" and "invalid characters" in body["detail"]
    assert response["WWW-Authenticate"] == "Token"


def test_session_login_works_for_browsable_api(club):
    client = APIClient()
    assert client.login(username="vic", password="test-password-123")
    assert client.get("/api/v1/clubs/oak/").json()["role"] == "viewer"


def test_browsable_api_pages_render_for_a_logged_in_member(club):
    client = APIClient()
    client.login(username="vic", password="test-password-123")
    response = client.get("/api/v1/clubs/oak/members/", HTTP_ACCEPT="text/html")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/html")
    assert "olga" in response.content.decode()


def test_session_login_writes_need_the_csrf_token(club):
    client = APIClient(enforce_csrf_checks=True)
    client.login(username="olga", password="test-password-123")
    body = problem(client.patch("/api/v1/clubs/oak/", {"name": "Mine"}, format="json"), 403)
    assert "CSRF" in body["detail"]
    assert Club.objects.get(slug="oak").name == "Oak Card Club"


# --- clubs ------------------------------------------------------------------------------------


def test_club_list_shows_only_my_clubs_with_my_role(club, other_club, viewer_client, outsider_client):
    assert [(c["slug"], c["role"]) for c in viewer_client.get("/api/v1/clubs/").json()["results"]] == [
        ("oak", "viewer")
    ]
    assert [(c["slug"], c["role"]) for c in outsider_client.get("/api/v1/clubs/").json()["results"]] == [
        ("elm", "owner")
    ]


def test_club_list_anonymous_is_401(anon_client):
    response = anon_client.get("/api/v1/clubs/")
    assert problem(response, 401)["code"] == "not-authenticated"
    assert response["WWW-Authenticate"] == "Token"


def test_creating_a_club_makes_the_creator_its_owner(club, viewer_client):
    response = viewer_client.post("/api/v1/clubs/", {"slug": "ash", "name": "Ash Club"}, format="json")
    assert response.status_code == 201, response.content
    body = response.json()
    assert body == {
        "slug": "ash", "name": "Ash Club", "created_at": body["created_at"], "role": "owner",
        "links": body["links"],
    }
    assert body["links"]["sessions"] == "http://testserver/api/v1/clubs/ash/sessions/"
    member = Member.objects.get(club__slug="ash")
    assert (member.name, member.role, member.user.username) == ("vic", Role.OWNER, "vic")
    # vic now sees both clubs, with a different role in each
    roles = {c["slug"]: c["role"] for c in viewer_client.get("/api/v1/clubs/").json()["results"]}
    assert roles == {"ash": "owner", "oak": "viewer"}


def test_creating_a_club_with_a_chosen_seat_name(club, viewer_client):
    response = viewer_client.post("/api/v1/clubs/", {"slug": "ash", "name": "Ash", "member_name": "victor"},
                                  format="json")
    assert response.status_code == 201
    assert Member.objects.get(club__slug="ash").name == "victor"


def test_creating_a_club_with_a_taken_slug_is_refused(club, other_club, viewer_client):
    body = problem(viewer_client.post("/api/v1/clubs/", {"slug": "elm", "name": "Mine"}, format="json"), 400)
    assert [e["field"] for e in body["errors"]] == ["slug"]
    # in words (it said "club with this slug already exists.")
    assert body["errors"][0]["message"] == "This slug is taken by another club; choose another."
    assert Club.objects.get(slug="elm").name == "Elm Card Club"


def test_creating_a_club_with_a_bad_slug_is_refused(club, viewer_client):
    body = problem(viewer_client.post("/api/v1/clubs/", {"slug": "Big Club!", "name": "x"}, format="json"), 400)
    assert [e["field"] for e in body["errors"]] == ["slug"]
    assert not Club.objects.filter(name="x").exists()


@pytest.mark.parametrize("handle", ["-ann", "_ann", "Ann", "a" * 33, "zoë"])
def test_a_handle_or_slug_starts_with_a_letter_or_digit(club, owner_client, handle):
    # accounts.md: 1-32 lower-case letters, digits, - or _, the first a letter or digit
    for path, body, field in (("/api/v1/clubs/oak/members/", {"name": handle}, "name"),
                              ("/api/v1/clubs/", {"slug": handle, "name": "x"}, "slug")):
        body = problem(owner_client.post(path, body, format="json"), 400)
        assert {e["field"] for e in body["errors"]} == {field}
    assert owner_client.post("/api/v1/clubs/oak/members/", {"name": "0-a_b"},
                             format="json").status_code == 201


def test_club_detail_for_members(club, player_client):
    body = player_client.get("/api/v1/clubs/oak/").json()
    assert (body["slug"], body["name"], body["role"]) == ("oak", "Oak Card Club", "player")


def test_another_clubs_detail_is_404_like_a_club_that_does_not_exist(club, other_club, outsider_client):
    hidden = problem(outsider_client.get("/api/v1/clubs/oak/"), 404)
    missing = problem(outsider_client.get("/api/v1/clubs/nope/"), 404)
    assert hidden["detail"] == missing["detail"]
    assert "oak" not in hidden["detail"].lower()


def test_owner_renames_club_but_not_its_slug(club, owner_client):
    response = owner_client.patch("/api/v1/clubs/oak/", {"name": "The Oak"}, format="json")
    assert response.status_code == 200
    assert Club.objects.get(slug="oak").name == "The Oak"
    body = problem(owner_client.patch("/api/v1/clubs/oak/", {"slug": "pine"}, format="json"), 400)
    assert body["errors"][0]["field"] == "slug"
    assert Club.objects.filter(slug="oak").exists()


def test_a_put_may_leave_out_the_slug_or_name_that_cannot_change(club, owner_client):
    # accounts.md: PUT/PATCH a club's `name`, a member's `display_name`, `role`, `user`; a PUT
    # of just those was a 400 "This field is required." on the slug or name
    renamed = owner_client.put("/api/v1/clubs/oak/", {"name": "The Oak"}, format="json")
    assert renamed.status_code == 200, renamed.content
    assert renamed.json()["slug"] == "oak" and Club.objects.get(slug="oak").name == "The Oak"
    changed = owner_client.put("/api/v1/clubs/oak/members/bob/",
                               {"display_name": "Robert", "role": "viewer"}, format="json")
    assert changed.status_code == 200, changed.content
    bob = Member.objects.get(club=club, name="bob")
    assert (bob.display_name, bob.role) == ("Robert", "viewer")
    # sent, it must still be the same; a new club or member still needs one
    assert problem(owner_client.put("/api/v1/clubs/oak/", {"slug": "pine", "name": "P"}, format="json"),
                   400)["errors"][0]["field"] == "slug"
    assert problem(owner_client.post("/api/v1/clubs/oak/members/", {"role": "viewer"}, format="json"),
                   400)["errors"][0]["field"] == "name"
    assert problem(owner_client.post("/api/v1/clubs/", {"name": "Pine"}, format="json"),
                   400)["errors"][0]["field"] == "slug"


def test_an_update_has_no_creators_seat(club, owner_client):
    # member_name is the creator's seat in a new club: a PUT naming one changed nothing and
    # said nothing; now it is a field an update does not take
    body = problem(owner_client.put("/api/v1/clubs/oak/", {"name": "The Oak", "member_name": "zed"},
                                    format="json"), 400)
    assert [e["field"] for e in body["errors"]] == ["member_name"]
    assert Club.objects.get(slug="oak").name == "Oak Card Club"


@pytest.mark.parametrize("role", ["scorer", "player", "viewer"])
def test_only_owner_may_rename_club(club, api_client_for, role):
    body = problem(api_client_for(role).patch("/api/v1/clubs/oak/", {"name": "Mine"}, format="json"), 403)
    assert body["code"] == "permission-denied"
    assert Club.objects.get(slug="oak").name == "Oak Card Club"


# --- members ----------------------------------------------------------------------------------


def test_members_list_for_any_member(club, viewer_client):
    results = viewer_client.get("/api/v1/clubs/oak/members/").json()["results"]
    assert [(m["name"], m["role"], m["user"]) for m in results] == [
        ("ann", "player", "ann"), ("bob", "player", None), ("cat", "player", None),
        ("dan", "player", None), ("eve", "player", None), ("olga", "owner", "olga"),
        ("sam", "scorer", "sam"), ("vic", "viewer", "vic"),
    ]


def test_members_filter_by_role(club, viewer_client):
    results = viewer_client.get("/api/v1/clubs/oak/members/?role=scorer").json()["results"]
    assert [m["name"] for m in results] == ["sam"]


def test_members_of_another_club_are_404(club, other_club, outsider_client):
    problem(outsider_client.get("/api/v1/clubs/oak/members/"), 404)
    problem(outsider_client.get("/api/v1/clubs/oak/members/ann/"), 404)


def test_owner_adds_a_player_without_login(club, owner_client):
    response = owner_client.post("/api/v1/clubs/oak/members/",
                                 {"name": "fay", "display_name": "Fay", "role": "player"}, format="json")
    assert response.status_code == 201, response.content
    fay = Member.objects.get(club=club, name="fay")
    assert (fay.role, fay.user, fay.display_name) == ("player", None, "Fay")


def test_owner_adds_a_scorer_with_login(club, other_club, owner_client):
    response = owner_client.post("/api/v1/clubs/oak/members/",
                                 {"name": "otto", "role": "scorer", "user": "otto"}, format="json")
    assert response.status_code == 201, response.content
    # otto, owner of elm, can now read oak as its scorer
    otto = Member.objects.get(club=club, name="otto")
    assert (otto.user.username, otto.display_name) == ("otto", "Otto")  # display name defaults


def test_adding_a_member_with_a_taken_name_is_refused(club, owner_client):
    body = problem(owner_client.post("/api/v1/clubs/oak/members/", {"name": "bob"}, format="json"), 400)
    assert body["errors"] == [
        {"field": "name", "message": "This club already has a member named 'bob'.", "code": "invalid"}
    ]


def test_same_name_in_another_club_is_fine(club, other_club):
    assert Member.objects.filter(name="ann").count() == 2


def test_linking_a_login_twice_in_one_club_is_refused(club, owner_client):
    body = problem(owner_client.post("/api/v1/clubs/oak/members/", {"name": "sammy", "user": "sam"},
                                     format="json"), 400)
    assert body["errors"][0]["field"] == "user"
    assert "already a member" in body["errors"][0]["message"]


def test_linking_an_unknown_user_is_refused(club, owner_client):
    body = problem(owner_client.post("/api/v1/clubs/oak/members/", {"name": "zed", "user": "nobody"},
                                     format="json"), 400)
    assert body["errors"] == [
        {"field": "user", "message": "No login named 'nobody'.", "code": "does_not_exist"}]
    assert "Object with" not in json.dumps(body)
    assert not Member.objects.filter(club=club, name="zed").exists()


@pytest.mark.parametrize("user", [5, ["olga"], {"username": "olga"}, True])
def test_a_login_named_by_anything_but_text_is_refused_not_looked_up(club, owner_client,
                                                                     django_user_model, user):
    """A client sending a user's id (5) linked the login whose username is "5", someone else
    altogether, or was told "No login named '5'"; a list or an object was quoted as Python
    wrote it ("No login named '['olga']'")."""
    django_user_model.objects.create_user("5", password="five-password-1")
    body = problem(owner_client.post("/api/v1/clubs/oak/members/", {"name": "zed", "user": user},
                                     format="json"), 400)
    assert [e["field"] for e in body["errors"]] == ["user"]
    assert body["detail"] == ("user is a login's username, written as text such as \"ann\" (or "
                              f"null for none), not {json.dumps(user)}."), body["detail"]
    assert not Member.objects.filter(club=club, name="zed").exists()
    patch = owner_client.patch("/api/v1/clubs/oak/members/bob/", {"user": user}, format="json")
    assert problem(patch, 400)["errors"][0]["field"] == "user"
    assert Member.objects.get(club=club, name="bob").user is None


def test_a_file_sent_as_the_login_is_a_400_not_a_500(club, owner_client):
    """A multipart form's file part named ``user`` (``curl -F user=@name.txt``) reached the
    refusal's wording, which writes what was sent as JSON and cannot write a file: a 500."""
    from django.core.files.uploadedfile import SimpleUploadedFile

    def upload() -> SimpleUploadedFile:
        return SimpleUploadedFile("olga.txt", b"olga")

    body = problem(owner_client.post("/api/v1/clubs/oak/members/", {"name": "zed", "user": upload()},
                                     format="multipart"), 400)
    assert [e["field"] for e in body["errors"]] == ["user"]
    assert body["detail"].endswith('not a file ("olga.txt").'), body["detail"]
    assert not Member.objects.filter(club=club, name="zed").exists()
    patch = owner_client.patch("/api/v1/clubs/oak/members/bob/", {"user": upload()},
                               format="multipart")
    assert problem(patch, 400)["errors"][0]["field"] == "user"
    assert Member.objects.get(club=club, name="bob").user is None


def test_the_browsable_member_form_lists_no_logins(club, other_club, django_user_model):
    """An owner sees a text box for the login, not a <select> of every username on the system."""
    django_user_model.objects.create_user("hidden-hilda", password="hidden-password-1")
    browser = APIClient()
    browser.login(username="olga", password="test-password-123")
    for url in ("/api/v1/clubs/oak/members/", "/api/v1/clubs/oak/members/sam/"):
        html = browser.get(url, HTTP_ACCEPT="text/html").content.decode()
        assert re.search(r'<input[^>]*name="user"', html), url
        assert not re.search(r'<select[^>]*name="user"', html), url
        assert "hidden-hilda" not in html and "otto" not in html, url
    options = browser.options("/api/v1/clubs/oak/members/").content.decode()
    assert "hidden-hilda" not in options and "otto" not in options


def test_a_username_with_a_null_character_is_refused_not_looked_up(club, owner_client):
    # PostgreSQL cannot compare text holding NUL: the look-up would be a 500. A JSON body is
    # refused whole by the parser; a form body reaches the field, which refuses it.
    form = {"name": "zed", "user": "sa\x00m"}
    assert problem(owner_client.post("/api/v1/clubs/oak/members/", form, format="json"),
                   400)["code"] == "malformed-request"
    body = problem(owner_client.post("/api/v1/clubs/oak/members/", form, format="multipart"), 400)
    assert body["errors"] == [
        {"field": "user", "message": "Null characters are not allowed.", "code": "invalid"}
    ]


def test_member_names_must_be_handles(club, owner_client):
    body = problem(owner_client.post("/api/v1/clubs/oak/members/", {"name": "Ann Smith"}, format="json"), 400)
    assert body["errors"][0]["field"] == "name"


@pytest.mark.parametrize(("name", "stands_for"), [
    ("pool", "the pool's ledger account"), ("bank", "the bank's ledger account"),
    ("club", "the club as banker")])
def test_a_member_cannot_take_a_ledger_accounts_name(club, owner_client, name, stands_for):
    # a seat of that name would share the ledger's account (or read as the club banking), so
    # the handle is refused when the member is made, not only when seated
    body = problem(owner_client.post("/api/v1/clubs/oak/members/", {"name": name}, format="json"), 400)
    assert [(e["field"], e["message"]) for e in body["errors"]] == [
        ("name", f"'{name}' is reserved: it stands for {stands_for}. Choose another handle.")]
    assert not Member.objects.filter(club=club, name=name).exists()


def test_a_new_clubs_owner_is_not_seated_under_a_reserved_name(club, viewer_client, django_user_model):
    body = problem(viewer_client.post("/api/v1/clubs/", {"slug": "ash", "name": "Ash", "member_name": "bank"},
                                      format="json"), 400)
    assert [e["field"] for e in body["errors"]] == ["member_name"]
    assert not Club.objects.filter(slug="ash").exists()
    # a login whose handle would be reserved gets another one
    django_user_model.objects.create_user("Club", password="test-password-123")
    client = APIClient()
    client.login(username="Club", password="test-password-123")
    assert client.post("/api/v1/clubs/", {"slug": "ash", "name": "Ash"}, format="json").status_code == 201
    assert Member.objects.get(club__slug="ash").name == "club-owner"


def test_the_reserved_handles_are_the_ledgers_own_accounts():
    from accounts.models import RESERVED_HANDLES
    from games.models import BANK, POOL
    from games.services.sessions import CLUB_BANKER, RESERVED_SEATS

    assert RESERVED_SEATS is RESERVED_HANDLES and set(RESERVED_HANDLES) == {POOL, BANK, CLUB_BANKER}


def test_database_refuses_duplicate_member_name(club):
    with pytest.raises(IntegrityError):
        Member.objects.create(club=club, name="bob")


@pytest.mark.parametrize("role", ["scorer", "player", "viewer"])
def test_only_owner_may_add_members(club, api_client_for, role):
    problem(api_client_for(role).post("/api/v1/clubs/oak/members/", {"name": "fay"}, format="json"), 403)
    assert not Member.objects.filter(name="fay").exists()


def test_owner_changes_a_role(club, owner_client, viewer_client):
    assert viewer_client.post("/api/v1/clubs/oak/members/", {"name": "fay"}, format="json").status_code == 403
    response = owner_client.patch("/api/v1/clubs/oak/members/vic/", {"role": "owner"}, format="json")
    assert response.status_code == 200
    assert viewer_client.post("/api/v1/clubs/oak/members/", {"name": "fay"}, format="json").status_code == 201


def test_member_name_cannot_change(club, owner_client):
    body = problem(owner_client.patch("/api/v1/clubs/oak/members/bob/", {"name": "robert"}, format="json"), 400)
    assert body["errors"][0]["field"] == "name"


def test_last_owner_cannot_step_down(club, owner_client):
    body = problem(owner_client.patch("/api/v1/clubs/oak/members/olga/", {"role": "viewer"}, format="json"), 400)
    assert body["errors"][0] == {"field": "role", "message": "A club must keep at least one owner with a login.",
                                 "code": "invalid"}
    assert Member.objects.get(club=club, name="olga").role == "owner"


def test_the_last_owners_login_unlinked_is_refused_on_user(club, owner_client):
    body = problem(owner_client.patch("/api/v1/clubs/oak/members/olga/", {"user": None},
                                      format="json"), 400)
    assert [e["field"] for e in body["errors"]] == ["user"]
    assert Member.objects.get(club=club, name="olga").user is not None


def test_an_inactive_login_is_no_owner_to_keep(club, owner_client, django_user_model):
    django_user_model.objects.create_user("gone", password="gone-password-1", is_active=False)
    body = problem(owner_client.patch("/api/v1/clubs/oak/members/olga/", {"user": "gone"},
                                      format="json"), 400)
    # named on the field that changed (it said "role", which was not sent)
    assert body["errors"] == [{"field": "user", "code": "invalid",
                               "message": "A club must keep at least one owner with a login."}]
    # a second owner whose login is switched off does not let olga step down either
    sam = Member.objects.get(club=club, name="sam")
    sam.role = "owner"
    sam.save()
    sam.user.is_active = False
    sam.user.save()
    problem(owner_client.patch("/api/v1/clubs/oak/members/olga/", {"role": "viewer"},
                               format="json"), 400)
    assert Member.objects.get(club=club, name="olga").role == "owner"


def test_an_owner_may_step_down_when_another_remains(club, owner_client):
    owner_client.patch("/api/v1/clubs/oak/members/sam/", {"role": "owner"}, format="json")
    response = owner_client.patch("/api/v1/clubs/oak/members/olga/", {"role": "viewer"}, format="json")
    assert response.status_code == 200
    assert Member.objects.get(club=club, name="olga").role == "viewer"


def test_unknown_member_is_404(club, owner_client):
    # the detail said Django's "No Member matches the given query."
    for answer in (owner_client.get("/api/v1/clubs/oak/members/zed/"),
                   owner_client.patch("/api/v1/clubs/oak/members/zed/", {"role": "viewer"}, format="json"),
                   owner_client.delete("/api/v1/clubs/oak/members/zed/user/")):
        assert problem(answer, 404)["detail"] == "No member named 'zed' in this club."


def test_members_cannot_be_deleted_over_rest(club, owner_client):
    body = problem(owner_client.delete("/api/v1/clubs/oak/members/bob/"), 405)
    assert body["code"] == "method-not-allowed"
    assert Member.objects.filter(club=club, name="bob").exists()


# --- admin ------------------------------------------------------------------------------------


def test_admin_pages_for_clubs_and_members(club, client, django_user_model):
    django_user_model.objects.create_superuser("root", password="root-password-1")
    client.login(username="root", password="root-password-1")
    for url in ["/admin/accounts/club/", f"/admin/accounts/club/{club.pk}/change/",
                "/admin/accounts/member/", "/admin/accounts/member/?role__exact=scorer"]:
        response = client.get(url)
        assert response.status_code == 200, url
    members_page = client.get(f"/admin/accounts/club/{club.pk}/change/").content.decode()
    assert "olga" in members_page and "eve" in members_page


@pytest.fixture
def root_client(client, django_user_model):
    django_user_model.objects.create_superuser("root", password="root-password-1")
    client.login(username="root", password="root-password-1")
    return client


def _member_form(member: Member, **changes) -> dict:
    data = {"display_name": member.display_name, "role": member.role,
            "user": member.user_id or ""}
    data.update(changes)
    return data


def test_admin_keeps_the_clubs_last_owner(club, root_client):
    olga = Member.objects.get(club=club, name="olga")
    url = f"/admin/accounts/member/{olga.pk}/change/"
    for changes in ({"role": "viewer"}, {"user": ""}):
        page = root_client.post(url, _member_form(olga, **changes))
        assert page.status_code == 200  # the form again, with the error
        assert "A club must keep at least one owner with a login." in page.content.decode()
        olga.refresh_from_db()
        assert olga.role == "owner" and olga.user is not None
    # with a second owner, the first may step down
    sam = Member.objects.get(club=club, name="sam")
    assert root_client.post(f"/admin/accounts/member/{sam.pk}/change/",
                            _member_form(sam, role="owner")).status_code == 302
    assert root_client.post(url, _member_form(olga, role="viewer")).status_code == 302
    assert Member.objects.get(pk=olga.pk).role == "viewer"


def test_admin_names_a_bad_login_without_the_owner_rule(club, root_client):
    olga = Member.objects.get(club=club, name="olga")
    page = root_client.post(f"/admin/accounts/member/{olga.pk}/change/",
                            _member_form(olga, user=987654))
    html = page.content.decode()
    assert page.status_code == 200 and "Select a valid choice" in html
    assert "A club must keep at least one owner with a login." not in html


def test_admin_cannot_rename_or_delete_a_member(club, root_client):
    ann = Member.objects.get(club=club, name="ann")
    url = f"/admin/accounts/member/{ann.pk}/change/"
    assert root_client.post(url, {**_member_form(ann), "name": "anne"}).status_code == 302
    assert Member.objects.filter(pk=ann.pk, name="ann").exists()  # name is read-only
    assert root_client.get(f"/admin/accounts/member/{ann.pk}/delete/").status_code == 403
    assert root_client.post("/admin/accounts/member/", {
        "action": "delete_selected", "_selected_action": [ann.pk]}).status_code in (200, 302)
    assert Member.objects.filter(pk=ann.pk).exists()


def test_admin_refuses_non_staff(club, client):
    client.login(username="olga", password="test-password-123")
    assert client.get("/admin/accounts/club/").status_code == 302


# --- tenancy helpers --------------------------------------------------------------------------


def test_club_queryset_filters_by_club_and_never_returns_all_without_one(club, other_club):
    from accounts.tenancy import club_queryset

    assert sorted(club_queryset(Member.objects.all(), other_club).values_list("name", flat=True)) == [
        "ann", "bob", "otto"]
    assert not club_queryset(Member.objects.all(), None).exists()
    assert club_queryset(Club.objects.all(), club, path="members__club").distinct().get() == club


def test_a_clubs_owner_cannot_lose_the_club_by_the_login_being_deleted(club):
    from django.contrib.auth import get_user_model
    from django.db import transaction
    from django.db.models import ProtectedError

    with pytest.raises(ProtectedError), transaction.atomic():
        get_user_model().objects.get(username="olga").delete()
    assert Member.objects.get(club=club, name="olga").user.username == "olga"
    # a login with no membership (and nothing recorded) can go
    get_user_model().objects.create_user("temp", password="temp-password-123").delete()


def test_admin_will_not_switch_off_a_clubs_last_owner(club, root_client):
    from django.contrib.auth import get_user_model

    from accounts.admin import OwnerKeepingUserChangeForm

    olga = get_user_model().objects.get(username="olga")

    def switched_off(user):
        data = {"username": user.username, "date_joined": user.date_joined, "is_active": False}
        return OwnerKeepingUserChangeForm(instance=user, data=data)

    form = switched_off(olga)
    assert not form.is_valid()
    assert "olga is the last owner with a login of oak" in str(form.errors)
    sam = Member.objects.get(club=club, name="sam")
    sam.role = "owner"
    sam.save()
    assert switched_off(get_user_model().objects.get(username="olga")).is_valid()
    assert root_client.get(f"/admin/auth/user/{olga.pk}/change/").status_code == 200
