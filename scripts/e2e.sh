#!/usr/bin/env bash
# `make test-e2e`: the Playwright specs split into E2E_SHARDS shards (default 3) run at once, each by its
# own Playwright against its own server: ports E2E_PORT (default 8123) and up, each with its own SQLite
# database and e-mail folder (scripts/e2e-server.sh, .tmp/e2e-PORT). Playwright starts one server for
# all its workers, so its own workers would share one database; shards share nothing.
#
# A shard takes whole spec files, chosen by how long each took (frontend/e2e/durations.json, seconds in
# one run, whose proportions are what counts; a spec missing there counts as a middling one) so the shards end together:
# the longest first, each to the shard with the least so far. Playwright's own --shard splits by the
# number of tests, and one 2-minute journey weighs as much as a 2-second check. Within a shard the
# files run in the order of their names, as a single run would.
#
# The demo database is made once (migrated, demo data loaded) into .tmp/e2e-template and copied by each
# shard's server (E2E_TEMPLATE_DB), instead of every shard migrating at once on the same two cores.
#
# Each shard's report is printed whole once all have ended.
# Usage: scripts/e2e.sh [playwright arguments, e.g. a spec file]
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
shards="${E2E_SHARDS:-3}"
port="${E2E_PORT:-8123}"
logs="$root/.tmp/e2e-logs"
mkdir -p "$logs"
rm -f "$logs"/*.log

# Spec files named on the command line: Playwright's own sharding of them (as before).
named_specs=0
for argument in "$@"; do
  [[ "$argument" == -* ]] || named_specs=1
done

# Where the tests run against PostgreSQL (DATABASE_URL, as CI does), a church's first evening is played
# there too, beside the shards (its server waits on PostgreSQL as much as it computes), started first,
# while the template is made: the same journey on the database production runs, in a database of its own
# named after its port (dropped and made afresh by e2e-server.sh), so that two runs on one machine never
# share it. Only when no spec file was named.
journey=""
journey_port=$((port + shards))
if [ "$named_specs" = 0 ] && [[ "${DATABASE_URL:-}" == postgres* ]]; then
  journey_db="${DATABASE_URL%/*}/harambee_e2e_$journey_port"
  E2E_PORT="$journey_port" E2E_DATABASE_URL="$journey_db" E2E_TEMPLATE_DB="" \
    npm --prefix "$root/frontend" run --silent e2e -- e2e/first-evening.spec.ts >"$logs/journey.log" 2>&1 &
  journey="$!"
fi

# The template database, made once for every shard's server.
template="$root/.tmp/e2e-template"
rm -rf "$template" && mkdir -p "$template"
if ! (
  cd "$root/backend" &&
    export HARAMBEE_ENV=local DATABASE_URL="sqlite:///$template/db.sqlite3" DJANGO_SETTINGS_MODULE=config.settings_e2e &&
    unset REDIS_URL TASK_BACKEND &&
    "$root/.venv/bin/python" manage.py migrate --noinput -v0 &&
    "$root/.venv/bin/python" manage.py createcachetable &&
    "$root/.venv/bin/python" manage.py load_demo_data >/dev/null
) >"$logs/template.log" 2>&1; then
  echo "--- could not make the template database; each server makes its own"
  cat "$logs/template.log"
  rm -rf "$template"
fi
[ -f "$template/db.sqlite3" ] && export E2E_TEMPLATE_DB="$template/db.sqlite3"

# The spec files of each shard (one line each, files separated by spaces).
shard_files() {
  "$root/.venv/bin/python" - "$shards" "$root/frontend" <<'PY'
import json, pathlib, statistics, sys
shards, frontend = int(sys.argv[1]), pathlib.Path(sys.argv[2])
known = json.loads((frontend / "e2e" / "durations.json").read_text())["seconds"]
specs = sorted(str(p.relative_to(frontend)) for p in (frontend / "e2e").glob("*.spec.ts"))
middling = statistics.median(known.values())
load, chosen = [0.0] * shards, [[] for _ in range(shards)]
for spec in sorted(specs, key=lambda s: (-known.get(s, middling), s)):
    least = load.index(min(load))
    load[least] += known.get(spec, middling)
    chosen[least].append(spec)
for files in chosen:
    print(" ".join(sorted(files)))
PY
}

pids=()
if [ "$named_specs" = 1 ]; then
  for shard in $(seq 1 "$shards"); do
    E2E_PORT=$((port + shard - 1)) npm --prefix "$root/frontend" run --silent e2e -- --shard="$shard/$shards" "$@" \
      >"$logs/shard-$shard.log" 2>&1 &
    pids+=("$!")
  done
else
  mapfile -t groups < <(shard_files)
  for shard in $(seq 1 "$shards"); do
    # shellcheck disable=SC2086 # the files of a shard, one word each
    E2E_PORT=$((port + shard - 1)) npm --prefix "$root/frontend" run --silent e2e -- ${groups[$((shard - 1))]} "$@" \
      >"$logs/shard-$shard.log" 2>&1 &
    pids+=("$!")
  done
fi

trap 'kill "${pids[@]}" $journey 2>/dev/null' INT TERM

status=0
for shard in $(seq 1 "$shards"); do
  wait "${pids[$((shard - 1))]}" || status=1
  echo "--- e2e shard $shard/$shards (port $((port + shard - 1)))"
  cat "$logs/shard-$shard.log"
done
if [ -n "$journey" ]; then
  wait "$journey" || status=1
  echo "--- e2e first evening on PostgreSQL (port $journey_port)"
  cat "$logs/journey.log"
fi
exit "$status"
