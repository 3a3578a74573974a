"""The ledger: balances after every deal, the invariant, append-only enforced by the database,
the digest chain and ``manage.py check_ledger``."""
from __future__ import annotations

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import IntegrityError, connection, transaction

from games.models import Deal, DealRevision, LedgerEntry
from games.services.ledger import LedgerLine, deal_net, ledger_balances, ledger_check, ledger_post

from .conftest import DEALS, DELTAS, POOL_AFTER, TABLE, problem, session_url

pytestmark = pytest.mark.django_db


def test_a_deals_net_is_read_from_its_own_entries(played, make_session, post_deal):
    """What a reversal undoes (deal_net): the deal's own entries summed per account, read on
    SQLite through the deal's index, not by every entry of the session (a correction that
    re-settled every later deal read the whole ledger once for each deal)."""
    other = make_session()  # another session's deal 2 books entries of its own
    for number, record in enumerate(DEALS[:2], start=1):
        assert post_deal(other, number, record).status_code == 201
    deal = Deal.objects.get(session=played, number=2)
    net = {row["account"]: row["total"] for row in deal_net(deal)}
    assert net == {p: d for p, d in DELTAS[1].items() if d} | {"pool": POOL_AFTER[1] - POOL_AFTER[0]}
    if connection.vendor == "sqlite":
        sql, params = deal_net(deal).query.sql_with_params()
        with connection.cursor() as cursor:
            cursor.execute(f"EXPLAIN QUERY PLAN {sql}", params)
            plan = " ".join(str(row) for row in cursor.fetchall())
        assert "(deal_id=?)" in plan, plan


def test_ledger_shows_balances_and_pool_after_every_deal(played, viewer_client):
    data = viewer_client.get(session_url(played, "ledger")).json()
    assert data["ok"] is True and data["problems"] == []
    purchases = [r for r in data["rows"] if r["kind"] == "purchase"]
    deals = [r for r in data["rows"] if r["kind"] == "deal"]
    assert len(purchases) == 4
    assert [r["deal"] for r in deals] == [1, 2, 3]
    assert [r["balances"] for r in deals] == [
        {"ann": 22, "bob": 21, "cat": 14, "dan": 17},
        {"ann": 31, "bob": 18, "cat": 14, "dan": 14},
        {"ann": 34, "bob": 18, "cat": 14, "dan": 14},
    ]
    assert [r["pool"] for r in deals] == [6, 3, 0]
    assert deals[0]["changes"] == {**{p: d for p, d in DELTAS[0].items()}, "pool": 6}
    assert all(r["issued"] == 80 for r in deals)
    totals = data["totals"]
    assert totals["balances"] == {"ann": 34, "bob": 18, "cat": 14, "dan": 14}
    assert totals["pool"] == 0 and totals["issued"] == 80
    assert sum(totals["balances"].values()) + totals["pool"] == totals["issued"]
    assert totals["purchased"] == {p: 20 for p in TABLE}
    assert totals["money"] == {p: 200 for p in TABLE}  # 20 chips at 10 units


@pytest.mark.parametrize("role, status", [("anon", 401), ("outsider", 404)])
def test_ledger_refused(api_client_for, played, role, status):
    problem(api_client_for(role).get(session_url(played, "ledger")), status)


def test_ledger_is_read_only(played, scorer_client):
    # the endpoint takes no POST at all: a 405 naming what it takes (it said 403 "read-only")
    response = scorer_client.post(session_url(played, "ledger"), {}, format="json")
    assert problem(response, 405)["code"] == "method-not-allowed"
    assert "POST" not in response["Allow"] and "GET" in response["Allow"]


def test_ledger_post_refuses_unbalanced_and_unknown_accounts(oak_session):
    with pytest.raises(ValueError, match="sum to 1"):
        ledger_post(session=oak_session, kind="end-pool", lines=[("pool", -1), ("ann", 2)])
    with pytest.raises(ValueError, match="no ledger account 'zed'"):
        ledger_post(session=oak_session, kind="end-pool", lines=[("zed", -1), ("ann", 1)])
    with pytest.raises(ValueError, match="kind"):
        ledger_post(session=oak_session, kind="gift", lines=[("bob", -1), ("ann", 1)])
    with pytest.raises(TypeError, match="integers"):
        ledger_post(session=oak_session, kind="end-pool", lines=[("pool", -0.5), ("ann", 0.5)])


