"""``GET /api/v1/``: where a REST client (or a person in the browsable API) starts."""
from __future__ import annotations

from django.urls import reverse
from drf_spectacular.utils import extend_schema
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView


class ApiRootView(APIView):
    """The API's entry points: your clubs (everything else hangs off a club), getting a token,
    changing your password, the dry-run replay, and the documentation."""

    name = "loo-ledger API"  # the browsable API's title and breadcrumb

    permission_classes = [AllowAny]

    @extend_schema(exclude=True)
    def get(self, request: Request) -> Response:
        def link(name: str) -> str:
            return request.build_absolute_uri(reverse(name))

        return Response({
            "clubs": link("club-list"),
            "auth_token": link("auth-token"),
            "auth_password": link("auth-password"),
            "replay": link("replay"),
            "docs": link("swagger-ui"),
            "reference": link("redoc"),
            "schema": link("schema"),
        })
