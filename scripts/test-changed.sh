#!/usr/bin/env bash
# `make check`'s tests: those of what a change touches, against its merge base with CHECK_BASE (default main):
# this branch's commits, the work tree's changes and new files.
# - Backend: the tests of each app a changed file under backend/<app>/ belongs to, on two workers, without
#   coverage; and config's whole-API tests (the authorization matrix, query counts, the schema) when an
#   endpoint or schema changed. A change outside the apps (conftest.py, requirements) touches every test:
#   it says so, and `make test-backend` runs them.
# - Frontend: the Vitest files that import a changed file, directly or not (vitest --changed).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
base="$(git merge-base HEAD "${CHECK_BASE:-main}")"
changed="$( (git diff --name-only "$base"; git ls-files --others --exclude-standard) | sort -u)"

apps=()
for app in $(grep '^backend/[a-z_]*/' <<<"$changed" | cut -d/ -f2 | sort -u); do
  [ -d "backend/$app/tests" ] && apps+=("$app")
done
if grep -qE '^backend/[a-z_]+/(api|schemas)\.py$' <<<"$changed" && [[ " ${apps[*]} " != *" config "* ]]; then
  apps+=(config)
fi
if grep -qE '^backend/[^/]+$' <<<"$changed"; then
  echo "Changed outside the apps (every test depends on it; run make test-backend):"
  grep -E '^backend/[^/]+$' <<<"$changed" | sed 's/^/  /'
fi

if [ ${#apps[@]} -gt 0 ]; then
  echo "Backend tests of: ${apps[*]}"
  (cd backend && "$root/.venv/bin/python" -m pytest -n 2 -p no:cacheprovider "${apps[@]}")
else
  echo "No backend app changed."
fi

if grep -q '^frontend/' <<<"$changed"; then
  npm --prefix frontend run --silent test -- --changed "$base" --passWithNoTests
else
  echo "No frontend file changed."
fi
