"""The security matrix: every endpoint under /api/v1/, found from the URL resolver, called with
no credentials (401), another club's credentials (404), a viewer's and a player's writes (403)
and a scorer's owner-only writes (403); a member's reads succeed (so a 404 is about tenancy, not
a missing object). Every write endpoint also gets malformed and ill-typed bodies: a 4xx
problem, never a 500.

A new endpoint fails ``test_every_api_endpoint_is_in_the_table`` until it is added to ENDPOINTS
with the level of who may call each method.
"""
from __future__ import annotations

import datetime as dt
import functools
import json
import random
import re
from collections.abc import Iterator

import pytest
from django.urls import URLPattern, URLResolver, get_resolver
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pytestmark = pytest.mark.django_db

PUBLIC = "public"  # anyone, no credentials
AUTH = "auth"  # any logged-in user (not club-scoped)
READ = "read"  # any member of the club
RECORD = "record"  # owners and scorers
OWNER = "owner"  # owners only

CLUB = "api/v1/clubs/<slug:club>/"
SESSION = CLUB + "sessions/<int:session_id>/"

ENDPOINTS: dict[str, dict[str, str]] = {
    "api/v1/": {"get": PUBLIC},
    "api/v1/schema/": {"get": PUBLIC},
    "api/v1/docs/": {"get": PUBLIC},
    "api/v1/redoc/": {"get": PUBLIC},
    "api/v1/auth/token/": {"post": PUBLIC, "delete": AUTH},
    "api/v1/auth/password/": {"post": AUTH},
    "api/v1/replay": {"post": AUTH},
    "api/v1/clubs/": {"get": AUTH, "post": AUTH},
    CLUB: {"get": READ, "put": OWNER, "patch": OWNER},
    CLUB + "members/": {"get": READ, "post": OWNER},
    CLUB + "members/<slug:name>/": {"get": READ, "put": OWNER, "patch": OWNER},
    CLUB + "members/<slug:name>/user/": {"delete": OWNER},  # or the member itself (its own name)
    CLUB + "results": {"get": READ},
    CLUB + "imports/": {"get": READ, "post": RECORD},
    CLUB + "imports/<int:job_id>": {"get": READ},
    CLUB + "imports/<int:job_id>/retry": {"post": RECORD},
    CLUB + "sessions/": {"get": READ, "post": RECORD},
    SESSION: {"get": READ},
    SESSION + "deals/": {"get": READ, "post": RECORD},
    SESSION + "deals/<int:number>/": {"get": READ},
    SESSION + "deals/<int:number>/corrections": {"post": RECORD},
    SESSION + "ledger": {"get": READ},
    SESSION + "purchases/": {"get": READ, "post": RECORD},
    SESSION + "purchases/<int:purchase_id>/void": {"post": RECORD},
    SESSION + "payments/": {"get": READ, "post": RECORD},
    SESSION + "report": {"get": READ},
    SESSION + "file": {"get": READ},
    SESSION + "close": {"post": RECORD},
    SESSION + "reopen": {"post": OWNER},
    SESSION + "closings": {"get": READ},
}

METHODS = ("get", "post", "put", "patch", "delete")
UNSAFE = {"post", "put", "patch", "delete"}
CLUB_SCOPED = {READ, RECORD, OWNER}
PROBLEM = "application/problem+json"


def _walk(patterns, prefix: str = "") -> Iterator[tuple[str, object]]:
    for p in patterns:
        route = prefix + str(p.pattern)
        if isinstance(p, URLResolver):
            yield from _walk(p.url_patterns, route)
        elif isinstance(p, URLPattern):
            yield route, p.callback


def _methods(callback) -> set[str]:
    view_class = getattr(callback, "cls", None) or getattr(callback, "view_class", None)
    actions = getattr(callback, "actions", None)  # DRF viewsets
    if actions:
        return set(actions)
    if view_class is None:  # a function view: every method it names
        return {m for m in METHODS if m.upper() in getattr(callback, "http_method_names", [])} or {"get"}
    return {m for m in METHODS if hasattr(view_class, m)}


def discovered_endpoints() -> dict[str, set[str]]:
    """Every route under /api/v1/ with the HTTP methods its view implements."""
    found: dict[str, set[str]] = {}
    for route, callback in _walk(get_resolver().url_patterns):
        if route.startswith("api/v1/"):
            found.setdefault(route, set()).update(_methods(callback))
    return found


CASES = sorted((route, method, level) for route, methods in ENDPOINTS.items() for method, level in methods.items())


def case_id(case) -> str:
    route, method, _ = case
    return f"{method.upper()} /{route}"


def cases(predicate) -> list:
    return [pytest.param(*c, id=case_id(c)) for c in CASES if predicate(*c)]


