#!/usr/bin/env bash
# Set up and run every test. Uses PostgreSQL / Redis when DATABASE_URL / CELERY_BROKER_URL are set.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
scripts/ensure-chromium.sh
.venv/bin/python -m pytest "$@"
