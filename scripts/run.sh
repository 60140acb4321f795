#!/usr/bin/env bash
# Starts everything on one machine with embedded defaults: SQLite, kombu's filesystem
# broker, a Celery worker with beat, and the server at http://127.0.0.1:8000.
# Any of DATABASE_URL, CELERY_BROKER_URL, REDIS_URL... in the environment wins.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${VENV:-.venv}/bin/python
export DEBUG=${DEBUG:-1}
export VAR_DIR=${VAR_DIR:-$PWD/var}
# runserver answers the API over ASGI: it beats for it (uptime), so a restart's gap is
# given back to the clocks of the tables in play.
export UPTIME_ASGI_BEATS=${UPTIME_ASGI_BEATS:-1}
mkdir -p "$VAR_DIR/broker" "$VAR_DIR/broker-processed"
PORT=${PORT:-8000}
# Notices work out of the box: links in them point at this server, mail lands in
# $VAR_DIR/mail (one .log file per message), and a VAPID key pair for Web Push is made on
# the first start and kept in $VAR_DIR/vapid.env. Any of them set in the environment wins.
export PUBLIC_BASE_URL=${PUBLIC_BASE_URL:-http://127.0.0.1:$PORT}
export EMAIL_FILE_PATH=${EMAIL_FILE_PATH:-$VAR_DIR/mail}
if [ -z "${VAPID_PUBLIC_KEY:-}" ]; then
  [ -s "$VAR_DIR/vapid.env" ] || "$PY" manage.py vapid_keys > "$VAR_DIR/vapid.env"
  set -a
  # shellcheck source=/dev/null
  . "$VAR_DIR/vapid.env"
  set +a
fi
# The server's and the worker's figures, together at /metrics (docs/operations/metrics.md),
# counted afresh at each start.
if [ -z "${PROMETHEUS_MULTIPROC_DIR:-}" ]; then
  export PROMETHEUS_MULTIPROC_DIR="$VAR_DIR/metrics"
  rm -rf "$PROMETHEUS_MULTIPROC_DIR"
fi
mkdir -p "$PROMETHEUS_MULTIPROC_DIR"
"$PY" manage.py migrate --noinput
pids=()
cleanup() {
  kill "${pids[@]}" 2>/dev/null || true
  # Celery's warm shutdown finishes running tasks; give it a while, then insist.
  for _ in $(seq 20); do kill -0 "${pids[@]}" 2>/dev/null || break; sleep 1; done
  kill -9 "${pids[@]}" 2>/dev/null || true
}
trap cleanup EXIT INT TERM
"$PY" -m celery -A config worker --beat --loglevel=INFO --concurrency=2 \
  --schedule="$VAR_DIR/celerybeat-schedule" &
pids+=($!)
echo "Server: http://127.0.0.1:$PORT  (API docs: http://127.0.0.1:$PORT/api/docs/; mail: $EMAIL_FILE_PATH; passkeys need a domain name: browse http://localhost:$PORT for them)"
"$PY" manage.py runserver "127.0.0.1:$PORT" &
pids+=($!)
wait -n "${pids[@]}"
