"""Every ``Location`` the API answers is one form: an absolute URL that GETs the resource.

Sessions, deals, corrections and members answered a path (``/api/v1/...``), imports an absolute
URL (``http://host/api/v1/...``); RFC 9110 allows either, a client should meet one.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from games.models import IdempotencyKey

from .conftest import DEAL1, TABLE, deals_url, session_url

pytestmark = pytest.mark.django_db

HOST = "ledger.example"  # (in ALLOWED_HOSTS under test: see the fixture)


@pytest.fixture(autouse=True)
def _host_allowed(settings):
    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, HOST]


def open_session(client: Any, oak_session: Any) -> Any:
    return client.post("/api/v1/clubs/oak/sessions/", {
        "date": "2026-11-28", "seats": TABLE, "first_dealer": "cat",
        "rules": {"preset": "three-card"}}, format="json", HTTP_HOST=HOST)


def record_deal(client: Any, oak_session: Any) -> Any:
    return client.post(deals_url(oak_session), {"number": 1, "record": DEAL1}, format="json",
                       HTTP_HOST=HOST)


def correct_deal(client: Any, oak_session: Any) -> Any:
    assert record_deal(client, oak_session).status_code == 201
    return client.post(f"{deals_url(oak_session)}1/corrections",
                       {"record": {**DEAL1, "result": {"tricks": {"ann": 1, "bob": 1, "cat": 1}}},
                        "reason": "typo"}, format="json", HTTP_HOST=HOST)


def add_member(client: Any, oak_session: Any) -> Any:
    return client.post("/api/v1/clubs/oak/members/", {"name": "fay", "role": "player"},
                       format="json", HTTP_HOST=HOST)


def create_club(client: Any, oak_session: Any) -> Any:
    return client.post("/api/v1/clubs/", {"slug": "ash", "name": "Ash"}, format="json",
                       HTTP_HOST=HOST)


def import_file(client: Any, oak_session: Any) -> Any:
    text = client.get(session_url(oak_session, "file")).content.decode()
    return client.post("/api/v1/clubs/oak/imports/", {"source": text}, format="json",
                       HTTP_HOST=HOST)


@pytest.mark.parametrize("create, status", [
    (open_session, 201), (record_deal, 201), (correct_deal, 201), (add_member, 201),
    (create_club, 201), (import_file, 202),
], ids=["session", "deal", "correction", "member", "club", "import"])
def test_every_location_is_absolute_and_gets_the_resource(
        create: Callable[..., Any], status: int, oak_session, owner_client, eager_celery):
    response = create(owner_client, oak_session)
    assert response.status_code == status, response.content
    location = response["Location"]
    assert location.startswith(f"http://{HOST}/api/v1/clubs/"), location
    assert owner_client.get(location, HTTP_HOST=HOST).status_code == 200
    # where the answer links itself, the header says the same URL
    links = response.json().get("links") or {}
    assert links.get("self", location) == location


def test_a_replayed_answer_stored_with_a_path_says_an_absolute_location(oak_session,
                                                                       owner_client):
    # an answer stored before every Location was absolute is replayed in today's form
    def post() -> Any:
        return owner_client.post(deals_url(oak_session), {"number": 1, "record": DEAL1},
                                 format="json", HTTP_HOST=HOST, headers={"Idempotency-Key": "d-1"})

    first = post()
    assert first.status_code == 201
    IdempotencyKey.objects.filter(key="d-1").update(
        response_headers={"Location": f"{deals_url(oak_session)}1/"})
    again = post()
    assert again["Idempotent-Replayed"] == "true"
    assert again["Location"] == first["Location"] == f"http://{HOST}{deals_url(oak_session)}1/"
