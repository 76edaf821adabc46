# Harambee: `make run` to use it, `make test` to check it. See README.md.
SHELL := /bin/bash
.DEFAULT_GOAL := run

VENV      := .venv
PY        := $(CURDIR)/$(VENV)/bin/python
MANAGE    := cd backend && $(PY) manage.py
NPM       := npm --prefix frontend
PYTHON    ?= python3

.PHONY: help run test install lock build migrate demo serve dev fix lint typecheck test-backend test-frontend test-budgets \
        test-e2e test-scale scale-test check \
        openapi check-openapi i18n docs docs-screenshots bench clean

help: ## list the targets, one line each, from their comments in this Makefile
	@awk 'BEGIN { FS = ":.*## " } \
	     /^## / { sub(/^## /, ""); sub(/ -+$$/, ""); printf "\n%s\n", $$0; next } \
	     /^[a-z][a-z0-9-]*:.*## / { printf "  %-14s %s\n", $$1, $$2 }' $(MAKEFILE_LIST)

## Set-up and use -----------------------------------------------------------------

run: build migrate demo serve ## install, build, migrate, load demo data, serve on :8000 (PORT=8200: elsewhere)

# Local use says so: the settings then use local defaults (a deployment sets HARAMBEE_ENV=production).
run migrate demo serve dev: export HARAMBEE_ENV ?= local
# The port to serve on, and from it the one address every link, prompt and callback names: e-mailed
# links, the simulators' callbacks and the addresses registered with Daraja all follow SITE_URL.
PORT ?= 8000
run migrate demo serve: export SITE_URL ?= http://127.0.0.1:$(PORT)

install: $(VENV)/.installed frontend/node_modules/.installed ## the pinned Python and npm dependencies (.venv, frontend/node_modules)

# pip installs the installer, uv (backend/requirements-install.in says why), which installs the lock: the same
# hashed pins, from the same index (PyPI); what pip.conf adds, uv does not read, and the lock needs none of it.
$(VENV)/.installed: backend/requirements.txt backend/requirements-dev.txt backend/requirements-install.txt
	test -x $(VENV)/bin/python || $(PYTHON) -m venv $(VENV)
	$(VENV)/bin/pip install --quiet --require-hashes -r backend/requirements-install.txt
	$(VENV)/bin/uv pip install --quiet --python $(VENV)/bin/python --require-hashes -r backend/requirements-dev.txt
	touch $@

frontend/node_modules/.installed: frontend/package.json frontend/package-lock.json
	@# Not `npm ci`: the registry here lacks other platforms' optional binaries (biome, tailwind oxide),
	@# so the lock cannot list them and `npm ci` refuses; `npm install` follows the same lock.
	cd frontend && npm install --no-audit --no-fund --loglevel=error
	touch $@

# The Python locks: pip-compile pins the whole tree of requirements*.in with hashes, keeping the current pins
# unless the .in files changed; `make lock LOCK_ARGS=--upgrade` (or --upgrade-package NAME) moves them.
PIP_COMPILE := CUSTOM_COMPILE_COMMAND="make lock" $(CURDIR)/$(VENV)/bin/pip-compile --quiet --generate-hashes \
               --allow-unsafe --no-strip-extras --no-emit-index-url --no-emit-find-links $(LOCK_ARGS)

lock: $(VENV)/.installed ## regenerate the hashed Python locks backend/requirements*.txt from requirements*.in (pip-compile)
	cd backend && $(PIP_COMPILE) requirements.in -o requirements.txt
	cd backend && $(PIP_COMPILE) requirements-dev.in -o requirements-dev.txt
	cd backend && $(PIP_COMPILE) requirements-install.in -o requirements-install.txt

openapi: install ## regenerate backend/openapi.json and the typed client from the API
	$(MANAGE) export_openapi_schema --api config.api.api --indent 2 --sorted --output openapi.json
	$(NPM) run --silent api:generate

check-openapi: install ## fail when the committed schema or typed client is stale
	$(MANAGE) export_openapi_schema --api config.api.api --indent 2 --sorted --output ../.tmp-openapi.json
	diff -q backend/openapi.json .tmp-openapi.json || (echo "backend/openapi.json is stale: run 'make openapi'"; rm -f .tmp-openapi.json; exit 1)
	rm -f .tmp-openapi.json
	cd frontend && npx openapi-typescript ../backend/openapi.json -o ../.tmp-schema.d.ts >/dev/null
	diff -q frontend/src/lib/api/schema.d.ts .tmp-schema.d.ts || (echo "the typed API client is stale: run 'make openapi'"; rm -f .tmp-schema.d.ts; exit 1)
	rm -f .tmp-schema.d.ts

i18n: install ## extract the strings of the React app and the server into the catalogues (then translate them)
	$(NPM) run --silent i18n:extract
	@# Skips what common/tests/test_translations.py skips; needs GNU gettext.
	$(MANAGE) makemessages -l sw --no-obsolete --add-location file -i staticfiles -i media -i tests -v0
	$(MANAGE) compilemessages -l sw -i staticfiles -v0

