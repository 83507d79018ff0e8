"""`x-request-id` on every response, errors included (docs/api.md): the client's own when valid, else a fresh UUID."""

from __future__ import annotations

import uuid

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from api_core.http import REQUEST_ID


class RequestId:
    """Pure ASGI middleware; the id is also kept in `scope["state"]` for the 500 handler (problems.py), which runs
    outside every middleware."""

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
