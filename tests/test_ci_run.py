"""``.ci/run`` with its tools stubbed: what it runs, in what order, and that it fails loudly."""
from __future__ import annotations

import shutil
import stat
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

STUB = """#!/bin/sh
echo "$(basename "$0") $* DATABASE_URL=${DATABASE_URL:-} CELERY_BROKER_URL=${CELERY_BROKER_URL:-}" >> "$CALLS"
if [ -n "${FAIL_MAKE:-}" ] && [ "$(basename "$0")" = make ]; then exit 1; fi
"""


@pytest.fixture
def ci(tmp_path):
    """A copy of .ci/run in a bare checkout beside a ``shared`` directory, with ``make``,
    ``pg_isready``, ``redis-cli``, ``psql`` and ``dropdb`` answered by stubs that log each call."""
    repo = tmp_path / "repo"
    (repo / ".ci").mkdir(parents=True)
    shutil.copy(ROOT / ".ci" / "run", repo / ".ci" / "run")
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for name in ("make", "pg_isready", "redis-cli", "psql", "dropdb", "python3"):
        (bin_dir / name).write_text(STUB)
        (bin_dir / name).chmod(stat.S_IRWXU)
    calls = tmp_path / "calls.log"
    env = {"PATH": f"{bin_dir}:/usr/bin:/bin", "CALLS": str(calls), "HOME": str(tmp_path)}

    def run(**extra: str) -> tuple[subprocess.CompletedProcess, list[str]]:
        done = subprocess.run(["bash", str(repo / ".ci" / "run")], env={**env, **extra},
                              capture_output=True, text=True, timeout=60, check=False)
        return done, calls.read_text().splitlines() if calls.exists() else []

    contract = tmp_path / "shared" / "tools" / "check-contract"
    contract.parent.mkdir(parents=True)
    contract.write_text("")
    run.contract = contract
    return run


def test_the_broker_and_cache_databases_start_empty(ci):
    # a message left in the broker by a run killed mid-way would be taken by this run's worker
    # test, and an import of another run's job id run against this run's database
    done, calls = ci()
    assert done.returncode == 0, done.stdout + done.stderr
    second_make = next(i for i, call in enumerate(calls)
                       if call.startswith("make test") and "DATABASE_URL=postgres" in call)
    flushed = [call.split(" DATABASE_URL")[0] for call in calls[:second_make]
               if call.startswith("redis-cli") and "flushdb" in call]
    assert flushed == ["redis-cli -h 127.0.0.1 -p 6379 -n 15 flushdb",
                       "redis-cli -h 127.0.0.1 -p 6379 -n 14 flushdb"], calls
    assert any(call.startswith("python3 ../shared/tools/check-contract") for call in calls)


def test_without_the_contract_check_the_run_says_it_skipped_it(ci):
    # a checkout with no ../shared beside it still runs the suite (which replays its own copies
    # of the examples), and says plainly that the shared check did not run
    ci.contract.unlink()
    done, calls = ci()
    assert done.returncode == 0, done.stdout + done.stderr
    assert "SKIPPED: ../shared/tools/check-contract not found" in done.stderr
    assert not any("check-contract" in call for call in calls)
    assert [call.split(" DATABASE_URL=")[1].split(" ")[0] for call in calls
            if call.startswith("make test")] == ["", "postgres://postgres@127.0.0.1:5432/test"]


def test_a_failing_stage_fails_the_run(ci):
    done, calls = ci(FAIL_MAKE="1")
    assert done.returncode != 0
    assert [call for call in calls if call.startswith("make")] == [
        "make test DATABASE_URL= CELERY_BROKER_URL="]
