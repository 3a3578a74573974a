"""Imports against a real Celery worker on Redis (run when CELERY_BROKER_URL is set).

The worker is a subprocess (`celery -A loo_ledger worker --pool=solo`) pointed at the same
PostgreSQL test database (pytest-django's `test_<NAME>`); the tests use committed rows
(`transactional_db`) so the worker sees them. The second test kills the worker half-way through
storing (a fault-injection hook holds the run there) and checks that nothing of the
session was stored and that a retry stores it whole. The third kills the pool process of every
run, as the OOM killer would a file too large: the worker hands the job out again three times,
then fails it, and lives on.
"""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.reports import sessionkit as kit

BROKER = os.environ.get("CELERY_BROKER_URL", "")
ROOT = Path(__file__).resolve().parents[1]
WAIT = 120  # seconds: a bound on waiting for the worker, never an assertion about speed

pytestmark = [
    pytest.mark.worker,
    pytest.mark.skipif(not BROKER, reason="CELERY_BROKER_URL not set: no real broker to test"),
]


def wait_for(what: str, check: Callable[[], bool]) -> None:
    """Poll until `check()` holds; fail (naming `what`) if it never does within WAIT."""
    deadline = time.monotonic() + WAIT
    while not check():
        if time.monotonic() > deadline:
            pytest.fail(f"gave up waiting for {what}")
        time.sleep(0.2)


def database_url() -> str:
    from django.db import connection

    s = connection.settings_dict
    if connection.vendor != "postgresql":
        pytest.skip("the worker tests need PostgreSQL (an in-memory SQLite test database "
                    "cannot be shared with another process)")
    auth = s["USER"] + (f":{s['PASSWORD']}" if s.get("PASSWORD") else "")
    return f"postgres://{auth}@{s['HOST'] or '127.0.0.1'}:{s['PORT'] or 5432}/{s['NAME']}"


class Worker:
    """A Celery worker subprocess with its own log file."""

    def __init__(self, tmp: Path, env_extra: dict[str, str], pool: str = "solo"):
        self.log = tmp / f"worker-{uuid.uuid4().hex[:6]}.log"
        env = {**os.environ, "DATABASE_URL": database_url(), "CELERY_BROKER_URL": BROKER,
               "PYTHONUNBUFFERED": "1", **env_extra}
        env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "loo_ledger", "worker", f"--pool={pool}",
             "--loglevel=INFO", "--without-heartbeat", "--without-mingle", "--without-gossip",
             "-n", f"r1-test-{uuid.uuid4().hex[:6]}@%h"],
            cwd=ROOT, env=env, stdout=self.log.open("w"), stderr=subprocess.STDOUT,
            start_new_session=True)
        wait_for("the worker to be ready", lambda: "ready." in self.text() or self.proc.poll() is not None)
        assert self.proc.poll() is None, self.text()

    def text(self) -> str:
        return self.log.read_text() if self.log.exists() else ""

    def kill(self, sig: int = signal.SIGKILL) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, sig)
            self.proc.wait(timeout=WAIT)


@pytest.fixture
def start_worker(transactional_db, tmp_path, settings) -> Iterator[Callable[..., Worker]]:
    from loo_ledger.celery import app

    app.control.purge()  # leftovers of an earlier run on this broker db
    settings.MEDIA_ROOT = tmp_path / "media"  # the worker's LOO_VAR_DIR below: one media dir
    workers: list[Worker] = []

    def start(pool: str = "solo", **env: str) -> Worker:
        workers.append(Worker(tmp_path, {"LOO_VAR_DIR": str(tmp_path), **env}, pool))
        return workers[-1]

    yield start
    for w in workers:
        w.kill(signal.SIGTERM)


def job_of(url_or_id):
    from games.imports.models import ImportJob

    return ImportJob.objects.get(pk=url_or_id)


def stored_counts(club) -> dict[str, int]:
    from games.models import ChipPurchase, Deal, GameSession, LedgerEntry

    return {"sessions": GameSession.objects.filter(club=club).count(),
            "deals": Deal.objects.filter(session__club=club).count(),
            "purchases": ChipPurchase.objects.filter(session__club=club).count(),
            "ledger": LedgerEntry.objects.filter(session__club=club).count()}


def assert_hand_session_stored(job) -> None:
    from games.models import GameSession
    from games.services.ledger import ledger_balances, ledger_check

    session = GameSession.objects.get(pk=job.session_id)
    assert session.deals.count() == kit.N_DEALS
    balances = ledger_balances(session)
    assert {s: balances[s] for s in kit.SEATS} == {
        s: kit.EXPECTED["bought"][s] + kit.EXPECTED["won"][s] for s in kit.SEATS}
    assert balances["pool"] == kit.EXPECTED["end_pool"]
    assert ledger_check(session) == []


