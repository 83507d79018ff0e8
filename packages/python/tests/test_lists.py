"""How api_core reads a list's page (docs/api.md "Lists"), on a fake that records each statement and answers
scripted rows: the statement of each way to start (a page number, a cursor in each sort), one row past the page and
the nextCursor it gives, the count only when asked. That PostgreSQL returns the right rows for these statements is
the contract suite's part (it runs FastAPI on a real database)."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from typing import Any

import pytest

from api_contract.cursor import INVALID_CURSOR, CursorPosition, decode_cursor, encode_cursor
from api_contract.models import PAGE_BESIDE_CURSOR, ListOrdersQuery, ListProductsQuery, ListUsersQuery
from api_contract.problems import ProblemError
from api_core.data import orders, products, users
from api_core.data.lists import key_parameter
from api_core.principal import Principal

ADMIN = Principal(id="00000000-0000-4000-8000-000000000003", role="admin")
CUSTOMER = Principal(id="00000000-0000-4000-8000-000000000001", role="customer")
CREATED = datetime(2025, 1, 1, tzinfo=UTC)
STAMP = "2025-01-01T00:00:00.000Z"
PRODUCTS = "SELECT id, name, description, price_cents, stock, created_at, updated_at FROM products"


def user_row(n: int) -> dict[str, Any]:
    return {
        "id": f"00000000-0000-4000-8000-{n:012d}",
        "email": f"u{n}@example.com",
        "name": f"User {n}",
        "role": "customer",
        "created_at": CREATED,
        "updated_at": CREATED,
    }


class PageDatabase:
    """Answers a list's statements with `rows` (as many as the page's LIMIT takes) and `total`, and records them."""

    def __init__(self, rows: list[dict[str, Any]], total: int = 0) -> None:
        self.rows = rows
        self.total = total
        self.select: tuple[str, list[Any]] = ("", [])
        self.count: tuple[str, list[Any]] | None = None

    async def fetch_page(
        self, select: str, select_args: list[Any], count: str | None, count_args: list[Any]
    ) -> tuple[list[dict[str, Any]], int | None]:
        self.select = (" ".join(select.split()), select_args)
        self.count = None if count is None else (" ".join(count.split()), count_args)
        limit = select_args[-1] if "OFFSET" not in select else select_args[-2]
        return self.rows[:limit], None if count is None else self.total


def listed(db: PageDatabase, query: Any) -> dict[str, Any]:
    if isinstance(query, ListUsersQuery):
        return asyncio.run(users.list_users(db, query))  # type: ignore[arg-type]
    if isinstance(query, ListProductsQuery):
        return asyncio.run(products.list_products(db, query))  # type: ignore[arg-type]
    return asyncio.run(orders.list_orders(db, query, ADMIN))  # type: ignore[arg-type]


def test_page_one_reads_one_row_past_the_page_and_counts_nothing_unasked() -> None:
    db = PageDatabase([user_row(n) for n in range(1, 4)])
    answer = listed(db, ListUsersQuery.model_validate({"limit": "2"}))
    assert db.select == (
        "SELECT id, email, name, role, created_at, updated_at FROM users ORDER BY created_at DESC, id "
        "LIMIT $1 OFFSET $2",
        [3, 0],
    )
    assert db.count is None
    assert [u["id"] for u in answer["data"]] == [user_row(1)["id"], user_row(2)["id"]]
    assert {k: v for k, v in answer.items() if k != "data"} == {
        "page": 1,
        "limit": 2,
        "total": None,
        "pages": None,
        "nextCursor": encode_cursor("-createdAt", CursorPosition(STAMP, user_row(2)["id"])),
    }
    assert list(answer) == ["data", "page", "limit", "total", "pages", "nextCursor"]


def test_the_last_page_has_no_next_cursor_and_total_counts_the_filtered_rows() -> None:
    db = PageDatabase([user_row(1)], total=41)
    answer = listed(db, ListUsersQuery.model_validate({"page": "3", "limit": "20", "q": "a_b", "total": "true"}))
    where = "WHERE (name ILIKE $1 OR email ILIKE $1)"
    assert db.select[0].endswith(f"FROM users {where} ORDER BY created_at DESC, id LIMIT $2 OFFSET $3")
    assert db.select[1] == ["%a\\_b%", 21, 40]
    assert db.count == (f"SELECT count(*) FROM users {where}", ["%a\\_b%"])
    assert (answer["page"], answer["total"], answer["pages"], answer["nextCursor"]) == (3, 41, 3, None)


def test_a_cursor_reads_after_its_row_with_no_offset_and_page_null() -> None:
    after = user_row(2)
    cursor = encode_cursor("-createdAt", CursorPosition(STAMP, after["id"]))
    db = PageDatabase([user_row(3)], total=3)
    answer = listed(db, ListUsersQuery.model_validate({"cursor": cursor, "limit": "2", "q": "x", "total": "true"}))
    read = "SELECT id, email, name, role, created_at, updated_at FROM users WHERE (name ILIKE $1 OR email ILIKE $1)"
    assert db.select[0] == (
        f"({read} AND created_at = $2::timestamptz AND id > $3 ORDER BY created_at DESC, id LIMIT $4) UNION ALL "
        f"({read} AND created_at < $2::timestamptz ORDER BY created_at DESC, id LIMIT $4) "
        "ORDER BY created_at DESC, id LIMIT $4"
    )
    assert db.select[1] == ["%x%", CREATED, after["id"], 3]
    assert db.count == ("SELECT count(*) FROM users WHERE (name ILIKE $1 OR email ILIKE $1)", ["%x%"])
    assert (answer["page"], answer["total"], answer["pages"], answer["nextCursor"]) == (None, 3, 2, None)


@pytest.mark.parametrize(
    "sort,key,column,key_sql,parameter",
    [
        ("-createdAt", STAMP, "created_at", "$1::timestamptz", CREATED),
        ("createdAt", STAMP, "created_at", "$1::timestamptz", CREATED),
        ("-priceCents", 1999, "price_cents", "$1", 1999),
        ("priceCents", 100_000_000, "price_cents", "$1", 100_000_000),  # the highest price
        ("name", "Desk lamp", "name", "$1", "Desk lamp"),
    ],
)
def test_each_product_sort_reads_after_the_cursor_by_its_key_then_id(
    sort: str, key: str | int, column: str, key_sql: str, parameter: Any
) -> None:
    row_id = "00000000-0000-4000-8000-000000000104"
    cursor = encode_cursor(sort, CursorPosition(key, row_id))
    db = PageDatabase([])
    listed(db, ListProductsQuery.model_validate({"sort": sort, "cursor": cursor}))
    beyond, order = ("<", f"{column} DESC, id") if sort.startswith("-") else (">", f"{column} ASC, id")
    at_key, past_key = f"{column} = {key_sql} AND id > $2", f"{column} {beyond} {key_sql}"
    assert db.select[0] == (
        f"({PRODUCTS} WHERE {at_key} ORDER BY {order} LIMIT $3) UNION ALL "
        f"({PRODUCTS} WHERE {past_key} ORDER BY {order} LIMIT $3) ORDER BY {order} LIMIT $3"
    )
    assert db.select[1] == [parameter, row_id, 21]


def test_a_products_next_cursor_carries_its_sorts_key() -> None:
    row = {
        "id": "00000000-0000-4000-8000-000000000104",
        "name": "Desk lamp",
        "description": None,
        "price_cents": 1999,
        "stock": 3,
        "created_at": CREATED,
        "updated_at": CREATED,
    }
    db = PageDatabase([row, {**row, "id": "00000000-0000-4000-8000-000000000105"}])
    for sort, key in (("name", "Desk lamp"), ("-priceCents", 1999), ("createdAt", STAMP)):
        answer = listed(db, ListProductsQuery.model_validate({"sort": sort, "limit": "1"}))
        assert decode_cursor(answer["nextCursor"], sort) == (key, row["id"])


def test_a_customers_orders_after_a_cursor_stay_theirs() -> None:
    cursor = encode_cursor("-createdAt", CursorPosition(STAMP, CUSTOMER.id))
    db = PageDatabase([])
    query = ListOrdersQuery.model_validate({"cursor": cursor, "status": "pending", "include": "user", "total": "true"})
    asyncio.run(orders.list_orders(db, query, CUSTOMER))  # type: ignore[arg-type]
    theirs = "WHERE o.user_id = $1 AND o.status = $2::order_status"
    order = "ORDER BY o.created_at DESC, o.id LIMIT $5"
    assert f"{theirs} AND o.created_at = $3::timestamptz AND o.id > $4 {order}) UNION ALL (" in db.select[0]
    assert f"{theirs} AND o.created_at < $3::timestamptz {order}) ORDER BY created_at DESC, id LIMIT $5" in db.select[0]
    assert db.count == (
        "SELECT count(*) FROM orders o WHERE o.user_id = $1 AND o.status = $2::order_status",
        [CUSTOMER.id, "pending"],
    )


@pytest.mark.parametrize(
    "page,cursor,error",
    [
        (None, "abc", {"path": "query.cursor", "message": INVALID_CURSOR}),
        (
            2,
            encode_cursor("-createdAt", CursorPosition(STAMP, CUSTOMER.id)),
            {"path": "query.page", "message": PAGE_BESIDE_CURSOR},
        ),
    ],
)
def test_a_query_that_skipped_validation_gets_the_same_400(
    page: int | None, cursor: str, error: dict[str, str]
) -> None:
    query = ListUsersQuery.model_construct(page=page, limit=20, cursor=cursor, total=False, q=None)
    with pytest.raises(ProblemError) as refused:
        listed(PageDatabase([]), query)
    assert refused.value.status == 400
    assert refused.value.errors == [error]


def test_a_timestamp_key_compares_as_the_instant_it_names() -> None:
    assert key_parameter("createdAt", "2025-01-01T00:00:00.123Z") == datetime(2025, 1, 1, 0, 0, 0, 123000, tzinfo=UTC)
