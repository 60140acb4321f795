# Two commands matter: `make run` (the server on embedded defaults) and `make test`.
SHELL := /bin/bash
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
# The web client's lint tools (ESLint, TypeScript), the AsyncAPI specification's JSON
# Schema (tests/live/test_asyncapi.py) and the TypeScript client's generator and fetch
# library (tests/contract/test_typescript_client.py), as package-lock.json pins them.
NODE_STAMP := node_modules/.installed

.PHONY: run test lint lint-js bench measure-deadlines soak venv migrate clean schema

$(STAMP): requirements.txt requirements-dev.txt
	@set -e; py=$$(scripts/find-python.sh); \
	  [ -x "$(PY)" ] || "$$py" -m venv "$(VENV)"; \
	  "$(PY)" -m pip install --quiet --disable-pip-version-check --upgrade pip; \
	  "$(PY)" -m pip install --quiet --disable-pip-version-check -r requirements-dev.txt
	@touch $(STAMP)

$(NODE_STAMP): package.json package-lock.json
	@command -v npm >/dev/null || { echo "npm is missing: the web client's lint tools need Node.js 20 or later and npm (https://nodejs.org/)" >&2; exit 1; }
	npm ci --no-audit --no-fund --loglevel=error
	@touch $(NODE_STAMP)

venv: $(STAMP)

## The server with its Celery worker and beat, on SQLite and a filesystem broker.
run: $(STAMP)
	@scripts/run.sh

## The whole test suite against PostgreSQL (DATABASE_URL, default the local server).
test: $(STAMP) $(NODE_STAMP)
	@scripts/test.sh

## Ruff (lint and format), mypy with the Django and DRF stubs, and the import contracts
## of pyproject.toml (layers, pure engines, no circles), then the web client's JavaScript
## (lint-js). CI runs it before the tests.
lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	DEBUG=1 $(VENV)/bin/mypy
	$(VENV)/bin/lint-imports --no-cache
	@$(MAKE) --no-print-directory lint-js

## ESLint (eslint.config.js) and tsc's type check from the JSDoc types (jsconfig.json, and
## web/worker/jsconfig.json for the service worker) over every script the browser is served.
## Installs its tools with npm ci the first time and whenever package-lock.json changes.
lint-js: $(NODE_STAMP)
	npm run --silent lint

## Regenerates api/openapi.yaml, the checked-in copy of what /api/schema/ serves
## (tests/api/test_openapi_file.py fails while the two differ). The document shows the
## database's integer ranges: PostgreSQL's, as production serves it; nothing connects to it.
schema: $(STAMP)
	DEBUG=1 DATABASE_URL=postgres://nobody@127.0.0.1:1/unused $(PY) manage.py spectacular --skip-checks --validate --file api/openapi.yaml

## A live table against the deployment's processes (gunicorn, daphne, a Celery worker,
## PostgreSQL, Redis): 16 tables of four socket clients, each catching up with every
## version before the next move; in alternating runs beside it, the bare baseline
## (../shared/bench-bare) and the mover alone, with their game/bare ratio. A few
## minutes. Options through BENCH_ARGS, e.g. `make bench BENCH_ARGS="--rounds 3 --push
## both"` (scripts/bench.py --help).
BENCH_ARGS ?=
bench: $(STAMP)
	$(PY) scripts/bench.py $(BENCH_ARGS)

## Deadlines that last days: 20,000 rooms on a one-day clock, a real worker and beat;
## what the broker and the worker hold, and whether every room due is acted on once and
## on time (a few minutes; scripts/measure_deadlines.py --help).
DEADLINES_ARGS ?=
measure-deadlines: $(STAMP)
	$(PY) scripts/measure_deadlines.py $(DEADLINES_ARGS)

## Soak: the deployment of several processes (2 gunicorn, daphne, 2 workers, beat) plays
## 120 tables on short clocks for four minutes while a worker, a gunicorn and beat are
## killed or stopped and restarted; then its database is audited for lost or duplicated
## moves, early timeouts and wrongful abandonments, and the figures printed (README,
## Time). Options through SOAK_ARGS, e.g. `make soak SOAK_ARGS="--minutes 2 --tables 40"`
## (scripts/soak.py --help).
SOAK_ARGS ?=
soak: $(STAMP)
	$(PY) scripts/soak.py $(SOAK_ARGS)

clean:
	rm -rf $(VENV) var node_modules
