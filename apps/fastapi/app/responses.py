"""Response classes: JSON as the Node apps send it (`application/json; charset=utf-8`), serialized with orjson."""

from __future__ import annotations

import json
import math
from typing import Any

import orjson
from starlette.responses import Response

from api_contract.problems import PROBLEM_CONTENT_TYPE, ProblemError


def _finite(value: Any) -> Any:
    """A copy with non-finite numbers as None; iterative, because the value may be thousands of levels deep."""
    root = [value]
    pending: list[tuple[Any, Any]] = [(root, 0)]
    while pending:
        container, key = pending.pop()
        item = container[key]
        if isinstance(item, float) and not math.isfinite(item):
            container[key] = None
        elif isinstance(item, dict):
            container[key] = copy = dict(item)
            pending.extend((copy, k) for k in copy)
        elif isinstance(item, list):
            container[key] = copy = list(item)
            pending.extend((copy, i) for i in range(len(copy)))
    return root[0]


def dumps(content: Any) -> bytes:
    """JSON.stringify's output for what JSON.parse produced: orjson, and the standard library for what orjson
    refuses (lone UTF-16 surrogates, which JSON allows as `\\ud800` escapes; integers past 64 bits; nesting
    deeper than 255 levels), with non-finite numbers written as `null`, as JSON.stringify writes them."""
    try:
        return orjson.dumps(content)
    except TypeError:
        pass
    try:
        return json.dumps(content, ensure_ascii=True, separators=(",", ":"), allow_nan=False).encode()
    except ValueError:
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
