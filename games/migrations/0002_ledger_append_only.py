"""The database itself refuses UPDATE and DELETE of ledger entries (see games/append_only.py)."""
from django.db import migrations

from games.append_only import append_only


class Migration(migrations.Migration):
    dependencies = [("games", "0001_initial")]

    operations = [append_only("games_ledgerentry", "post a reversal instead")]
