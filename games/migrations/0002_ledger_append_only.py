"""The database itself refuses UPDATE and DELETE of ledger entries.

PostgreSQL: one trigger function raising for any row UPDATE or DELETE (TRUNCATE, i.e. wiping
the whole database as Django's ``flush`` does there, stays possible).

SQLite: BEFORE UPDATE / BEFORE DELETE triggers that ``RAISE(ABORT)``. SQLite has no TRUNCATE,
so Django's ``flush`` issues ``DELETE FROM``; the DELETE trigger therefore stands aside while a
row exists in the (unmanaged, never flushed) table ``games_ledger_unlock``, which only
``games/management/commands/flush.py`` fills, for the duration of a flush.
"""
from django.db import migrations

MESSAGE = "games_ledgerentry is append-only: post a reversal instead"

PG_FORWARD = f"""
CREATE OR REPLACE FUNCTION games_ledgerentry_refuse_change() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION '{MESSAGE} (% refused)', TG_OP USING ERRCODE = 'integrity_constraint_violation';
END;
$$ LANGUAGE plpgsql;
CREATE TRIGGER games_ledgerentry_append_only
    BEFORE UPDATE OR DELETE ON games_ledgerentry
    FOR EACH ROW EXECUTE FUNCTION games_ledgerentry_refuse_change();
"""
PG_BACKWARD = """
DROP TRIGGER IF EXISTS games_ledgerentry_append_only ON games_ledgerentry;
DROP FUNCTION IF EXISTS games_ledgerentry_refuse_change();
"""

SQLITE_FORWARD = [
    "CREATE TABLE IF NOT EXISTS games_ledger_unlock (reason TEXT NOT NULL)",
    f"""CREATE TRIGGER games_ledgerentry_no_update BEFORE UPDATE ON games_ledgerentry
        BEGIN SELECT RAISE(ABORT, '{MESSAGE} (UPDATE refused)'); END""",
    f"""CREATE TRIGGER games_ledgerentry_no_delete BEFORE DELETE ON games_ledgerentry
        WHEN NOT EXISTS (SELECT 1 FROM games_ledger_unlock)
        BEGIN SELECT RAISE(ABORT, '{MESSAGE} (DELETE refused)'); END""",
]
SQLITE_BACKWARD = [
    "DROP TRIGGER IF EXISTS games_ledgerentry_no_update",
    "DROP TRIGGER IF EXISTS games_ledgerentry_no_delete",
    "DROP TABLE IF EXISTS games_ledger_unlock",
]


def forward(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    if vendor == "postgresql":
        schema_editor.execute(PG_FORWARD, params=None)
    elif vendor == "sqlite":
        for sql in SQLITE_FORWARD:
            schema_editor.execute(sql)
    else:  # pragma: no cover - only the two supported databases
        raise RuntimeError(f"no append-only ledger trigger for {vendor}")


def backward(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    if vendor == "postgresql":
        schema_editor.execute(PG_BACKWARD, params=None)
    elif vendor == "sqlite":
        for sql in SQLITE_BACKWARD:
            schema_editor.execute(sql)


class Migration(migrations.Migration):
    dependencies = [("games", "0001_initial")]

    operations = [migrations.RunPython(forward, backward)]
