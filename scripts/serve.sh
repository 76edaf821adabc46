#!/usr/bin/env bash
# Serve the built app with gunicorn and run the background task worker beside it.
# Usage: scripts/serve.sh HOST:PORT   (environment as for Django's settings)
set -euo pipefail
bind="${1:-127.0.0.1:8000}"
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root/backend"
py="$root/.venv/bin/python"

"$py" manage.py db_worker --interval 0.5 &
worker=$!
trap 'kill "$worker" 2>/dev/null || true' EXIT INT TERM

echo "Harambee is on http://$bind  (Ctrl+C stops it)"
"$py" -m gunicorn config.wsgi:application --bind "$bind" --workers "${WEB_CONCURRENCY:-2}" \
  --access-logfile - --graceful-timeout 5