def test_every_api_endpoint_is_in_the_table():
    found = discovered_endpoints()
    table = {route: set(methods) for route, methods in ENDPOINTS.items()}
    missing = {r: sorted(m) for r, m in found.items() if table.get(r) != m}
    stale = sorted(set(table) - set(found))
    assert not missing, f"endpoints (or methods) not in ENDPOINTS: {missing}"
    assert not stale, f"ENDPOINTS lists routes that no longer exist: {stale}"


# --- the objects every URL points at: they exist in club oak ----------------------------------


def url_for(route: str, world: dict, **overrides) -> str:
    values = {"club": "oak", "name": "bob", **world, **overrides}
    return "/" + re.sub(r"<(?:\w+:)?(\w+)>", lambda m: str(values[m.group(1)]), route)


def call(client, method: str, url: str, body=None):
    if method == "get":
        return client.get(url)
    return getattr(client, method)(url, json.dumps(body if body is not None else {}),
                                   content_type="application/json")


def without_location(body: dict) -> dict:
    """A problem minus the members that name the URL or the missing thing."""
    return {k: v for k, v in body.items() if k not in {"instance", "detail"}}


def assert_problem(response, status: int) -> dict:
    assert response.status_code == status, (response.status_code, response.content[:300])
    assert response["Content-Type"] == PROBLEM
    return response.json()


# --- the matrix -------------------------------------------------------------------------------


@pytest.mark.parametrize(("route", "method", "level"), cases(lambda r, m, lv: lv != PUBLIC))
def test_anonymous_is_401(route, method, level, world, anon_client):
    response = call(anon_client, method, url_for(route, world))
    assert assert_problem(response, 401)["code"] == "not-authenticated"
    assert response["WWW-Authenticate"] == "Token"


@pytest.mark.parametrize(("route", "method", "level"), cases(lambda r, m, lv: lv in CLUB_SCOPED))
def test_another_clubs_member_gets_404(route, method, level, world, outsider_client):
    """otto owns club elm: in oak he is nobody, whatever the method."""
    body = assert_problem(call(outsider_client, method, url_for(route, world)), 404)
    assert "oak" not in json.dumps({k: v for k, v in body.items() if k != "instance"})


@pytest.mark.parametrize(("route", "method", "level"),
                         cases(lambda r, m, lv: lv in CLUB_SCOPED and re.search(r"<(int|slug):(session_id|number|job_id|purchase_id|name)>", r)))
def test_another_clubs_objects_through_own_club_look_like_missing_ones(route, method, level, world,
                                                                       outsider_client):
    """otto names his own club (where he is owner) but oak's session/deal/job ids and oak-only
    member cat: the answer is exactly the answer for ids that exist nowhere. A read is a 404; a
    write may refuse its body first (400), but never succeeds and never differs."""
    url = url_for(route, world, club="elm", name="cat")
    nowhere = url_for(route, {k: 999_999 for k in world}, club="elm", name="nobody")
    response, missing = call(outsider_client, method, url), call(outsider_client, method, nowhere)
    expected = 404 if method == "get" else missing.status_code
    body = assert_problem(response, expected)
    assert expected in {400, 404}
    assert without_location(body) == without_location(missing.json())


@pytest.mark.parametrize("role", ["viewer", "player"])
@pytest.mark.parametrize(("route", "method", "level"), cases(lambda r, m, lv: m in UNSAFE and lv in CLUB_SCOPED))
def test_read_only_roles_may_not_write(route, method, level, role, world, api_client_for):
    body = assert_problem(call(api_client_for(role), method, url_for(route, world)), 403)
    assert body["code"] == "permission-denied"


@pytest.mark.parametrize(("route", "method", "level"), cases(lambda r, m, lv: m in UNSAFE and lv == OWNER))
def test_scorer_may_not_do_owner_only_writes(route, method, level, world, scorer_client):
    assert_problem(call(scorer_client, method, url_for(route, world)), 403)


@pytest.mark.parametrize(("route", "method", "level"), cases(lambda r, m, lv: m == "get" and lv != OWNER))
def test_a_viewer_reads_everything_of_the_club(route, method, level, world, viewer_client):
    response = viewer_client.get(url_for(route, world))
    assert response.status_code == 200, (response.status_code, response.content[:300])


@pytest.mark.parametrize(("route", "method", "level"), cases(lambda r, m, lv: m == "get" and lv != PUBLIC))
def test_a_members_read_is_kept_by_no_shared_cache(route, method, level, world, viewer_client,
                                                   client, member_for):
    """By token or by session (the browsable API, the report page's links), an answer holding
    the club's data says so to every cache between (loo_ledger/private_answers.py)."""
    client.force_login(member_for("viewer").user)
    for who in (viewer_client, client):
        response = who.get(url_for(route, world))
        assert response.status_code == 200, (response.status_code, response.content[:300])
        assert response["Cache-Control"] == "private, max-age=0"


