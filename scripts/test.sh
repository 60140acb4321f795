#!/usr/bin/env bash
# Runs the whole suite against PostgreSQL (DATABASE_URL, default the local server),
# spread over the machine's cores. Extra arguments go to pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${VENV:-.venv}/bin/python
export DATABASE_URL=${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/gameserver}
if ! "$PY" - <<'PYEOF'
import os, sys
import psycopg
url = os.environ["DATABASE_URL"].rsplit("/", 1)[0] + "/postgres"
try:
    psycopg.connect(url, connect_timeout=5).close()
except Exception as exc:
    sys.exit(f"error: PostgreSQL is not reachable at {url}: {exc}")
PYEOF
then
  exit 1
fi
# The web client's end-to-end tests drive Debian's Chromium (Playwright cannot download
# its own browser here); a fresh machine gets it from apt. They are never skipped in CI.
if [ ! -x "${CHROMIUM:-/usr/bin/chromium}" ]; then
  echo "Installing Chromium for the end-to-end tests (apt-get install chromium)..."
  sudo=""
  [ "$(id -u)" = 0 ] || sudo="sudo"
  $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq chromium >/dev/null ||
    echo "warning: could not install Chromium; the end-to-end tests will fail" >&2
fi
workers=${PYTEST_WORKERS:-auto}
exec "$PY" -m pytest -n "$workers" "$@"
