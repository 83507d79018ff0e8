"""Request validation as FastAPI dependencies, on the Pydantic models of models.py.

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
from pydantic import BaseModel, ValidationError

from .models import IdParams
from .problems import FieldError, validation_problem

M = TypeVar("M", bound=BaseModel)

JSON_BODY_KEY = "contract.json_body"


def _is_array_index(key: str) -> bool:
    return key.isascii() and key.isdigit() and (key == "0" or not key.startswith("0")) and int(key) < 2**32 - 1


def _js_key_order(keys: list[tuple[str, FieldError]]) -> list[FieldError]:
    """Unknown keys in the order JavaScript enumerates an object's keys: array indices first, ascending."""
    indices = sorted((k for k in keys if _is_array_index(k[0])), key=lambda k: int(k[0]))
    return [e for _, e in indices] + [e for k, e in keys if not _is_array_index(k)]


def _message(error: Any) -> str:
    kind = error["type"]
    if kind == "missing":
        return "Invalid input: expected a value, received undefined"
    if kind in ("model_type", "dict_type"):
        return "Invalid input: expected object"
    if kind == "literal_error":
        return f"Invalid option: expected one of {error['ctx']['expected']}"
    return error["msg"]


def field_errors(error: ValidationError, part: str) -> list[FieldError]:
    """Pydantic's errors as the contract's `errors[]`: paths like `body.email`, one entry per failed check,
    one per unknown key (\"is not a known field\"), in the order Zod reports them."""
    out: list[FieldError] = []
    unknown: list[tuple[str, FieldError]] = []
    for e in error.errors(include_url=False):
        path = ".".join([part, *(str(p) for p in e["loc"])])
        if e["type"] == "extra_forbidden":
            unknown.append((str(e["loc"][-1]), {"path": path, "message": "is not a known field"}))
            continue
        out.extend(_js_key_order(unknown))
        unknown = []
        messages = (e.get("ctx") or {}).get("messages") or [_message(e)]
        out.extend({"path": path, "message": m} for m in messages)
    out.extend(_js_key_order(unknown))
    return out


def validate(model: type[M], value: Any, part: str) -> M:
    try:
        return model.model_validate(value)
    except ValidationError as error:
        raise validation_problem(field_errors(error, part), part) from None


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