@pytest.mark.parametrize(("route", "method", "level"), cases(lambda r, m, lv: m == "get" and lv == PUBLIC))
def test_a_public_read_to_a_visitor_is_not_made_private(route, method, level, world, anon_client):
    response = anon_client.get(url_for(route, world))
    assert response.status_code == 200
    assert "private" not in response.get("Cache-Control", "")


# --- write endpoints never answer 500 ----------------------------------------------------------

WRITES = cases(lambda r, m, lv: m in UNSAFE and (r, m) != ("api/v1/auth/token/", "delete"))  # bodyless
IGNORES_BODY = {CLUB + "imports/<int:job_id>/retry", CLUB + "members/<slug:name>/user/"}  # actions that never read a body
MALFORMED = ["{", '{"seats": [', "nul", "\x00\x01", "[1,]", '{"a": 1} trailing',
             '{"a": "\\u0000"}', '{"a": "\\ud800"}']  # text no database can store
ILL_TYPED = [None, [], 0, -1, "x", True, [{}], {"": None},
             {"date": 5, "seats": "ann", "rules": [], "first_dealer": 3, "chip_value": "many"},
             {"number": "one", "record": [], "reason": {}, "chips": -3, "player": ["ann"]},
             {"slug": 7, "name": None, "role": "king", "user": 12, "display_name": []},
             {"record": {"dealer": "zed", "actions": "lots"}, "rules": {"preset": 9}, "pool": "x"}]


@pytest.mark.parametrize(("route", "method", "level"), WRITES)
@pytest.mark.parametrize("text", MALFORMED)
def test_malformed_json_is_a_400_problem(route, method, level, text, world, owner_client):
    response = getattr(owner_client, method)(url_for(route, world), text, content_type="application/json")
    if route in IGNORES_BODY:
        assert response.status_code < 400, response.content[:300]
        return
    body = assert_problem(response, 400)
    assert body["code"] in {"malformed-request", "validation-error"}


@pytest.mark.parametrize(("route", "method", "level"), WRITES)
@pytest.mark.parametrize("payload", ILL_TYPED, ids=[f"body{i}" for i in range(len(ILL_TYPED))])
def test_ill_typed_bodies_are_4xx_problems(route, method, level, payload, world, owner_client):
    response = call(owner_client, method, url_for(route, world), payload)
    assert response.status_code < 500, response.content[:300]
    if response.status_code >= 400:
        assert response["Content-Type"] == PROBLEM


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
        st.sampled_from(["seats", "dealer", "pool", "record", "number", "rules", "chips", "player",
                         "name", "role", "actions", "date", "first_dealer", "reason", "x"]) | st.text(max_size=5),
        inner, max_size=5),
    max_leaves=12,
)


@pytest.mark.parametrize(("route", "method", "level"), WRITES)
@settings(max_examples=25, suppress_health_check=[HealthCheck.function_scoped_fixture], deadline=None)
@given(payload=JSON_VALUES)
def test_random_json_never_500(route, method, level, world, owner_client, payload):
    response = call(owner_client, method, url_for(route, world), payload)
    assert response.status_code < 500, (payload, response.content[:300])
    if response.status_code >= 400:
        assert response["Content-Type"] == PROBLEM


# --- odd URLs: huge ids and garbage filters are 4xx problems, never 500 ----------------------

HUGE = 10**25


@pytest.mark.parametrize(("route", "method", "level"),
                         cases(lambda r, m, lv: lv in CLUB_SCOPED and "<int:" in r))
def test_huge_ids_are_not_found(route, method, level, world, owner_client):
    url = url_for(route, {k: HUGE for k in world})
    response = call(owner_client, method, url)
    if method == "get":
        assert_problem(response, 404)
    else:  # a write may refuse its body before looking the id up
        assert response.status_code in {400, 404}, response.content[:300]
        assert response["Content-Type"] == PROBLEM


@functools.cache
def query_parameters() -> dict[str, list[str]]:
    """Each GET path's query parameters, as the OpenAPI schema documents them."""
    from drf_spectacular.generators import SchemaGenerator

    schema = SchemaGenerator().get_schema(request=None, public=True)
    out: dict[str, list[str]] = {}
    for path, item in schema["paths"].items():
        names = [p["name"] for p in item.get("get", {}).get("parameters", []) if p["in"] == "query"]
        if names:
            out[path] = names
    return out


GARBAGE = ["garbage", "-1", "9" * 30, "9" * 5000, "2026-13-45", "\x00", "' OR 1=1 --", "[]", ""]


@pytest.mark.parametrize(("route", "method", "level"), cases(lambda r, m, lv: m == "get" and lv in CLUB_SCOPED | {AUTH}))
def test_garbage_query_parameters_are_never_500(route, method, level, world, viewer_client):
    path = "/" + re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", route)
    names = query_parameters().get(path, [])
    for name in names:
        for value in GARBAGE:
            response = viewer_client.get(url_for(route, world), {name: value})
            assert response.status_code < 500, (name, value, response.content[:300])
            if response.status_code >= 400:
                assert response["Content-Type"] == PROBLEM, (name, value)


