"""What Python takes from the Node contract as data: build/contract.json, written by scripts/export-contract.ts
(packages/python/build/, beside this package: it is installed editable).

The OpenAPI document, the docs page (build/docs.html), the problem catalogue (type, title, status per kind), the
methods of every path and the security headers come from packages/contract, so none of them can drift from what the
Node apps serve.
"""

from __future__ import annotations

import json
import os
import re
from functools import cache
from pathlib import Path
from typing import Any

PACKAGE_DIR = Path(__file__).resolve().parent.parent
CONTRACT_FILE = Path(os.environ.get("CONTRACT_FILE", PACKAGE_DIR / "build" / "contract.json"))
DOCS_FILE = CONTRACT_FILE.with_name("docs.html")


@cache
def load() -> dict[str, Any]:
    try:
        return json.loads(CONTRACT_FILE.read_text("utf-8"))
    except FileNotFoundError:
        raise RuntimeError(
            f"{CONTRACT_FILE} is missing: run `node packages/python/scripts/export-contract.ts` "
            "(apps/fastapi/scripts/setup.sh does it) to export the contract from packages/contract"
        ) from None


def problems() -> dict[str, dict[str, Any]]:
    return load()["problems"]


def openapi_document() -> dict[str, Any]:
    return load()["openapi"]


@cache
def docs_html() -> str:
    """Read on first use: 4 MB that a start-up does not need."""
    try:
        return DOCS_FILE.read_text("utf-8")
    except FileNotFoundError:
        raise RuntimeError(
            f"{DOCS_FILE} is missing: run `node packages/python/scripts/export-contract.ts` "
            "(apps/fastapi/scripts/setup.sh does it) to export the contract from packages/contract"
        ) from None


def security_headers() -> dict[str, str]:
    """What every response carries, /docs included (`x-content-type-options`, `x-frame-options`): SECURITY_HEADERS."""
    return load()["securityHeaders"]["headers"]


def api_content_security_policy() -> str:
    """The `content-security-policy` of every response but /docs: API_CONTENT_SECURITY_POLICY."""
    return load()["securityHeaders"]["apiContentSecurityPolicy"]


def docs_content_security_policy() -> str:
    """/docs' `content-security-policy`, which allows the page's inline scripts by their SHA-256: made by
    docsContentSecurityPolicy() from the very page docs_html() serves, so it is not hashed again here."""
    return load()["securityHeaders"]["docsContentSecurityPolicy"]


def wire_parameters(operation_id: str, location: str) -> dict[str, Any] | None:
    """The JSON Schema of an operation's path or query parameters as strings on the wire (what validation accepts;
    the OpenAPI document describes them by meaning)."""
    return load()["wireParameters"][operation_id].get(location)


def methods_by_path() -> dict[str, list[str]]:
    """Path template (`/users/:id`) → methods served there, HEAD included wherever GET is, in contract order."""
    return load()["methodsByPath"]


def allow_header(template: str) -> str:
    """The `allow` header of a 405 on this path template, e.g. `GET, HEAD, POST`."""
    return ", ".join(methods_by_path()[template])


_PARAM = re.compile(r"\{(\w+)(?::\w+)?\}")


@cache
def express_template(path: str) -> str:
    """`/users/{id}` (Starlette) → `/users/:id` (the contract's form, also the metrics `route` label)."""
    return _PARAM.sub(r":\1", path)
