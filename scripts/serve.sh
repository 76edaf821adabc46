#!/usr/bin/env bash
# Serve the built app with gunicorn and run the background task worker beside it.
# Usage: scripts/serve.sh HOST:PORT   (environment as for Django's settings)
set -euo pipefail
# Local use unless told otherwise: local defaults, the payment simulators (config/settings.py).
export HARAMBEE_ENV="${HARAMBEE_ENV:-local}"
bind="${1:-127.0.0.1:8000}"
# Every address the app gives of itself (e-mailed links, the simulators' callbacks, the addresses
# registered with Daraja) follows SITE_URL: unless set, it is where this serves (a server listening
# on every interface is reached on the loopback one here).
host="${bind%:*}"
[ "$host" = 0.0.0.0 ] && host=127.0.0.1
export SITE_URL="${SITE_URL:-http://$host:${bind##*:}}"
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root/backend"
py="$root/.venv/bin/python"

"$py" manage.py task_worker --interval 0.5 &
worker=$!
# The scheduler: enqueue due pledge reminders, pull connected M-Pesa accounts' missed payments, expire
# unapproved team changes and delete unconfirmed statement previews, every 5 minutes (cron in production),
# in one long-lived process (manage.py scheduler) rather than a Django start per job and round.
"$py" manage.py scheduler --every 300 &
scheduler=$!
renderer=""
trap 'kill "$worker" "$scheduler" $renderer 2>/dev/null || true' EXIT INT TERM

# The renderer of the app's first HTML (frontend/src/renderer.ts), unless RENDERER_URL names one
# already: on a free port, which it prints once listening. Without it pages still work (the browser
# renders them), so a missing Node or build only says so.
if [ -z "${RENDERER_URL:-}" ]; then
  renderer_script="$root/frontend/dist-server/renderer.mjs"
  if command -v node >/dev/null && [ -f "$renderer_script" ]; then
    address_file=$(mktemp)
    node "$renderer_script" --port 0 >"$address_file" &
    renderer=$!
    for _ in $(seq 1 100); do
      [ -s "$address_file" ] && break
      sleep 0.1
    done
    RENDERER_URL=$(head -n 1 "$address_file")
    rm -f "$address_file"
    export RENDERER_URL
    echo "The renderer is on $RENDERER_URL"
  else
    echo "No renderer (needs node and make build): the browser renders every page"
  fi
fi

if [ "$HARAMBEE_ENV" != production ]; then
  # Locally the M-Pesa simulator stands in for Safaricom: once the server answers, register our
  # C2B confirmation URLs with it, as an operator does once with Daraja.
  (
    for _ in $(seq 1 100); do
      "$py" - "$bind" <<'PY' && break
import sys, urllib.request
urllib.request.urlopen(f"http://{sys.argv[1]}/api/auth/session", timeout=1)
PY
      sleep 0.2
    done 2>/dev/null
    "$py" manage.py mpesa_register_c2b_urls >/dev/null || echo "Could not register the C2B URLs with the simulator"
  ) &
fi

echo "Harambee is on $SITE_URL  (Ctrl+C stops it)"
# Threads: the local payment simulators call back into this same server while a request waits.
# No gunicorn access log: Django writes one line per request, with its id and without the query
# string, which may hold an e-mail address (common/middleware.py RequestIdMiddleware).
"$py" -m gunicorn config.wsgi:application --bind "$bind" --workers "${WEB_CONCURRENCY:-2}" --threads 4 \
  --graceful-timeout 5
