"""Every whole number the API reads is a JSON integer: text ("20"), a decimal (even 20.0) and
true/false are refused with a 400 naming the field, never read as the number they look like.
A form post (multipart or urlencoded) can only send text: there, digits are read, and nothing
else."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from games.models import ChipPayment, ChipPurchase, Deal, GameSession

from .conftest import DEAL1, TABLE, example, problem, session_url

pytestmark = pytest.mark.django_db

MONEY = "of the smallest currency unit"


def whole(name: str, unit: str = "") -> str:
    """The refusal of a value that is not a JSON integer (loo_ledger.fields), written out."""
    of = f" {unit}" if unit else ""
    return (f'{name} must be a whole number{of}: a JSON integer such as 20, not text ("20"), '
            "a decimal (20.0) or true/false.")


@pytest.fixture
def owing(oak_session):
    """oak_session (chip value 10) where bob bought 15 chips (150) on credit."""
    from games.services.sessions import purchase_record

    purchase_record(session=oak_session, player="bob", chips=15, paid=False)
    return oak_session


def session_body(**changes: Any) -> dict[str, Any]:
    return {"date": "2026-11-28", "seats": list(TABLE), "first_dealer": "cat",
            "rules": {"preset": "three-card"}, "chip_value": 10,
            "buy_ins": {p: 20 for p in TABLE}, **changes}


#: (what, the request's path given the session, its body with the bad value, the errors' field,
#: its message, what would have been stored): each whole number the API reads, in a body it
#: stores (or, the dry run, answers) when the value is the integer itself
Case = tuple[str, Callable[[Any], str], Callable[[Any], dict[str, Any]], str, str,
             Callable[[], int]]
CASES: list[Case] = [
    ("session chip_value", lambda s: "/api/v1/clubs/oak/sessions/",
     lambda v: session_body(chip_value=v), "chip_value", whole("chip_value", MONEY),
     lambda: GameSession.objects.count()),
    ("session buy-in", lambda s: "/api/v1/clubs/oak/sessions/",
     lambda v: session_body(buy_ins={"ann": v}), "buy_ins.ann", whole("a buy-in", "of chips"),
     lambda: GameSession.objects.count()),
    ("deal number", lambda s: session_url(s, "deals/"),
     lambda v: {"number": v, "record": DEAL1}, "number", whole("number"),
     lambda: Deal.objects.count()),
    ("record's number", lambda s: session_url(s, "deals/"),
     lambda v: {"number": 1, "record": {**DEAL1, "number": v}}, "record.number",
     whole("record.number"), lambda: Deal.objects.count()),
    ("record's pool", lambda s: session_url(s, "deals/"),
     lambda v: {"number": 1, "record": {**DEAL1, "pool": v}}, "record.pool",
     whole("record.pool", "of chips"), lambda: Deal.objects.count()),
    ("purchase chips", lambda s: session_url(s, "purchases/"),
     lambda v: {"player": "ann", "chips": v}, "chips", whole("chips", "of chips"),
     lambda: ChipPurchase.objects.count()),
    ("purchase money", lambda s: session_url(s, "purchases/"),
     lambda v: {"player": "ann", "chips": 2, "money": v}, "money", whole("money", MONEY),
     lambda: ChipPurchase.objects.count()),
    ("payment money", lambda s: session_url(s, "payments/"),
     lambda v: {"player": "bob", "money": v}, "money", whole("money", MONEY),
     lambda: ChipPayment.objects.count()),
    ("replay pool", lambda s: "/api/v1/replay",
     lambda v: {"rules": {"preset": "three-card"}, "record": example("e1_miss_taker_revokes.json"),
                "pool": v}, "pool", whole("pool", "of chips"), lambda: 0),
]
#: the integer each case is good with: 1 chip value... so that the look-alikes below are
#: exactly what a lenient field would have read as it
GOOD = {"session chip_value": 10, "session buy-in": 20, "deal number": 1, "record's number": 1,
        "record's pool": 0, "purchase chips": 2,
        "purchase money": 20, "payment money": 20, "replay pool": 6}


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
@pytest.mark.parametrize("look_alike", [str, float, lambda n: f"{n}.0", lambda n: f" {n} ",
                                        lambda n: True],
                         ids=["text", "decimal", "decimal-text", "spaced-text", "true"])
def test_a_whole_number_that_is_no_json_integer_is_refused(owing, scorer_client, case,
                                                          look_alike):
    what, path, body, field, message, stored = case
    before = stored()
    bad = look_alike(GOOD[what])
    data = problem(scorer_client.post(path(owing), body(bad), format="json"), 400)
    assert data["code"] == "validation-error"
    assert [(e["field"], e["message"]) for e in data["errors"]] == [(field, message)], bad
    assert data["detail"] == message
    assert stored() == before


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_the_integer_itself_is_taken(owing, scorer_client, case):
    # (so the refusals above are the look-alikes', not the bodies')
    what, path, body, _field, _message, _stored = case
    response = scorer_client.post(path(owing), body(GOOD[what]), format="json")
    assert response.status_code in (200, 201), response.content


def test_a_form_post_is_read_in_digits_only(owing, scorer_client):
    url = session_url(owing, "purchases/")
    for fmt in ("multipart", None):  # (None: urlencoded, as `curl -d chips=2` sends it)
        posted = scorer_client.post(url, {"player": "ann", "chips": "2"}, format=fmt) if fmt \
            else scorer_client.post(url, "player=ann&chips=2",
                                    content_type="application/x-www-form-urlencoded")
        assert posted.status_code == 201, posted.content
        assert posted.json()["chips"] == 2
    for bad in ("2.0", " 2", "2e0", "٢", "1_0", "true"):
        data = problem(scorer_client.post(url, {"player": "ann", "chips": bad}, format="multipart"),
                       400)
        assert [(e["field"], e["message"]) for e in data["errors"]] == [
            ("chips", "chips must be a whole number of chips, written in digits such as 20.")], bad
    assert ChipPurchase.objects.filter(player="ann", chips=2).count() == 2


def test_a_negative_payment_in_a_form_is_read_too(owing, scorer_client):
    paid = scorer_client.post(session_url(owing, "payments/"), {"player": "bob", "money": "60"},
                              format="multipart")
    assert paid.status_code == 201, paid.content
    refund = scorer_client.post(session_url(owing, "payments/"), {"player": "bob", "money": "-10"},
                                format="multipart")
    assert refund.status_code == 201 and refund.json()["money"] == -10


@pytest.mark.parametrize("changes, field", [({"chip_value": True}, "chip_value"),
                                            ({"buy_ins": {"ann": True}}, "buy_ins.ann")])
def test_the_session_service_refuses_true_for_a_number_too(make_session, changes, field):
    # true is an int to Python: the service (which the import stores through) says no itself
    from loo_ledger.problems import Problem

    with pytest.raises(Problem) as refused:
        make_session(**changes)
    assert [e["field"] for e in refused.value.errors] == [field]
    assert not GameSession.objects.exists()


#: each case's bounds, as docs/api.md's "Request bodies" gives them (games/services/limits.py)
BOUNDS = {"session chip_value": (1, 10**9), "session buy-in": (1, 10**9), "deal number": (1, 10**9),
          "record's number": (1, 10**9), "record's pool": (0, 10**9), "purchase chips": (1, 10**9), "purchase money": (0, 10**15),
          "payment money": (-(10**15), 10**15), "replay pool": (0, 10**9)}


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_a_whole_number_past_its_documented_bounds_is_refused(owing, scorer_client, case):
    what, path, body, field, _message, stored = case
    before = stored()
    for bad in (BOUNDS[what][0] - 1, BOUNDS[what][1] + 1):
        data = problem(scorer_client.post(path(owing), body(bad), format="json"), 400)
        assert [e["field"] for e in data["errors"]] == [field], bad
    assert stored() == before


@pytest.mark.parametrize("component, prop, bounds", [
    ("SessionCreateRequest", "chip_value", (1, 10**9)),
    ("DealCreateRequest", "number", (1, 10**9)),
    ("PurchaseRequest", "chips", (1, 10**9)),
    ("PurchaseRequest", "money", (0, 10**15)),
    ("PaymentRequest", "money", (-(10**15), 10**15)),
    ("ReplayRequestRequest", "pool", (0, 10**9)),
])
def test_the_schema_still_says_integer(schema, component, prop, bounds):
    field = schema["components"]["schemas"][component]["properties"][prop]
    assert field["type"] == "integer"
    assert (field["minimum"], field["maximum"]) == bounds
    buy_in = schema["components"]["schemas"]["SessionCreateRequest"]["properties"]["buy_ins"]
    assert buy_in["additionalProperties"] == {"type": "integer", "minimum": 1, "maximum": 10**9}
