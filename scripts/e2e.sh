#!/usr/bin/env bash
# `make test-e2e`: the Playwright specs split into E2E_SHARDS shards (default 2) run at once, each by its
# own Playwright against its own server: ports E2E_PORT (default 8123) and up, each with its own SQLite
# database and e-mail folder (scripts/e2e-server.sh, .tmp/e2e-PORT). Playwright starts one server for
# all its workers, so its own workers would share one database; shards share nothing. A shard takes whole
# spec files, in order, as the single run did. Each shard's report is printed whole once all have ended.
# Usage: scripts/e2e.sh [playwright arguments, e.g. a spec file]
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
shards="${E2E_SHARDS:-2}"
port="${E2E_PORT:-8123}"
logs="$root/.tmp/e2e-logs"
mkdir -p "$logs"

pids=()
for shard in $(seq 1 "$shards"); do
  E2E_PORT=$((port + shard - 1)) npm --prefix "$root/frontend" run --silent e2e -- --shard="$shard/$shards" "$@" \
    >"$logs/shard-$shard.log" 2>&1 &
  pids+=("$!")
done
trap 'kill "${pids[@]}" 2>/dev/null' INT TERM

status=0
for shard in $(seq 1 "$shards"); do
  wait "${pids[$((shard - 1))]}" || status=1
  echo "--- e2e shard $shard/$shards (port $((port + shard - 1)))"
  cat "$logs/shard-$shard.log"
done

# Where the tests run against PostgreSQL (DATABASE_URL, as CI does), a church's first evening is played
# there too, once the shards are done: the same journey on the database production runs, in a database
# of its own (dropped and made afresh by e2e-server.sh). Only when no spec file was named.
if [ "$#" -eq 0 ] && [[ "${DATABASE_URL:-}" == postgres* ]]; then
  journey_db="${DATABASE_URL%/*}/harambee_e2e_journey"
  journey_port=$((port + shards))
  echo "--- e2e first evening on PostgreSQL (port $journey_port)"
  E2E_PORT="$journey_port" E2E_DATABASE_URL="$journey_db" \
    npm --prefix "$root/frontend" run --silent e2e -- e2e/first-evening.spec.ts || status=1
fi
exit "$status"
