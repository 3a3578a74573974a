#!/usr/bin/env bash
# Set everything up and serve on the embedded default (SQLite, eager Celery) with demo data loaded.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
.venv/bin/python manage.py migrate --noinput
.venv/bin/python manage.py load_demo --base-url "http://${HOST:-127.0.0.1}:${PORT:-8000}"
echo "==> loo-ledger on http://${HOST:-127.0.0.1}:${PORT:-8000}/  (demo login: demo / demo-password)"
exec .venv/bin/python manage.py runserver "${HOST:-127.0.0.1}:${PORT:-8000}"