def test_ledger_post_appends_a_balanced_posting(played):
    entries = ledger_post(session=played, kind="buyback",
                          lines=[LedgerLine("ann", -34), LedgerLine("bank", 34), ("cat", 0)])
    assert [(e.account, e.chips, e.kind) for e in entries] == [("ann", -34, "buyback"), ("bank", 34, "buyback")]
    assert entries[0].posting == entries[1].posting
    assert entries[1].seq == entries[0].seq + 1
    assert ledger_balances(played)["ann"] == 0
    assert ledger_check(played) == []


@pytest.mark.parametrize("statement", [
    "UPDATE games_ledgerentry SET chips = chips + 1",
    "DELETE FROM games_ledgerentry",
    "UPDATE games_dealrevision SET reason = 'rewritten'",
    "DELETE FROM games_dealrevision",
    "UPDATE games_violation SET rule = 'nothing'",
    "DELETE FROM games_violation",
])
def test_database_refuses_update_and_delete_of_ledger_rows_and_history(played, statement):
    assert LedgerEntry.objects.filter(session=played).exists()
    with pytest.raises(IntegrityError, match="append-only"), transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(statement)


def test_orm_update_and_delete_are_refused_too(played):
    entry = LedgerEntry.objects.filter(session=played).first()
    with pytest.raises(IntegrityError), transaction.atomic():
        LedgerEntry.objects.filter(pk=entry.pk).update(chips=999)
    entry.chips = 999
    with pytest.raises(IntegrityError), transaction.atomic():
        entry.save()
    with pytest.raises(IntegrityError), transaction.atomic():
        entry.delete()
    assert LedgerEntry.objects.get(pk=entry.pk).chips != 999


def test_check_ledger_command_passes_on_sound_books(played, capsys):
    call_command("check_ledger")
    call_command("check_ledger", "--session", str(played.pk))
    out = capsys.readouterr().out
    assert f"session {played.pk}: ok, 3 deals, 80 chips issued" in out


def test_check_ledger_says_what_a_closed_session_sold_and_bought_back(played, make_session,
                                                                     capsys):
    # a closed session's "0 chips issued" read as if no chip was ever sold
    from games.services.closing import session_close

    session_close(session=played)
    one = make_session()
    call_command("check_ledger")
    out = capsys.readouterr().out
    assert f"session {played.pk}: ok, 3 deals, 0 chips issued (80 sold, 80 bought back)" in out
    assert f"session {one.pk}: ok, 0 deals, 80 chips issued\n" in out


def test_check_ledger_unknown_session(played):
    with pytest.raises(CommandError, match="no session"):
        call_command("check_ledger", "--session", "999999")


def _tamper(entry: LedgerEntry, chips: int) -> None:
    """Change an entry behind the UPDATE guard's back, as a DBA with full rights could
    (inside the test's transaction, rolled back afterwards)."""
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("SET LOCAL session_replication_role = replica")  # triggers off
        else:
            cursor.execute("DROP TRIGGER games_ledgerentry_no_update")
        cursor.execute("UPDATE games_ledgerentry SET chips = %s WHERE id = %s", [chips, entry.pk])
        if connection.vendor == "postgresql":
            cursor.execute("SET LOCAL session_replication_role = DEFAULT")


def test_check_ledger_finds_an_entry_changed_behind_the_triggers_back(played, ledger_may_break, capsys):
    deal = Deal.objects.get(session=played, number=2)
    entry = LedgerEntry.objects.filter(deal=deal, account="ann").first()
    _tamper(entry, entry.chips + 5)
    problems = ledger_check(played)
    assert any("digest chain broken" in p for p in problems)
    assert any(f"posting {entry.posting} sums to 5" in p for p in problems)
    assert any("deal 2: ledger moves" in p for p in problems)
    with pytest.raises(CommandError) as exc:
        call_command("check_ledger", "--session", str(played.pk))
    assert exc.value.returncode == 1
    assert "BROKEN" in capsys.readouterr().out


def test_check_ledger_finds_chips_issued_without_a_purchase(played, ledger_may_break):
    ledger_post(session=played, kind="purchase", lines=[("bank", -5), ("dan", 5)])
    assert any("purchases and buy-backs say 80" in p for p in ledger_check(played))


