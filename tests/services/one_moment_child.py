"""What a reader inside ``one_moment`` saw on a file-backed SQLite database in WAL mode (the
embedded default), while another connection committed between two of its reads: run by
tests/services/test_one_moment_sqlite.py in a process of its own, with ``DATABASE_URL`` naming a
fresh file (the test database is in memory with a shared cache, whose table locks are not the
write-ahead log's snapshots). Prints one JSON object, a key a scenario.

    DATABASE_URL=sqlite:////tmp/x/db.sqlite3 python -m tests.services.one_moment_child
"""
from __future__ import annotations

import json
import os
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

WRITER_WAIT_S = 2  # a writer queued behind a reader holding the write lock fails in 2 s, not 20
SEATS = ("ann", "bob", "cat")


def main() -> dict[str, Any]:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "loo_ledger.settings")
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection

    assert connection.vendor == "sqlite" and not connection.is_in_memory_db(), connection.settings_dict
    connection.settings_dict["OPTIONS"]["timeout"] = WRITER_WAIT_S
    call_command("migrate", verbosity=0)
    with connection.cursor() as cursor:
        journal = cursor.execute("PRAGMA journal_mode").fetchone()[0]
    return {"journal_mode": journal, "file": session_file(), "report": report(),
            "ledger": ledger(), "guard": guard()}


def new_session(name: str):
    """A session of ann, bob and cat, each with 20 chips bought (chip value 10)."""
    from accounts.models import Club, Role
    from accounts.services import member_ensure
    from games.services.sessions import session_create

    club, created = Club.objects.get_or_create(slug="oak", defaults={"name": "Oak"})
    for seat in SEATS if created else ():
        member_ensure(club=club, name=seat, role=Role.PLAYER)
    return session_create(club=club, date="2026-12-05", seats=list(SEATS), first_dealer="ann",
                          rules={"preset": "three-card"}, name=name,
                          buy_ins=dict.fromkeys(SEATS, 20), chip_value=10)


@contextmanager
def meanwhile(module: Any, name: str, session: Any, errors: list[str], *,
              pay: bool = True) -> Iterator[None]:
    """For the block, ``module.name`` first has another connection commit (once, waiting for
    it): ann buys 10 chips on credit and pays the 100 toward them (``pay``), or buys 10 paid on
    the spot. A writer that fails is in ``errors``. The reader's own connection is closed
    first, so its transaction begins on a new one."""
    from django.db import DatabaseError, connection

    from games.services.payments import payment_record
    from games.services.sessions import purchase_record

    def write() -> None:
        try:
            purchase_record(session=session, player="ann", chips=10, paid=not pay)
            if pay:
                payment_record(session=session, player="ann", money=100)
        except DatabaseError as exc:  # a writer the reader blocked: "database is locked"
            errors.append(f"{type(exc).__name__}: {exc}")
        finally:
            connection.close()

    original, done = getattr(module, name), []

    def first_the_writer(*args: Any, **kwargs: Any) -> Any:
        if not done:
            done.append(True)
            writer = threading.Thread(target=write)
            writer.start()
            writer.join()
        return original(*args, **kwargs)

    setattr(module, name, first_the_writer)
    connection.close()
    try:
        yield
    finally:
        setattr(module, name, original)


def session_file() -> dict[str, Any]:
    """The file read while the writer commits between its read of the purchases (then
    written as lines) and of the payments."""
    from games.imports import export
    from games.models import ChipPayment

    session, errors = new_session("file"), []
    with meanwhile(export, "purchase_line", session, errors):
        lines = [json.loads(x) for x in export.session_file_text(session).splitlines()]
    return {"owed_purchases": sum(1 for x in lines if x.get("purchase", {}).get("paid") is False),
            "payments": sum(1 for x in lines if "payment" in x), "writer_errors": errors,
            "payments_after": ChipPayment.objects.filter(session=session).count()}


def report() -> dict[str, Any]:
    """The report's facts, the writer committing before the money paid later is read."""
    from games.models import ChipPayment
    from games.reports import gather

    session, errors = new_session("report"), []
    with meanwhile(gather, "paid_later", session, errors):
        facts = gather.session_facts(session)
    return {"purchases": [[p.player, p.chips, p.paid] for p in facts.purchases],
            "paid_later": facts.paid_later, "writer_errors": errors,
            "payments_after": ChipPayment.objects.filter(session=session).count()}


def ledger() -> dict[str, Any]:
    """The ledger statement, the writer committing a paid purchase (ann +10) after the timeline
    is read and before the balances are."""
    from games.models import ChipPurchase
    from games.services import ledger as module

    session, errors = new_session("ledger"), []
    with meanwhile(module, "ledger_balances", session, errors, pay=False):
        statement = module.ledger_statement(session)
    return {"rows": len(statement["rows"]), "balances": statement["totals"]["balances"],
            "purchased": statement["totals"]["purchased"], "ok": statement["ok"],
            "writer_errors": errors,
            "purchases_after": ChipPurchase.objects.filter(session=session).count()}


def connection_state() -> dict[str, Any]:
    """What ``one_moment`` must leave as it found it: the settings' transaction mode, no
    transaction open, writes allowed."""
    from django.db import connection

    with connection.cursor() as cursor:
        query_only = cursor.execute("PRAGMA query_only").fetchone()[0]
    return {"mode": connection.transaction_mode, "atomic": connection.in_atomic_block,
            "in_transaction": connection.connection.in_transaction, "query_only": query_only}


def guard() -> dict[str, Any]:
    """How the block begins, that a write inside it is refused, the connection afterwards (after
    an error inside too), and a use nested in a write's transaction, which goes on in it."""
    from django.db import connection, transaction
    from django.db.utils import OperationalError
    from django.test.utils import CaptureQueriesContext

    from accounts.models import Club
    from games.services.ledger import one_moment

    out: dict[str, Any] = {}
    with CaptureQueriesContext(connection) as queries, one_moment():
        Club.objects.count()
    out["statements"] = [q["sql"] for q in queries.captured_queries]
    try:
        with one_moment():
            Club.objects.create(slug="inside", name="Written inside")
    except OperationalError as exc:
        out["write_inside"] = str(exc)
    out["after_write"] = connection_state()
    try:
        with one_moment():
            raise LookupError("inside")
    except LookupError:
        out["after_error"] = connection_state()
    Club.objects.create(slug="after", name="Written after")
    with transaction.atomic():
        Club.objects.create(slug="outer", name="Written before")
        with one_moment():
            Club.objects.create(slug="nested", name="Written inside a write")
            out["nested_sees"] = sorted(Club.objects.values_list("slug", flat=True))
    out["after_nested"] = connection_state()
    out["clubs"] = sorted(Club.objects.values_list("slug", flat=True))
    return out


if __name__ == "__main__":
    json.dump(main(), sys.stdout)
