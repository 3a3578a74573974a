"""A member demoted or removed while their write waits for its lock: the write is refused.

DRF checks the caller's role before the view runs; the write then waits for the session's lock
(or the club's, for a new session or an import), and the request it waited for may have been
the caller's own demotion. Every write re-reads the role once it holds the lock
(``SessionScopedMixin.session_for_write``, ``accounts.tenancy.lock_club_and_recheck``).

The race is replayed deterministically, as in ``test_account_races.py``: the lock function the
view calls first commits the other owner's change, then locks. On PostgreSQL, the last tests run
it with real connections: one holds the lock, or the demotion, while the write waits.
"""
from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

import pytest
from django.conf import settings
from django.db import connection, transaction

import accounts.tenancy
import games.api.views
from accounts.models import Member, Role
from games.imports.models import ImportJob
from games.models import ChipPayment, ChipPurchase, DealRevision, GameSession, LedgerEntry
from games.services.closing import session_close
from games.services.ledger import session_lock
from tests.reports import sessionkit as kit

from .conftest import DEAL1, DEAL2, deals_url, problem, rec, session_url

pytestmark = pytest.mark.django_db

SCORERS_ONLY = "Only the club's owners and scorers may do this."
OWNERS_ONLY = "Only the club's owners may do this."
IMPORTS = "/api/v1/clubs/oak/imports/"


def _meanwhile(monkeypatch: pytest.MonkeyPatch, module: Any, lock: str, who: str,
               **change: Any) -> None:
    """The next call of ``module.<lock>`` first makes another owner's change to member ``who``
    (the change the write's lock waited for), then locks."""
    real = getattr(module, lock)

    def change_first(*args: Any, **kwargs: Any) -> Any:
        Member.objects.filter(club__slug="oak", name=who).update(**change)
        monkeypatch.setattr(module, lock, real)
        return real(*args, **kwargs)

    monkeypatch.setattr(module, lock, change_first)


def _session_meanwhile(monkeypatch: pytest.MonkeyPatch, who: str = "sam", **change: Any) -> None:
    _meanwhile(monkeypatch, games.api.views, "session_lock", who, **change)


def _club_meanwhile(monkeypatch: pytest.MonkeyPatch, who: str = "sam", **change: Any) -> None:
    _meanwhile(monkeypatch, accounts.tenancy, "lock_club", who, **change)


def stored(session: GameSession) -> tuple[Any, ...]:
    """Everything a write to the session could have changed."""
    session.refresh_from_db()
    return (LedgerEntry.objects.filter(session=session).count(),
            DealRevision.objects.filter(deal__session=session).count(),
            ChipPurchase.objects.filter(session=session).count(),
            ChipPayment.objects.filter(session=session).count(), session.status)


@pytest.fixture
def table(oak_session, post_deal, scorer_client):
    """oak_session with deal 1 recorded and bob owing for 15 chips bought on credit."""
    assert post_deal(oak_session, 1, DEAL1).status_code == 201
    response = scorer_client.post(session_url(oak_session, "purchases/"),
                                  {"player": "bob", "chips": 15, "paid": False}, format="json")
    assert response.status_code == 201, response.content
    return oak_session


#: every scorer's write to a session: (url tail under the session, body)
SCORER_WRITES: dict[str, tuple[str, dict[str, Any]]] = {
    "record a deal": ("deals/", {"number": 2, "record": DEAL2}),
    "correct a deal": ("deals/1/corrections",
                       {"record": rec(DEAL1, result={"tricks": {"ann": 1, "bob": 1, "cat": 1}}),
                        "reason": "cat took a trick"}),
    "buy chips": ("purchases/", {"player": "ann", "chips": 5}),
    "pay for chips": ("payments/", {"player": "bob", "money": 50}),
    "close": ("close", {"reason": "the evening is over"}),
}


@pytest.mark.parametrize("write", list(SCORER_WRITES))
def test_a_scorer_demoted_while_queued_writes_nothing(write, table, scorer_client, viewer_client,
                                                      monkeypatch):
    tail, body = SCORER_WRITES[write]
    url = session_url(table, tail)
    before = stored(table)
    _session_meanwhile(monkeypatch, role=Role.VIEWER)
    refused = problem(scorer_client.post(url, body, format="json"), 403)
    assert refused == problem(viewer_client.post(url, body, format="json"), 403)  # the same
    assert (refused["code"], refused["detail"]) == ("permission-denied", SCORERS_ONLY)
    assert stored(table) == before


@pytest.mark.parametrize("write", list(SCORER_WRITES))
def test_a_scorer_unlinked_while_queued_is_no_longer_a_member(write, table, scorer_client,
                                                              monkeypatch):
    tail, body = SCORER_WRITES[write]
    before = stored(table)
    _session_meanwhile(monkeypatch, user=None)
    response = scorer_client.post(session_url(table, tail), body, format="json")
    assert problem(response, 404)["code"] == "not-found"
    assert stored(table) == before


