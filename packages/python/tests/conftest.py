"""Fresh inputs for every run: the contract export (build/contract.json, build/validation-vectors.json) is
rewritten from packages/contract when Node 24 is on PATH, so the checks compare against the contract as it is
now, not as it was when apps/fastapi/scripts/setup.sh last ran."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

PACKAGE_DIR = Path(__file__).resolve().parent.parent
EXPORT = PACKAGE_DIR / "scripts" / "export-contract.ts"
BUILD = PACKAGE_DIR / "build"


def export_contract() -> None:
    node = shutil.which("node")
    version = subprocess.run([node, "--version"], capture_output=True, text=True).stdout if node else ""
    if version.startswith("v") and int(version[1:].split(".")[0]) >= 24:
        subprocess.run([node, str(EXPORT)], check=True, capture_output=True)
    elif not (BUILD / "contract.json").exists():
        raise pytest.UsageError(f"{BUILD / 'contract.json'} is missing and Node 24 is not on PATH to export it")


def pytest_sessionstart(session: pytest.Session) -> None:
    export_contract()
