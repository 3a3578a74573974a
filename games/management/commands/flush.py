"""``flush`` that can also empty the append-only ledger on SQLite.

Django's ``flush`` (and every transactional test's teardown) wipes all tables. PostgreSQL does it
with TRUNCATE, which the ledger's row triggers do not see; SQLite has no TRUNCATE and issues
``DELETE FROM games_ledgerentry`` (and the other append-only tables), which the triggers
refuse unless a row sits in ``games_ledger_unlock`` (see ``games/append_only.py``). This
command, which overrides Django's own, puts that row there for exactly the duration of the wipe.
"""
from typing import Any

from django.core.management.commands import flush
from django.db import connections

from games.append_only import UNLOCK_TABLE


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
