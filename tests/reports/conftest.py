"""Fixtures for the report, closing and import tests: the hand-worked session of sessionkit."""
from __future__ import annotations

import datetime as dt

import pytest

from tests.reports import sessionkit as kit


def record_hand_session(club, user=None, *, n_deals: int = kit.N_DEALS, correct: bool = True):
    """Record the sessionkit session through the services: deal 9 as first noted, then corrected."""
    from games.services.deals import deal_correct, deal_record
    from games.services.sessions import purchase_record, session_create

    h = kit.header()
    session = session_create(
        club=club, date=dt.date(2026, 11, 28), seats=h["seats"], first_dealer="ann",
        rules=h["rules"], banker="club", chip_value=kit.CHIP_VALUE, currency="GBP",
        name=h["name"], buy_ins=h["buy_ins"], user=user)
    for number in range(1, n_deals + 1):
        record = kit.deal_record(number, corrected=not correct)
        record.pop("pool")
        deal_record(session=session, number=number, record=record, user=user)
        for after, player, chips, paid in kit.REBUYS:
            if after == number:
                purchase_record(session=session, player=player, chips=chips, paid=paid,
                                memo="rebuy", user=user)
    if correct and n_deals >= 10:
        fixed = kit.deal_record(9, corrected=True)
        fixed.pop("pool")
        deal_correct(session=session, number=9, record=fixed, user=user,
                     reason="cat took trick 3 with AH")
    session.refresh_from_db()
    return session


@pytest.fixture(autouse=True)
def _every_task_eager(eager_celery):
    """Every report and import test here runs its tasks in-process."""


@pytest.fixture(autouse=True)
def media_in_tmp(settings, tmp_path):
    """Rendered PDFs go to a fresh directory per test, never into var/media."""
    settings.MEDIA_ROOT = tmp_path / "media"


@pytest.fixture
def hand_session(club, member_for):
    return record_hand_session(club, member_for("scorer").user)


@pytest.fixture
def closed_report(club, member_for):
    """The hand-worked session, closed: its report page's path (the browser tests')."""
    from games.services.closing import session_close

    session = record_hand_session(club, member_for("scorer").user)
    session_close(session=session, user=member_for("scorer").user)
    return f"/clubs/oak/sessions/{session.pk}/report/"


def url(session, what: str) -> str:
    return f"/api/v1/clubs/{session.club.slug}/sessions/{session.pk}/{what}"


def get_pdf(client, session):
    return client.get(url(session, "report"), {"format": "pdf"})


def fingerprint_of(session) -> str:
    """The report version a request for the session's PDF computes now (from the database)."""
    from games.models import GameSession
    from games.reports.gather import session_report
    from games.reports.pdf import report_fingerprint

    return report_fingerprint(session_report(GameSession.objects.get(pk=session.pk)))


def add_rebuy(session) -> None:
    """A scorer's rebuy: the session's report (and its fingerprint) changes."""
    from games.services.sessions import purchase_record

    purchase_record(session=session, player="ann", chips=20, paid=True, memo="rebuy", user=None)


class WorkerKilled(BaseException):
    """A task's process killed mid-task (the OOM killer, a crash in a C library), as far as the
    task can tell: no ``except Exception`` of its runs, and after it only what a kill leaves
    (what was committed, files written) counts. The message would be handed out again."""


def killing(monkeypatch, module, name: str) -> list[tuple]:
    """Make ``module.name`` kill its worker when called; returns the calls it was given."""
    calls: list[tuple] = []

    def killed(*args, **kwargs):
        calls.append(args)
        raise WorkerKilled

    monkeypatch.setattr(module, name, killed)
    return calls
