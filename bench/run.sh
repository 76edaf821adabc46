#!/usr/bin/env bash
# `make bench`: install the benchmark tools, then run every benchmark against PostgreSQL.
# Each writes bench/results/<name>.json; web.py, last, also writes bench/results/SUMMARY.md.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
command -v wrk >/dev/null || { [ "$(id -u)" = 0 ] && apt-get install -y -qq wrk >/dev/null; } \
  || { echo "make bench needs wrk: sudo apt-get install wrk" >&2; exit 1; }
# nginx (Debian's package) for the load test through the deployment's micro-cache.
command -v nginx >/dev/null || [ -x /usr/sbin/nginx ] || { [ "$(id -u)" = 0 ] \
  && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends nginx >/dev/null; } \
  || echo "No nginx (sudo apt-get install nginx): the load test runs against gunicorn alone" >&2
"$root/scripts/ensure-chromium.sh"
(cd "$root/bench/tools" && npm install --no-audit --no-fund --loglevel=error)
cd "$root/bench"
for script in install.py champions.py bank_statement_import.py hostile_statements.py campaigns_search.py dashboard_analytics.py media_uploads.py statement_import.py ussd.py live.py desk.py embed.py spending_page.py web.py; do
  echo "== $script"
  "$root/.venv/bin/python" "$script"
done
echo "== the proof-of-work challenge (frontend/src/lib/challenge/pow.bench.ts)"
(cd "$root/frontend" && npx vitest bench --run src/lib/challenge --outputJson "$root/bench/results/challenge.json")
