"""API paths answer with or without their trailing slash (loo_ledger.slashes): a POST to
``.../deals`` records the deal instead of meeting Django's APPEND_SLASH error."""
from __future__ import annotations

import pytest
from django.test import override_settings

from games.models import Deal, DealRevision

from .conftest import DEAL1, DEAL2, problem, session_url

pytestmark = pytest.mark.django_db

KEY = "7d1f0c7e-0000-4000-8000-00000000051a"


@pytest.mark.parametrize("debug", [False, True])
def test_a_post_without_the_collections_slash_records_the_deal(oak_session, scorer_client,
                                                               debug):
    with override_settings(DEBUG=debug):  # DEBUG made APPEND_SLASH raise: a 500
        response = scorer_client.post(session_url(oak_session, "deals"),
                                      {"number": 1, "record": DEAL1}, format="json")
    assert response.status_code == 201, response.content
    assert response["Location"].endswith(session_url(oak_session, "deals/1/"))
    assert DealRevision.objects.filter(deal__session=oak_session, deal__number=1).count() == 1


def test_an_action_with_a_trailing_slash_answers_as_without(played, scorer_client):
    plain = scorer_client.get(session_url(played, "ledger"))
    slashed = scorer_client.get(session_url(played, "ledger/"))
    assert plain.status_code == slashed.status_code == 200
    assert slashed.json() == plain.json()


def test_a_retry_on_the_other_form_is_the_same_request(oak_session, scorer_client):
    body = {"number": 1, "record": DEAL1}
    first = scorer_client.post(session_url(oak_session, "deals"), body, format="json",
                               headers={"Idempotency-Key": KEY})
    again = scorer_client.post(session_url(oak_session, "deals/"), body, format="json",
                               headers={"Idempotency-Key": KEY})
    assert first.status_code == again.status_code == 201
    assert again["Idempotent-Replayed"] == "true"
    assert DealRevision.objects.filter(deal__session=oak_session).count() == 1


def test_refusals_keep_their_problem_on_either_form(oak_session, viewer_client, scorer_client):
    assert problem(viewer_client.post(session_url(oak_session, "deals"),
                                      {"number": 1, "record": DEAL1}, format="json"),
                   403)["code"] == "permission-denied"
    data = problem(scorer_client.post(session_url(oak_session, "deals"),
                                      {"number": 2, "record": DEAL2}, format="json"), 409)
    assert data["code"] == "deal-number-conflict"
    assert data["instance"] == session_url(oak_session, "deals/")
    assert not Deal.objects.exists()


def test_a_path_that_matches_neither_way_is_a_404_problem(scorer_client):
    assert problem(scorer_client.get("/api/v1/no-such-thing"), 404)["code"] == "not-found"
    assert problem(scorer_client.get("/api/v1/no-such-thing/"), 404)["code"] == "not-found"


def test_paths_outside_the_api_keep_djangos_redirect(client):
    response = client.get("/admin")
    assert response.status_code == 301 and response["Location"] == "/admin/"
