"""Request validation as dependencies on the contract's Pydantic models (`api_contract.models`), in the contract's
order. A route declares what it validates in its signature — params, headers, query, body — after the caller
(api/deps.py) where it needs one:

    async def update_user(user: CurrentUser, params: PathId,
                          body: Annotated[UpdateUserBody, from_body(UpdateUserBody)], db: DbDep): ...

FastAPI solves dependencies one after another, so the first part that fails answers (a 400 whose `errors` all start
with `params.`, `headers.`, `query.` or `body.`), as in every Node app. Each depends on `json_body`, so 415, 413 and
malformed JSON come before any validation, and after the caller's dependencies: a caller who may not call a route
learns nothing about its body, which is not even read. FastAPI's own parameter validation is not used: it reports
every part at once, and Pydantic's messages and coercions are not the contract's (Zod's)."""

from __future__ import annotations

from typing import Annotated, Any, TypeVar
from urllib.parse import unquote

from fastapi import Depends, Request
from fastapi.dependencies.models import Dependant
from pydantic import BaseModel

from api_contract.models import IdParams
from api_contract.validation import validate

from .json_body import JsonBody

M = TypeVar("M", bound=BaseModel)


def _decode_path_param(value: str) -> str:
    # Routes match the path as sent (strict_paths.py); parameters are decoded here.
    try:
        return unquote(value, errors="strict")
    except UnicodeDecodeError:
        return value


def from_params(model: type[M]) -> Any:
    async def validated_params(request: Request, _: JsonBody) -> M:
        params = {name: _decode_path_param(v) for name, v in request.path_params.items()}
        return validate(model, params, "params")

    return Depends(validated_params)


PathId = Annotated[IdParams, from_params(IdParams)]
"""The `{id}` of `/users/{id}`, `/products/{id}` and `/orders/{id}`, validated: `params: PathId`."""


def from_query(model: type[M]) -> Any:
    async def validated_query(request: Request, _: JsonBody) -> M:
        # A parameter given twice arrives as a list, which no query field accepts: `?limit=1&limit=2` is a 400.
        query: dict[str, Any] = {}
        for name, value in request.query_params.multi_items():
            if name not in query:
                query[name] = value
            elif isinstance(query[name], list):
                query[name].append(value)
            else:
                query[name] = [query[name], value]
        return validate(model, query, "query")

    return Depends(validated_query)


def from_headers(model: type[M]) -> Any:
    fields = [(f.alias or name) for name, f in model.model_fields.items()]

    async def validated_headers(request: Request, _: JsonBody) -> M:
        # Repeated headers count as their values joined by ", ", as Node presents them.
        headers = {name: ", ".join(request.headers.getlist(name)) for name in fields if name in request.headers}
        return validate(model, headers, "headers")

    return Depends(validated_headers)


def from_body(model: type[M]) -> Any:
    async def validated_body(body: JsonBody) -> M:
        return validate(model, body, "body")

    validated_body.reads_json_body = True  # type: ignore[attr-defined]
    return Depends(validated_body)


def reads_json_body(dependant: Dependant) -> bool:
    """Whether a route validates a JSON body (has a `from_body` dependency): json_body.py reads only such bodies."""
    return any(getattr(d.call, "reads_json_body", False) for d in dependant.dependencies)
