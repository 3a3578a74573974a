"""Idempotency-Key on POST: retries return the first answer and store nothing twice."""
from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone

from games.models import ChipPurchase, Deal, DealRevision, GameSession, IdempotencyKey, LedgerEntry

from .conftest import DEAL1, DEAL2, deals_url, problem, session_url

pytestmark = pytest.mark.django_db

KEY = "7d1f0c7e-0000-4000-8000-000000000001"


def test_retried_deal_returns_first_answer_and_stores_once(oak_session, post_deal):
    first = post_deal(oak_session, 1, DEAL1, **{"Idempotency-Key": KEY})
    assert first.status_code == 201
    entries = LedgerEntry.objects.count()
    again = post_deal(oak_session, 1, DEAL1, **{"Idempotency-Key": KEY})
    assert again.status_code == 201
    assert again.json() == first.json()
    assert again["Idempotent-Replayed"] == "true"
    assert again["Location"] == first["Location"]
    assert Deal.objects.count() == 1 and DealRevision.objects.count() == 1
    assert LedgerEntry.objects.count() == entries


def test_same_key_other_body_is_422(oak_session, post_deal):
    post_deal(oak_session, 1, DEAL1, **{"Idempotency-Key": KEY})
    data = problem(post_deal(oak_session, 2, DEAL2, **{"Idempotency-Key": KEY}), 422)
    assert "different request" in data["detail"]
    assert Deal.objects.count() == 1


def test_key_in_flight_is_409(oak_session, post_deal, member_for):
    user = member_for("scorer").user
    IdempotencyKey.objects.create(club=oak_session.club, user=user, key=KEY,
                                  fingerprint=_fingerprint_of(oak_session, 1, DEAL1))
    data = problem(post_deal(oak_session, 1, DEAL1, **{"Idempotency-Key": KEY}), 409)
    assert "still being processed" in data["detail"]
    assert not Deal.objects.exists()


def test_stale_in_flight_key_is_taken_over(oak_session, post_deal, member_for):
    user = member_for("scorer").user
    row = IdempotencyKey.objects.create(club=oak_session.club, user=user, key=KEY,
                                        fingerprint=_fingerprint_of(oak_session, 1, DEAL1))
    IdempotencyKey.objects.filter(pk=row.pk).update(created_at=timezone.now() - dt.timedelta(hours=1))
    assert post_deal(oak_session, 1, DEAL1, **{"Idempotency-Key": KEY}).status_code == 201
    assert IdempotencyKey.objects.get(pk=row.pk).state == "done"


def _fingerprint_of(session, number, record):
    """The fingerprint the server computes for this deal POST (via a throwaway request)."""
    from rest_framework.parsers import JSONParser
    from rest_framework.request import Request
    from rest_framework.test import APIRequestFactory

    from games.services.idempotency import request_fingerprint

    raw = APIRequestFactory().post(deals_url(session), {"number": number, "record": record}, format="json")
    return request_fingerprint(Request(raw, parsers=[JSONParser()]))


def test_failed_request_releases_its_key(make_session, post_deal, scorer_client):
    session = make_session(buy_ins={"ann": 20, "bob": 20, "cat": 20, "dan": 2})
    problem(post_deal(session, 1, DEAL1, **{"Idempotency-Key": KEY}), 400)  # dan cannot pay
    assert not IdempotencyKey.objects.filter(key=KEY).exists()
    scorer_client.post(session_url(session, "purchases/"), {"player": "dan", "chips": 5}, format="json")
    assert post_deal(session, 1, DEAL1, **{"Idempotency-Key": KEY}).status_code == 201


def test_a_key_released_while_claiming_it_is_claimed_again(oak_session, post_deal, member_for,
                                                            monkeypatch):
    # two requests with one key: ours collides with the other's claim, which then fails and
    # releases the key before we read it (a 500 "does not exist" before the fix)
    from django.db import IntegrityError

    from games.services import idempotency

    scorer = member_for("scorer").user
    other = IdempotencyKey.objects.create(club=oak_session.club, user=scorer, key=KEY,
                                          fingerprint="the other request's")
    real_create, real_filter = IdempotencyKey.objects.create, IdempotencyKey.objects.filter
    collisions, released = [], []

    def create(**fields):
        if not collisions:
            collisions.append(fields["key"])
            raise IntegrityError("duplicate key value violates unique constraint")
        return real_create(**fields)

    def read(*args, **kwargs):
        if collisions and not released:
            released.append(other.key)
            other.delete()  # the other request failed meanwhile and let its key go
        return real_filter(*args, **kwargs)

    monkeypatch.setattr(idempotency.IdempotencyKey.objects, "create", create)
    monkeypatch.setattr(idempotency.IdempotencyKey.objects, "filter", read)
    response = post_deal(oak_session, 1, DEAL1, **{"Idempotency-Key": KEY})
    assert response.status_code == 201, response.content
    monkeypatch.undo()
    assert collisions == released == [KEY]
    assert Deal.objects.filter(session=oak_session).count() == 1
    assert IdempotencyKey.objects.get(key=KEY).state == IdempotencyKey.State.DONE


