# Two commands matter: `make run` (the server on embedded defaults) and `make test`.
SHELL := /bin/bash
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
# The web client's lint tools (ESLint, TypeScript), the AsyncAPI specification's JSON
# Schema and parser (tests/live/test_asyncapi.py) and Redocly's linter of the OpenAPI
# document (tests/contract/test_document_validators.py), as package-lock.json pins them;
# the TypeScript SDK's own packages (sdk/typescript), as its package-lock.json pins them.
NODE_STAMP := node_modules/.installed
SDK_NODE_STAMP := sdk/typescript/node_modules/.installed

.PHONY: run test test-game lint lint-js bench measure-deadlines soak venv migrate clean schema sdk docs messages

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

$(SDK_NODE_STAMP): sdk/typescript/package.json sdk/typescript/package-lock.json
	cd sdk/typescript && npm ci --no-audit --no-fund --loglevel=error
	@touch $(SDK_NODE_STAMP)

venv: $(STAMP)

## Each language's compiled catalogues (locale/*/LC_MESSAGES/*.mo), from the .po files
## the repository keeps; GNU gettext's msgfmt checks each string's placeholders.
MO := $(patsubst %.po,%.mo,$(wildcard locale/*/LC_MESSAGES/*.po))
%.mo: %.po
	@command -v msgfmt >/dev/null || { echo "msgfmt is missing: the translations need GNU gettext (apt-get install gettext)" >&2; exit 1; }
	msgfmt --check-format --check-header -o $@ $<

## The translators' catalogues: every string marked for translation, extracted anew
## into locale/ (docs/translating.md).
messages: $(STAMP)
	DEBUG=1 $(PY) manage.py messages

## The server with its Celery worker and beat, on SQLite and a filesystem broker; it
## serves the documentation site, built first, at /docs/.
run: $(STAMP) $(MO) docs
	@scripts/run.sh

## The whole test suite against PostgreSQL (DATABASE_URL, default the local server),
## after the documentation site's strict build.
test: $(STAMP) $(NODE_STAMP) $(SDK_NODE_STAMP) $(MO) docs
	@scripts/test.sh

## The documentation site (mkdocs.yml, docs/) into var/docs-site/, which the server
## serves at /docs/ (docs/getting-started.md). Strict: a broken link or reference, a page
## missing from the nav or a snippet's file missing fails the build.
DOCS_DIR ?= var/docs-site
docs: $(STAMP)
	NO_MKDOCS_2_WARNING=1 $(VENV)/bin/mkdocs build --strict --site-dir $(DOCS_DIR)

## One game's tests: make test-game GAME=kali_tidi (a marker per game, given by
## tests/conftest.py from the test ids, which start with the game's key).
test-game: $(STAMP) $(NODE_STAMP) $(SDK_NODE_STAMP)
	@test -n "$(GAME)" || { echo "usage: make test-game GAME=<game key>" >&2; exit 2; }
	@scripts/test.sh -m "$(GAME)" tests

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

## The SDKs of sdk/ from api/openapi.yaml: the Python wheel and sdist (sdk/python/dist/)
## and the TypeScript package (sdk/typescript/gameserver-client-<version>.tgz), versioned
## as the document's info.version (docs/api/sdks.md).
sdk: $(STAMP) $(SDK_NODE_STAMP)
	scripts/build_sdk.sh

## Regenerates api/openapi.yaml, the checked-in copy of what /api/schema/ serves
## (tests/api/test_openapi_file.py fails while the two differ), adds its new component
## names and kinds to api/openapi_components.txt (names only grow, kinds never change:
## tests/api/test_component_names.py),
## then api/asyncapi.yaml
## from api/asyncapi_source.yaml, the close codes and the OpenAPI components it names.
## The document shows the database's integer ranges: PostgreSQL's, as production serves
## it; nothing connects to it.
schema: $(STAMP)
	DEBUG=1 DATABASE_URL=postgres://nobody@127.0.0.1:1/unused $(PY) manage.py spectacular --skip-checks --validate --file api/openapi.yaml
	DEBUG=1 DATABASE_URL=postgres://nobody@127.0.0.1:1/unused $(PY) -m tests.api.test_component_names
	DEBUG=1 DATABASE_URL=postgres://nobody@127.0.0.1:1/unused $(PY) manage.py asyncapi --skip-checks --file api/asyncapi.yaml

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
## moves, early timeouts and wrongful abandonments, and the figures printed
## (docs/time/soak.md). Options through SOAK_ARGS, e.g. `make soak SOAK_ARGS="--minutes 2 --tables 40"`
## (scripts/soak.py --help).
SOAK_ARGS ?=
soak: $(STAMP)
	$(PY) scripts/soak.py $(SOAK_ARGS)

clean:
	rm -rf $(VENV) var node_modules
