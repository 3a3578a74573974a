"""The rules engine type-checks clean under mypy (the ``[tool.mypy]`` settings in pyproject.toml).

``games.rules.state.DealState`` declares the deal's state once so that each part of ``Deal``
checks on its own; this keeps it so, and keeps the engine compilable by mypyc
(``bench/compiled_engine.py``), which refuses what mypy refuses.
"""
from __future__ import annotations

from pathlib import Path

from mypy import api

ROOT = Path(__file__).resolve().parents[2]


def test_engine_type_checks_clean(tmp_path):
    # a cache of its own: a cold check of games/rules takes a few seconds, and no other run
    # (an xdist worker, a second checkout) shares its files
    report, errors, status = api.run([
        "--config-file", str(ROOT / "pyproject.toml"), "--cache-dir", str(tmp_path / "cache"),
        "--no-error-summary", str(ROOT / "games" / "rules")])
    assert (status, errors, report) == (0, "", ""), f"mypy games/rules:\n{report}{errors}"
