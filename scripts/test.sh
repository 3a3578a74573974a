#!/usr/bin/env bash
# Set up and run every test. Uses PostgreSQL / Redis when DATABASE_URL / CELERY_BROKER_URL are set.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
scripts/ensure-chromium.sh
# one pytest worker a CPU (pytest-xdist); LOO_TEST_WORKERS=0 runs every test in this process
.venv/bin/python -m pytest -n "${LOO_TEST_WORKERS:-auto}" "$@"
