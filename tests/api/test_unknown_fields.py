"""A request body naming a field the endpoint does not have is refused, naming it.

Passed over, a misspelt field took its default without a word: ``"chipvalue": 25`` opened a
session whose chips were worth 1p, ``"piad": false`` recorded chips bought on credit as paid on
the spot (the debt lost), ``"pol": 6`` replayed a deal into an empty pool.
"""
from __future__ import annotations

import pytest

from accounts.models import Member
from games.models import ChipPurchase, GameSession

from .conftest import DEAL1, TABLE, problem, session_url

pytestmark = pytest.mark.django_db

SESSION = {"date": "2026-11-28", "seats": TABLE, "first_dealer": "cat",
           "rules": {"preset": "three-card"}}


def unknown(response, field: str, hint: str) -> dict:
    """The 400 naming ``field`` with ``hint`` in its message."""
    body = problem(response, 400)
    assert body["code"] == "validation-error"
    named = [e for e in body["errors"] if e["field"] == field]
    assert named and hint in named[0]["message"], body
    return body


def test_a_misspelt_session_field_opens_no_session(scorer_client):
    response = scorer_client.post("/api/v1/clubs/oak/sessions/", {**SESSION, "chipvalue": 25},
                                  format="json")
    unknown(response, "chipvalue", "did you mean 'chip_value'?")
    assert not GameSession.objects.exists()


def test_a_misspelt_purchase_field_stores_no_purchase(oak_session, scorer_client):
    before = ChipPurchase.objects.count()
    response = scorer_client.post(session_url(oak_session, "purchases/"),
                                  {"player": "ann", "chips": 10, "piad": False}, format="json")
    unknown(response, "piad", "did you mean 'paid'?")
    assert ChipPurchase.objects.count() == before


def test_unknown_fields_are_named_beside_the_other_errors(oak_session, scorer_client):
    response = scorer_client.post(session_url(oak_session, "purchases/"),
                                  {"player": "ann", "chips": "ten", "colour": "red"}, format="json")
    body = unknown(response, "colour", "the fields are chips, memo, money, paid, player.")
    assert {e["field"] for e in body["errors"]} == {"chips", "colour"}


@pytest.mark.parametrize("tail, body, field, hint", [
    ("deals/", {"number": 1, "record": DEAL1, "numbr": 1}, "numbr", "'number'"),
    ("deals/1/corrections", {"record": DEAL1, "reason": "x", "reasn": "y"}, "reasn", "'reason'"),
    ("payments/", {"player": "ann", "money": 10, "mony": 10}, "mony", "'money'"),
    ("close", {"reasn": "end of the evening"}, "reasn", "'reason'"),
])
def test_every_write_of_a_session_names_an_unknown_field(oak_session, scorer_client, tail, body,
                                                         field, hint):
    unknown(scorer_client.post(session_url(oak_session, tail), body, format="json"), field, hint)
    oak_session.refresh_from_db()
    assert oak_session.is_open and not oak_session.deals.exists()


@pytest.mark.parametrize("end_pool_mode", ["", "split"])
def test_a_reopening_takes_no_end_pool_mode(oak_session, scorer_client, owner_client,
                                            end_pool_mode):
    """A reopening takes a reason alone: the end-pool rule is the session's (its rules'
    ``end_pool``, whose values are split and final-deal: ``""`` there is a 400 ``rule-error``
    naming them), and the closings log's ``end_pool_mode`` is an answer's, empty for a reopen.
    Sent in the body, empty or not, it is named, and the session stays closed."""
    assert scorer_client.post(session_url(oak_session, "close"), {}, format="json").status_code == 200
    response = owner_client.post(session_url(oak_session, "reopen"),
                                 {"reason": "keyed too soon", "end_pool_mode": end_pool_mode},
                                 format="json")
    unknown(response, "end_pool_mode", "Unknown field 'end_pool_mode': the fields are reason.")
    oak_session.refresh_from_db()
    assert not oak_session.is_open


def test_the_rules_end_pool_names_its_values(scorer_client):
    response = scorer_client.post("/api/v1/clubs/oak/sessions/", {
        **SESSION, "rules": {"preset": "three-card", "end_pool": ""}}, format="json")
    body = problem(response, 400)
    assert (body["code"], body["detail"]) == ("rule-error", "end_pool: '' is not one of split, final-deal")


def test_the_dry_run_names_an_unknown_field(scorer_client):
    record = {**DEAL1, "seats": TABLE}
    unknown(scorer_client.post("/api/v1/replay", {"record": record, "rules": {"preset": "three-card"},
                                                  "pol": 6}, format="json"), "pol", "'pool'")


