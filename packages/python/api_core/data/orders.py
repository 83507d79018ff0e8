"""Orders: the SQL and the idempotency protocol of packages/data-access/src/orders.ts, in asyncpg.

Placing an order takes the stock with one conditional `UPDATE … WHERE stock >= $q RETURNING`, so concurrent orders
never oversell, and records the order in the same transaction. Idempotency keys live in the `idempotency_keys`
table, keyed by (user, key) with the same request fingerprint, so a key used through any implementation holds in
every other. A customer reaches only their own orders: the condition is part of each statement.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
from typing import Any

import asyncpg

from api_contract.models import (
    CUSTOMER_ORDER_STATUSES,
    NEWEST,
    ORDER_TRANSITIONS,
    CreateOrderBody,
    ListOrdersQuery,
)
from api_contract.problems import ProblemError

from ..db import Database
from ..dto import ORDER_COLUMNS, PRODUCT_COLUMNS, USER_COLUMNS, to_order
from ..principal import Principal, forbidden, unauthorized
from .lists import Listing, read_page

_USER_JOIN = "JOIN users u ON u.id = o.user_id"
_PRODUCT_JOIN = "JOIN products p ON p.id = o.product_id"


def _prefixed(columns: str, table: str) -> str:
    """`, u.id AS u_id, u.email AS u_email, …`: a joined row's columns under its table's prefix (dto's `prefix`)."""
    return "".join(f", {table}.{c} AS {table}_{c}" for c in columns.split(", "))


_USER_SELECT = _prefixed(USER_COLUMNS, "u")
_PRODUCT_SELECT = _prefixed(PRODUCT_COLUMNS, "p")
_ORDER_SELECT = ", ".join(f"o.{c}" for c in ORDER_COLUMNS.split(", "))


def order_not_found(order_id: str) -> ProblemError:
    return ProblemError("notFound", f"No order has the id {order_id}.")


def unknown_product(product_id: str) -> ProblemError:
    return ProblemError(
        "unprocessable",
        f"No product has the id {product_id}.",
        errors=[{"path": "body.productId", "message": "does not name an existing record"}],
    )


def _user_gone() -> ProblemError:
    # The caller's user was deleted after the request was authenticated: their token no longer names anyone.
    return unauthorized("The token's user no longer exists.")


def reachable(principal: Principal, next_param: int) -> tuple[list[str], list[Any]]:
    """The orders a principal may reach, as conditions of the statement itself (data-access's reachableOrders):
    every order for an admin, only their own for a customer, so that another customer's order finds nothing (a 404,
    as for an id that does not exist). The conditions on `o`, numbered from `next_param`, and their arguments."""
    if principal.role == "admin":
        return [], []
    return [f"o.user_id = ${next_param}"], [principal.id]


def request_hash(body: CreateOrderBody) -> str:
    """The fingerprint an idempotency key is bound to: SHA-256 (hex) of `{"productId":"…","quantity":N}` with the
    id lower-cased — JSON.stringify's bytes exactly (the user is part of the key itself, not of the body)."""
    fingerprint = {"productId": body.productId.lower(), "quantity": body.quantity}
    return hashlib.sha256(json.dumps(fingerprint, separators=(",", ":")).encode()).hexdigest()


def _select(include: list[str] | None) -> tuple[str, str]:
    include = include or []
    columns = (
        _ORDER_SELECT + (_USER_SELECT if "user" in include else "") + (_PRODUCT_SELECT if "product" in include else "")
    )
    joins = " ".join(j for j, name in ((_USER_JOIN, "user"), (_PRODUCT_JOIN, "product")) if name in include)
    return columns, joins


async def list_orders(db: Database, query: ListOrdersQuery, principal: Principal) -> dict[str, Any]:
    conditions, args = reachable(principal, 1)
    for column, value, cast in (
        ("status", query.status, "::order_status"),
        ("user_id", query.userId, ""),
        ("product_id", query.productId, ""),
    ):
        if value is not None:
            args.append(value)
            conditions.append(f"o.{column} = ${len(args)}{cast}")
    columns, joins = _select(query.include)
    listing = Listing(f"SELECT {columns} FROM orders o {joins}", "SELECT count(*) FROM orders o", "o.")
    return await read_page(db, listing, query, NEWEST, (conditions, args), lambda row: to_order(row, query.include))


async def get_order(db: Database, order_id: str, include: list[str] | None, principal: Principal) -> dict[str, Any]:
    columns, joins = _select(include)
    own, args = reachable(principal, 2)
    where = " AND ".join(["o.id = $1", *own])
    row = await db.fetchrow(f"SELECT {columns} FROM orders o {joins} WHERE {where}", order_id, *args)
    if row is None:
        raise order_not_found(order_id)
    return to_order(row, include)


async def _place_order(
    db: Database, body: CreateOrderBody, user_id: str, idempotency_key: str | None
) -> dict[str, Any]:
    """Takes the stock and records the order in one transaction: a conditional decrement never oversells."""
    try:
        async with db.acquire() as conn, conn.transaction():
            price = await conn.fetchval(
                "UPDATE products SET stock = stock - $2, updated_at = now() WHERE id = $1 AND stock >= $2 "
                "RETURNING price_cents",
                body.productId,
                body.quantity,
            )
            if price is None:
                # An unknown product is a 422 whatever the stock; only then is a shortage a 409.
                stock = await conn.fetchval("SELECT stock FROM products WHERE id = $1", body.productId)
                if stock is None:
                    raise unknown_product(body.productId)
                raise ProblemError(
                    "conflict",
                    f"Only {stock} left in stock; {body.quantity} requested.",
                    errors=[{"path": "body.quantity", "message": "exceeds the stock left"}],
                )
            row = await conn.fetchrow(
                "INSERT INTO orders (user_id, product_id, quantity, unit_price_cents, total_cents) "
                f"VALUES ($1, $2, $3, $4, $5) RETURNING {ORDER_COLUMNS}",
                user_id,
                body.productId,
                body.quantity,
                price,
                price * body.quantity,
            )
            order = to_order(row)
            if idempotency_key is not None:
                await conn.execute(
                    "UPDATE idempotency_keys SET response_status = 201, response_body = $3, completed_at = now() "
                    "WHERE user_id = $1 AND key = $2",
                    user_id,
                    idempotency_key,
                    order,
                )
            return order
    except asyncpg.ForeignKeyViolationError:
        raise _user_gone() from None


async def create_order(
    db: Database, body: CreateOrderBody, principal: Principal, idempotency_key: str | None = None
) -> dict[str, Any]:
    """Places an order for the caller. With an idempotency key, the first request claims the key; a retry with the
    same body replays the recorded response (201, or the 409/422 problem), a different body is a 422, and a retry
    while the first is still running is a 409. A key is its user's: another user's same key is another row."""
    if idempotency_key is None:
        return await _place_order(db, body, principal.id, None)
    fingerprint = request_hash(body)
    try:
        claimed = await db.fetchval(
            "INSERT INTO idempotency_keys (user_id, key, request_hash) VALUES ($1, $2, $3) "
            "ON CONFLICT DO NOTHING RETURNING key",
            principal.id,
            idempotency_key,
            fingerprint,
        )
    except asyncpg.ForeignKeyViolationError:
        raise _user_gone() from None
    if claimed is None:
        record = await db.fetchrow(
            "SELECT request_hash, response_status, response_body FROM idempotency_keys WHERE user_id = $1 AND key = $2",
            principal.id,
            idempotency_key,
        )
        if record is None:
            raise ProblemError("conflict", "The idempotency key is being released; retry.")
        if record["request_hash"] != fingerprint:
            raise ProblemError("unprocessable", "This idempotency key was used with a different request body.")
        if record["response_status"] is None:
            raise ProblemError("conflict", "A request with this idempotency key is still in progress.")
        if record["response_status"] == 201:
            return record["response_body"]
        raise ProblemError.from_json(record["response_status"], record["response_body"])
    try:
        return await _place_order(db, body, principal.id, idempotency_key)
    except ProblemError as refusal:
        if refusal.status in (409, 422):
            # A refusal is the answer to this request: record it so that a retry gets the same one.
            await db.execute(
                "UPDATE idempotency_keys SET response_status = $3, response_body = $4, completed_at = now() "
                "WHERE user_id = $1 AND key = $2",
                principal.id,
                idempotency_key,
                refusal.status,
                refusal.to_json(),
            )
        else:
            await _release(db, principal.id, idempotency_key)
        raise
    except Exception:
        # Nothing was decided (database down, a bug): free the key so that a retry can succeed.
        await _release(db, principal.id, idempotency_key)
        raise


async def _release(db: Database, user_id: str, idempotency_key: str) -> None:
    with contextlib.suppress(Exception):  # best effort, as in the Node apps
        await db.execute("DELETE FROM idempotency_keys WHERE user_id = $1 AND key = $2", user_id, idempotency_key)


async def update_order_status(db: Database, order_id: str, status: str, principal: Principal) -> dict[str, Any]:
    """Moves an order along pending → shipped → delivered, or pending → cancelled (which restocks). A customer may
    only cancel, and only their own order: any other status is a 403 whichever order it names (before any query)."""
    if principal.role != "admin" and status not in CUSTOMER_ORDER_STATUSES:
        raise forbidden(f"Only an admin may mark an order {status}; a customer may cancel their own pending order.")
    allowed_from = [s for s, targets in ORDER_TRANSITIONS.items() if status in targets]
    own, own_args = reachable(principal, 4)
    movable = " AND ".join(["o.id = $1", "o.status = ANY($3::order_status[])", *own])
    async with db.acquire() as conn, conn.transaction():
        row = await conn.fetchrow(
            f"UPDATE orders o SET status = $2::order_status, updated_at = now() WHERE {movable} "
            f"RETURNING {ORDER_COLUMNS}",
            order_id,
            status,
            allowed_from,
            *own_args,
        )
        if row is None:
            own, own_args = reachable(principal, 2)
            found = " AND ".join(["o.id = $1", *own])
            current = await conn.fetchval(f"SELECT o.status FROM orders o WHERE {found}", order_id, *own_args)
            if current is None:
                raise order_not_found(order_id)
            raise ProblemError(
                "conflict",
                f"An order that is {current} cannot become {status}.",
                errors=[{"path": "body.status", "message": f"not allowed from {current}"}],
            )
        if status == "cancelled":
            await conn.execute(
                "UPDATE products SET stock = stock + $2, updated_at = now() WHERE id = $1",
                row["product_id"],
                row["quantity"],
            )
        return to_order(row)


async def delete_order(db: Database, order_id: str) -> None:
    """Deletes an order; a pending one gives its quantity back to the product, in the same transaction."""
    async with db.acquire() as conn, conn.transaction():
        deleted = await conn.fetchrow(
            "DELETE FROM orders WHERE id = $1 RETURNING status, product_id, quantity", order_id
        )
        if deleted is None:
            raise order_not_found(order_id)
        if deleted["status"] == "pending":
            await conn.execute(
                "UPDATE products SET stock = stock + $2, updated_at = now() WHERE id = $1",
                deleted["product_id"],
                deleted["quantity"],
            )
