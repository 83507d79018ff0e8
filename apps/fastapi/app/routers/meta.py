"""`/`, `/health`, `/ready`, `/echo`, `/metrics`, `/openapi.json`, `/docs`."""

from __future__ import annotations

import time
import uuid
from typing import Annotated

from fastapi import APIRouter, Request
from starlette.responses import HTMLResponse, PlainTextResponse, Response

from api_contract import exported as contract
from api_contract.models import EchoBody

from ..dependencies import Db
from ..responses import JSONResponse, dumps
from ..routing import ContractRoute
from ..validation import from_body

router = APIRouter(route_class=ContractRoute)


@router.get("/")
async def hello() -> Response:
    return PlainTextResponse("Hello World!")


@router.get("/health")
async def health() -> Response:
    """Liveness: never touches the database."""
    return JSONResponse({"status": "ok", "timestamp": time.time_ns() // 1_000_000, "framework": "fastapi"})


@router.get("/ready")
async def ready(db: Db) -> Response:
    """Readiness: one round trip to the database (503 while it cannot be reached)."""
    await db.fetchval("SELECT 1")
    return JSONResponse({"status": "ok"})


@router.post("/echo")
async def echo(body: Annotated[EchoBody, from_body(EchoBody)]) -> Response:
    return JSONResponse({**body.root, "txnId": str(uuid.uuid4())})


@router.get("/metrics")
async def metrics(request: Request) -> Response:
    http_metrics = request.app.state.metrics
    return Response(http_metrics.render(), media_type=http_metrics.content_type)


_OPENAPI_BYTES: bytes | None = None


@router.get("/openapi.json")
async def openapi() -> Response:
    """The contract's own document (exported from packages/contract), not one FastAPI generates."""
    global _OPENAPI_BYTES
    if _OPENAPI_BYTES is None:
        _OPENAPI_BYTES = dumps(contract.openapi_document())
    return Response(_OPENAPI_BYTES, media_type=JSONResponse.media_type)


@router.get("/docs")
async def docs() -> Response:
    """The contract's page, with its own content-security policy (its inline scripts by hash), which the
    SecurityHeaders middleware then leaves as it is."""
    return HTMLResponse(
        contract.docs_html(), headers={"content-security-policy": contract.docs_content_security_policy()}
    )
