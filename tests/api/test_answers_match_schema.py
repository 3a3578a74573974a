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

from tests.api.conftest import DEAL1, TABLE, deals_url, session_url

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
    body = response.json()
    errors = [f"{list(e.absolute_path)}: {e.message}" for e in
              jsonschema.Draft202012Validator(body_schema).iter_errors(body)]
    assert not errors, (path, method, errors[:5])
    undocumented = sorted(set(undocumented_keys(openapi, documented["content"][media]["schema"],
                                                body)))
    assert not undocumented, (path, method, undocumented)


def fields_of(openapi: dict, path: str, method: str, status: int) -> set[str]:
    """The fields the schema names for this answer (of its items, for a list)."""
    node = openapi["paths"][path][method]["responses"][str(status)]["content"]["application/json"]
    node = node["schema"]
    for _ in range(4):
        node = node.get("items", node)
        if "$ref" in node:
            node = openapi["components"]["schemas"][node["$ref"].rsplit("/", 1)[1]]
    return set(node.get("properties", {}))


def undocumented_keys(openapi: dict, node: dict, value: Any, at: str = "") -> list[str]:
    """Where ``value`` carries a key its schema's ``properties`` do not name (a field a client
    reading the schema would not know of); maps (``additionalProperties``) are not checked."""
    while "$ref" in node or "allOf" in node:
        node = (openapi["components"]["schemas"][node["$ref"].rsplit("/", 1)[1]]
                if "$ref" in node else node["allOf"][0])
    out: list[str] = []
    if isinstance(value, dict) and "properties" in node:
        for key, item in value.items():
            if key not in node["properties"]:
                out.append(f"{at}.{key}")
            else:
                out += undocumented_keys(openapi, node["properties"][key], item, f"{at}.{key}")
    elif isinstance(value, list) and "items" in node:
        for item in value:
            out += undocumented_keys(openapi, node["items"], item, f"{at}[]")
    return out


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


def test_the_verdict_schema_is_the_verdict_answered(openapi, played, scorer_client):
    """A verdict as the API answers it (a deal's in the list and the deal, its revisions', the
    dry run's) carries no ``number``, which only the engine's ``replay_session`` (and its CLI)
    adds, and the schema names none; its ``engine`` is ``{"version", "rules"}``, which the
    schema said was any object."""
    schemas = openapi["components"]["schemas"]
    verdict, engine = schemas["Verdict"], schemas["VerdictEngine"]
    assert "number" not in verdict["properties"]
    assert verdict["properties"]["engine"] == {"$ref": "#/components/schemas/VerdictEngine"}
    assert sorted(engine["required"]) == sorted(engine["properties"]) == ["rules", "version"]
    deal = scorer_client.get(session_url(played, "deals/2/")).json()
    replayed = scorer_client.post("/api/v1/replay", {  # a record giving its own number
        "record": {**DEAL1, "seats": TABLE, "number": 2}, "rules": {"preset": "three-card"},
        "pool": 6}, format="json")
    assert_documented(openapi, "/api/v1/replay", "post", replayed)
    answered = [*(d["verdict"] for d in scorer_client.get(deals_url(played)).json()["results"]),
                deal["verdict"], *(r["verdict"] for r in deal["revisions"]), replayed.json()]
    for one in answered:
        assert set(verdict["required"]) <= set(one) <= set(verdict["properties"]), sorted(one)
        assert set(one["engine"]) == {"rules", "version"}


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


@pytest.mark.parametrize("method, url, path", [
    ("post", "/api/v1/auth/token/", "/api/v1/auth/token/"),
    ("post", "/api/v1/replay", "/api/v1/replay"),
    ("post", "/api/v1/clubs/", "/api/v1/clubs/"),
    ("patch", "/api/v1/clubs/oak/members/bob/", "/api/v1/clubs/{club}/members/{name}/"),
    ("post", "deals/", DEALS),
    ("post", "close", "/api/v1/clubs/{club}/sessions/{session_id}/close"),
])
def test_a_body_over_the_upload_limit_is_a_documented_413(method, url, path, openapi, settings,
                                                          oak_session, owner_client):
    """Any body larger than the service reads (DATA_UPLOAD_MAX_MEMORY_SIZE) is a 413
    `payload-too-large`, whichever operation it was sent to; the schema listed it on the
    import alone, so a client generated from it met an undocumented status everywhere else."""
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1_000
    if not url.startswith("/"):
        url = session_url(oak_session, url)
    response = owner_client.generic(method.upper(), url, json.dumps({"name": "x" * 2_000}),
                                    content_type="application/json")
    assert response.status_code == 413, response.content
    assert response.json()["code"] == "payload-too-large"
    assert_documented(openapi, path, method, response)


