"""CI cannot go green with every browser test skipped (tests/browser.py)."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def run_pytest(**env: str) -> subprocess.CompletedProcess[str]:
    """A run of one quick test file, in a process of its own (the check is at session start)."""
    environ = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")}
    environ.update(env)
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-n", "0",
         "tests/engine/test_engine_smoke.py"],
        check=False, cwd=ROOT, env=environ, capture_output=True, text=True, timeout=300)


def test_a_run_that_requires_the_browser_stops_when_chromium_is_missing():
    run = run_pytest(LOO_REQUIRE_BROWSER="1", CHROMIUM="/nonexistent/chromium")
    assert run.returncode == 4, run.stdout + run.stderr  # pytest's usage error: nothing ran
    assert "no chromium at /nonexistent/chromium" in run.stderr
    assert " passed" not in run.stdout


def test_without_the_requirement_a_missing_chromium_only_skips():
    run = run_pytest(LOO_REQUIRE_BROWSER="", CHROMIUM="/nonexistent/chromium")
    assert run.returncode == 0, run.stdout + run.stderr
    assert " passed" in run.stdout
