"""Token authentication as the API reads the ``Authorization`` header."""
from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy
from rest_framework import authentication, exceptions

#: DRF's own words for a token header of characters no token has (the same translation)
INVALID_CHARACTERS = gettext_lazy(
    "Invalid token header. Token string should not contain invalid characters.")


class TokenAuthentication(authentication.TokenAuthentication):
    """DRF's, refusing a key holding a NUL character before the look-up, as DRF refuses one
    that is no text: PostgreSQL cannot compare text holding a NUL, so the look-up was a 500
    (gunicorn refuses such a header itself; Django's runserver and the test client do not)."""

    def authenticate_credentials(self, key: str) -> Any:
        if "\x00" in key:
            raise exceptions.AuthenticationFailed(INVALID_CHARACTERS)
        return super().authenticate_credentials(key)
