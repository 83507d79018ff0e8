"""Reading a request's JSON body within the contract's limit, in the contract's order (415 → 413 → malformed JSON);
the rules themselves (which bodies are JSON, the limit, JSON as JavaScript parses it) are api_core.http's.
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request

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
    """The request's JSON body, or None when there is none; raises the contract's 415, 413 or 400 in that order."""
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
