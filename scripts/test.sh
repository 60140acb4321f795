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
workers=${PYTEST_WORKERS:-auto}
exec "$PY" -m pytest -n "$workers" "$@"
