"""List filters: sessions by date range and status; deals by status and violation rule."""
from __future__ import annotations

import django_filters

from games.models import Deal, GameSession


class SessionFilter(django_filters.FilterSet):
    date_from = django_filters.DateFilter(field_name="date", lookup_expr="gte", label="On or after this date")
    date_to = django_filters.DateFilter(field_name="date", lookup_expr="lte", label="On or before this date")
    status = django_filters.ChoiceFilter(choices=GameSession.Status.choices)

    class Meta:
        model = GameSession
        fields = ["date_from", "date_to", "status"]


class DealFilter(django_filters.FilterSet):
    status = django_filters.ChoiceFilter(
        field_name="current__status",
        choices=[("valid", "valid"), ("irregular", "irregular"), ("unverified", "unverified")],
    )
    violation = django_filters.CharFilter(
        field_name="current__violations__rule", distinct=True,
        label="Rule broken (revoke, failed-to-head, misdeal, ...)",
    )
    dealer = django_filters.CharFilter(field_name="current__dealer")

    class Meta:
        model = Deal
        fields = ["status", "violation", "dealer"]


__all__ = ["DealFilter", "SessionFilter"]
