"""Rows → the contract's JSON shapes (packages/data-access/src/dto.ts). The password hash is never selected."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from asyncpg import Record

# `role` is the enum user_role, which asyncpg decodes as its label (a str).
USER_COLUMNS = "id, email, name, role, created_at, updated_at"
PRODUCT_COLUMNS = "id, name, description, price_cents, stock, created_at, updated_at"
ORDER_COLUMNS = "id, user_id, product_id, quantity, unit_price_cents, total_cents, status, created_at, updated_at"


def iso(value: datetime) -> str:
    """ISO 8601 UTC with exactly three fractional digits and `Z` (JavaScript's toISOString)."""
    return value.isoformat(timespec="milliseconds").replace("+00:00", "Z")


def to_user(row: Record, prefix: str = "") -> dict[str, Any]:
    return {
        "id": row[prefix + "id"],
        "email": row[prefix + "email"],
        "name": row[prefix + "name"],
        "role": row[prefix + "role"],
        "createdAt": iso(row[prefix + "created_at"]),
        "updatedAt": iso(row[prefix + "updated_at"]),
    }


def to_product(row: Record, prefix: str = "") -> dict[str, Any]:
    return {
        "id": row[prefix + "id"],
        "name": row[prefix + "name"],
        "description": row[prefix + "description"],
        "priceCents": row[prefix + "price_cents"],
        "stock": row[prefix + "stock"],
        "createdAt": iso(row[prefix + "created_at"]),
        "updatedAt": iso(row[prefix + "updated_at"]),
    }


def to_order(row: Record, include: list[str] | None = None) -> dict[str, Any]:
    order = {
        "id": row["id"],
        "userId": row["user_id"],
        "productId": row["product_id"],
        "quantity": row["quantity"],
        "unitPriceCents": row["unit_price_cents"],
        "totalCents": row["total_cents"],
        "status": row["status"],
        "createdAt": iso(row["created_at"]),
        "updatedAt": iso(row["updated_at"]),
    }
    if include:
        if "user" in include:
            order["user"] = to_user(row, "u_")
        if "product" in include:
            order["product"] = to_product(row, "p_")
    return order


def page(
    data: list[dict[str, Any]], page_number: int | None, limit: int, total: int | None, next_cursor: str | None
) -> dict[str, Any]:
    """A list's answer, its fields in the contract's order: `page` null when read by cursor, `total` and `pages`
    null unless counted."""
    pages = None if total is None else -(-total // limit)
    return {
        "data": data,
        "page": page_number,
        "limit": limit,
        "total": total,
        "pages": pages,
        "nextCursor": next_cursor,
    }
