"""One page of a list, read as every list is read (docs/api.md "Lists"): in the sort's key column then `id`
ascending; after the row a cursor names, by a range on that key and id, or at an OFFSET for a page number; one row
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


def after_condition(sort: str, position: CursorPosition, alias: str, args: list[Any]) -> str:
    """The rows after `position` in `sort`, its parameters appended to `args`. The bound on the key alone, redundant
    beside the disjunction, is what lets PostgreSQL start the index scan at the cursor instead of filtering every row
    before it."""
    field, descending = SORT_KEYS[sort]
    args += [key_parameter(field, position.key), position.id]
    key, row_id = f"${len(args) - 1}{KEY_CASTS[field]}", f"${len(args)}"
    column, id_column = f"{alias}{COLUMNS[field]}", f"{alias}id"
    bound, beyond = ("<=", "<") if descending else (">=", ">")
    return f"{column} {bound} {key} AND ({column} {beyond} {key} OR {id_column} > {row_id})"


def limit_offset(limit: int, page_number: int | None, args: list[Any]) -> str:
    """One row more than the page, whose presence says another follows; rows skipped before it only for a page
    number (a cursor's range starts where the page does). Its parameters are appended to `args`."""
    args.append(limit + 1)
    if page_number is None:
        return f"LIMIT ${len(args)}"
    args.append((page_number - 1) * limit)
    return f"LIMIT ${len(args) - 1} OFFSET ${len(args)}"


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
    keyset = [after_condition(sort, after, listing.alias, select_args)] if after else []
    window = limit_offset(query.limit, page_number, select_args)
    rows, total = await db.fetch_page(
        f"{listing.select} {where([*conditions, *keyset])} {order_by(sort, listing.alias)} {window}",
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
