"""Fixtures for the sessions/deals/ledger API tests, and the ledger invariant after every test.

Hand-worked deals at club oak's table ann, bob, cat, dan (clockwise), default three-card rules
(dealer antes 3, limited loo 3, odd units carried), cat dealing first:

* ``DEAL1`` (cat deals, pool 0: a simple pool, everybody plays; result only): ann takes 2
  tricks, bob 1. P = 3, a trick pays 1: ann +2, bob +1, cat -3 ante -3 loo = -6, dan looed -3.
  Pool after: 3 - 3 + 6 = 6.
* ``DEAL2`` (dan deals, pool 6): the worked example e1 — bob takes the miss and revokes, ann
  takes all three tricks: ann +9, bob -3 (the revoke's full loo), dan -3 ante. Pool after 3.
* ``DEAL3`` (ann deals, pool 3): everybody before the dealer passes, so ann takes the whole
  pool (3 + her ante 3) without play: ann +3, pool 0.
"""
from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

EXAMPLES = Path(__file__).parent / "examples"  # copies of /work/shared/examples
PROBLEM = "application/problem+json"
TABLE = ["ann", "bob", "cat", "dan"]


def example(name: str) -> dict[str, Any]:
    """A shared worked example's record (rules and pool taken out: the session knows them)."""
    record = json.loads((EXAMPLES / name).read_text())["record"]
    record.pop("rules", None)
    return record


DEAL1: dict[str, Any] = {"format": "loo-deal/1", "dealer": "cat", "turnup": "9C",
                         "result": {"tricks": {"ann": 2, "bob": 1}}}
DEAL2: dict[str, Any] = example("e1_miss_taker_revokes.json")  # dealer dan, pool 6
DEAL3: dict[str, Any] = {"format": "loo-deal/1", "dealer": "ann", "turnup": "2S", "actions": [
    {"player": "bob", "action": "pass"}, {"player": "cat", "action": "pass"},
    {"player": "dan", "action": "pass"}]}
DEALS = [DEAL1, DEAL2, DEAL3]
DELTAS = [
    {"ann": 2, "bob": 1, "cat": -6, "dan": -3},
    {"ann": 9, "bob": -3, "cat": 0, "dan": -3},
    {"ann": 3, "bob": 0, "cat": 0, "dan": 0},
]
POOL_AFTER = [6, 3, 0]


def rec(deal: dict[str, Any], **changes: Any) -> dict[str, Any]:
    """A deep copy of a record with some fields changed."""
    out = copy.deepcopy(deal)
    out.update(changes)
    return out


def padded(record: dict[str, Any], size: int, fill: str = "x", **completed: Any) -> dict[str, Any]:
    """``record`` with a ``note`` (a field the engine does not read) that makes it ``size``
    bytes as the bound measures it (``limits.record_bytes``), once the session has completed it
    with ``completed`` (its seats, number, dealer: what the record leaves out)."""
    from games.services import limits

    room = size - limits.record_bytes({"format": "loo-deal/1", **record, **completed, "note": ""})
    each = limits.line_bytes(fill) - 2  # (a control character is six bytes: \u0001)
    assert room >= 0, f"{record} is larger than {size} already"
    return {**record, "note": fill * (room // each) + "x" * (room % each)}


def problem(response: Any, status: int) -> dict[str, Any]:
    """The problem body of a refusal, after checking its status and media type."""
    assert response.status_code == status, response.content
    assert response["Content-Type"].startswith(PROBLEM), response["Content-Type"]
    body = response.json()
    assert body["status"] == status
    return body


@pytest.fixture
def make_session(club) -> Callable[..., Any]:
    """make_session(**overrides) -> GameSession of club oak at TABLE, cat dealing first,
    default three-card rules and 20 chips bought by everyone."""
    from games.services.sessions import session_create

    def make(**overrides: Any):
        kwargs: dict[str, Any] = {
            "club": club, "date": "2026-11-28", "seats": list(TABLE), "first_dealer": "cat",
            "rules": {"preset": "three-card"}, "buy_ins": {p: 20 for p in TABLE}, "chip_value": 10,
        }
        kwargs.update(overrides)
        return session_create(**kwargs)

    return make


@pytest.fixture
def oak_session(make_session):
    return make_session()


def deals_url(session: Any) -> str:
    return f"/api/v1/clubs/{session.club.slug}/sessions/{session.pk}/deals/"


def session_url(session: Any, tail: str = "") -> str:
    return f"/api/v1/clubs/{session.club.slug}/sessions/{session.pk}/{tail}"


@pytest.fixture
def post_deal(scorer_client) -> Callable[..., Any]:
    """post_deal(session, number, record, client=scorer) -> the response."""

    def post(session: Any, number: int, record: dict[str, Any], client: Any = None, **headers: Any):
        return (client or scorer_client).post(
            deals_url(session), {"number": number, "record": record}, format="json", headers=headers or None
        )

    return post


@pytest.fixture
def played(oak_session, post_deal):
    """oak_session with DEAL1..DEAL3 recorded through the API."""
    for n, deal in enumerate(DEALS, start=1):
        response = post_deal(oak_session, n, deal)
        assert response.status_code == 201, response.content
    return oak_session


@pytest.fixture(scope="module")
def schema() -> dict:
    """The OpenAPI schema as JSON, read once a module."""
    from rest_framework.test import APIClient

    response = APIClient().get("/api/v1/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert response.status_code == 200
    return json.loads(response.content)
