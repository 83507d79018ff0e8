#!/usr/bin/env bash
# Runs packages/python's pytest suite in apps/fastapi's venv, where apps/fastapi/scripts/setup.sh installed this
# package. With `--report FILE` it also writes the result in the JSON shape of vitest's json reporter, which
# .ci/run's summary adds up. Other arguments go to pytest.
set -uo pipefail
cd "$(dirname "$0")/.."
venv=../../apps/fastapi/.venv
report=""
if [ "${1:-}" = "--report" ]; then
  report=$2
  shift 2
fi
if [ ! -x "$venv/bin/python" ]; then
  echo "test: no apps/fastapi/.venv; run apps/fastapi/scripts/setup.sh first" >&2
  status=1
else
  junit=$(mktemp)
  "$venv/bin/python" -m pytest --junitxml="$junit" "$@"
  status=$?
fi
if [ -n "$report" ]; then
  python=$([ -x "$venv/bin/python" ] && echo "$venv/bin/python" || command -v python3)
  "$python" ../../apps/fastapi/scripts/junit-to-vitest-json.py "${junit:-/nonexistent}" "$report" || status=1
fi
rm -f "${junit:-}"
exit "$status"