@pytest.mark.parametrize("write", list(SCORER_WRITES))
def test_a_scorer_still_a_scorer_after_the_wait_goes_ahead(write, table, scorer_client,
                                                           monkeypatch):
    tail, body = SCORER_WRITES[write]
    _session_meanwhile(monkeypatch, display_name="Sam, still scoring")
    response = scorer_client.post(session_url(table, tail), body, format="json")
    assert response.status_code in (200, 201), response.content


def test_a_demoted_scorer_keyed_write_is_refused_and_keeps_no_key(table, scorer_client,
                                                                  monkeypatch):
    url, body = deals_url(table), {"number": 2, "record": DEAL2}
    _session_meanwhile(monkeypatch, role=Role.PLAYER)
    assert scorer_client.post(url, body, format="json",
                              headers={"Idempotency-Key": "queued-1"}).status_code == 403
    # the key was released with the refusal: the same key runs afresh (sam is a scorer again:
    # the demotion here went with the refused request's transaction)
    again = scorer_client.post(url, body, format="json", headers={"Idempotency-Key": "queued-1"})
    assert again.status_code == 201 and "Idempotent-Replayed" not in again


def test_an_owner_demoted_while_queued_cannot_reopen(table, owner_client, monkeypatch):
    session_close(session=table, reason="closed")
    before = stored(table)
    _session_meanwhile(monkeypatch, who="olga", role=Role.SCORER)
    response = owner_client.post(session_url(table, "reopen"), {"reason": "a slip"}, format="json")
    refused = problem(response, 403)
    assert (refused["code"], refused["detail"]) == ("permission-denied", OWNERS_ONLY)
    assert stored(table) == before and before[-1] == GameSession.Status.CLOSED


def test_a_scorer_demoted_while_queued_opens_no_session(club, scorer_client, monkeypatch):
    body = {"date": "2026-11-28", "seats": ["ann", "bob", "cat"], "first_dealer": "cat",
            "rules": {"preset": "three-card"}}
    _club_meanwhile(monkeypatch, role=Role.VIEWER)
    refused = problem(scorer_client.post("/api/v1/clubs/oak/sessions/", body, format="json"), 403)
    assert (refused["code"], refused["detail"]) == ("permission-denied", SCORERS_ONLY)
    assert not GameSession.objects.exists()


def test_an_owner_demoted_while_queued_adds_no_member_and_renames_nothing(club, owner_client,
                                                                         monkeypatch):
    from accounts.models import Club

    _club_meanwhile(monkeypatch, who="olga", role=Role.SCORER)
    refused = problem(owner_client.post("/api/v1/clubs/oak/members/",
                                        {"name": "newcomer", "role": "player"}, format="json"), 403)
    assert (refused["code"], refused["detail"]) == ("permission-denied", OWNERS_ONLY)
    assert not Member.objects.filter(club=club, name="newcomer").exists()
    Member.objects.filter(club=club, name="olga").update(role=Role.OWNER)
    name = Club.objects.get(pk=club.pk).name
    _club_meanwhile(monkeypatch, who="olga", role=Role.SCORER)
    refused = problem(owner_client.patch("/api/v1/clubs/oak/", {"name": "Renamed"},
                                         format="json"), 403)
    assert refused["code"] == "permission-denied"
    assert Club.objects.get(pk=club.pk).name == name


def test_a_scorer_demoted_while_queued_queues_no_import(club, scorer_client, monkeypatch,
                                                        django_capture_on_commit_callbacks):
    _club_meanwhile(monkeypatch, role=Role.PLAYER)
    with django_capture_on_commit_callbacks(execute=True) as published:
        response = scorer_client.post(IMPORTS, {"source": kit.session_file(2)}, format="json")
    assert problem(response, 403)["detail"] == SCORERS_ONLY
    assert not ImportJob.objects.exists() and not published
    assert not GameSession.objects.exists()


def test_a_scorer_demoted_while_queued_retries_no_import(club, scorer_client, monkeypatch,
                                                         django_capture_on_commit_callbacks,
                                                         eager_celery):
    with django_capture_on_commit_callbacks(execute=True):
        job = scorer_client.post(IMPORTS, {"source": "{}"}, format="json").json()
    assert scorer_client.get(job["url"]).json()["status"] == "failed"
    _club_meanwhile(monkeypatch, role=Role.VIEWER)
    with django_capture_on_commit_callbacks(execute=True) as published:
        response = scorer_client.post(f"{job['url']}/retry")
    assert problem(response, 403)["detail"] == SCORERS_ONLY
    assert not published
    after = ImportJob.objects.get(pk=job["id"])
    assert (after.status, after.attempts) == (ImportJob.Status.FAILED, 1)


@pytest.mark.django_db(transaction=True)
def test_the_recheck_refuses_to_run_outside_a_transaction(club):
    # a lock taken outside a transaction is released at once: the check would protect nothing
    view = games.api.views.LedgerView()
    view.member = Member.objects.get(club__slug="oak", name="sam")
    with pytest.raises(RuntimeError, match="outside a transaction"):
        view.recheck_permissions(None)


