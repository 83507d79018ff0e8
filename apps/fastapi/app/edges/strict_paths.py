"""Which route a request reaches, as the contract (and Express) decides it: the path as it was sent, no redirect for
a trailing slash (`redirect_slashes=False` in main.py: `/users/` is a 404), and HEAD wherever GET is."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fastapi.routing import APIRoute
from starlette.types import ASGIApp, Receive, Scope, Send

from .validate import reads_json_body


class StrictPaths:
    """Routes match the path as sent, percent-escapes included: `/user%73` is not `/users` (uvicorn hands Starlette
    the decoded path). Path parameters are decoded after matching (validate.py)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        raw_path = scope.get("raw_path")
        if scope["type"] == "http" and raw_path:
            scope["path"] = raw_path.decode("latin-1")
        await self.app(scope, receive, send)


class ContractRoute(APIRoute):
    """The route class of every router (FastAPI's documented hook for custom request handling):
    - HEAD wherever GET is (FastAPI, unlike Starlette, does not add it);
    - `reads_json_body`: whether the route validates a JSON body, which json_body.py then reads before any part is
      validated (validate.py)."""

    def __init__(self, path: str, endpoint: Callable[..., Any], **kwargs: Any) -> None:
        methods = set(kwargs.pop("methods", None) or ["GET"])
        if "GET" in methods:
            methods.add("HEAD")
        super().__init__(path, endpoint, methods=methods, **kwargs)
        self.reads_json_body = reads_json_body(self.dependant)
