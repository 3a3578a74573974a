"""``manage.py prune_pdfs``: superseded and old rendered PDFs go, stale markers go, a session's
current PDF younger than the cutoff stays (files made in the per-test MEDIA_ROOT)."""
from __future__ import annotations

import io
import os
import time

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from tests.reports.conftest import add_rebuy, fingerprint_of, get_pdf, record_hand_session

pytestmark = pytest.mark.django_db

DAY = 86400
OTHER = "0123456789abcdef0123"  # a version the session's report is not at (any more)


@pytest.fixture
def session(club):
    return record_hand_session(club, n_deals=3)


def put(session_id: int, fingerprint: str, suffix: str, *, age: float = 0, size: int = 100):
    """A rendered PDF or marker on disk, ``age`` seconds old."""
    from games.reports.pdf import PdfKey

    path = PdfKey(session_id, fingerprint).file(suffix)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"x" * size)
    then = time.time() - age
    os.utime(path, (then, then))
    return path


def prune(*args: str) -> str:
    out = io.StringIO()
    call_command("prune_pdfs", *args, stdout=out)
    return out.getvalue()


def test_prune_keeps_current_young_pdfs_and_removes_the_rest(session):
    current = fingerprint_of(session)
    keep = [
        put(session.pk, current, ".pdf", age=29 * DAY),  # current, under the 30-day default
        put(session.pk, current, ".failed", age=60),  # not read yet by the client
        put(session.pk, OTHER, ".queued", age=60),  # a rendering may still be under way
        put(session.pk, current, ".4242.tmp", age=60),  # a worker writing now
        # a killed rendering's count, its message due back within the visibility timeout
        put(session.pk, current, ".started", age=20 * 60),
    ]
    gone = [
        put(session.pk, OTHER, ".pdf", age=60, size=1000),  # superseded by a later deal
        put(session.pk + 1000, current, ".pdf", age=60, size=2000),  # its session is gone
        put(session.pk, OTHER, ".failed", age=60, size=10),  # a failure nobody will ask about
        put(session.pk, current, ".queued", age=11 * 60, size=0),  # aged out of the window
        put(session.pk, OTHER, ".4242.tmp", age=11 * 60, size=500),  # a killed worker's
        put(session.pk, OTHER, ".started", age=60, size=1),  # a version nobody asks for now
    ]
    mine = keep[0].with_name("notes.txt")  # not a file of ours
    mine.write_text("not a report")
    out = prune()
    assert [p for p in keep + gone + [mine] if p.exists()] == keep + [mine]
    assert "Removed 2 PDF(s) and 4 marker(s), 3511 bytes" in out


def test_prune_older_than_removes_even_a_current_pdf(session):
    current = fingerprint_of(session)
    old = put(session.pk, current, ".pdf", age=10 * DAY)
    assert "Removed 0 PDF(s)" in prune() and old.exists()  # under the default 30 days
    assert "Removed 1 PDF(s) and 0 marker(s), 100 bytes" in prune("--older-than", "7")
    assert not old.exists()


def test_prune_dry_run_removes_nothing(session):
    stale = put(session.pk, OTHER, ".pdf", age=60)
    out = prune("--dry-run", "--verbosity", "2")
    assert "Would remove 1 PDF(s) and 0 marker(s), 100 bytes" in out and stale.name in out
    assert stale.exists()


def test_prune_keeps_the_pdfs_of_a_session_whose_report_fails(session, monkeypatch):
    from games.reports import prune as prune_module

    def broken(session):
        raise RuntimeError("a bug in the report")

    monkeypatch.setattr(prune_module, "session_report", broken)
    unknown = put(session.pk, OTHER, ".pdf", age=60)  # current or superseded: nobody can tell
    old = put(session.pk, "f" * 20, ".pdf", age=31 * DAY)  # too old either way
    out = prune()
    assert unknown.exists() and not old.exists()
    assert "Removed 1 PDF(s)" in out


def test_prune_refuses_negative_days(session):
    with pytest.raises(CommandError, match="0 or more days"):
        prune("--older-than", "-1")


def test_prune_removes_the_pdf_of_an_older_version_and_keeps_the_current(session,
                                                                         viewer_client):
    from games.reports.pdf import pdf_files

    assert get_pdf(viewer_client, session).status_code == 200  # rendered (eager)
    add_rebuy(session)
    assert get_pdf(viewer_client, session).status_code == 200  # the new version's
    assert "Removed 1 PDF(s)" in prune()
    assert [key.fingerprint for _, key, _ in pdf_files()] == [fingerprint_of(session)]
    response = get_pdf(viewer_client, session)  # served from the file kept
    assert response.status_code == 200 and b"".join(response.streaming_content).startswith(b"%PDF")
