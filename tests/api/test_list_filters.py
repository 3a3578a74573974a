"""A list filter's value that is none of its choices is a 400 naming the values there are
(django-filter said only "Select a valid choice. bogus is not one of the available choices.")."""
from __future__ import annotations

import pytest

from tests.api.conftest import problem


@pytest.mark.parametrize("tail, name, bad, values", [
    ("sessions/", "status", "shut", "open, closed"),
    ("sessions/{id}/deals/", "status", "closed", "valid, irregular, unverified"),
    ("members/", "role", "admin", "owner, scorer, player, viewer"),
])
def test_an_unknown_choice_names_the_choices(oak_session, owner_client, tail, name, bad, values):
    url = f"/api/v1/clubs/oak/{tail.format(id=oak_session.pk)}"
    body = problem(owner_client.get(url, {name: bad}), 400)
    message = f"{name} must be one of {values}, not '{bad}'."
    assert body["detail"] == message
    assert [(e["field"], e["message"]) for e in body["errors"]] == [(name, message)]


def test_a_known_choice_still_filters(oak_session, owner_client):
    scorers = owner_client.get("/api/v1/clubs/oak/members/", {"role": "scorer"}).json()["results"]
    assert [m["name"] for m in scorers] == ["sam"]
    assert owner_client.get("/api/v1/clubs/oak/sessions/", {"status": "closed"}).json()["count"] == 0
