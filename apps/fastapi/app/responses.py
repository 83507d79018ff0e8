"""Response classes: JSON as the Node apps send it (`application/json; charset=utf-8`), serialized with orjson."""

from __future__ import annotations

import json
import math
from typing import Any

import orjson
from starlette.responses import Response

from .problems import PROBLEM_CONTENT_TYPE, ProblemError


def _finite(value: Any) -> Any:
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_finite(v) for v in value]
    return value


def dumps(content: Any) -> bytes:
    """JSON.stringify's output for what JSON.parse produced: orjson, and the standard library for the strings
    orjson refuses (lone UTF-16 surrogates, which JSON allows as `\\ud800` escapes) and huge integers."""
    try:
        return orjson.dumps(content)
    except TypeError:
        return json.dumps(_finite(content), ensure_ascii=True, separators=(",", ":")).encode()


class JSONResponse(Response):
    media_type = "application/json; charset=utf-8"

    def render(self, content: Any) -> bytes:
        return dumps(content)


class ProblemResponse(Response):
    media_type = f"{PROBLEM_CONTENT_TYPE}; charset=utf-8"

    def __init__(self, problem: ProblemError) -> None:
        super().__init__(problem.to_json(), status_code=problem.status, headers=problem.headers)

    def render(self, content: Any) -> bytes:
        return dumps(content)


def created(content: dict[str, Any], location: str) -> JSONResponse:
    return JSONResponse(content, status_code=201, headers={"location": location})
