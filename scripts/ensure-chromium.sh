#!/usr/bin/env bash
# The browser tests drive Debian's Chromium (Playwright cannot download its own browser here).
set -euo pipefail
if command -v chromium >/dev/null 2>&1 || [ -n "${CHROMIUM:-}" ]; then exit 0; fi
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "==> installing Debian's chromium for the browser tests"
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null) \
        || echo "warning: could not install chromium; browser tests will be skipped" >&2
else
    echo "warning: chromium not found; browser tests will be skipped (set CHROMIUM=/path/to/chromium)" >&2
fi
