"""JSON as the Node apps send it: `application/json; charset=utf-8` (FastAPI's own JSONResponse names no charset),
bytes as JSON.stringify writes them. The app's `default_response_class`, so every route that returns a model or a
dict is rendered by it."""

from __future__ import annotations

import json
import math
from typing import Any

import orjson
from starlette.responses import Response


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
    """orjson, which renders the `mode="json"` dict a response_model produces as JSON.stringify would."""

    media_type = "application/json; charset=utf-8"

    def render(self, content: Any) -> bytes:
        return dumps(content)
