"""One page of a list, read as every list is read (docs/api.md "Lists"): in the sort's key column then `id`
ascending; after the row a cursor names, by two ranges on that key and id, or at an OFFSET for a page number; one row
more than `limit`, so that `nextCursor` is null exactly when no row follows; the count only when `total=true`."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from asyncpg import Record

from api_contract.cursor import INVALID_CURSOR, SORT_KEYS, CursorPosition, decode_cursor, encode_cursor, instant
from api_contract.models import DEFAULT_PAGE, PAGE_BESIDE_CURSOR, ListQuery
from api_contract.problems import validation_problem

from ..db import Database
from ..dto import page

# The column each sortable field is read from.
COLUMNS = {"createdAt": "created_at", "priceCents": "price_cents", "name": "name"}
# A cursor's key as a parameter: a timestamp compares as timestamptz; a price (at most MAX_PRICE_CENTS) and a name
# as the column's own type.
KEY_CASTS = {"createdAt": "::timestamptz", "priceCents": "", "name": ""}


@dataclass(frozen=True)
class Listing:
    """What a list reads: its SELECT up to its FROM (joins included), its count up to its FROM (no joins: each
    matches exactly one row) and the alias its columns are qualified with (`o.`), if any."""

    select: str
    count: str
    alias: str = ""


def key_parameter(field: str, key: str | int) -> Any:
    """A cursor's key as asyncpg sends it: a timestamp as its instant, a price or a name as it is."""
    if field != "createdAt":
        return key
    parsed = instant(str(key))
    if parsed is None:
        raise ValueError(f"not a cursor's timestamp: {key!r}")  # decode_cursor let it through: a bug
    return parsed


def start_after(query: ListQuery, sort: str) -> CursorPosition | None:
    """The row the query's cursor names. Validation refused a cursor beside a page and one that does not decode; a
    caller that skipped it gets the same 400s."""
    if query.cursor is None:
        return None
    if query.page is not None:
        raise validation_problem([{"path": "query.page", "message": PAGE_BESIDE_CURSOR}], "query")
    position = decode_cursor(query.cursor, sort)
    if position is None:
        raise validation_problem([{"path": "query.cursor", "message": INVALID_CURSOR}], "query")
    return position


def seek_ranges(sort: str, position: CursorPosition, alias: str, args: list[Any]) -> tuple[str, str]:
    """The two index ranges that follow `position` in `sort`, in order (data-access's seekRanges): its key with a
    greater id, then the keys past it; their parameters appended to `args`. Read apart, each starts where its rows
    do; one OR of the two would make PostgreSQL read, and throw away, every row that shares the cursor's key before
    it."""
    field, descending = SORT_KEYS[sort]
    args += [key_parameter(field, position.key), position.id]
    key, row_id = f"${len(args) - 1}{KEY_CASTS[field]}", f"${len(args)}"
    column = f"{alias}{COLUMNS[field]}"
    return f"{column} = {key} AND {alias}id > {row_id}", f"{column} {'<' if descending else '>'} {key}"


@dataclass(frozen=True)
class Window:
    """Where a page starts, after a cursor's row or at a page number, and how many rows it holds."""

    limit: int
    after: CursorPosition | None
    page_number: int | None


def window_statement(listing: Listing, conditions: list[str], sort: str, window: Window, args: list[Any]) -> str:
    """The statement reading a page's window: limit + 1 rows (the one past the page says another follows), from the
    top or past the page number's OFFSET; after a cursor, the union of its two ranges, each read in order from where
    it starts, ordered again by the columns' output names. Its parameters are appended to `args`."""
    order = order_by(sort, listing.alias)
    if window.after is None:
        args += [window.limit + 1, ((window.page_number or DEFAULT_PAGE) - 1) * window.limit]
        return f"{listing.select} {where(conditions)} {order} LIMIT ${len(args) - 1} OFFSET ${len(args)}"
    ranges = seek_ranges(sort, window.after, listing.alias, args)
    args.append(window.limit + 1)
    reads = (f"({listing.select} {where([*conditions, seek])} {order} LIMIT ${len(args)})" for seek in ranges)
    return f"{' UNION ALL '.join(reads)} {order_by(sort, '')} LIMIT ${len(args)}"


def order_by(sort: str, alias: str) -> str:
    field, descending = SORT_KEYS[sort]
    return f"ORDER BY {alias}{COLUMNS[field]} {'DESC' if descending else 'ASC'}, {alias}id"


def where(conditions: list[str]) -> str:
    return f"WHERE {' AND '.join(conditions)}" if conditions else ""


async def read_page(
    db: Database,
    listing: Listing,
    query: ListQuery,
    sort: str,
    filters: tuple[list[str], list[Any]],
    to_item: Callable[[Record], dict[str, Any]],
) -> dict[str, Any]:
    """The page `query` asks for of the rows `filters` (conditions and their arguments, numbered from $1) keep."""
    conditions, args = filters
    after = start_after(query, sort)
    page_number = None if after else (query.page or DEFAULT_PAGE)
    select_args = list(args)
    rows, total = await db.fetch_page(
        window_statement(listing, conditions, sort, Window(query.limit, after, page_number), select_args),
        select_args,
        f"{listing.count} {where(conditions)}" if query.total else None,
        args,
    )
    items = [to_item(row) for row in rows[: query.limit]]
    following = len(rows) > query.limit
    return page(items, page_number, query.limit, total, next_cursor(sort, items[-1]) if following else None)


def next_cursor(sort: str, last: dict[str, Any]) -> str:
    """The cursor after a page's last item, whose fields print the key as the contract does (`createdAt`'s ISO)."""
    return encode_cursor(sort, CursorPosition(last[SORT_KEYS[sort].field], last["id"]))
