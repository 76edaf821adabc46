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
exit "$status"
