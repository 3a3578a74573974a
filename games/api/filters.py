"""List filters: sessions by date range and status; deals by status and violation rule.

A date range reads alike wherever the API takes one (the sessions list, the club results and
their page): ``date_from`` and ``date_to``, each a day like 2026-11-30 and either left out, read
by one function (:func:`date_range`): a day that is none is one 400 in the same words on each,
and a range that ends before it starts is one 400 (:func:`refuse_reversed`) rather than an
answer with nothing in it.
"""
from __future__ import annotations

from collections.abc import Mapping
from datetime import date
from typing import Any

import django_filters

from games.models import Deal, GameSession
from games.rules.errors import shown
from games.rules.phases import IRREGULARITY_KINDS
from loo_ledger.fields import as_written, read_day
from loo_ledger.filters import choice_filter
from loo_ledger.problems import Problem

DATE_FROM, DATE_TO = "date_from", "date_to"
#: how each range parameter is documented, on every endpoint that takes it
DATE_HELP = {
    DATE_FROM: "On or after this day (YYYY-MM-DD). After `date_to` is a 400.",
    DATE_TO: "On or before this day (YYYY-MM-DD). Before `date_from` is a 400.",
}


def parse_day(value: str | None, field: str) -> date | None:
    """A query's day, named ``field`` in the 400 when it is not one; None when left out."""
    if not value:
        return None
    try:
        return read_day(value)
    except ValueError:
        raise Problem(400, detail=f"{field} must be a date like 2026-11-30, not {as_written(value)}",
                      errors=[{"field": field, "message": "Expected YYYY-MM-DD."}],
                      code="validation-error") from None


def refuse_reversed(date_from: date | None, date_to: date | None,
                    names: tuple[str, str] = (DATE_FROM, DATE_TO)) -> None:
    """400 for a range that ends before it starts, naming the parameters as the client sent
    them (``names``): such a range holds nothing, so it is a slip to be said, not an empty
    answer."""
    if date_from and date_to and date_from > date_to:
        first, last = names
        raise Problem(400, detail=f"{first} ({date_from}) is after {last} ({date_to}).",
                      errors=[{"field": last, "message": f"Must not be before {first}."}],
                      code="validation-error")


def _named(query: Mapping[str, Any], name: str, alias: str | None) -> tuple[str, str | None]:
    """The name a day came under (``name``, else its ``alias``) and its text; both given with
    different days is a 400."""
    value = query.get(name) or None
    other = (query.get(alias) or None) if alias else None
    if value and other and value != other:
        raise Problem(400, detail=f"{name} and {alias} (its alias) give different days, "
                      f"{shown(value, bare=True)} and {shown(other, bare=True)}: send one.", code="validation-error",
                      errors=[{"field": name, "message": f"Differs from {alias}={shown(other, bare=True)}."}])
    if value or not other:
        return name, value
    return alias, other  # type: ignore[return-value]


def date_range(query: Mapping[str, Any], aliases: Mapping[str, str] | None = None
               ) -> tuple[date | None, date | None]:
    """``date_from`` and ``date_to`` of a query (or their ``aliases``: the club results'
    ``from`` and ``to``), each named in its 400, and the range refused if reversed."""
    aliases = aliases or {}
    first, first_text = _named(query, DATE_FROM, aliases.get(DATE_FROM))
    last, last_text = _named(query, DATE_TO, aliases.get(DATE_TO))
    date_from, date_to = parse_day(first_text, first), parse_day(last_text, last)
    refuse_reversed(date_from, date_to, (first, last))
    return date_from, date_to


class SessionFilter(django_filters.FilterSet):
    date_from = django_filters.DateFilter(field_name="date", lookup_expr="gte", label=DATE_HELP[DATE_FROM])
    date_to = django_filters.DateFilter(field_name="date", lookup_expr="lte", label=DATE_HELP[DATE_TO])
    status = choice_filter("status", GameSession.Status.choices)

    class Meta:
        model = GameSession
        fields = ["date_from", "date_to", "status"]

    def is_valid(self) -> bool:
        """The range read as every endpoint reads it (:func:`date_range`: a day that is none is
        a 400 in the same words as the club results', a reversed range one too) before
        django-filter's form, whose "Enter a valid date." would name no format."""
        date_range(self.data)
        return super().is_valid()


class DealFilter(django_filters.FilterSet):
    status = choice_filter(
        "status", [("valid", "valid"), ("irregular", "irregular"), ("unverified", "unverified")],
        field_name="current__status",
    )
    # a misspelt rule ("revokes") would find no deal, which reads as "none broke it": refused
    violation = choice_filter(
        "violation", [(rule, rule) for rule in sorted(IRREGULARITY_KINDS)],
        field_name="current__violations__rule", distinct=True,
        label="Rule broken (revoke, failed-to-head, misdeal, ...)",
    )
    dealer = django_filters.CharFilter(field_name="current__dealer",
                                       label="A seat of the session; another name is a 400.")

    class Meta:
        model = Deal
        fields = ["status", "violation", "dealer"]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        """``dealer`` takes the seats of the session listed (the view's ``session``): a name
        that is none (``?dealer=anne``) would find no deal, which reads as "anne dealt none",
        so it is refused naming the seats, as a misspelt ``violation`` is."""
        super().__init__(*args, **kwargs)
        view = (getattr(self.request, "parser_context", None) or {}).get("view")
        session: GameSession | None = getattr(view, "session", None)
        if session is not None:
            dealer = choice_filter("dealer", [(seat, seat) for seat in session.seats],
                                   field_name="current__dealer")
            dealer.model, dealer.parent = self.queryset.model, self
            self.filters["dealer"] = dealer


__all__ = ["DATE_HELP", "DealFilter", "SessionFilter", "date_range", "parse_day", "refuse_reversed"]