# --- the same, with real connections (PostgreSQL: SQLite serialises every writer) ---------------

on_postgresql = pytest.mark.skipif(
    settings.DATABASES["default"]["ENGINE"] != "django.db.backends.postgresql",
    reason="needs PostgreSQL (row locks between real connections)")


def _in_thread(work: Callable[[], Any], results: list[Any]) -> threading.Thread:
    def run() -> None:
        try:
            results.append(work())
        except Exception as exc:  # noqa: BLE001 - surfaced by the assertions
            results.append(exc)
        finally:
            connection.close()

    thread = threading.Thread(target=run)
    thread.start()
    return thread


def _holding(take: Callable[[], Any], held: threading.Event, release: threading.Event
             ) -> Callable[[], None]:
    """Work for a thread: ``take`` a lock in a transaction, say so, hold it until released."""
    def hold() -> None:
        with transaction.atomic():
            take()
            held.set()
            assert release.wait(30)
    return hold


def _wait_until_blocked_on_a_lock() -> None:
    """Until another connection of this database waits for a row lock."""
    for _ in range(300):
        with connection.cursor() as cursor:
            cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = "
                           "current_database() AND wait_event_type = 'Lock'")
            if cursor.fetchone()[0]:
                return
        time.sleep(0.02)
    raise AssertionError("the write never waited for the lock")


def _race(oak_session: GameSession, scorer: Any, take: Callable[[], Any],
          between: Callable[[], Any]) -> Any:
    """Another connection takes a lock and holds it; the scorer's deal 1 waits for it;
    ``between`` runs; the lock is released. The scorer's answer."""
    held, release = threading.Event(), threading.Event()
    holder_results: list[Any] = []
    holder = _in_thread(_holding(take, held, release), holder_results)
    assert held.wait(30)
    answers: list[Any] = []
    writer = _in_thread(lambda: scorer.post(deals_url(oak_session), {"number": 1, "record": DEAL1},
                                            format="json"), answers)
    try:
        _wait_until_blocked_on_a_lock()
        between()
    finally:
        release.set()
        holder.join(30)
        writer.join(30)
    assert holder_results == [None], holder_results
    return answers[0]


def _demote_sam() -> None:
    Member.objects.filter(club__slug="oak", name="sam").update(role=Role.VIEWER)


@on_postgresql
@pytest.mark.django_db(transaction=True)
def test_demoted_while_waiting_for_the_session_lock(oak_session, api_client_for):
    answer = _race(oak_session, api_client_for("scorer"), lambda: session_lock(oak_session.pk),
                   _demote_sam)
    assert problem(answer, 403)["detail"] == SCORERS_ONLY
    assert not DealRevision.objects.filter(deal__session=oak_session).exists()


@on_postgresql
@pytest.mark.django_db(transaction=True)
def test_a_demotion_being_committed_is_waited_for(oak_session, api_client_for):
    # the demotion is made, not yet committed, when the write takes the session's lock: the
    # write waits for sam's member row and reads the role the demotion commits
    answer = _race(oak_session, api_client_for("scorer"), _demote_sam, lambda: None)
    assert problem(answer, 403)["detail"] == SCORERS_ONLY
    assert not DealRevision.objects.filter(deal__session=oak_session).exists()


@on_postgresql
@pytest.mark.django_db(transaction=True)
def test_a_retry_while_the_worker_stores_waits_and_is_told_it_is_stored(club, api_client_for,
                                                                        member_for, monkeypatch):
    # The worker holds the job's row while it stores; its new session points at the club, so
    # its commit takes a key-share lock on the club's row. A retry holds the club's lock and
    # waits for the job's row: the club lock must not exclude that key share (a deadlock, one
    # of the two aborted, before lock_club took FOR NO KEY UPDATE).
    import games.imports.services as imports

    job = ImportJob.objects.create(club=club, created_by=member_for("scorer").user,
                                   source=kit.session_file(2))
    storing, go_on = threading.Event(), threading.Event()
    real_store = imports.store_session_file

    def slow_store(*args: Any, **kwargs: Any) -> Any:
        session = real_store(*args, **kwargs)
        storing.set()
        assert go_on.wait(30)
        return session

    monkeypatch.setattr(imports, "store_session_file", slow_store)
    ran: list[Any] = []
    worker = _in_thread(lambda: imports.run_import(job.pk), ran)
    assert storing.wait(30)
    answers: list[Any] = []
    retry = _in_thread(lambda: api_client_for("scorer").post(
        f"/api/v1/clubs/oak/imports/{job.pk}/retry"), answers)
    try:
        _wait_until_blocked_on_a_lock()
    finally:
        go_on.set()
        worker.join(30)
        retry.join(30)
    assert ran[0].status == ImportJob.Status.DONE, ran
    assert answers[0].status_code == 409, answers[0].content
    assert GameSession.objects.count() == 1
