"""Reading a session while it is written (PostgreSQL only): each answer is one moment of it."""
from __future__ import annotations

import threading

import pytest
from django.conf import settings
from django.db import connection

from .conftest import DEAL1, DEAL2, DEAL3, deals_url, rec, session_url

pytestmark = [
    pytest.mark.skipif(settings.DATABASES["default"]["ENGINE"] != "django.db.backends.postgresql",
                       reason="needs PostgreSQL (real concurrent connections)"),
    pytest.mark.django_db(transaction=True),
]


def test_the_ledger_read_while_deals_are_corrected_is_never_broken(oak_session, api_client_for):
    """Deal 1 corrected back and forth 20 times (pool left 9, then 6: deal 2 re-settled each
    time) while a viewer reads the ledger over and over: every answer checks out (``ok``).
    Each query of the answer saw what had committed by then, so a correction committed
    between two of them gave ``ok: false`` ("deal 1: ledger moves ..., verdict r14 says ...")."""
    scorer, viewer = api_client_for("scorer"), api_client_for("viewer")
    s = oak_session
    for n, deal in enumerate((DEAL1, DEAL2, DEAL3), start=1):
        assert scorer.post(deals_url(s), {"number": n, "record": deal}, format="json").status_code == 201
    records = [rec(DEAL1, result={"tricks": {"ann": 3}}), DEAL1]
    done = threading.Event()
    broken: list[list[str]] = []

    def correct() -> None:
        try:
            for i in range(20):
                r = scorer.post(session_url(s, "deals/1/corrections"),
                                {"record": records[i % 2], "reason": f"{i}"}, format="json")
                assert r.status_code == 201, r.content
        finally:
            done.set()
            connection.close()

    def read() -> None:
        try:
            while not done.is_set():
                body = viewer.get(session_url(s, "ledger")).json()
                if not body["ok"]:
                    broken.append(body["problems"])
        finally:
            connection.close()

    threads = [threading.Thread(target=correct), threading.Thread(target=read)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert broken == [], broken[:3]