def test_flush_still_wipes_the_whole_database(played):
    """Django's flush (and transactional tests' teardown) must still empty the ledger."""
    if connection.vendor == "postgresql":  # run the deferred FK checks so TRUNCATE may go ahead
        with connection.cursor() as cursor:
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
    call_command("flush", interactive=False, verbosity=0)
    assert not LedgerEntry.objects.exists()
    if connection.vendor == "sqlite":
        with connection.cursor() as cursor:
            cursor.execute("SELECT COUNT(*) FROM games_ledger_unlock")
            assert cursor.fetchone() == (0,)  # the guard is back on


@pytest.fixture
def admin_client_logged_in(client, django_user_model):
    admin = django_user_model.objects.create_superuser("root", "root@example.org", "pw-123456789")
    client.force_login(admin)
    return client


def test_admin_shows_sessions_deals_and_a_read_only_ledger(played, admin_client_logged_in):
    client = admin_client_logged_in
    deal = Deal.objects.get(session=played, number=2)
    entry = LedgerEntry.objects.filter(session=played).first()
    for url in ["/admin/games/gamesession/", f"/admin/games/gamesession/{played.pk}/change/",
                "/admin/games/deal/", f"/admin/games/deal/{deal.pk}/change/",
                "/admin/games/ledgerentry/", f"/admin/games/ledgerentry/{entry.pk}/change/",
                "/admin/games/chippurchase/"]:
        assert client.get(url).status_code == 200, url
    assert client.get("/admin/games/ledgerentry/add/").status_code == 403
    assert client.post(f"/admin/games/ledgerentry/{entry.pk}/delete/", {"post": "yes"}).status_code == 403
    page = client.get(f"/admin/games/ledgerentry/{entry.pk}/change/").content.decode()
    assert 'name="chips"' not in page  # shown, not editable


def _change_form(page: str) -> dict[str, str]:
    """The fields an admin change page posts back as they stand (inputs and text areas)."""
    import html
    import re

    data = {name: html.unescape(value) for name, value in
            re.findall(r'<input[^>]*?name="([^"]+)"[^>]*?value="([^"]*)"', page)}
    data.pop("csrfmiddlewaretoken", None)
    return data


@pytest.mark.parametrize("write", ["close", "reopen"])
def test_an_admin_rename_keeps_a_close_or_reopen_made_meanwhile(write, played, admin_client_logged_in,
                                                                  monkeypatch, member_for):
    """The admin edits a session's name and date only. A close (or a reopening) committed
    between the admin reading the session and saving it must stand: the save wrote every
    column from what it had read, so the session went back to open with every chip bought
    back (or closed again with its closing reversed in the ledger)."""
    from games.admin import GameSessionAdmin
    from games.services.closing import session_close, session_reopen

    client = admin_client_logged_in
    url = f"/admin/games/gamesession/{played.pk}/change/"
    if write == "reopen":
        session_close(session=played)
    data = {**_change_form(client.get(url).content.decode()), "name": "Saturday", "date": "2026-11-29"}
    read = GameSessionAdmin.get_object

    def read_then_meanwhile(self, request, object_id, from_field=None):
        obj = read(self, request, object_id, from_field)
        if request.method == "POST":  # another writer commits between the read and the save
            if write == "close":
                session_close(session=played)
            else:
                session_reopen(session=played, user=member_for("owner").user, reason="deal 2 misread")
        return obj

    monkeypatch.setattr(GameSessionAdmin, "get_object", read_then_meanwhile)
    assert client.post(url, data).status_code == 302
    played.refresh_from_db()
    assert (played.name, str(played.date)) == ("Saturday", "2026-11-29")
    assert played.status == ("closed" if write == "close" else "open")
    assert (played.closed_at is None) == (write == "reopen")
    assert ledger_check(played) == []


@pytest.mark.django_db(transaction=True)
def test_transactional_tests_may_write_ledger_rows(make_session):
    """Their teardown flushes the database; on SQLite that passes the DELETE guard only through
    games/management/commands/flush.py (a failure would show as an error in teardown)."""
    session = make_session()
    assert LedgerEntry.objects.filter(session=session).count() == 8


def test_the_recorder_of_a_deal_cannot_be_deleted_from_under_it(played):
    from django.contrib.auth import get_user_model
    from django.db.models import ProtectedError

    with pytest.raises(ProtectedError), transaction.atomic():
        get_user_model().objects.get(username="sam").delete()
    assert DealRevision.objects.filter(created_by__username="sam").exists()
