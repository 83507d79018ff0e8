"""`/`, `/health`, `/ready`, `/echo`, `/metrics`, `/openapi.json`, `/docs`, at the root."""

from __future__ import annotations

import time
import uuid
from typing import Annotated, Any

from fastapi import APIRouter, Request, Response
from fastapi.responses import HTMLResponse, PlainTextResponse

from api_contract import exported as contract
from api_contract.models import EchoBody

from ...edges.json_response import JSONResponse, dumps
from ...edges.strict_paths import ContractRoute
from ...edges.validate import from_body
from ..deps import DbDep

router = APIRouter(tags=["meta"], route_class=ContractRoute)


@router.get("/", response_class=PlainTextResponse)
async def hello() -> str:
    return "Hello World!"


@router.get("/health")
async def health() -> dict[str, Any]:
    """Liveness: never touches the database."""
    return {"status": "ok", "timestamp": time.time_ns() // 1_000_000, "framework": "fastapi"}


@router.get("/ready")
async def ready(db: DbDep) -> dict[str, str]:
    """Readiness: one round trip to the database (503 while it cannot be reached)."""
    await db.fetchval("SELECT 1")
    return {"status": "ok"}


@router.post("/echo")
async def echo(body: Annotated[EchoBody, from_body(EchoBody)]) -> Response:
    # Any JSON comes back as JSON.stringify writes it (lone surrogates, integers past 64 bits, deep nesting), which
    # FastAPI's jsonable_encoder cannot: the response is built here, not from a return value.
    return JSONResponse({**body.root, "txnId": str(uuid.uuid4())})


@router.get("/metrics")
async def metrics(request: Request) -> Response:
    # Prometheus' text format, with the content type (and version) prometheus_client names.
    http_metrics = request.app.state.metrics
    return Response(http_metrics.render(), media_type=http_metrics.content_type)


_OPENAPI_BYTES: bytes | None = None


@router.get("/openapi.json")
async def openapi() -> Response:
    """The contract's own document (exported from packages/contract), not one FastAPI generates (main.py turns
    FastAPI's off), serialised once."""
    global _OPENAPI_BYTES
    if _OPENAPI_BYTES is None:
        _OPENAPI_BYTES = dumps(contract.openapi_document())
    return Response(_OPENAPI_BYTES, media_type=JSONResponse.media_type)


@router.get("/docs", response_class=HTMLResponse)
async def docs(response: Response) -> str:
    """The contract's page, with its own content-security policy (its inline scripts by hash), which the
    SecurityHeaders middleware then leaves as it is."""
    response.headers["content-security-policy"] = contract.docs_content_security_policy()
    return contract.docs_html()
