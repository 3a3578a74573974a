#!/usr/bin/env bash
# Create or refresh .venv with the project and its dev tools. Idempotent and quick when nothing changed.
set -euo pipefail
cd "$(dirname "$0")/.."

find_python() {
    local candidates=("${PYTHON:-}" python3.13 "$HOME/.pyenv/versions/3.13.0/bin/python" python3 python)
    local c
    for c in "${candidates[@]}"; do
        [ -n "$c" ] || continue
        if command -v "$c" >/dev/null 2>&1 && "$c" -c 'import sys; sys.exit(sys.version_info < (3, 13))' 2>/dev/null; then
            command -v "$c"; return 0
        fi
    done
    return 1
}

# a .venv of Python 3.13+ with pip; `python3 -m venv` without Debian's python3-venv fails
# half-way, leaving one without pip, which is made again (not "No module named pip" for ever)
venv_ok() {
    [ -x .venv/bin/python ] && .venv/bin/python -c 'import sys; sys.exit(sys.version_info < (3, 13))' 2>/dev/null \
        && .venv/bin/python -m pip --version >/dev/null 2>&1
}

if ! venv_ok; then
    PY=$(find_python) || { echo "loo-ledger needs Python 3.13 or newer (set PYTHON=/path/to/python3.13)" >&2; exit 1; }
    echo "==> creating .venv with $PY"
    rm -rf .venv
    "$PY" -m venv .venv
fi

stamp=.venv/.setup-stamp
want=$(cat pyproject.toml | sha256sum | cut -d' ' -f1)
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
    echo "==> installing loo-ledger and its dependencies into .venv"
    .venv/bin/python -m pip install --quiet --disable-pip-version-check --upgrade pip >/dev/null 2>&1 || true
    log=$(mktemp)
    if ! .venv/bin/python -m pip install --quiet --disable-pip-version-check -e ".[dev]" >"$log" 2>&1; then
        grep -v "is ignored: it is neither" "$log" >&2; rm -f "$log"; exit 1
    fi
    rm -f "$log"
    echo "$want" > "$stamp"
fi