def test_a_misspelt_member_field_adds_no_member(club, owner_client):
    response = owner_client.post("/api/v1/clubs/oak/members/", {"name": "fay", "rol": "scorer"},
                                 format="json")
    unknown(response, "rol", "did you mean 'role'?")
    assert not Member.objects.filter(club=club, name="fay").exists()


def test_read_only_fields_sent_back_are_ignored_as_before(oak_session, scorer_client, owner_client):
    # a client may send back what it read: the answer's own fields are known, not refused
    bought = scorer_client.post(session_url(oak_session, "purchases/"),
                                {"player": "ann", "chips": 5, "id": 999, "created_by": "x"},
                                format="json")
    assert bought.status_code == 201 and bought.json()["id"] != 999
    member = owner_client.get("/api/v1/clubs/oak/members/ann/").json()
    assert owner_client.put("/api/v1/clubs/oak/members/ann/", member, format="json").status_code == 200


def test_a_session_body_takes_no_answer_field_back(scorer_client):
    # docs/api.md: only purchases, payments, members and clubs take their answer's fields back;
    # a session's body is not its answer's shape, and an id (or a status) there is refused
    response = scorer_client.post("/api/v1/clubs/oak/sessions/",
                                  {**SESSION, "id": 7, "status": "closed"}, format="json")
    unknown(response, "id", "Unknown field 'id'")
    unknown(response, "status", "Unknown field 'status'")
    assert not GameSession.objects.exists()


def test_a_form_post_may_carry_its_csrf_token(oak_session, scorer_client):
    # the browsable API's forms send Django's CSRF token beside the fields
    response = scorer_client.post(session_url(oak_session, "purchases/"),
                                  {"player": "ann", "chips": "5", "csrfmiddlewaretoken": "t"})
    assert response.status_code == 201, response.content


# --- the OpenAPI schema says so: additionalProperties false on every body the refusal covers ---

PROBE = "zz_not_a_field"


def request_bodies(schema: dict):
    """(method, path, the JSON body's schema, inline or its component) of every operation."""
    components = schema["components"]["schemas"]
    for path, item in schema["paths"].items():
        for method, operation in item.items():
            content = operation.get("requestBody", {}).get("content", {}) if isinstance(
                operation, dict) else {}
            if "application/json" in content:
                body = content["application/json"]["schema"]
                ref = body.get("$ref", "")
                yield method, path, components[ref.rsplit("/", 1)[-1]] if ref else body


def test_every_body_the_refusal_covers_says_additional_properties_false(world, owner_client):
    """Each operation is sent a body with a key no endpoint has: those that refuse it naming the
    key must document ``additionalProperties: false``, and no other may (the schema would
    refuse what the API takes)."""
    import json

    from rest_framework.test import APIClient

    schema = json.loads(APIClient().get("/api/v1/schema/",
                                        HTTP_ACCEPT="application/vnd.oai.openapi+json").content)
    known = {"club": "oak", "name": "bob", **{k: str(v) for k, v in world.items()}}
    covered, not_covered = set(), set()
    for method, path, body in request_bodies(schema):
        url = path.format(**{k: known[k] for k in known if "{" + k + "}" in path})
        response = getattr(owner_client, method)(url, {PROBE: 1}, format="json")
        named = response.status_code == 400 and any(
            e.get("field") == PROBE for e in response.json().get("errors", []))
        (covered if named else not_covered).add(f"{method.upper()} {path}")
        says = body.get("additionalProperties") is False
        assert says == named, (method, path, response.status_code, body)
    # the probe reached every body the refusal covers (a 404 would have passed it by)
    assert not_covered == {"POST /api/v1/auth/token/"}
    assert len(covered) == 17, sorted(covered)


@pytest.mark.parametrize("fmt", ["json", "multipart"])
def test_a_misspelt_import_field_starts_no_job(scorer_client, fmt):
    # the import read source and filename and passed any other key over: "filenme" was lost
    from games.imports.models import ImportJob

    response = scorer_client.post("/api/v1/clubs/oak/imports/",
                                  {"source": "{}\n", "filenme": "tuesday.jsonl"}, format=fmt)
    unknown(response, "filenme", "did you mean 'filename'?")
    assert not ImportJob.objects.exists()


def test_a_long_unknown_field_is_named_cut_to_a_readable_size(scorer_client):
    # its message repeated a 10,000-character key whole; the item's field keeps it (to match)
    key = "z" * 10_000
    body = problem(scorer_client.post("/api/v1/clubs/oak/sessions/", {**SESSION, key: 1},
                                      format="json"), 400)
    [item] = [e for e in body["errors"] if e["field"] == key]
    assert item["message"].startswith(f"Unknown field '{'z' * 59}… (10,000 characters)': ")
    assert len(item["message"]) < 400
    assert not GameSession.objects.exists()
