"""What a client reads matches what the OpenAPI schema says it reads.

The schemathesis test (test_schema.py) feeds schema-generated input, which a real deal record
is almost never; here legal deals of every preset (the engine's simulator) are recorded through
the API and each answer is checked against its documented schema, as a client generated from
the schema would read it.
"""
from __future__ import annotations

import json
import random
from typing import Any

import pytest
from rest_framework.test import APIClient

from tests.api.conftest import TABLE, deals_url, session_url

jsonschema = pytest.importorskip("jsonschema")

pytestmark = pytest.mark.django_db

PRESETS = ["three-card", "irish", "five-card", "poker-loo", "undivided", "mississippi"]


@pytest.fixture(scope="module")
def openapi() -> dict:
    response = APIClient().get("/api/v1/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert response.status_code == 200
    return json.loads(response.content)


def json_schema(node: Any) -> Any:
    """OpenAPI 3.0 -> JSON Schema: ``nullable`` becomes a null alternative, refs point at
    ``$defs``; the annotations that JSON Schema reads otherwise are dropped."""
    if isinstance(node, list):
        return [json_schema(n) for n in node]
    if not isinstance(node, dict):
        return node
    out = {k: json_schema(v) for k, v in node.items()
           if k not in ("nullable", "example", "readOnly", "writeOnly", "format")}
    if "$ref" in out:
        out["$ref"] = out["$ref"].replace("#/components/schemas/", "#/$defs/")
    return {"anyOf": [out, {"type": "null"}]} if node.get("nullable") else out


def assert_documented(openapi: dict, path: str, method: str, response: Any) -> None:
    """``response`` has a documented status and media type and its body fits that schema."""
    operation = openapi["paths"][path][method]
    documented = operation["responses"].get(str(response.status_code))
    assert documented is not None, (path, method, response.status_code, sorted(operation["responses"]))
    media = response["Content-Type"].split(";")[0]
    assert media in documented["content"], (path, method, media, list(documented["content"]))
    body_schema = {**json_schema(documented["content"][media]["schema"]),
                   "$defs": json_schema(openapi["components"]["schemas"])}
    errors = [f"{list(e.absolute_path)}: {e.message}" for e in
              jsonschema.Draft202012Validator(body_schema).iter_errors(response.json())]
    assert not errors, (path, method, errors[:5])


DEALS = "/api/v1/clubs/{club}/sessions/{session_id}/deals/"
DEAL = "/api/v1/clubs/{club}/sessions/{session_id}/deals/{number}/"


@pytest.mark.parametrize("preset", PRESETS)
def test_recorded_deals_of_every_game_answer_as_documented(preset, openapi, make_session,
                                                           scorer_client):
    """Every game's verdicts (five-card's and Irish's `pool_kind` is null, a poker-Loo deal may
    end in a redeal, a dealer may defend) read as the schema's Deal says."""
    from games.rules.simulate import session_deals

    session = make_session(rules={"preset": preset}, first_dealer="ann", allow_credit=True)
    seen: set[str] = set()
    for number, dealt in enumerate(session_deals({"preset": preset}, TABLE, 12,
                                                 random.Random(7), first_dealer="ann"), 1):
        response = scorer_client.post(deals_url(session), {"number": number, "record": dealt.record},
                                      format="json")
        assert response.status_code == 201, response.content
        assert_documented(openapi, DEALS, "post", response)
        seen |= set(response.json()["verdict"])
    assert_documented(openapi, DEALS, "get", scorer_client.get(deals_url(session)))
    assert_documented(openapi, DEAL, "get", scorer_client.get(session_url(session, "deals/1/")))
    # and nothing a verdict carries is left out of the schema (its fields are optional there)
    assert seen <= set(openapi["components"]["schemas"]["Verdict"]["properties"]), seen


def test_replay_answers_as_documented(openapi, scorer_client):
    from games.rules.simulate import random_deal

    record = random_deal({"preset": "five-card"}, TABLE, "dan", rng=random.Random(3))
    response = scorer_client.post("/api/v1/replay", {"record": record, "rules": {"preset": "five-card"}},
                                  format="json")
    assert response.status_code == 200, response.content
    assert response.json()["pool_kind"] is None
    assert_documented(openapi, "/api/v1/replay", "post", response)


@pytest.mark.parametrize("url, path, accept", [
    # a client asking JSON of the session file (application/jsonl) was answered a 406 the
    # schema did not list for it; every answer is negotiated, so every operation can
    ("file", "/api/v1/clubs/{club}/sessions/{session_id}/file", "application/json"),
    ("ledger", "/api/v1/clubs/{club}/sessions/{session_id}/ledger", "text/csv"),
    ("", "/api/v1/clubs/{club}/sessions/{session_id}/", "application/pdf"),
])
def test_an_accept_the_url_cannot_meet_is_a_documented_406(url, path, accept, openapi,
                                                           oak_session, scorer_client):
    response = scorer_client.get(session_url(oak_session, url), HTTP_ACCEPT=accept)
    assert response.status_code == 406
    assert_documented(openapi, path, "get", response)
