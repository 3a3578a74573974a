"""Where the browser tests find Chromium, and what happens when it is not there.

Locally a missing Chromium skips them (``scripts/ensure-chromium.sh`` says why). CI sets
``LOO_REQUIRE_BROWSER=1``: there a missing Chromium fails the run at its start, so an install
that went wrong cannot turn every browser test into a skip under a green build.
"""
from __future__ import annotations

import os
from pathlib import Path

import pytest

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
HAVE_CHROMIUM = Path(CHROMIUM).exists()

#: mark a browser test: skipped without Chromium (unless the run requires it: tests/conftest.py)
needs_chromium = pytest.mark.skipif(not HAVE_CHROMIUM, reason=f"no chromium binary at {CHROMIUM}")


def browser_required() -> bool:
    return os.environ.get("LOO_REQUIRE_BROWSER", "").strip().lower() in {"1", "true", "yes"}


def missing_browser() -> str | None:
    """Why this run must stop before it starts, or None."""
    if browser_required() and not HAVE_CHROMIUM:
        return (f"LOO_REQUIRE_BROWSER is set but there is no chromium at {CHROMIUM}: the browser "
                "tests would all be skipped (run scripts/ensure-chromium.sh, or set CHROMIUM)")
    return None
