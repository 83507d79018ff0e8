"""Fresh inputs for every run: the contract export that api_contract reads (packages/python/build/contract.json)
is rewritten from packages/contract when Node 24 is on PATH, so the app is tested against the contract as it is
now, not as it was when scripts/setup.sh last ran."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from api_contract.exported import CONTRACT_FILE, PACKAGE_DIR


def pytest_sessionstart(session: pytest.Session) -> None:
    node = shutil.which("node")
    version = subprocess.run([node, "--version"], capture_output=True, text=True).stdout if node else ""
    if version.startswith("v") and int(version[1:].split(".")[0]) >= 24:
        subprocess.run([node, str(PACKAGE_DIR / "scripts" / "export-contract.ts")], check=True, capture_output=True)
    elif not CONTRACT_FILE.exists():
        raise pytest.UsageError(f"{CONTRACT_FILE} is missing and Node 24 is not on PATH to export it")