def test_a_whole_evening_answers_as_documented(openapi, scorer_client, owner_client,
                                               django_capture_on_commit_callbacks, eager_celery):
    """Open, buy on credit, record, correct, pay, close, reopen, close again, read everything,
    export and import back: every answer fits its documented schema, and names no field the
    schema leaves out (the close, reopen, closings and import answers were untyped objects)."""
    from tests.api.conftest import DEAL1, DEAL2

    sessions = "/api/v1/clubs/{club}/sessions/"
    one = "/api/v1/clubs/{club}/sessions/{session_id}"

    def check(method: str, path: str, response: Any, status: int) -> Any:
        assert response.status_code == status, response.content
        assert_documented(openapi, path, method, response)
        if path != f"{one}/report":  # (the report's JSON is described in docs/settlement.md)
            assert fields_of(openapi, path, method, status), (path, method, "no fields documented")
        return response.json() if response["Content-Type"].endswith("json") else response

    created = check("post", sessions, scorer_client.post("/api/v1/clubs/oak/sessions/", {
        "date": "2026-11-28", "seats": TABLE, "first_dealer": "cat", "rules": {"preset": "three-card"},
        "chip_value": 10, "buy_ins": {p: 20 for p in TABLE}}, format="json"), 201)
    base = f"/api/v1/clubs/oak/sessions/{created['id']}/"
    check("post", f"{one}/purchases/", scorer_client.post(
        f"{base}purchases/", {"player": "ann", "chips": 10, "paid": False}, format="json"), 201)
    for number, record in enumerate([DEAL1, DEAL2], 1):
        check("post", DEALS, scorer_client.post(f"{base}deals/", {"number": number, "record": record},
                                                format="json"), 201)
    corrected = {**DEAL1, "result": {"tricks": {"ann": 1, "bob": 2}}}
    check("post", f"{one}/deals/{{number}}/corrections", scorer_client.post(
        f"{base}deals/1/corrections", {"record": corrected, "reason": "miscounted"}, format="json"), 201)
    check("post", f"{one}/payments/", scorer_client.post(
        f"{base}payments/", {"player": "ann", "money": 40}, format="json"), 201)
    check("post", f"{one}/close", scorer_client.post(f"{base}close", {"reason": "late"},
                                                     format="json"), 200)
    check("post", f"{one}/reopen", owner_client.post(f"{base}reopen", {"reason": "deal 2"},
                                                     format="json"), 200)
    check("post", f"{one}/close", scorer_client.post(f"{base}close", {}, format="json"), 200)
    assert len(check("get", f"{one}/closings", scorer_client.get(f"{base}closings"), 200)) == 3
    for tail, path in [("", f"{one}/"), ("ledger", f"{one}/ledger"), ("deals/", DEALS),
                       ("deals/1/", DEAL), ("purchases/", f"{one}/purchases/"),
                       ("payments/", f"{one}/payments/"), ("report", f"{one}/report")]:
        check("get", path, scorer_client.get(base + tail), 200)
    check("get", sessions, scorer_client.get("/api/v1/clubs/oak/sessions/"), 200)
    text = scorer_client.get(f"{base}file").content
    imports = "/api/v1/clubs/{club}/imports/"
    # each job by the id its answer gives (on PostgreSQL the ids go on from earlier tests)
    with django_capture_on_commit_callbacks(execute=True):  # the (eager) import task
        made = check("post", imports, scorer_client.post("/api/v1/clubs/oak/imports/", text,
                                                         content_type="application/x-ndjson"), 202)
    job = check("get", f"{imports}{{job_id}}", scorer_client.get(
        f"/api/v1/clubs/oak/imports/{made['id']}"), 200)
    assert job["status"] == "done", job
    with django_capture_on_commit_callbacks(execute=True):
        made = check("post", imports, scorer_client.post(
            "/api/v1/clubs/oak/imports/", b'{"format": "loo-session/1"}\n{"nonsense": 1}\n',
            content_type="application/x-ndjson"), 202)
    bad = check("get", f"{imports}{{job_id}}", scorer_client.get(
        f"/api/v1/clubs/oak/imports/{made['id']}"), 200)
    assert bad["status"] == "failed" and bad["errors"], bad
    check("post", f"{imports}{{job_id}}/retry", scorer_client.post(
        f"/api/v1/clubs/oak/imports/{bad['id']}/retry"), 202)
    assert len(check("get", imports, scorer_client.get("/api/v1/clubs/oak/imports/"), 200)) == 2
