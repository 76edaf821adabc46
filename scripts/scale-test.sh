#!/usr/bin/env bash
# `make scale-test`: two app instances (gunicorn, each with its renderer of the app's first HTML)
# behind nginx, two task workers (RQ), PostgreSQL, Redis and an S3-compatible server (moto), all on
# loopback; then backend/scale_tests checks through them that the instances share everything. Stops
# all it started, whatever happens. Needs the built app (make build): the renderer is part of it.
#
# Needs DATABASE_URL (PostgreSQL: the test uses a database of its own beside it, <name>_scale, or
# SCALE_DATABASE_URL, dropped and created afresh) and REDIS_URL (whose task queue it empties).
# Ports SCALE_PORT_BASE (default 8140) to +5. With --if-available it skips, successfully, when
# PostgreSQL or Redis is missing (that is how `make test` runs it).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
py="$root/.venv/bin/python"

available() {
  [[ "${DATABASE_URL:-}" == postgres* ]] && [ -n "${REDIS_URL:-}" ] || return 1
  "$py" - <<'PY' 2>/dev/null
import os, psycopg, redis
from urllib.parse import urlsplit, urlunsplit
# The server, not the database named (which the test does not use, and need not exist).
server = urlunsplit(urlsplit(os.environ["DATABASE_URL"])._replace(path="/postgres"))
psycopg.connect(server, connect_timeout=3).close()
redis.Redis.from_url(os.environ["REDIS_URL"], socket_connect_timeout=3).ping()
PY
}
if_available=false
if [ "${1:-}" = --if-available ]; then
  if_available=true
  shift
fi
if ! available; then
  message="scale test: needs DATABASE_URL (PostgreSQL) and REDIS_URL, both reachable"
  if $if_available; then
    echo "Skipped the $message."
    exit 0
  fi
  echo "Cannot run the $message." >&2
  exit 1
fi

if ! command -v nginx >/dev/null && ! [ -x /usr/sbin/nginx ]; then
  if [ "$(id -u)" = 0 ]; then
    echo "Installing nginx from Debian's packages"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends nginx >/dev/null
  else
    echo "The scale test needs nginx: sudo apt-get install nginx" >&2
    exit 1
  fi
fi
nginx_bin=$(command -v nginx || echo /usr/sbin/nginx)

base=${SCALE_PORT_BASE:-8140}
nginx_port=$base a_port=$((base + 1)) b_port=$((base + 2)) s3_port=$((base + 3))
a_renderer_port=$((base + 4)) b_renderer_port=$((base + 5))
renderer_script="$root/frontend/dist-server/renderer.mjs"
if ! [ -f "$renderer_script" ]; then
  echo "The scale test needs the built app and its renderer: make build" >&2
  exit 1
fi
state="$root/.tmp/scale-$base"
rm -rf "$state" && mkdir -p "$state/nginx" "$state/emails"

started=()
stop_all() {
  status=$?
  for pid in "${started[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${started[@]}"; do wait "$pid" 2>/dev/null || true; done
  [ "$status" = 0 ] || echo "Logs: $state" >&2
  exit "$status"
}
trap stop_all EXIT
trap 'exit 130' INT TERM
run() { # run NAME COMMAND...: in the background, output to $state/NAME.log
  local name=$1
  shift
  "$@" >"$state/$name.log" 2>&1 &
  started+=($!)
}
wait_until_ready() { # wait_until_ready URL
  for _ in $(seq 1 150); do
    "$py" -c 'import sys, httpx; sys.exit(httpx.get(sys.argv[1], timeout=2).status_code != 200)' "$1" 2>/dev/null && return 0
    sleep 0.2
  done
  echo "No answer from $1" >&2
  return 1
}

# Everything the instances, workers and checks share, as a deployment sets it (docs/operations/deployment.md).
database_url=${SCALE_DATABASE_URL:-$("$py" -c 'import os, re; print(re.sub(r"/([^/?]+)(\?|$)", r"/\1_scale\2", os.environ["DATABASE_URL"], count=1))')}
export DATABASE_URL=$database_url
# Deployed as a deployment is, but on the payment simulators and local credentials.
export HARAMBEE_ENV=local
export TASK_BACKEND=rq
export AWS_STORAGE_BUCKET_NAME=harambee-media AWS_S3_ENDPOINT_URL="http://127.0.0.1:$s3_port"
export AWS_ACCESS_KEY_ID=scale-test AWS_SECRET_ACCESS_KEY=scale-test AWS_S3_REGION_NAME=us-east-1
# Visitors read covers straight from the bucket, without credentials.
export AWS_DEFAULT_ACL=public-read
export SITE_URL="http://127.0.0.1:$nginx_port"
# Safaricom calls back on instance B: every STK Push the checks start on A is answered there.
export MPESA_CALLBACK_BASE_URL="http://127.0.0.1:$b_port"
export TRUSTED_PROXIES=127.0.0.1 SIMULATOR_CALLBACK_DELAY_SECONDS=0.3 RATE_LIMIT_SIGN_IN=5/900
export EMAIL_FILE_PATH="$state/emails" STATIC_ROOT="$state/static" LOG_LEVEL=WARNING
# The workers keep the real clock, and the test may run at night: no quiet hours.
export REMINDER_QUIET_HOURS=""
export DJANGO_SETTINGS_MODULE=config.settings
cd "$root/backend"

