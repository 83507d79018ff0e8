"""The contract's security headers (docs/api.md "Security headers") on every response: FastAPI has no helmet, so
this is the small middleware OWASP's REST Security Cheat Sheet asks for."""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from api_contract import exported as contract


def security_headers() -> list[tuple[bytes, bytes]]:
    """`x-content-type-options`, `x-frame-options` and the API's `content-security-policy`, as raw ASGI headers,
    read from the contract's export."""
    values = {**contract.security_headers(), "content-security-policy": contract.api_content_security_policy()}
    return [(name.encode("latin-1"), value.encode("latin-1")) for name, value in values.items()]


class SecurityHeaders:
    """Adds each header a response does not set itself: /docs sends its page's own policy."""

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
