"""The route class every router uses (FastAPI's documented hook for custom request handling)."""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from typing import Any

from fastapi import Request, Response
from fastapi.routing import APIRoute

from .http import read_json_body
from .validation import JSON_BODY_KEY


class ContractRoute(APIRoute):
    """- HEAD wherever GET is (FastAPI, unlike Starlette, does not add it).
    - A route that validates a JSON body reads and parses it before any dependency runs, so that the contract's
      order holds: 405 (routing) → 415 → 413 → malformed JSON → params, query, body validation → the handler.
    """

    def __init__(self, path: str, endpoint: Callable[..., Any], **kwargs: Any) -> None:
        methods = set(kwargs.pop("methods", None) or ["GET"])
        if "GET" in methods:
            methods.add("HEAD")
        super().__init__(path, endpoint, methods=methods, **kwargs)

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handle = super().get_route_handler()
        if not any(getattr(d.call, "reads_json_body", False) for d in self.dependant.dependencies):
            return handle

        async def read_body_then_handle(request: Request) -> Response:
            request.scope[JSON_BODY_KEY] = await read_json_body(request)
            return await handle(request)

        return read_body_then_handle
