"""List filters shared by the apps: a choice whose refusal names the values there are."""
from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import django_filters


def choice_filter(name: str, choices: Iterable[tuple[str, Any]], **kwargs: Any
                  ) -> django_filters.ChoiceFilter:
    """A ``ChoiceFilter`` on ``name`` whose 400 says which values it takes (django-filter's
    said only "Select a valid choice. bogus is not one of the available choices.")."""
    choices = list(choices)
    values = ", ".join(value for value, _ in choices)
    message = f"{name} must be one of {values}, not '%(value)s'."
    return django_filters.ChoiceFilter(choices=choices,
                                       error_messages={"invalid_choice": message}, **kwargs)
