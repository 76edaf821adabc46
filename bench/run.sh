#!/usr/bin/env bash
# Run every benchmark (bench/*.py) against PostgreSQL; each writes bench/results/<name>.json.
# DATABASE_URL defaults to postgres://postgres@127.0.0.1:5432/h_bench (see each script).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
for script in "$root"/bench/*.py; do
  echo "== $(basename "$script")"
  "$root/.venv/bin/python" "$script"
done
