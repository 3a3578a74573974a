"""Every true/false the API reads in a JSON body is a JSON boolean: text ("true", "yes", "no"),
numbers (1, 0) and the like are refused with a 400 naming the field, never read as the boolean
DRF's list of spellings makes of them ("paid": "no" read as false is money owed, by a rule the
client cannot see). A form post (multipart or urlencoded) can only send text: there, the usual
spellings (true/false, yes/no, on/off, 1/0) are read, and nothing else."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from games.models import ChipPurchase, GameSession

from .conftest import TABLE, example, problem, session_url

pytestmark = pytest.mark.django_db


def true_false(name: str) -> str:
    """The refusal of a value that is not a JSON boolean (loo_ledger.fields), written out."""
    return f'{name} must be true or false: a JSON boolean, not text ("true", "yes") or a number (1).'


def in_form(name: str) -> str:
    return f"{name} must be true or false, written as true/false, yes/no, on/off or 1/0."


def session_body(**changes: Any) -> dict[str, Any]:
    return {"date": "2026-11-28", "seats": list(TABLE), "first_dealer": "cat",
            "rules": {"preset": "three-card"}, "chip_value": 10, **changes}


def replay_body(**changes: Any) -> dict[str, Any]:
    return {"rules": {"preset": "three-card"}, "record": example("e1_miss_taker_revokes.json"),
            "pool": 6, **changes}


#: (what, the request's path given the session, its body with the value, the field, how many
#: rows it has stored so far, what it stored of the value): each true/false a write body takes
Case = tuple[str, Callable[[Any], str], Callable[[Any], dict[str, Any]], str,
             Callable[[], int], Callable[[Any], Any]]
CASES: list[Case] = [
    ("session allow_credit", lambda s: "/api/v1/clubs/oak/sessions/",
     lambda v: session_body(allow_credit=v), "allow_credit", GameSession.objects.count,
     lambda answer: GameSession.objects.get(pk=answer["id"]).allow_credit),
    ("purchase paid", lambda s: session_url(s, "purchases/"),
     lambda v: {"player": "ann", "chips": 2, "paid": v}, "paid", ChipPurchase.objects.count,
     lambda answer: ChipPurchase.objects.get(pk=answer["id"]).paid),
    ("replay first_of_series", lambda s: "/api/v1/replay",
     lambda v: replay_body(first_of_series=v), "first_of_series", lambda: 0, lambda answer: None),
]
LOOK_ALIKES = ["true", "false", "yes", "no", "on", "off", "t", "f", "1", "0", "", 1, 0, 0.0,
               "null", [True]]


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
@pytest.mark.parametrize("bad", LOOK_ALIKES, ids=[repr(v) for v in LOOK_ALIKES])
def test_a_true_false_that_is_no_json_boolean_is_refused(oak_session, scorer_client, case, bad):
    _what, path, body, field, stored, _value = case
    before = stored()
    data = problem(scorer_client.post(path(oak_session), body(bad), format="json"), 400)
    assert data["code"] == "validation-error"
    assert [(e["field"], e["message"]) for e in data["errors"]] == [(field, true_false(field))]
    assert data["detail"] == true_false(field)
    assert stored() == before


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
@pytest.mark.parametrize("value", [True, False])
def test_true_and_false_themselves_are_taken(oak_session, scorer_client, case, value):
    _what, path, body, _field, _stored, stored_value = case
    response = scorer_client.post(path(oak_session), body(value), format="json")
    assert response.status_code in (200, 201), response.content
    if response.status_code == 201:
        assert stored_value(response.json()) is value


def test_null_stays_the_dry_runs_default(scorer_client):
    # first_of_series: null is "work it out", as before
    response = scorer_client.post("/api/v1/replay", replay_body(first_of_series=None), format="json")
    assert response.status_code == 200, response.content


@pytest.mark.parametrize("text, paid", [("true", True), ("on", True), ("yes", True), ("1", True),
                                        ("True", True), ("false", False), ("off", False),
                                        ("no", False), ("0", False)])
def test_a_form_post_reads_the_usual_spellings(oak_session, scorer_client, text, paid):
    url = session_url(oak_session, "purchases/")
    posted = scorer_client.post(url, {"player": "ann", "chips": "2", "paid": text},
                                format="multipart")
    assert posted.status_code == 201, posted.content
    assert posted.json()["paid"] is paid
    posted = scorer_client.post(url, f"player=ann&chips=2&paid={text}",
                                content_type="application/x-www-form-urlencoded")
    assert posted.status_code == 201, posted.content
    assert ChipPurchase.objects.get(pk=posted.json()["id"]).paid is paid


def test_a_form_post_without_paid_is_owed_as_an_unticked_checkbox(oak_session, scorer_client):
    # docs/api.md: "in a form, as in an HTML checkbox, a paid left out is false (owed)"; it was
    # recorded paid (DRF gives a form's missing field its default), so the browsable API's
    # purchase form could not record chips owed
    url = session_url(oak_session, "purchases/")
    for posted in (scorer_client.post(url, {"player": "ann", "chips": "2"}, format="multipart"),
                   scorer_client.post(url, "player=ann&chips=2",
                                      content_type="application/x-www-form-urlencoded")):
        assert posted.status_code == 201, posted.content
        assert ChipPurchase.objects.get(pk=posted.json()["id"]).paid is False
    # a JSON body without paid is paid, as before (the default)
    posted = scorer_client.post(url, {"player": "ann", "chips": 2}, format="json")
    assert posted.status_code == 201 and posted.json()["paid"] is True


def test_the_browsable_apis_paid_box_starts_ticked(oak_session, scorer_client):
    # as the JSON default: submitted untouched, the form records chips paid (unticked, owed)
    page = scorer_client.get(session_url(oak_session, "purchases/"), HTTP_ACCEPT="text/html")
    assert '<input type="checkbox" name="paid" value="true" checked>' in page.content.decode()


@pytest.mark.parametrize("text", ["maybe", "2", "paid", "y e s"])
def test_a_form_post_with_no_spelling_of_true_or_false_is_refused(oak_session, scorer_client,
                                                                  text):
    before = ChipPurchase.objects.count()
    data = problem(scorer_client.post(session_url(oak_session, "purchases/"),
                                      {"player": "ann", "chips": "2", "paid": text},
                                      format="multipart"), 400)
    assert [(e["field"], e["message"]) for e in data["errors"]] == [("paid", in_form("paid"))]
    assert ChipPurchase.objects.count() == before


@pytest.mark.parametrize("component, prop", [
    ("SessionCreateRequest", "allow_credit"),
    ("PurchaseRequest", "paid"),
    ("ReplayRequestRequest", "first_of_series"),
])
def test_the_schema_still_says_boolean(schema, component, prop):
    field = schema["components"]["schemas"][component]["properties"][prop]
    assert field["type"] == "boolean"
