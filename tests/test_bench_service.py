"""The service benchmark (bench/service.py) still runs: --quick on SQLite with three deals a
session prints its table. Only that it runs and what it prints are checked, never a figure."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_service_benchmark_prints_its_table():
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "CELERY_BROKER_URL")}
    done = subprocess.run([sys.executable, str(ROOT / "bench" / "service.py"), "--quick", "--deals", "3"],
                          check=False, cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-3000:]
    lines = done.stdout.splitlines()
    assert lines[0].startswith("loo-ledger service benchmark")
    assert lines[1].startswith("SQLite ") and "3 deals a session" in lines[1]
    for row in ("GET the club", "open a database connection", "engine replay, three-card",
                "three-card + Idempotency-Key", "three-card, a key sent again (answer replayed)",
                "every later deal re-settled (2)", "nothing later changes", "the session (GET",
                "report JSON", "report CSV", "report web page", "ledger",
                "import a 3-deal file (three-card)"):
        assert sum(1 for line in lines if line.lstrip().startswith(row)) == 1, row
    assert "median ms" in lines[2] and "queries" in lines[2]
