"""Deal revisions are history: the database refuses to change or delete them too."""
from django.db import migrations

from games.append_only import append_only


class Migration(migrations.Migration):
    dependencies = [("games", "0002_ledger_append_only")]

    operations = [
        append_only("games_dealrevision", "store a new revision instead"),
        append_only("games_violation", "store a new revision instead"),
    ]
