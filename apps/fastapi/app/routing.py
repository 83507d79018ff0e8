"""The route class every router uses (FastAPI's documented hook for custom request handling)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fastapi.routing import APIRoute


class ContractRoute(APIRoute):
    """- HEAD wherever GET is (FastAPI, unlike Starlette, does not add it).
    - `reads_json_body`: whether the route validates a JSON body (a `from_body` dependency), which
      validation.json_body then reads and parses before any part is validated, after the caller's dependencies:
      405 (routing) → 401 → 403 → 415 → 413 → malformed JSON → params, query, headers, body validation → the handler.
    """

    def __init__(self, path: str, endpoint: Callable[..., Any], **kwargs: Any) -> None:
        methods = set(kwargs.pop("methods", None) or ["GET"])
        if "GET" in methods:
            methods.add("HEAD")
        super().__init__(path, endpoint, methods=methods, **kwargs)
        self.reads_json_body = any(getattr(d.call, "reads_json_body", False) for d in self.dependant.dependencies)