def test_import_on_a_real_worker(start_worker, club, scorer_client):
    start_worker()
    response = scorer_client.post("/api/v1/clubs/oak/imports/", {"source": kit.session_file()},
                                  format="json")
    assert response.status_code == 202
    assert response.json()["status"] == "queued"  # the request did not run the task itself
    job_id = response.json()["id"]
    wait_for("the import to finish", lambda: job_of(job_id).status in ("done", "failed"))
    job = job_of(job_id)
    assert (job.status, job.done, job.total, job.errors) == ("done", 53, 53, [])
    assert job.attempts == 1
    assert_hand_session_stored(job)
    assert scorer_client.get(f"/api/v1/clubs/oak/imports/{job_id}").json()["progress"] == "53/53"

    # the PDF is rendered by the worker: 202 until it is there
    assert scorer_client.post(f"/api/v1/clubs/oak/sessions/{job.session_id}/close").status_code == 200
    pdf = f"/api/v1/clubs/oak/sessions/{job.session_id}/report?format=pdf"
    first = scorer_client.get(pdf)
    assert first.status_code == 202 and first["Retry-After"]
    wait_for("the PDF", lambda: scorer_client.get(pdf).status_code == 200)
    assert b"".join(scorer_client.get(pdf).streaming_content).startswith(b"%PDF")


def test_worker_killed_mid_import_stores_nothing_and_retry_works(start_worker, club, scorer_client, tmp_path):
    from games.imports.services import HOLD_ENV

    hold = tmp_path / "holding"
    first = start_worker(**{HOLD_ENV: str(hold)})
    response = scorer_client.post("/api/v1/clubs/oak/imports/", {"source": kit.session_file()},
                                  format="json")
    job_id = response.json()["id"]
    wait_for("the worker to be half-way through storing", hold.exists)
    job = job_of(job_id)
    assert job.status == "storing" and job.done == 53  # every line validated first
    assert stored_counts(club)["sessions"] == 0  # half a session exists only in its transaction

    first.kill(signal.SIGKILL)
    job = job_of(job_id)
    assert job.status == "storing" and job.session_id is None
    assert stored_counts(club) == {"sessions": 0, "deals": 0, "purchases": 0, "ledger": 0}

    start_worker()
    retry = scorer_client.post(f"/api/v1/clubs/oak/imports/{job_id}/retry")
    assert retry.status_code == 202
    wait_for("the retried import to finish", lambda: job_of(job_id).status in ("done", "failed"))
    job = job_of(job_id)
    assert job.status == "done" and job.attempts == 2
    assert stored_counts(club)["sessions"] == 1 and stored_counts(club)["deals"] == 53
    assert_hand_session_stored(job)
    assert scorer_client.post(f"/api/v1/clubs/oak/imports/{job_id}/retry").status_code == 409


def test_a_job_that_kills_its_pool_process_every_time_fails_after_three_starts(
        start_worker, club, scorer_client, tmp_path):
    # prefork, one pool process: a killed pool process has its message put back at once
    # (reject_on_worker_lost) and handed to the new one; the main process lives on
    from games.imports.services import HOLD_ENV

    hold = tmp_path / "holding"
    worker = start_worker(pool="prefork", LOO_WORKER_CONCURRENCY="1", **{HOLD_ENV: str(hold)})
    response = scorer_client.post("/api/v1/clubs/oak/imports/", {"source": kit.session_file()},
                                  format="json")
    job_id = response.json()["id"]
    pids = []
    for start in (1, 2, 3):
        wait_for(f"run {start} to be half-way through storing", hold.exists)
        wait_for("its process id", lambda: hold.read_text().strip().isdigit())
        pids.append(int(hold.read_text()))
        assert job_of(job_id).starts == start
        hold.unlink()  # the next run holds too
        os.kill(pids[-1], signal.SIGKILL)  # as the OOM killer would
    wait_for("the job to fail", lambda: job_of(job_id).status == "failed")
    job = job_of(job_id)
    assert (job.starts, job.attempts, job.session_id) == (3, 3, None)
    assert job.detail.startswith("the import stopped its worker 3 times")
    assert len(set(pids)) == 3 and worker.proc.poll() is None  # three pool processes, one worker
    assert not hold.exists()  # the fourth delivery ran nothing
    assert stored_counts(club) == {"sessions": 0, "deals": 0, "purchases": 0, "ledger": 0}
    log = worker.text()
    assert log.count("exited with 'signal 9 (SIGKILL)'") == 3, log
    assert f"import job {job_id} killed its worker 3 times: failed, not run again" in log

    hold.write_text("no more holding")  # the cause fixed: a retry runs it afresh, whole
    assert scorer_client.post(f"/api/v1/clubs/oak/imports/{job_id}/retry").status_code == 202
    wait_for("the retried import to finish", lambda: job_of(job_id).status in ("done", "failed"))
    job = job_of(job_id)
    assert (job.status, job.starts, job.attempts) == ("done", 1, 4)
    assert_hand_session_stored(job)
