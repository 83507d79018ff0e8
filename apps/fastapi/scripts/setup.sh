#!/usr/bin/env bash
# Sets apps/fastapi up on a fresh clone: a project-local virtual environment (.venv) with the pinned
# requirements (the app's requirements.txt and the tests and lint tools of requirements-dev.txt) and packages/python
# (api_contract, api_core) installed editable, and packages/python/build/contract.json exported from
# packages/contract (needs Node 24 and `pnpm install`).
# Idempotent and quick when nothing changed. PYTHON selects the interpreter (default: python3.11, else python3).
set -euo pipefail
cd "$(dirname "$0")/.."

PYTHON=${PYTHON:-$(command -v python3.11 || command -v python3 || true)}
if [ -z "$PYTHON" ]; then
  echo "setup: no python3 found; install Python 3.11+ or set PYTHON" >&2
  exit 1
fi
if ! "$PYTHON" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else 1)'; then
  echo "setup: $PYTHON is $("$PYTHON" --version 2>&1); apps/fastapi needs Python 3.11+" >&2
  exit 1
fi

if [ ! -x .venv/bin/python ]; then
  echo "setup: creating .venv with $("$PYTHON" --version 2>&1)"
  "$PYTHON" -m venv .venv
fi
stamp=.venv/.requirements.sha256
wanted=$(cat requirements.txt requirements-dev.txt | sha256sum | cut -d' ' -f1)
if [ "$(cat "$stamp" 2>/dev/null)" != "$wanted" ]; then
  echo "setup: installing requirements.txt and requirements-dev.txt into .venv"
  .venv/bin/python -m pip install --disable-pip-version-check --no-input --quiet -r requirements-dev.txt
  echo "$wanted" >"$stamp"
fi
# The contract and the shared data access, imported as the Node apps import packages/contract and packages/data-access.
# Editable: edits to packages/python take effect at once, and its build/ export is found beside it.
if ! .venv/bin/python -c 'import api_contract, api_core' 2>/dev/null; then
  echo "setup: installing packages/python (editable) into .venv"
  .venv/bin/python -m pip install --disable-pip-version-check --no-input --quiet --no-deps --editable ../../packages/python
fi

if ! node -e 'process.exit(Number(process.versions.node.split(".")[0]) >= 24 ? 0 : 1)' 2>/dev/null; then
  echo "setup: exporting the contract needs Node 24 on PATH (found: $(node --version 2>/dev/null || echo none))" >&2
  exit 1
fi
node ../../packages/python/scripts/export-contract.ts
