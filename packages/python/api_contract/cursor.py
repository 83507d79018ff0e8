"""A list's cursor (packages/contract/src/cursor.ts, mirrored): where the next page starts, as the sort it was read
in, the last row's sort key and its id. Opaque to clients but not secret: base64url (no padding) of the compact JSON
array `[sort, key, id]`, written here byte for byte as Node writes it, so that every row answers the same
nextCursor and accepts the others'.

A cursor is accepted only when its position encodes back to the very same string (decodeCursor's rule): Python's
base64 and JSON decoders are lenient where Node's are not (NaN, padding, stray bits, escapes, spacing), and the
round trip keeps the two languages from ever disagreeing on a cursor.
"""

from __future__ import annotations

import base64
import json
import re
from datetime import UTC, datetime
from typing import Any, Literal, NamedTuple

from .types import GUID_PATTERN, js_regex

CursorSort = Literal["createdAt", "-createdAt", "priceCents", "-priceCents", "name"]


class SortKey(NamedTuple):
    """The field a sort reads and its direction; every sort breaks ties by `id` ascending."""

    field: Literal["createdAt", "priceCents", "name"]
    descending: bool


SORT_KEYS: dict[str, SortKey] = {
    "createdAt": SortKey("createdAt", False),
    "-createdAt": SortKey("createdAt", True),
    "priceCents": SortKey("priceCents", False),
    "-priceCents": SortKey("priceCents", True),
    "name": SortKey("name", False),
}


class CursorPosition(NamedTuple):
    """The sort key of the last row read (`createdAt` as the contract prints it, `priceCents`, `name`) and its id."""

    key: str | int
    id: str


# The wire form, checked before anything is decoded: the base64url alphabet, bounded (cursor.ts says why 2,048).
CURSOR_PATTERN = r"^[A-Za-z0-9_-]{1,2048}$"
# One message for every cursor refused: a client can only have a good one from a list's `nextCursor`.
INVALID_CURSOR = "must be the nextCursor of a list in the same sort"

_matches_cursor = js_regex(CURSOR_PATTERN)
_matches_guid = js_regex(GUID_PATTERN)
# cursor.ts's TIMESTAMP, its fields captured; `[0-9]` for JavaScript's `\d` (Python's matches any script's digits).
_TIMESTAMP = re.compile(r"([0-9]{4})-([0-9]{2})-([0-9]{2})T([0-9]{2}):([0-9]{2}):([0-9]{2})\.([0-9]{3})Z")

# schemas.ts's MAX_PRICE_CENTS: the highest price a product can have, so the highest a price key can be.
_MAX_KEY_PRICE_CENTS = 100_000_000


def is_cursor(value: Any) -> bool:
    """Whether a value has a cursor's wire form (not whether it decodes)."""
    return isinstance(value, str) and _matches_cursor(value)


def encode_cursor(sort: str, position: CursorPosition) -> str:
    text = json.dumps([sort, position.key, position.id], separators=(",", ":"), ensure_ascii=False)
    return base64.urlsafe_b64encode(text.encode("utf-8")).rstrip(b"=").decode("ascii")


def instant(key: str) -> datetime | None:
    """The instant a timestamp key names, or None: as cursor.ts's isInstant, a day that exists in years 1–9999,
    printed as the contract prints timestamps (so 2025-02-30 and 24:00, which Date.parse would roll over, are not)."""
    if _TIMESTAMP.fullmatch(key) is None:
        return None
    try:
        parsed = datetime.strptime(key, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=UTC)
    except ValueError:
        return None
    printed = f"{parsed.year:04d}-{parsed:%m-%dT%H:%M:%S}.{parsed.microsecond // 1000:03d}Z"
    return parsed if printed == key else None


def _utf8_encodable(text: str) -> bool:
    """JavaScript's `isWellFormed()`: no lone surrogate, which JSON's `\\ud800` escape can carry."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _is_key_of(sort: str, key: Any) -> bool:
    """The cursor's key has the type its sort reads: a timestamp, a price, a name."""
    field = SORT_KEYS[sort].field
    if field == "createdAt":
        return isinstance(key, str) and instant(key) is not None
    if field == "priceCents":
        # An int, not a bool (an int to Python) nor a float (NaN and Infinity, which Python's json reads, included).
        return type(key) is int and 0 <= key <= _MAX_KEY_PRICE_CENTS
    return isinstance(key, str) and _utf8_encodable(key)


def decode_cursor(cursor: str, sort: str) -> CursorPosition | None:
    """The position a cursor names, or None when it is not one this API gave for a list in `sort`."""
    if not is_cursor(cursor):
        return None
    try:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4))
        decoded = json.loads(raw.decode("utf-8"))
    except ValueError:  # binascii.Error, UnicodeDecodeError and JSONDecodeError alike
        return None
    if not isinstance(decoded, list) or len(decoded) != 3:
        return None
    cursor_sort, key, row_id = decoded
    if cursor_sort != sort or not isinstance(row_id, str) or not _matches_guid(row_id):
        return None
    if not _is_key_of(sort, key):
        return None
    position = CursorPosition(key, row_id)
    return position if encode_cursor(sort, position) == cursor else None
