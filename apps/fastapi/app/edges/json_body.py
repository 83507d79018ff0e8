"""The request's JSON body, read within the contract's limit and parsed as JavaScript's JSON.parse does, in the
contract's order: 415 → 413 → malformed JSON. FastAPI's own body parsing is not used: it would read a declared body
before any dependency (the caller's included), take a body without a content type and accept `NaN`. The rules
themselves (which media types are JSON, the 1 MiB limit, the parser) are api_core.http's."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import Depends, Request

from api_contract.problems import payload_too_large, unsupported_media_type
from api_core.http import BODY_LIMIT_BYTES, is_json_content_type, parse_json_body


def _declared_length(request: Request) -> int | None:
    raw = request.headers.get("content-length")
    try:
        return int(raw) if raw is not None else None
    except ValueError:
        return None


def _is_json_body(request: Request) -> bool:
    """JSON (`is_json_content_type`) and not content-encoded: bodies are never decompressed (`identity` at most)."""
    encoding = ", ".join(request.headers.getlist("content-encoding")).strip().lower()
    return is_json_content_type(request.headers.get("content-type")) and encoding in ("", "identity")


async def read_json_body(request: Request, limit: int = BODY_LIMIT_BYTES) -> Any:
    """The request's JSON body, or None when there is none; raises the contract's 415, 413 or 400 in that order.
    Chunked bodies are counted as they arrive (FastAPI's `max_body_size` would answer a 405 or 415 with a 413)."""
    headers = request.headers
    chunked = "transfer-encoding" in headers
    length = _declared_length(request)
    if (chunked or (length or 0) > 0) and not _is_json_body(request):
        raise unsupported_media_type()
    if not is_json_content_type(headers.get("content-type")) or not (chunked or length is not None):
        return None
    if length is not None and length > limit:
        raise payload_too_large(limit)
    raw = bytearray()
    async for chunk in request.stream():
        raw += chunk
        if len(raw) > limit:
            raise payload_too_large(limit)

    return parse_json_body(bytes(raw)) if raw else None


async def json_body(request: Request) -> Any:
    """The body of a route that validates one (ContractRoute.reads_json_body), else None. Every validation
    dependency depends on it (validate.py), so FastAPI solves it once, before any part is validated."""
    if not getattr(request.scope.get("route"), "reads_json_body", False):
        return None
    return await read_json_body(request)


JsonBody = Annotated[Any, Depends(json_body)]
