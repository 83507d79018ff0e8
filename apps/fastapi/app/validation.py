"""Request validation as FastAPI dependencies, on the contract's Pydantic models (`api_contract.models`).

A route declares what it validates in its signature, in the contract's order — params, headers, query, body —
after the caller (dependencies.py) where it needs one:

    async def update_user(user: CurrentUser,
                          params: Annotated[IdParams, from_params(IdParams)],
                          body: Annotated[UpdateUserBody, from_body(UpdateUserBody)]): ...

The id every `/{id}` route takes has its alias, as `Db` has in dependencies.py: `params: PathId`.

FastAPI solves dependencies one after another, so the first part that fails answers the request (a 400 whose
`errors` all start with `params.`, `headers.`, `query.` or `body.`), as in every Node app. Each of them depends on
`json_body`, which reads and parses the body of a route that takes one (FastAPI solves it once per request, for the
first of them), so that 415, 413 and malformed JSON come before any validation — and after the dependencies the
route declares before them, the caller's (dependencies.py): a caller who may not call a route learns nothing about
its body, and the body is not even read.
"""

from __future__ import annotations

from typing import Annotated, Any, TypeVar
from urllib.parse import unquote

from fastapi import Depends, Request
from pydantic import BaseModel

from api_contract.models import IdParams
from api_contract.validation import validate

from .http import read_json_body

M = TypeVar("M", bound=BaseModel)


async def json_body(request: Request) -> Any:
    """The request's JSON body on a route that validates one (ContractRoute.reads_json_body), else None; raises the
    contract's 415, 413 or 400 (malformed JSON) in that order."""
    if not getattr(request.scope.get("route"), "reads_json_body", False):
        return None
    return await read_json_body(request)


# What every validation dependency depends on, so that the body's own checks come before any part's validation.
JsonBody = Annotated[Any, Depends(json_body)]


def _decode_path_param(value: str) -> str:
    # Routes match the path as sent (see middleware.ExpressPathMatching); parameters are decoded here.
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
