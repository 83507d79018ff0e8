"""Every error leaves as the contract's problem document (`application/problem+json`), never FastAPI's
`{"detail": …}`: the exception handlers, installed by main.py with `install(app)`.

- ProblemError (routes, dependencies, data access) as it is;
- Starlette's HTTPException: 404 for an unknown path, 405 for a known path and another method (with the
  contract's `allow`, from its route table: Starlette's own would list only one route's methods);
- RequestValidationError, should a FastAPI-declared parameter ever fail: the contract's 400, first part only
  (the routes validate with validate.py's dependencies, which raise the contract's 400 themselves);
- an unreachable database: 503, the process keeps serving;
- a client that left before its body arrived (Starlette's ClientDisconnect): the 400 of a cut body, as raw-body
  answers in the Node apps, logged at debug (nobody is left to read it; it is not the server's error);
- anything else, a response its `response_model` refuses (ResponseValidationError) included: 500, logged, no
  details.
"""

from __future__ import annotations

import logging
from typing import Any

import asyncpg
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.requests import ClientDisconnect
from starlette.responses import Response

from api_contract import exported as contract
from api_contract.problems import (
    PROBLEM_CONTENT_TYPE,
    ProblemError,
    malformed_json,
    unavailable,
    validation_problem,
)
from api_core.db import DATABASE_UNAVAILABLE

from .json_response import dumps
from .security_headers import security_headers

logger = logging.getLogger("app")

_KIND_BY_STATUS = {400: "malformedJson", 401: "unauthorized", 409: "conflict", 413: "payloadTooLarge",
                   415: "unsupportedMediaType", 422: "unprocessable", 503: "unavailable"}  # fmt: skip

_PART_BY_LOCATION = {"path": "params", "header": "headers", "query": "query", "body": "body"}


class ProblemResponse(Response):
    media_type = f"{PROBLEM_CONTENT_TYPE}; charset=utf-8"

    def __init__(self, problem: ProblemError) -> None:
        super().__init__(problem.to_json(), status_code=problem.status, headers=problem.headers)

    def render(self, content: Any) -> bytes:
        return dumps(content)


def _as_the_middleware_would(request: Request, response: Response) -> Response:
    # The 500 handler runs outside the middleware stack (Starlette's ServerErrorMiddleware), so it sets the
    # request id and the security headers itself.
    request_id = request.scope.get("state", {}).get("request_id")
    if request_id and "x-request-id" not in response.headers:
        response.headers["x-request-id"] = request_id
    present = {name for name, _ in response.raw_headers}
    response.raw_headers.extend(header for header in security_headers() if header[0] not in present)
    return response


async def problem_error(request: Request, error: Exception) -> Response:
    assert isinstance(error, ProblemError)
    return ProblemResponse(error)


async def http_exception(request: Request, error: Exception) -> Response:
    assert isinstance(error, StarletteHTTPException)
    route = request.scope.get("route")
    if error.status_code == 405 and route is not None:
        template = contract.express_template(route.path)
        return ProblemResponse(
            ProblemError(
                "methodNotAllowed",
                f"{request.method} is not supported on {template}.",
                headers={"allow": contract.allow_header(template)},
            )
        )
    if error.status_code in (404, 405):
        return ProblemResponse(ProblemError("notFound", f"Nothing lives at {request.scope['path']}."))
    kind = _KIND_BY_STATUS.get(error.status_code, "internal")
    return ProblemResponse(ProblemError(kind, str(error.detail)))


async def request_validation(request: Request, error: Exception) -> Response:
    assert isinstance(error, RequestValidationError)
    by_part: dict[str, list[Any]] = {}
    for e in error.errors():
        part = _PART_BY_LOCATION.get(str(e["loc"][0]), "body")
        path = ".".join([part, *(str(p) for p in e["loc"][1:])])
        by_part.setdefault(part, []).append({"path": path, "message": e.get("msg", "is not valid")})
    part = next(p for p in ("params", "headers", "query", "body") if p in by_part)
    return ProblemResponse(validation_problem(by_part[part], part))


async def database_unavailable(request: Request, error: Exception) -> Response:
    logger.warning("database unavailable: %r", error)
    return ProblemResponse(unavailable())


async def client_disconnect(request: Request, error: Exception) -> Response:
    logger.debug("client left before its body arrived: %s %s", request.method, request.url.path)
    return ProblemResponse(malformed_json())


async def internal_client_error(request: Request, error: Exception) -> Response:
    """asyncpg raises InternalClientError ("cannot switch to state …; another operation … is in progress") for a
    query sent on a pooled connection whose session PostgreSQL has just ended: the server's FATAL 57P01 arrives on
    the idle connection, which the pool hands out before the socket closes. That is the database going away (a
    503, like the Node apps' "Client has encountered a connection error"); any other InternalClientError is a 500."""
    if "another operation" in str(error):
        return await database_unavailable(request, error)
    return await unexpected(request, error)


async def unexpected(request: Request, error: Exception) -> Response:
    if isinstance(error, DATABASE_UNAVAILABLE):
        return _as_the_middleware_would(request, await database_unavailable(request, error))
    logger.exception("unhandled error", exc_info=error)
    return _as_the_middleware_would(request, ProblemResponse(ProblemError("internal", "An unexpected error occurred.")))


def install(app: FastAPI) -> None:
    app.add_exception_handler(ProblemError, problem_error)
    app.add_exception_handler(StarletteHTTPException, http_exception)
    app.add_exception_handler(RequestValidationError, request_validation)
    for kind in DATABASE_UNAVAILABLE:
        app.add_exception_handler(kind, database_unavailable)
    app.add_exception_handler(asyncpg.InternalClientError, internal_client_error)
    app.add_exception_handler(ClientDisconnect, client_disconnect)
    app.add_exception_handler(Exception, unexpected)
