"""Every error is RFC 9457 problem+json: DRF errors, service Problems, engine errors, and
Django's own 404/500 under /api/. Test-only views are mounted beside the real URLs."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import IntegrityError, transaction
from django.urls import include, path
from rest_framework import serializers
from rest_framework.decorators import api_view, permission_classes
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.test import APIClient

from loo_ledger.problems import PROBLEM_TYPES, Problem, _as_api_exception, flatten_validation_errors

PROBLEM = "application/problem+json"


class AnteSerializer(serializers.Serializer):
    dealer = serializers.IntegerField(min_value=0)
    each = serializers.IntegerField(min_value=0)


class RulesSerializer(serializers.Serializer):
    ante = AnteSerializer()


class SessionInSerializer(serializers.Serializer):
    seats = serializers.ListField(child=serializers.RegexField(r"^[a-z]+$"), min_length=2)
    rules = RulesSerializer()

    def validate(self, attrs):
        if attrs["seats"][0] == "zed":
            raise serializers.ValidationError("zed may not sit first.")
        return attrs


@api_view(["POST"])
@permission_classes([AllowAny])
def validate_view(request):
    SessionInSerializer(data=request.data).is_valid(raise_exception=True)
    return Response({"ok": True})


@api_view(["POST"])
@permission_classes([AllowAny])
def conflict_view(request):
    raise Problem(409, "Deal number taken", detail="Deal 7 is already recorded; the next is 8.",
                  code="deal-number-conflict", errors=[{"field": "number", "message": "expected 8"}],
                  current_number=7)


@api_view(["GET"])
@permission_classes([AllowAny])
def crash_view(request):
    raise RuntimeError("a bug")


@api_view(["GET"])
@permission_classes([AllowAny])
def django_validation_view(request):
    raise DjangoValidationError({"chip_value": ["Must be positive."]})


@api_view(["GET"])
@permission_classes([AllowAny])
def integrity_view(request):
    raise IntegrityError("UNIQUE constraint failed: games_deal.session_id, games_deal.number")


@api_view(["GET"])
@permission_classes([AllowAny])
def record_error_view(request):
    from games.rules.errors import RecordError

    raise RecordError([
        {"index": 4, "player": "bob", "card": "QD", "field": None, "message": "bob plays QD twice"},
        {"index": 6, "player": "ann", "card": "ZZ", "field": None, "message": "'ZZ' is not a card"},
    ])


@api_view(["GET"])
@permission_classes([AllowAny])
def rule_error_view(request):
    from games.rules.errors import RuleError

    raise RuleError(["loo: 'huge' is not one of limited, unlimited"])


@api_view(["GET"])
@permission_classes([AllowAny])
def not_null_view(request):
    raise IntegrityError("NOT NULL constraint failed: games_deal.session_id")


def plain_django_crash(request):
    raise RuntimeError("outside DRF")


urlpatterns = [
    path("api/v1/test/validate/", validate_view),
    path("api/v1/test/conflict/", conflict_view),
    path("api/v1/test/crash/", crash_view),
    path("api/v1/test/django-validation/", django_validation_view),
    path("api/v1/test/integrity/", integrity_view),
    path("api/v1/test/not-null/", not_null_view),
    path("api/v1/test/record-error/", record_error_view),
    path("api/v1/test/rule-error/", rule_error_view),
    path("api/v1/test/plain-crash/", plain_django_crash),
    path("", include("loo_ledger.urls")),
]

pytestmark = [pytest.mark.urls(__name__), pytest.mark.django_db]


@pytest.fixture
def client_no_raise() -> APIClient:
    return APIClient(raise_request_exception=False)


def problem(response, status: int) -> dict:
    assert response.status_code == status, response.content
    assert response["Content-Type"] == PROBLEM
    body = response.json()
    assert body["status"] == status
    assert body["type"] == f"/problems/{body['code']}"
    return body


def test_nested_validation_errors_name_their_field_paths():
    response = APIClient().post(
        "/api/v1/test/validate/",
        {"seats": ["ann", "Bob", "cat"], "rules": {"ante": {"dealer": -1, "each": "x"}}},
        format="json",
    )
    body = problem(response, 400)
    assert body["title"] == "Invalid request"
    assert body["instance"] == "/api/v1/test/validate/"
    assert body["detail"] == "3 errors."
    assert [(e["field"], e["code"]) for e in body["errors"]] == [
        ("seats[1]", "invalid"),
        ("rules.ante.dealer", "min_value"),
        ("rules.ante.each", "invalid"),
    ]


def test_object_level_validation_error_has_no_field():
    body = problem(APIClient().post("/api/v1/test/validate/",
                                    {"seats": ["zed", "ann"], "rules": {"ante": {"dealer": 1, "each": 0}}},
                                    format="json"), 400)
    assert body["errors"] == [{"field": None, "message": "zed may not sit first.", "code": "invalid"}]
    assert body["detail"] == "zed may not sit first."


def test_flatten_keeps_list_positions_of_nested_objects():
    detail = {"actions": [{}, {"card": ["Not a card."]}], "non_field_errors": ["Bad record."]}
    assert flatten_validation_errors(detail) == [
        {"field": "actions[1].card", "message": "Not a card.", "code": None},
        {"field": None, "message": "Bad record.", "code": None},
    ]


def test_service_problem_carries_title_errors_and_extensions():
    body = problem(APIClient().post("/api/v1/test/conflict/", {}, format="json"), 409)
    assert body == {
        "type": "/problems/deal-number-conflict",
        "title": "Deal number taken",
        "status": 409,
        "detail": "Deal 7 is already recorded; the next is 8.",
        "instance": "/api/v1/test/conflict/",
        "code": "deal-number-conflict",
        "errors": [{"field": "number", "message": "expected 8", "code": "deal-number-conflict"}],
        "current_number": 7,
    }


def test_problem_defaults_title_and_type_from_status():
    exc = Problem(422, detail="Idempotency-Key reused with another body.")
    assert (exc.code, exc.title, exc.status_code) == ("unprocessable", "Unprocessable request", 422)


def test_engine_record_error_is_400_listing_every_error():
    body = problem(APIClient().get("/api/v1/test/record-error/"), 400)
    assert body["code"] == "record-error"
    assert body["detail"] == "2 errors in the record."
    assert [(e["index"], e["player"], e["card"]) for e in body["errors"]] == [(4, "bob", "QD"), (6, "ann", "ZZ")]


def test_engine_rule_error_is_400_naming_the_option():
    body = problem(APIClient().get("/api/v1/test/rule-error/"), 400)
    assert body["code"] == "rule-error"
    assert body["errors"] == [{"field": "rules", "message": "loo: 'huge' is not one of limited, unlimited",
                               "code": "invalid"}]


def test_django_validation_error_is_400():
    body = problem(APIClient().get("/api/v1/test/django-validation/"), 400)
    assert body["errors"] == [{"field": "chip_value", "message": "Must be positive.", "code": "invalid"}]


def test_integrity_error_is_409_conflict():
    body = problem(APIClient().get("/api/v1/test/integrity/"), 409)
    assert body["code"] == "conflict"
    assert "UNIQUE" not in body["detail"]  # no database internals leak


def test_a_real_unique_violation_is_409_on_this_database(django_user_model):
    django_user_model.objects.create(username="dup")
    with pytest.raises(IntegrityError) as caught, transaction.atomic():
        django_user_model.objects.create(username="dup")
    assert _as_api_exception(caught.value).status_code == 409  # SQLite and PostgreSQL alike


def test_other_integrity_errors_are_bugs_500(client_no_raise):
    assert problem(client_no_raise.get("/api/v1/test/not-null/"), 500)["code"] == "server-error"


def test_uncaught_exception_in_drf_view_is_500_problem(client_no_raise):
    body = problem(client_no_raise.get("/api/v1/test/crash/"), 500)
    assert body["code"] == "server-error"
    assert "a bug" not in body["detail"]


def test_uncaught_exception_in_plain_django_view_under_api_is_500_problem(client_no_raise):
    body = problem(client_no_raise.get("/api/v1/test/plain-crash/"), 500)
    assert body["instance"] == "/api/v1/test/plain-crash/"


def test_uncaught_exception_still_reaches_the_test_client_and_error_trackers():
    with pytest.raises(RuntimeError, match="a bug"):
        APIClient().get("/api/v1/test/crash/")


def test_unknown_url_under_api_is_404_problem():
    body = problem(APIClient().get("/api/v1/no-such-thing/"), 404)
    assert body["instance"] == "/api/v1/no-such-thing/"


def test_unknown_url_outside_api_stays_html():
    response = APIClient().get("/no-such-page/")
    assert response.status_code == 404
    assert response["Content-Type"].startswith("text/html")


def test_malformed_json_is_400_problem():
    response = APIClient().post("/api/v1/test/validate/", data="{not json", content_type="application/json")
    body = problem(response, 400)
    assert body["code"] == "malformed-request"
    assert body["detail"].startswith("JSON parse error")


def test_unsupported_media_type_is_415_problem():
    response = APIClient().post("/api/v1/test/validate/", data="<x/>", content_type="application/xml")
    assert problem(response, 415)["code"] == "unsupported-media-type"


def test_wrong_method_is_405_problem():
    assert problem(APIClient().get("/api/v1/test/validate/"), 405)["code"] == "method-not-allowed"


def test_browsable_api_error_stays_html_for_browsers():
    response = APIClient().get("/api/v1/test/validate/", HTTP_ACCEPT="text/html")
    assert response.status_code == 405
    assert response["Content-Type"].startswith("text/html")


@pytest.mark.parametrize("code", sorted(PROBLEM_TYPES))
def test_every_problem_type_uri_has_a_page(code):
    response = APIClient().get(f"/problems/{code}")
    assert response.status_code == 200
    assert PROBLEM_TYPES[code].title in response.content.decode()


def test_unknown_problem_type_page_is_404():
    assert APIClient().get("/problems/no-such-problem").status_code == 404


def _problem_codes_raised_in_the_code() -> set[str]:
    """Every ``code="..."`` a ``Problem(...)`` call in the service code names."""
    root = Path(__file__).resolve().parents[2]
    codes: set[str] = set()
    for package in ("games", "accounts", "loo_ledger"):
        for source in (root / package).rglob("*.py"):
            tree = ast.parse(source.read_text())
            for node in ast.walk(tree):
                if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "Problem":
                    codes |= {k.value.value for k in node.keywords
                              if k.arg == "code" and isinstance(k.value, ast.Constant)}
    return codes


def test_every_problem_code_the_services_raise_has_a_page():
    raised = _problem_codes_raised_in_the_code()
    assert {"session-closed", "record-mismatch", "correction-refused"} <= raised  # the scan works
    assert raised - set(PROBLEM_TYPES) == set()


@pytest.mark.parametrize("url", ["/api/v1/docs/", "/api/v1/redoc/", "/api/v1/schema/"])
def test_an_unknown_format_on_a_docs_page_is_a_json_problem(url):
    response = APIClient().get(url, {"format": "nope"})
    data = problem(response, 406)
    assert data["code"] == "not-acceptable" and '"nope"' in data["detail"]


@pytest.mark.parametrize("role, method, path", [
    ("owner", "delete", "sessions/{id}/"),        # read-only resources said 403 "read-only"
    ("scorer", "put", "sessions/{id}/ledger"),
    ("viewer", "delete", "sessions/{id}/purchases/"),  # and a viewer's, "your role may not"
    ("scorer", "patch", "sessions/{id}/deals/"),
])
def test_a_method_the_endpoint_does_not_take_is_405_whatever_the_role(role, method, path,
                                                                      oak_session, api_client_for):
    client = api_client_for(role)
    url = f"/api/v1/clubs/oak/{path.format(id=oak_session.pk)}"
    response = getattr(client, method)(url, {}, format="json")
    assert problem(response, 405)["code"] == "method-not-allowed"
    assert method.upper() not in response["Allow"]
    # who may not see the club still learns nothing: 404 first, and 401 without a login
    problem(getattr(api_client_for("outsider"), method)(url, {}, format="json"), 404)
    problem(getattr(api_client_for("anon"), method)(url, {}, format="json"), 401)
