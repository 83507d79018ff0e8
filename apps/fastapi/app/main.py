"""The app factory, `create_app(settings)` (uvicorn's `factory=True`): the API's routers, the contract's edges
(edges/), the metrics and the asyncpg pool, opened and closed by the lifespan.

FastAPI's defaults that the contract overrides, and why:
- `redirect_slashes=False`: `/users/` is another path (404), not a redirect to `/users`;
- no generated OpenAPI document or docs pages: `/openapi.json` and `/docs` serve the contract's own
  (api/routes/meta.py);
- `default_response_class`: JSON with the `charset=utf-8` the Node apps send;
- every error handler is the contract's (edges/problems.py), so FastAPI's `{"detail": …}` bodies never reach a client.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI
from starlette.middleware import Middleware

from api_contract import exported as contract
from api_core.db import Database, create_pool
from api_core.metrics import HttpMetrics
from api_core.settings import Settings

from .api.main import api_router
from .edges import problems
from .edges.json_response import JSONResponse
from .edges.rate_limit import AuthRateLimit
from .edges.request_id import RequestId
from .edges.security_headers import SecurityHeaders
from .edges.strict_paths import StrictPaths
from .metrics import RecordMetrics


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or Settings.from_env()
    contract.load()  # fail at start-up, not on the first request, when the export is missing
    metrics = HttpMetrics("fastapi")

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        app.state.db = Database(
            await create_pool(settings.database_url, settings.pool_size, settings.statement_timeout_ms)
        )
        try:
            yield
        finally:
            await app.state.db.close()

    app = FastAPI(
        title="Users, products and orders",
        openapi_url=None,
        docs_url=None,
        redoc_url=None,
        redirect_slashes=False,
        default_response_class=JSONResponse,
        lifespan=lifespan,
        # Outermost first: metrics see every response, including the request-id and routing middleware's.
        middleware=[
            Middleware(RecordMetrics, metrics=metrics),
            Middleware(RequestId),
            Middleware(SecurityHeaders),
            Middleware(StrictPaths),
        ],
    )
    app.state.settings = settings
    app.state.metrics = metrics
    # Each app counts its own: a test's app starts from nothing, as a process does.
    app.state.auth_rate_limit = AuthRateLimit(settings.auth_rate_limit)
    problems.install(app)
    app.include_router(api_router)
    return app
