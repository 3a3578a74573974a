"""Shared test configuration."""
import os

from hypothesis import HealthCheck, settings

settings.register_profile("default", max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("ci", max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("thorough", max_examples=2000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))


def pytest_sessionstart(session) -> None:
    """CI requires the browser tests to run (tests/browser.py): no Chromium stops the run."""
    from tests.browser import missing_browser

    why = missing_browser()
    if why:
        raise pytest.UsageError(why)


# --- Shared fixtures: clubs, members with each role, token-authenticated API clients (S1) ----
# Club "oak": owner olga, scorer sam, player ann (with a login), viewer vic, and players bob,
# cat, dan, eve without logins (seat handles for sessions). Club "elm": owner otto, plus its own
# ann and bob (same handles, different club) to catch queries that forget the club.
import pytest

ROLE_LOGINS: dict[str, tuple[str, str, str]] = {
    # role -> (username, member name, club slug)
    "owner": ("olga", "olga", "oak"),
    "scorer": ("sam", "sam", "oak"),
    "player": ("ann", "ann", "oak"),
    "viewer": ("vic", "vic", "oak"),
    "outsider": ("otto", "otto", "elm"),
}
TABLE_PLAYERS = ["ann", "bob", "cat", "dan", "eve"]
TEST_PASSWORD = "test-password-123"


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):
    """Test users hash their password with a fast hasher (PBKDF2 costs ~0.4 s per user)."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def eager_celery():
    """Tasks run in-process even when CELERY_BROKER_URL points at a real broker (the
    real-worker tests are tests/test_worker_imports.py)."""
    from loo_ledger.celery import app

    before = app.conf.task_always_eager
    app.conf.task_always_eager = True
    yield
    app.conf.task_always_eager = before


@pytest.fixture(scope="session", autouse=True)
def _own_cache_keys(worker_id):
    """Each xdist worker keeps its cache keys under a prefix of its own: on a shared Redis
    (CI's ``CACHE_URL``), one worker's clearing must not wipe the login counts a test in the
    other worker is counting up."""
    from django.conf import settings as django_settings
    from django.test import override_settings

    default = {**django_settings.CACHES["default"], "KEY_PREFIX": f"test-{worker_id}"}
    with override_settings(CACHES={**django_settings.CACHES, "default": default}):
        yield


def _clear_own_cache() -> None:
    """Forget this worker's cache keys: all of an in-process cache, only its own prefix's on
    Redis (``cache.clear()`` would flush the other worker's too)."""
    from django.core.cache import caches
    from django.core.cache.backends.redis import RedisCache

    cache = caches["default"]  # (``django.core.cache.cache`` is a proxy: no isinstance)
    if not isinstance(cache, RedisCache):
        cache.clear()
        return
    client = cache._cache.get_client(write=True)
    keys = list(client.scan_iter(match=f"{cache.key_prefix}:*", count=1000))
    if keys:
        client.delete(*keys)


@pytest.fixture(autouse=True)
def _fresh_rate_limits():
    """Every test starts with no rate-limit counts (the cache may be a shared Redis)."""
    _clear_own_cache()
    yield
    _clear_own_cache()


@pytest.fixture
def club(db):
    """Club 'oak' with a member per role and five players ann..eve."""
    from accounts.models import Club, Role
    from accounts.services import member_ensure

    oak = Club.objects.create(slug="oak", name="Oak Card Club")
    for role in ("owner", "scorer", "player", "viewer"):
        username, name, _ = ROLE_LOGINS[role]
        member_ensure(club=oak, name=name, role=role, user=_user(username))
    for name in TABLE_PLAYERS:
        member_ensure(club=oak, name=name, role=Role.PLAYER)
    return oak


@pytest.fixture
def other_club(db):
    """Club 'elm' owned by otto, with its own ann and bob."""
    from accounts.models import Club, Role
    from accounts.services import member_ensure

    elm = Club.objects.create(slug="elm", name="Elm Card Club")
    member_ensure(club=elm, name="otto", role=Role.OWNER, user=_user("otto"))
    for name in ("ann", "bob"):
        member_ensure(club=elm, name=name, role=Role.PLAYER)
    return elm


def _user(username: str):
    from django.contrib.auth import get_user_model

    user, created = get_user_model().objects.get_or_create(username=username)
    if created:
        user.set_password(TEST_PASSWORD)
        user.save()
    return user


@pytest.fixture
def seats() -> list[str]:
    """Four of club oak's players, clockwise."""
    return ["ann", "bob", "cat", "dan"]


@pytest.fixture
def member_for(club, other_club):
    """member_for(role) -> the Member with that role ('outsider' = otto of elm)."""
    from accounts.models import Member

    def get(role: str):
        _username, name, slug = ROLE_LOGINS[role]
        return Member.objects.get(club__slug=slug, name=name)

    return get


@pytest.fixture
def api_client_for(club, other_club):
    """api_client_for(role) -> APIClient with that role's token; 'anon' has no credentials."""
    from rest_framework.authtoken.models import Token
    from rest_framework.test import APIClient

    def make(role: str) -> APIClient:
        client = APIClient()
        if role != "anon":
            token, _ = Token.objects.get_or_create(user=_user(ROLE_LOGINS[role][0]))
            client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
        return client

    return make


def _client_fixture(role: str, doc: str):
    """A fixture ``<role>_client``: an APIClient authenticated as that role (see ROLE_LOGINS)."""

    def client(api_client_for):
        return api_client_for(role)

    client.__doc__ = doc
    return pytest.fixture(client, name=f"{role}_client")


owner_client = _client_fixture("owner", "olga, owner of club oak.")
scorer_client = _client_fixture("scorer", "sam, scorer of club oak.")
player_client = _client_fixture("player", "ann, player of club oak (with a login).")
viewer_client = _client_fixture("viewer", "vic, viewer of club oak.")
outsider_client = _client_fixture("outsider", "otto: owner of club elm, a stranger to club oak.")
anon_client = _client_fixture("anon", "No credentials at all.")


@pytest.fixture
def world(club, other_club, member_for):
    """A session of oak with two recorded deals and a purchase, and an import job of oak."""
    import datetime as dt
    import random

    from games.imports.models import ImportJob
    from games.rules.simulate import random_session
    from games.services.deals import deal_record
    from games.services.sessions import purchase_record, session_create

    seats = ["ann", "bob", "cat", "dan"]
    session = session_create(club=club, date=dt.date(2026, 11, 28), seats=seats, first_dealer="ann",
                             rules={"preset": "three-card"}, allow_credit=True,
                             user=member_for("owner").user)
    _, *records = random_session({"preset": "three-card"}, seats, 2, random.Random(7), first_dealer="ann")
    for number, record in enumerate(records, start=1):
        deal_record(session=session, number=number, record=record, user=member_for("scorer").user)
    purchase = purchase_record(session=session, player="ann", chips=10)
    job = ImportJob.objects.create(club=club, source="", status=ImportJob.Status.FAILED, detail="test")
    return {"session_id": session.pk, "number": 1, "job_id": job.pk, "purchase_id": purchase.pk}


# --- the ledger invariant, checked after every test of the suite that wrote ------------------

@pytest.fixture(autouse=True)
def ledger_invariant(request: pytest.FixtureRequest):
    """After every test that touched the database: every session's ledger passes ledger_check.

    A test that breaks the ledger on purpose requests ``ledger_may_break``.
    """
    names = set(request.fixturenames)
    if "transactional_db" in names or "live_server" in names:
        request.getfixturevalue("transactional_db")
    elif "db" in names:
        request.getfixturevalue("db")
    else:
        yield
        return
    yield
    from django.db import connection

    if "ledger_may_break" in names or connection.needs_rollback:
        return  # a test that broke its own transaction on purpose wrote nothing
    from games.models import GameSession
    from games.services.ledger import ledger_check

    for session in GameSession.objects.all():
        assert ledger_check(session) == [], f"session {session.pk} ledger broken"


@pytest.fixture
def ledger_may_break() -> None:
    """Marks a test that breaks a ledger on purpose (skips the invariant check)."""
