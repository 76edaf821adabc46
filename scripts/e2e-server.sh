#!/usr/bin/env bash
# The server the end-to-end tests drive: a fresh SQLite database (a copy of E2E_TEMPLATE_DB when
# scripts/e2e.sh made one, or E2E_DATABASE_URL's PostgreSQL one), demo data, the built app,
# gunicorn + task worker, and e-mails written to files the tests read.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
state="$root/.tmp/e2e-${E2E_PORT:-8123}"
rm -rf "$state" && mkdir -p "$state/emails"
export HARAMBEE_ENV=local DATABASE_URL="${E2E_DATABASE_URL:-sqlite:///$state/db.sqlite3}"
# A test server's settings: the local ones with a fast password hasher (backend/config/settings_e2e.py).
export DJANGO_SETTINGS_MODULE=config.settings_e2e
# Its own cache and task queue too: the database's, not a Redis that other runs share.
unset REDIS_URL TASK_BACKEND
export EMAIL_FILE_PATH="$state/emails"
export SITE_URL="http://127.0.0.1:${E2E_PORT:-8123}"
# Many sign-ups come from one address in a test run.
export RATE_LIMIT_SIGN_UP="1000/3600" RATE_LIMIT_PASSWORD_RESET="1000/3600" RATE_LIMIT_SIGN_UP_PHONE="1000/86400"
# Many pledges and donations in a run name the same few phone numbers and e-mail addresses.
export RATE_LIMIT_GIVING_CONTACT="1000/3600" RATE_LIMIT_GIVING_ACCOUNT="1000/3600"
export RATE_LIMIT_UNASKED_MESSAGES_HOUR="1000/3600" RATE_LIMIT_UNASKED_MESSAGES_DAY="1000/86400"
# Every campaign page the tests open sends a view beacon from this one address.
export RATE_LIMIT_CAMPAIGN_VIEW="10000/3600"
# The tests run at any hour on the real clock: no quiet hours for reminders (unit tests cover them).
export REMINDER_QUIET_HOURS=""
# Warnings and errors only: an access line per request would bury the test report.
export LOG_LEVEL=WARNING
cd "$root/backend"
if [ -n "${E2E_DATABASE_URL:-}" ]; then
  # PostgreSQL instead (e.g. postgres://postgres@127.0.0.1:5432/harambee_e2e): that database, dropped
  # and created afresh. Specs that read the SQLite file directly run only on the default.
  "$root/.venv/bin/python" - <<'PY'
import os, psycopg
from urllib.parse import urlsplit, urlunsplit
url = urlsplit(os.environ["DATABASE_URL"])
name = url.path.lstrip("/")
with psycopg.connect(urlunsplit(url._replace(path="/postgres")), autocommit=True) as connection:
    connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    connection.execute(f'CREATE DATABASE "{name}"')
PY
fi
if [ -z "${E2E_DATABASE_URL:-}" ] && [ -n "${E2E_TEMPLATE_DB:-}" ] && [ -f "$E2E_TEMPLATE_DB" ]; then
  # scripts/e2e.sh made the demo database once for every shard: a copy of it is this server's.
  cp "$E2E_TEMPLATE_DB" "$state/db.sqlite3"
else
  "$root/.venv/bin/python" manage.py migrate --noinput -v0
  "$root/.venv/bin/python" manage.py createcachetable
  "$root/.venv/bin/python" manage.py load_demo_data >/dev/null
fi
# The simulators' Daraja apps name this server's address (SITE_URL): made here, per server.
"$root/.venv/bin/python" manage.py simulators_load_demo
exec "$root/scripts/serve.sh" "127.0.0.1:${E2E_PORT:-8123}"
