"""Template filters of the report pages and the PDF."""
from __future__ import annotations

from django import template

from games.reports.render import group_digits

register = template.Library()


@register.filter
def grouped(value: object) -> str:
    """A count with its thousands grouped, as the money beside it is ("" stays "")."""
    return "" if value is None or value == "" else group_digits(value)
