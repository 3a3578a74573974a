"""Reading a session while it is written, on SQLite (the embedded default): each answer is one
moment of it, as on PostgreSQL (tests/api/test_read_during_write.py), and the reader blocks no
writer. ``one_moment`` did nothing on SQLite (a transaction there took the write lock), so each
query saw what had committed by then: a payment in the session file without its purchase on
credit, 100 paid later in the report against nothing bought on credit, a ledger whose balances
held a purchase its timeline did not.

The test database is in memory with a shared cache, whose table locks are not the snapshots a
file in WAL mode gives, so the readers and writers run in a process of their own on a fresh
file (tests/services/one_moment_child.py): a writer on a second connection commits between
two reads of the reader (the child waits for it), which must answer the old moment."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def seen(tmp_path_factory) -> dict[str, Any]:
    """What the child's readers saw, a key a scenario."""
    where = tmp_path_factory.mktemp("one_moment")
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "CELERY_BROKER_URL", "CACHE_URL")}
    env.update(DATABASE_URL=f"sqlite:///{where / 'db.sqlite3'}", LOO_VAR_DIR=str(where / "var"),
               DJANGO_SETTINGS_MODULE="loo_ledger.settings")
    done = subprocess.run([sys.executable, "-m", "tests.services.one_moment_child"], cwd=ROOT,
                          env=env, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout)


def test_the_child_reads_a_file_in_wal_mode(seen):
    assert seen["journal_mode"] == "wal"


def test_the_session_file_is_the_moment_of_its_first_read(seen):
    """Ann's purchase of 10 chips on credit and her payment of 100 commit after the file has
    read the purchases and before it reads the payments: the file has neither (it had the
    payment alone, a file that does not import), and the writer was not held up."""
    assert seen["file"] == {"owed_purchases": 0, "payments": 0, "writer_errors": [],
                            "payments_after": 1}


def test_the_report_is_the_moment_of_its_first_read(seen):
    """The same writer commits before the report reads the money paid later: the buy-ins
    alone, nothing paid later (it had ann's 100 paid against no chips bought on credit)."""
    assert seen["report"] == {
        "purchases": [["ann", 20, True], ["bob", 20, True], ["cat", 20, True]],
        "paid_later": {}, "writer_errors": [], "payments_after": 1,
    }


def test_the_ledger_is_the_moment_of_its_first_read(seen):
    """Ann buys 10 chips, paid, after the statement has read its timeline (the three buy-ins)
    and before it reads the balances: 20 each, as the timeline (it had ann at 30 and 30
    bought beside a timeline without the purchase)."""
    twenty = {"ann": 20, "bob": 20, "cat": 20}
    assert seen["ledger"] == {"rows": 3, "balances": twenty, "purchased": twenty, "ok": True,
                              "writer_errors": [], "purchases_after": 4}


def test_the_read_is_a_deferred_transaction_that_writes_nothing(seen):
    """BEGIN DEFERRED (the settings' IMMEDIATE would take the write lock: the writers above
    failed, "database is locked"), on a connection read-only for it as PostgreSQL's READ ONLY."""
    guard = seen["guard"]
    assert guard["statements"] == ["PRAGMA query_only = ON", "BEGIN DEFERRED",
                                   'SELECT COUNT(*) AS "__count" FROM "accounts_club"', "COMMIT",
                                   "PRAGMA query_only = OFF"]
    assert guard["write_inside"] == "attempt to write a readonly database"


def test_the_connection_is_left_as_it_was_after_a_refused_write_or_an_error(seen):
    """The settings' IMMEDIATE mode again, no transaction open, writes allowed: after a write
    refused inside (the transaction was broken, so the pragma is turned off after its
    rollback) and after any other error inside."""
    as_it_was = {"mode": "IMMEDIATE", "atomic": False, "in_transaction": False, "query_only": 0}
    assert seen["guard"]["after_write"] == as_it_was
    assert seen["guard"]["after_error"] == as_it_was
    assert seen["guard"]["after_nested"] == as_it_was


def test_inside_a_writes_transaction_the_reads_go_on_in_it(seen):
    """Nested in a write's atomic block, ``one_moment`` leaves it alone: a write inside is
    allowed and seen, and commits with the outer block; "inside" (refused) was never written."""
    assert seen["guard"]["nested_sees"] == ["after", "nested", "oak", "outer"]
    assert seen["guard"]["clubs"] == ["after", "nested", "oak", "outer"]