build: install docs ## build the React app and the docs site, and collect static files
	$(NPM) run --silent build
	$(MANAGE) collectstatic --noinput -v0

# Strict: a broken link or anchor, a page missing from the nav or a nav entry without its page fails the build.
# The site goes to build/docs-site/docs/, which the app serves at /docs/ (WHITENOISE_ROOT in config/settings.py).
docs: install ## build the documentation site (docs/, MkDocs) in strict mode; served at /docs/
	NO_MKDOCS_2_WARNING=1 $(CURDIR)/$(VENV)/bin/mkdocs build --strict --quiet

docs-screenshots: build ## retake the guide's screenshots (docs/guide/img/, both languages) from the running app
	./scripts/ensure-chromium.sh
	cd frontend && DOCS_SCREENSHOTS=1 npx playwright test e2e/docs-screenshots.spec.ts

migrate: install ## apply the migrations to the database (SQLite unless DATABASE_URL)
	$(MANAGE) migrate --noinput -v0
	$(MANAGE) createcachetable

demo: install ## load demo data (idempotent; refused in production), and the simulator's Daraja apps for it
	$(MANAGE) load_demo_data
	$(MANAGE) simulators_load_demo

serve: ## gunicorn + the background task worker on http://127.0.0.1:8000 (PORT=8200: elsewhere)
	./scripts/serve.sh 127.0.0.1:$(PORT)

dev: install migrate ## Django's dev server on :8000 and Vite with hot reload on :5173
	(cd backend && DEBUG=1 $(PY) manage.py runserver 127.0.0.1:8000) & $(NPM) run dev

## Checks -----------------------------------------------------------------------

fix: install ## format and autofix: ruff format + ruff check --fix, Biome --write; prints what is left to fix by hand
	cd backend && $(PY) -m ruff check --fix --exit-zero . && $(PY) -m ruff format .
	$(NPM) run --silent fix

# The stages of `make test`, run one after another by scripts/test-stages.py, which ends with a table of each
# stage's time and tests, and the line `N passed, N failed` over them all. Stages joined by "+" run at once:
# the quick checks (each mostly one core), and beside the end-to-end specs, which leave the cores idle a
# third of the time (waits on pages, the task worker, the simulators), the scale test. Vitest runs on its own:
# beside the end-to-end specs its tests ran past their 5 s limit (4 of 305 failed so in a CI run).
TEST_STAGES := lint+typecheck+check-openapi+docs test-backend test-frontend build test-budgets test-e2e+test-scale

test: install ## every check and test (each stage's time and tests in a table at the end)
	$(PY) scripts/test-stages.py $(TEST_STAGES)

check: lint typecheck ## the inner loop: lint, types, and the tests of the apps and files changed since main
	./scripts/test-changed.sh

lint: install ## ruff, ruff format --check, the layers (import-linter), one writer per table, Biome and the features' import cycles (`make fix` fixes most of it)
	cd backend && $(PY) -m ruff check . && $(PY) -m ruff format --check .
	cd backend && $(CURDIR)/$(VENV)/bin/lint-imports --no-logo --no-cache
	cd backend && $(PY) -m config.ownership
	$(NPM) run --silent lint

typecheck: install ## mypy, makemigrations --check, tsc
	cd backend && $(PY) -m mypy .
	$(MANAGE) makemigrations --check --dry-run -v0
	$(NPM) run --silent typecheck

# Two workers (pytest-xdist), each with its own test database; coverage is combined across them.
test-backend: install ## pytest on two workers (SQLite, or PostgreSQL with DATABASE_URL), with line coverage (the files not fully covered, and the total)
	cd backend && $(PY) -m pytest -n 2 --cov --cov-report=term

test-frontend: install ## translation catalogues complete, Vitest with coverage (the files not fully covered, and the totals)
	$(NPM) run --silent i18n:check
	$(NPM) run --silent test -- --coverage

test-budgets: build ## first-load size budgets of the public routes
	$(NPM) run --silent budgets

test-e2e: build ## the Playwright specs in three shards at once, each with its own server and database (scripts/e2e.sh)
	./scripts/ensure-chromium.sh
	./scripts/e2e.sh

test-scale: install ## the scale test, when PostgreSQL (DATABASE_URL) and Redis (REDIS_URL) are reachable
	./scripts/scale-test.sh --if-available

scale-test: install ## two app instances behind nginx, two workers, PostgreSQL, Redis and S3 (moto); see docs/operations/scaling.md
	./scripts/scale-test.sh

bench: build ## benchmarks (not part of `make test`); results in bench/results/
	./bench/run.sh

clean: ## remove .venv, node_modules, builds and the local database
	rm -rf $(VENV) frontend/node_modules frontend/dist backend/staticfiles backend/db.sqlite3
