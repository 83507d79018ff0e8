"""Pure ASGI middleware (no per-request objects beyond what each needs), outermost first in main.py."""

from __future__ import annotations

import time
import uuid

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from api_contract import exported as contract
from api_core.http import REQUEST_ID
from api_core.metrics import UNMATCHED_ROUTE, HttpMetrics


class RecordMetrics:
    """Counts and times every request by method, route template (`/users/:id`, never the raw path) and status."""

    def __init__(self, app: ASGIApp, metrics: HttpMetrics) -> None:
        self.app = app
        self.metrics = metrics

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        status = 500

        async def send_and_note_status(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            await send(message)

        try:
            await self.app(scope, receive, send_and_note_status)
        finally:
            route = scope.get("route")
            template = contract.express_template(route.path) if route is not None else UNMATCHED_ROUTE
            self.metrics.observe(scope["method"], template, status, time.perf_counter() - started)


class RequestId:
    """Every response, errors included, carries `x-request-id`: the client's own when valid, else a fresh UUID."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        values = [v for k, v in scope["headers"] if k == b"x-request-id"]
        # Node joins a repeated header with ", ", which is never a valid id.
        candidate = b", ".join(values).decode("latin-1")
        request_id = candidate if values and REQUEST_ID.fullmatch(candidate) else str(uuid.uuid4())
        scope.setdefault("state", {})["request_id"] = request_id
        header = (b"x-request-id", request_id.encode("latin-1"))

        async def send_with_request_id(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [header, *message.get("headers", [])]
            await send(message)

        await self.app(scope, receive, send_with_request_id)


def security_headers() -> list[tuple[bytes, bytes]]:
    """The contract's security headers and the API's content-security policy, as raw ASGI headers (from the
    contract's export: docs/api.md "Security headers")."""
    values = {**contract.security_headers(), "content-security-policy": contract.api_content_security_policy()}
    return [(name.encode("latin-1"), value.encode("latin-1")) for name, value in values.items()]


class SecurityHeaders:
    """Every response, errors included, carries `x-content-type-options: nosniff`, `x-frame-options: DENY` and the
    API's `content-security-policy` — unless the response sets one of them itself: /docs sends its page's policy.
    FastAPI has no helmet; this is the small middleware OWASP's REST Security Cheat Sheet asks for."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self.headers = security_headers()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_security_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = message.get("headers", [])
                present = {name.lower() for name, _ in headers}
                message["headers"] = [*headers, *(h for h in self.headers if h[0] not in present)]
            await send(message)

        await self.app(scope, receive, send_with_security_headers)


class ExpressPathMatching:
    """Routes match the path as it was sent, percent-escapes included, as in Express: `/user%73` is not `/users`
    (uvicorn hands Starlette the decoded path). Path parameters are decoded after matching (validation.py)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        raw_path = scope.get("raw_path")
        if scope["type"] == "http" and raw_path:
            scope["path"] = raw_path.decode("latin-1")
        await self.app(scope, receive, send)