def test_query_parameters_are_discovered_from_the_schema():
    params = query_parameters()
    assert "status" in params["/api/v1/clubs/{club}/sessions/"]
    assert "role" in params["/api/v1/clubs/{club}/members/"]


# --- no list or page of club oak shows anything of club elm -----------------------------------

ELM_MARKS = ("zelda", "elm-secret")


@pytest.fixture
def elm_world(other_club, member_for):
    """Club elm's own session (with a player only elm has) and import job, marked to be found."""
    from accounts.services import member_ensure
    from games.imports.models import ImportJob
    from games.rules.simulate import random_session
    from games.services.deals import deal_record
    from games.services.sessions import session_create

    member_ensure(club=other_club, name="zelda")
    seats = ["ann", "bob", "zelda"]
    owner = member_for("outsider").user
    session = session_create(club=other_club, date=dt.date(2026, 11, 28), name="elm-secret-session",
                             seats=seats, first_dealer="zelda", rules={"preset": "three-card"},
                             allow_credit=True, user=owner)
    _, *records = random_session({"preset": "three-card"}, seats, 2, random.Random(11), first_dealer="zelda")
    for number, record in enumerate(records, start=1):
        deal_record(session=session, number=number, record=record, user=owner)
    ImportJob.objects.create(club=other_club, filename="elm-secret.jsonl", source="", detail="elm-secret")
    return session


@pytest.mark.parametrize(("route", "method", "level"), cases(lambda r, m, lv: m == "get" and lv in CLUB_SCOPED | {AUTH}))
def test_nothing_of_another_club_shows_through(route, method, level, world, elm_world, owner_client):
    response = owner_client.get(url_for(route, world))
    assert response.status_code == 200
    text = response.content.decode(errors="replace").lower()
    assert not [mark for mark in ELM_MARKS if mark in text]


def test_the_marks_are_visible_to_elm_itself(elm_world, outsider_client):
    """The control for the test above: the marks are there to be leaked."""
    sessions = outsider_client.get("/api/v1/clubs/elm/sessions/").content.decode()
    deals = outsider_client.get(f"/api/v1/clubs/elm/sessions/{elm_world.pk}/deals/").content.decode()
    imports = outsider_client.get("/api/v1/clubs/elm/imports/").content.decode()
    assert "elm-secret" in sessions and "zelda" in deals and "elm-secret" in imports
    home = logged_in("otto").get("/").content.decode().lower()
    assert "elm card club" in home


# --- server-rendered pages (session login) follow the same rules -------------------------------

# (problems/ and favicon.ico are public and hold no club data: tests/api/test_home.py and test_problem_pages.py)
NOT_PAGES = ("api/", "admin/", "api-auth/", "problems/", "static/", "favicon.ico")
WEB_PAGES: dict[str, str] = {
    "": PUBLIC,  # the landing page: a member's own clubs and sessions once logged in
    "clubs/<slug:club>/sessions/<int:session_id>/report/": READ,
    "clubs/<slug:club>/results/": READ,
    "clubs/<slug:club>/": READ,  # the club's own page: every session
}


def discovered_pages() -> set[str]:
    return {route for route, _ in _walk(get_resolver().url_patterns) if not route.startswith(NOT_PAGES)}


def test_every_web_page_is_in_the_table():
    assert discovered_pages() == set(WEB_PAGES)


def logged_in(username: str):
    from django.test import Client

    client = Client()
    client.login(username=username, password="test-password-123")
    return client


@pytest.mark.parametrize("route", sorted(r for r, lv in WEB_PAGES.items() if lv == READ))
def test_web_page_tenancy(route, world, client):
    url = url_for(route, world)
    anonymous = client.get(url)
    assert anonymous.status_code == 302 and "/login/" in anonymous["Location"]
    assert logged_in("otto").get(url).status_code == 404
    assert logged_in("otto").get(url_for(route, world, club="nope")).status_code == 404
    assert logged_in("vic").get(url).status_code == 200


@pytest.mark.parametrize("route", sorted(r for r, lv in WEB_PAGES.items() if lv == PUBLIC))
def test_public_web_page_loads_for_anyone(route, world, client):
    assert client.get(url_for(route, world)).status_code == 200


@pytest.mark.parametrize("route", sorted(WEB_PAGES))
def test_web_pages_show_nothing_of_another_club(route, world, elm_world):
    response = logged_in("vic").get(url_for(route, world))
    assert response.status_code == 200
    text = response.content.decode().lower()
    assert not [mark for mark in ELM_MARKS if mark in text]
    assert "elm card club" not in text
