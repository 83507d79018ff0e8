"""Products: the SQL of packages/data-access/src/products.ts, in asyncpg."""

from __future__ import annotations

from typing import Any

import asyncpg

from api_contract.models import ListProductsQuery
from api_contract.problems import ProblemError

from ..db import Database
from ..dto import PRODUCT_COLUMNS, to_product
from .lists import Listing, read_page
from .users import contains

LISTING = Listing(f"SELECT {PRODUCT_COLUMNS} FROM products", "SELECT count(*) FROM products")
# A body field → its column, for INSERT and UPDATE (tests/test_rows.py checks it against the contract's bodies).
WRITABLE = {"name": "name", "description": "description", "priceCents": "price_cents", "stock": "stock"}


def product_not_found(product_id: str) -> ProblemError:
    return ProblemError("notFound", f"No product has the id {product_id}.")


async def list_products(db: Database, query: ListProductsQuery) -> dict[str, Any]:
    conditions: list[str] = []
    args: list[Any] = []

    def condition(sql: str, value: Any) -> None:
        args.append(value)
        conditions.append(sql.format(f"${len(args)}"))

    if query.q:
        condition("name ILIKE {}", contains(query.q))
    if query.minPriceCents is not None:
        condition("price_cents >= {}", query.minPriceCents)
    if query.maxPriceCents is not None:
        condition("price_cents <= {}", query.maxPriceCents)
    if query.inStock is not None:
        conditions.append("stock > 0" if query.inStock else "stock = 0")
    return await read_page(db, LISTING, query, query.sort, (conditions, args), to_product)


async def get_product(db: Database, product_id: str) -> dict[str, Any]:
    row = await db.fetchrow(f"SELECT {PRODUCT_COLUMNS} FROM products WHERE id = $1", product_id)
    if row is None:
        raise product_not_found(product_id)
    return to_product(row)


async def create_product(db: Database, fields: dict[str, Any]) -> dict[str, Any]:
    columns = ", ".join(WRITABLE.values())
    values = ", ".join(f"${i + 1}" for i in range(len(WRITABLE)))
    row = await db.fetchrow(
        f"INSERT INTO products ({columns}) VALUES ({values}) RETURNING {PRODUCT_COLUMNS}",
        *(fields.get(field) for field in WRITABLE),
    )
    return to_product(row)


async def update_product(db: Database, product_id: str, changes: dict[str, Any]) -> dict[str, Any]:
    fields = [f for f in WRITABLE if f in changes]
    assignments = ", ".join(f"{WRITABLE[f]} = ${i + 2}" for i, f in enumerate(fields))
    row = await db.fetchrow(
        f"UPDATE products SET {assignments}, updated_at = now() WHERE id = $1 RETURNING {PRODUCT_COLUMNS}",
        product_id,
        *(changes[f] for f in fields),
    )
    if row is None:
        raise product_not_found(product_id)
    return to_product(row)


async def delete_product(db: Database, product_id: str) -> None:
    try:
        deleted = await db.fetchval("DELETE FROM products WHERE id = $1 RETURNING id", product_id)
    except (asyncpg.ForeignKeyViolationError, asyncpg.RestrictViolationError):
        raise ProblemError("conflict", "Orders reference this product; it cannot be deleted.") from None
    if deleted is None:
        raise product_not_found(product_id)
