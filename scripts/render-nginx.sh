#!/usr/bin/env bash
# Print a concrete nginx site file from deploy/nginx/harambee.conf.template.
# Usage: scripts/render-nginx.sh LISTEN_PORT STATIC_ROOT UPSTREAM...   (UPSTREAM is HOST:PORT)
# Optional: SERVER_NAME (default _), NGINX_CACHE_DIR (default /var/cache/nginx/harambee),
# NGINX_ACCESS_LOG (default /var/log/nginx/harambee.access.log).
set -euo pipefail
if [ $# -lt 3 ]; then
  echo "usage: $0 LISTEN_PORT STATIC_ROOT UPSTREAM..." >&2
  exit 2
fi
listen_port=$1 static_root=${2%/}
shift 2
template="$(cd "$(dirname "$0")/.." && pwd)/deploy/nginx/harambee.conf.template"

servers=""
for upstream in "$@"; do
  servers+="    server $upstream max_fails=3 fail_timeout=10s;"$'\n'
done
# brotli_static needs Debian's libnginx-mod-http-brotli-static; without it the .gz copies serve.
if compgen -G "/etc/nginx/modules-enabled/*brotli*" >/dev/null; then
  brotli="        brotli_static on;"
else
  brotli="        # brotli_static on;  (after: apt-get install libnginx-mod-http-brotli-static)"
fi

config=$(<"$template")
config=${config//@LISTEN_PORT@/$listen_port}
config=${config//@STATIC_ROOT@/$static_root}
config=${config//@UPSTREAM_SERVERS@/${servers%$'\n'}}
config=${config//@BROTLI_STATIC@/$brotli}
config=${config//@SERVER_NAME@/${SERVER_NAME:-_}}
config=${config//@CACHE_DIR@/${NGINX_CACHE_DIR:-/var/cache/nginx/harambee}}
config=${config//@ACCESS_LOG@/${NGINX_ACCESS_LOG:-/var/log/nginx/harambee.access.log}}
printf '%s\n' "$config"
