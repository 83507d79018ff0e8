"""The abuse limit on POST /auth/register and POST /auth/login (docs/api.md "Abuse limits"): per client address and
route, at most `settings.auth_rate_limit` requests in a fixed window of AUTH_RATE_WINDOW_SECONDS, whatever their
outcome; past it the contract's 429 with `retry-after`.

`limits`, slowapi's own engine, counts (in this process's memory, as every implementation does). The check is a
dependency the two routes declare in `dependencies=[…]`, which FastAPI solves before the signature's, so before
`json_body` reads the body: routing (404/405) → 429 → 415 → 413 → malformed JSON → validation. slowapi itself is not
used: its `@limiter.limit` decorator runs when the endpoint is called, after FastAPI has solved every dependency (the
body's included), and its middleware applies one default limit to every route rather than one to each of these two.
"""

from __future__ import annotations

import math
import time

from fastapi import Request
from limits import RateLimitItemPerSecond
from limits.aio.storage import MemoryStorage
from limits.aio.strategies import FixedWindowRateLimiter

from api_contract.problems import ProblemError
from api_core.settings import AUTH_RATE_WINDOW_SECONDS


class AuthRateLimit:
    """One fixed-window counter per route and client address; the window starts at the first request it counts."""

    def __init__(self, limit: int) -> None:
        self.item = RateLimitItemPerSecond(limit, AUTH_RATE_WINDOW_SECONDS)
        self.limiter = FixedWindowRateLimiter(MemoryStorage())

    async def hit(self, route: str, address: str) -> int | None:
        """Counts one request: None while it is within the limit, else the whole seconds until the window ends."""
        if await self.limiter.hit(self.item, route, address):
            return None
        window = await self.limiter.get_window_stats(self.item, route, address)
        return max(1, math.ceil(window.reset_time - time.time()))


async def limit_per_address(request: Request) -> None:
    """The route's counter for the connection's remote address (uvicorn's `proxy_headers` is off in server.py, so
    no `x-forwarded-for` can name another); a 429 past the limit."""
    route: str = request.scope["route"].path
    address = request.client.host if request.client else ""
    retry_after = await request.app.state.auth_rate_limit.hit(route, address)
    if retry_after is not None:
        raise ProblemError(
            "tooManyRequests",
            f"Too many requests to {route} from this address; retry in {retry_after} s.",
            headers={"retry-after": str(retry_after)},
        )