echo "Scale test: PostgreSQL ${DATABASE_URL##*/}, Redis $REDIS_URL, ports $nginx_port-$b_renderer_port, logs in $state"
run s3 "$root/.venv/bin/moto_server" -H 127.0.0.1 -p "$s3_port"
# A fresh database, and an empty task queue: jobs an interrupted run left would name its rows.
"$py" - <<'PY'
import os, psycopg, redis, rq
from urllib.parse import urlsplit, urlunsplit
url = urlsplit(os.environ["DATABASE_URL"])
name = url.path.lstrip("/")
with psycopg.connect(urlunsplit(url._replace(path="/postgres")), autocommit=True) as connection:
    connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    connection.execute(f'CREATE DATABASE "{name}"')
queue = rq.Queue("default", connection=redis.Redis.from_url(os.environ["REDIS_URL"]))
queue.empty()
for job_id in queue.scheduled_job_registry.get_job_ids():
    queue.scheduled_job_registry.remove(job_id, delete_job=True)
PY
"$py" manage.py migrate --noinput -v0
wait_until_ready "$AWS_S3_ENDPOINT_URL/moto-api/"
"$py" -c 'import boto3, os; boto3.client("s3", endpoint_url=os.environ["AWS_S3_ENDPOINT_URL"]).create_bucket(Bucket=os.environ["AWS_STORAGE_BUCKET_NAME"])'

# Each instance with a renderer beside it, as deployed (deploy/systemd); the renders go into the shared cache.
run renderer-a node "$renderer_script" --port "$a_renderer_port"
run renderer-b node "$renderer_script" --port "$b_renderer_port"
b_renderer_pid=${started[-1]}
for instance in "$a_port:$a_renderer_port" "$b_port:$b_renderer_port"; do
  port=${instance%:*}
  run "app-$port" env RENDERER_URL="http://127.0.0.1:${instance#*:}" \
    "$py" -m gunicorn config.wsgi:application --bind "127.0.0.1:$port" --workers 2 --threads 4 --graceful-timeout 5
done
run worker-1 "$py" manage.py task_worker
run worker-2 "$py" manage.py task_worker

NGINX_CACHE_DIR="$state/nginx/cache" NGINX_ACCESS_LOG="$state/nginx/access.log" \
  "$root/scripts/render-nginx.sh" "$nginx_port" "$STATIC_ROOT" "127.0.0.1:$a_port" "127.0.0.1:$b_port" \
  >"$state/nginx/harambee.conf"
cat >"$state/nginx/nginx.conf" <<CONF
pid $state/nginx/nginx.pid;
error_log $state/nginx/error.log;
events {}
http {
    include /etc/nginx/mime.types;
    include $state/nginx/harambee.conf;
}
CONF
run nginx "$nginx_bin" -p "$state/nginx" -c "$state/nginx/nginx.conf" -g "daemon off;"

for url in "http://127.0.0.1:$a_port/readyz" "http://127.0.0.1:$b_port/readyz" "$SITE_URL/healthz" \
  "http://127.0.0.1:$a_renderer_port/healthz" "http://127.0.0.1:$b_renderer_port/healthz"; do
  wait_until_ready "$url"
done

echo "The stack is up after $SECONDS s; checking it"
SCALE_NGINX_URL="$SITE_URL" SCALE_A_URL="http://127.0.0.1:$a_port" SCALE_B_URL="http://127.0.0.1:$b_port" \
  SCALE_NGINX_ACCESS_LOG="$state/nginx/access.log" SCALE_B_RENDERER_PID="$b_renderer_pid" \
  SCALE_B_RENDERER_URL="http://127.0.0.1:$b_renderer_port" \
  "$py" -m pytest -p no:django -p no:cacheprovider -W ignore::pytest.PytestConfigWarning --confcutdir=scale_tests \
  scale_tests "$@"