def test_keys_are_per_user(oak_session, post_deal, owner_client):
    post_deal(oak_session, 1, DEAL1, **{"Idempotency-Key": KEY})
    # the owner's same key is a different key: deal 1 is taken, so a 409 (not a replay)
    assert problem(post_deal(oak_session, 1, DEAL1, client=owner_client, **{"Idempotency-Key": KEY}), 409)


def test_retried_session_create_and_purchase(scorer_client, club):
    body = {"date": "2026-11-28", "seats": ["ann", "bob"], "first_dealer": "ann",
            "rules": {"preset": "three-card"}, "buy_ins": {"ann": 10}}
    url = "/api/v1/clubs/oak/sessions/"
    first = scorer_client.post(url, body, format="json", headers={"Idempotency-Key": "s-1"})
    again = scorer_client.post(url, body, format="json", headers={"Idempotency-Key": "s-1"})
    assert first.status_code == again.status_code == 201
    assert first.json()["id"] == again.json()["id"]
    assert GameSession.objects.count() == 1
    session = GameSession.objects.get()
    purchase = {"player": "bob", "chips": 7}
    for _ in range(3):
        response = scorer_client.post(session_url(session, "purchases/"), purchase, format="json",
                                      headers={"Idempotency-Key": "p-1"})
        assert response.status_code == 201
    assert ChipPurchase.objects.filter(player="bob").count() == 1


def test_retried_member_create_returns_the_first_answer(club, owner_client):
    # docs: every POST under a club honours the key; adding a member did not, so a retry after
    # a lost answer was a 400 "already has a member named 'fay'"
    url, body = "/api/v1/clubs/oak/members/", {"name": "fay", "role": "player"}
    first = owner_client.post(url, body, format="json", headers={"Idempotency-Key": "m-1"})
    again = owner_client.post(url, body, format="json", headers={"Idempotency-Key": "m-1"})
    assert first.status_code == again.status_code == 201, again.content
    assert again.json() == first.json() and again["Idempotent-Replayed"] == "true"
    assert first["Location"] == again["Location"] == f"http://testserver{url}fay/"
    other = owner_client.post(url, {"name": "gus", "role": "player"}, format="json",
                              headers={"Idempotency-Key": "m-1"})
    assert problem(other, 422)["code"] == "unprocessable"
    assert not club.members.filter(name="gus").exists()


def test_retried_correction(played, scorer_client):
    url = f"{deals_url(played)}1/corrections"
    body = {"record": {**DEAL1, "result": {"tricks": {"ann": 1, "bob": 1, "cat": 1}}}, "reason": "typo"}
    first = scorer_client.post(url, body, format="json", headers={"Idempotency-Key": "c-1"})
    again = scorer_client.post(url, body, format="json", headers={"Idempotency-Key": "c-1"})
    assert first.status_code == again.status_code == 201
    assert again.json() == first.json()
    assert DealRevision.objects.filter(deal__session=played, deal__number=1).count() == 2
    # 201 says where: the deal, whose revisions list the new one (there was no Location)
    assert first["Location"] == again["Location"] == f"http://testserver{deals_url(played)}1/"
    assert scorer_client.get(first["Location"]).json()["revisions"][-1]["reason"] == "typo"


def test_overlong_key_is_400(oak_session, post_deal):
    # docs/api.md: 1 to 255 characters
    for key in ("k" * 256, ""):
        data = problem(post_deal(oak_session, 1, DEAL1, **{"Idempotency-Key": key}), 400)
        assert [e["field"] for e in data["errors"]] == ["Idempotency-Key"]
    assert post_deal(oak_session, 1, DEAL1, **{"Idempotency-Key": "k" * 255}).status_code == 201


def test_a_key_holding_a_nul_character_is_refused(oak_session, post_deal):
    # PostgreSQL cannot store NUL in text: a 400 naming the header, not a 500 at the insert
    data = problem(post_deal(oak_session, 1, DEAL1, **{"Idempotency-Key": "k\x00"}), 400)
    assert data["errors"] == [{"field": "Idempotency-Key",
                               "message": "Null characters are not allowed.", "code": "invalid"}]
    assert not Deal.objects.exists() and not IdempotencyKey.objects.exists()
