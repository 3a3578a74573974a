"""Database triggers that make a table append-only (refuse UPDATE and DELETE), for migrations.

PostgreSQL: a row trigger raising for any UPDATE or DELETE (TRUNCATE, i.e. wiping the whole
database as Django's ``flush`` does there, stays possible).

SQLite: BEFORE UPDATE / BEFORE DELETE triggers that ``RAISE(ABORT)``. SQLite has no TRUNCATE,
so Django's ``flush`` issues ``DELETE FROM``; the DELETE triggers therefore stand aside while a
row exists in the unmanaged, never-flushed table :data:`UNLOCK_TABLE`, which only
``games/management/commands/flush.py`` fills, for the duration of a flush.

Kept free of model imports so that migrations can use it.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.db import migrations

UNLOCK_TABLE = "games_ledger_unlock"


def _sql(vendor: str, table: str, hint: str) -> tuple[list[str], list[str]]:
    message = f"{table} is append-only: {hint}"
    if vendor == "postgresql":
        forward = [
            f"""CREATE OR REPLACE FUNCTION {table}_refuse_change() RETURNS trigger AS $$
            BEGIN
                RAISE EXCEPTION '{message} (% refused)', TG_OP USING ERRCODE = 'integrity_constraint_violation';
            END;
            $$ LANGUAGE plpgsql""",
            f"""CREATE TRIGGER {table}_append_only BEFORE UPDATE OR DELETE ON {table}
            FOR EACH ROW EXECUTE FUNCTION {table}_refuse_change()""",
        ]
        backward = [f"DROP TRIGGER IF EXISTS {table}_append_only ON {table}",
                    f"DROP FUNCTION IF EXISTS {table}_refuse_change()"]
        return forward, backward
    if vendor == "sqlite":
        forward = [
            f"CREATE TABLE IF NOT EXISTS {UNLOCK_TABLE} (reason TEXT NOT NULL)",
            f"""CREATE TRIGGER {table}_no_update BEFORE UPDATE ON {table}
            BEGIN SELECT RAISE(ABORT, '{message} (UPDATE refused)'); END""",
            f"""CREATE TRIGGER {table}_no_delete BEFORE DELETE ON {table}
            WHEN NOT EXISTS (SELECT 1 FROM {UNLOCK_TABLE})
            BEGIN SELECT RAISE(ABORT, '{message} (DELETE refused)'); END""",
        ]
        backward = [f"DROP TRIGGER IF EXISTS {table}_no_update", f"DROP TRIGGER IF EXISTS {table}_no_delete"]
        return forward, backward
    raise RuntimeError(f"no append-only trigger for {vendor}")


def append_only(table: str, hint: str) -> migrations.RunPython:
    """A migration operation installing (and, backwards, removing) the triggers on ``table``."""

    def run(which: int) -> Callable[[Any, Any], None]:
        def apply(apps: Any, schema_editor: Any) -> None:
            for sql in _sql(schema_editor.connection.vendor, table, hint)[which]:
                schema_editor.execute(sql, params=None)

        return apply

    return migrations.RunPython(run(0), run(1))
