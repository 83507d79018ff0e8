#!/usr/bin/env sh
# Creates packages/faults/.venv (git-ignored) with the pinned Schemathesis of requirements-schemathesis.txt, for the
# schema-fuzz fault. Idempotent: reruns only install what changed. PYTHON picks the interpreter (default python3,
# 3.10 or newer).
set -eu
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  "$PYTHON" -m venv .venv
fi
.venv/bin/python -m pip install --disable-pip-version-check --no-input --quiet -r requirements-schemathesis.txt
.venv/bin/schemathesis --version
