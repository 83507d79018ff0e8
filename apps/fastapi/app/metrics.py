"""The HTTP metrics `/metrics` serves: every request counted and timed by method, route template (`/users/:id`, as
prom-client's apps label it, never the raw path) and status. Pure ASGI middleware, outermost in main.py, so that it
sees every response, the other middleware's included."""

from __future__ import annotations

import time

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from api_contract import exported as contract
from api_core.metrics import UNMATCHED_ROUTE, HttpMetrics


class RecordMetrics:
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
