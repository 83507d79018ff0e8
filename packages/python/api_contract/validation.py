"""Pydantic's validation errors as the contract's `errors[]` (paths like `body.email`, one entry per failed check,
in the order Zod reports them), and `validate`, which turns a failed validation into the contract's 400.

Any Python server of the contract uses these: apps/fastapi wraps them in FastAPI dependencies.
"""

from __future__ import annotations

from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from .problems import FieldError, validation_problem

M = TypeVar("M", bound=BaseModel)


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
