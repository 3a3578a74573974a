"""Reading a session while it is written (PostgreSQL only): each answer is one moment of it."""
from __future__ import annotations

import json
import threading
from collections.abc import Callable

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


def _buy_and_pay_meanwhile(scorer, session) -> Callable[[], None]:
    """What another writer commits, at a moment the test picks: a purchase of 10 chips on
    credit by ann, and a payment of its 100 toward it."""

    def buy_and_pay() -> None:
        try:
            assert scorer.post(session_url(session, "purchases/"), {"player": "ann", "chips": 10,
                               "paid": False}, format="json").status_code == 201
            assert scorer.post(session_url(session, "payments/"), {"player": "ann", "money": 100},
                               format="json").status_code == 201
        finally:
            connection.close()

    def run() -> None:
        writer = threading.Thread(target=buy_and_pay)
        writer.start()
        writer.join()

    return run


def test_the_session_file_is_one_moment_of_a_session_written_meanwhile(oak_session, api_client_for,
                                                                        monkeypatch):
    """A purchase on credit and a payment toward it commit while the file is read, between its
    read of the purchases and its read of the payments (made to happen there): the file holds
    both or neither. It held the payment without its purchase, a file that does not import
    (the payment pays more than is owed)."""
    from games.imports import export
    from games.models import ChipPayment

    meanwhile = _buy_and_pay_meanwhile(api_client_for("scorer"), oak_session)

    class Payments:
        """``ChipPayment`` to the export, whose ``objects`` it asks for after the purchases."""

        @property
        def objects(self):
            meanwhile()
            return ChipPayment.objects

    monkeypatch.setattr(export, "ChipPayment", Payments())
    response = api_client_for("viewer").get(session_url(oak_session, "file"))
    assert response.status_code == 200, response.content
    lines = [json.loads(line) for line in response.content.decode().splitlines()]
    bought = [x for x in lines if "purchase" in x and x["purchase"].get("paid") is False]
    paid = [x for x in lines if "payment" in x]
    assert (len(bought), len(paid)) in ((0, 0), (1, 1)), lines
    assert ChipPayment.objects.filter(session=oak_session).count() == 1  # (the writer wrote)


def test_the_report_is_one_moment_of_a_session_written_meanwhile(oak_session, api_client_for,
                                                                monkeypatch):
    """The same writer commits between the report's read of the purchases and of the money
    paid later: ann's figures hold both or neither. They held the 100 paid and not the 100
    bought on credit, so ann had paid more than her chips cost."""
    from games.models import ChipPayment
    from games.reports import gather

    meanwhile, paid_later = _buy_and_pay_meanwhile(api_client_for("scorer"), oak_session), \
        gather.paid_later

    def paid_later_meanwhile(session):
        meanwhile()
        return paid_later(session)

    monkeypatch.setattr(gather, "paid_later", paid_later_meanwhile)
    response = api_client_for("viewer").get(session_url(oak_session, "report"), {"format": "json"})
    assert response.status_code == 200, response.content
    ann = next(p for p in response.json()["players"] if p["name"] == "ann")
    assert ann["paid_money"] <= ann["bought_money"], ann
    assert ChipPayment.objects.filter(session=oak_session).count() == 1  # (the writer wrote)
