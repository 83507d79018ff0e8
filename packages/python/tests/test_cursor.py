"""api_contract.cursor writes the cursors packages/contract's codec writes, and reads exactly the ones it reads.

tests/cursor-corpus.json holds positions to encode and cursors to decode (most of them not quite what the codec
writes: JSON spaced or escaped otherwise, numbers written otherwise, NaN, lone surrogates, bytes that are not UTF-8,
base64 with padding or stray bits, dates Date.parse reads leniently); scripts/export-contract.ts runs them through
encodeCursor and decodeCursor (build/cursor-vectors.json), and every outcome here must be Node's.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from api_contract.cursor import CursorPosition, decode_cursor, encode_cursor, instant

VECTORS = Path(__file__).resolve().parent.parent / "build" / "cursor-vectors.json"
LOADED: dict[str, list[dict[str, Any]]] = (
    json.loads(VECTORS.read_text("utf-8")) if VECTORS.exists() else {"encoded": [], "decoded": []}
)


def _shown(case: dict[str, Any]) -> str:
    return f"{case['sort']}:{case['cursor'][:48]}"


def test_the_vectors_were_exported() -> None:
    assert len(LOADED["encoded"]) > 10 and len(LOADED["decoded"]) > 100, "run scripts/export-contract.ts"


@pytest.mark.parametrize("case", LOADED["encoded"], ids=_shown)
def test_writes_the_cursor_node_writes(case: dict[str, Any]) -> None:
    assert encode_cursor(case["sort"], CursorPosition(case["key"], case["id"])) == case["cursor"]


@pytest.mark.parametrize("case", LOADED["decoded"], ids=_shown)
def test_reads_the_position_node_reads(case: dict[str, Any]) -> None:
    read = case["position"]
    expected = None if read is None else CursorPosition(read["key"], read["id"])
    assert decode_cursor(case["cursor"], case["sort"]) == expected


def test_a_price_key_stays_an_integer() -> None:
    """JSON's `true` is Python's 1 and `5.0` reads as a float: neither is a price to the codec."""
    cursor = encode_cursor("priceCents", CursorPosition(5, "00000000-0000-4000-8000-000000000001"))
    position = decode_cursor(cursor, "priceCents")
    assert position is not None and type(position.key) is int


@pytest.mark.parametrize(
    "key,expected",
    [
        ("1970-01-01T00:00:00.000Z", datetime(1970, 1, 1, tzinfo=UTC)),
        ("2025-01-01T00:00:00.123Z", datetime(2025, 1, 1, 0, 0, 0, 123_000, tzinfo=UTC)),
        ("0001-01-01T00:00:00.000Z", datetime(1, 1, 1, tzinfo=UTC)),
        ("2024-02-29T23:59:59.999Z", datetime(2024, 2, 29, 23, 59, 59, 999_000, tzinfo=UTC)),
        ("2025-02-29T00:00:00.000Z", None),  # Date.parse reads 1 March; no such day
        ("2025-01-01T24:00:00.000Z", None),  # Date.parse reads the next midnight
        ("0000-01-01T00:00:00.000Z", None),  # PostgreSQL has no year 0
        ("2025-01-32T00:00:00.000Z", None),
        ("2025-1-01T00:00:00.000Z", None),
    ],
)
def test_a_timestamp_key_names_a_real_instant_printed_as_the_contract_prints_it(
    key: str, expected: datetime | None
) -> None:
    assert instant(key) == expected
