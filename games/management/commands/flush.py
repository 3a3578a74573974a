"""``flush`` that can also empty the append-only ledger on SQLite.

Django's ``flush`` (and every transactional test's teardown) wipes all tables. PostgreSQL does it
with TRUNCATE, which the ledger's row triggers do not see; SQLite has no TRUNCATE and issues
``DELETE FROM games_ledgerentry``, which the append-only trigger refuses unless a row sits in
``games_ledger_unlock`` (see migration 0002). This command, which overrides Django's own, puts
that row there for exactly the duration of the wipe.
"""
from typing import Any

from django.core.management.commands import flush
from django.db import connections

UNLOCK_TABLE = "games_ledger_unlock"


class Command(flush.Command):
    def handle(self, **options: Any) -> None:
        connection = connections[options["database"]]
        guarded = (
            connection.vendor == "sqlite"
            and UNLOCK_TABLE in connection.introspection.table_names()
        )
        if not guarded:
            return super().handle(**options)
        with connection.cursor() as cursor:
            cursor.execute(f"INSERT INTO {UNLOCK_TABLE} (reason) VALUES ('flush')")
        try:
            return super().handle(**options)
        finally:
            with connection.cursor() as cursor:
                cursor.execute(f"DELETE FROM {UNLOCK_TABLE}")
