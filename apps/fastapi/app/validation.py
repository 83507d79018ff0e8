"""Request validation as FastAPI dependencies, on the contract's Pydantic models (`api_contract.models`).

A route declares what it validates in its signature, in the contract's order — params, headers, query, body:

    async def update_user(params: Annotated[IdParams, from_params(IdParams)],
                          body: Annotated[UpdateUserBody, from_body(UpdateUserBody)]): ...

The id every `/{id}` route takes has its alias, as `Db` has in dependencies.py: `params: PathId`.

FastAPI solves dependencies one after another, so the first part that fails answers the request (a 400 whose
`errors` all start with `params.`, `headers.`, `query.` or `body.`), as in every Node app. The body itself was
read and parsed earlier, by ContractRoute (routing.py), so that 415, 413 and malformed JSON come first.
"""

from __future__ import annotations

from typing import Annotated, Any, TypeVar
from urllib.parse import unquote

from fastapi import Depends, Request
from pydantic import BaseModel

from api_contract.models import IdParams
from api_contract.validation import validate

M = TypeVar("M", bound=BaseModel)

JSON_BODY_KEY = "contract.json_body"


def _decode_path_param(value: str) -> str:
    # Routes match the path as sent (see middleware.ExpressPathMatching); parameters are decoded here.
    try:
        return unquote(value, errors="strict")
    except UnicodeDecodeError:
        return value


def from_params(model: type[M]) -> Any:
    async def validated_params(request: Request) -> M:
        params = {name: _decode_path_param(v) for name, v in request.path_params.items()}
        return validate(model, params, "params")

    return Depends(validated_params)


PathId = Annotated[IdParams, from_params(IdParams)]
"""The `{id}` of `/users/{id}`, `/products/{id}` and `/orders/{id}`, validated: `params: PathId`."""


def from_query(model: type[M]) -> Any:
    async def validated_query(request: Request) -> M:
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

    async def validated_headers(request: Request) -> M:
        # Repeated headers count as their values joined by ", ", as Node presents them.
        headers = {name: ", ".join(request.headers.getlist(name)) for name in fields if name in request.headers}
        return validate(model, headers, "headers")

    return Depends(validated_headers)


def from_body(model: type[M]) -> Any:
    async def validated_body(request: Request) -> M:
        return validate(model, request.scope.get(JSON_BODY_KEY), "body")

    validated_body.reads_json_body = True  # type: ignore[attr-defined]
    return Depends(validated_body)
