"""Users: the SQL the Node apps' shared data access runs (packages/data-access/src/users.ts), in asyncpg."""

from __future__ import annotations

from typing import Any

import asyncpg

from api_contract.models import NEWEST, ListUsersQuery
from api_contract.problems import ProblemError

from ..db import Database
from ..dto import USER_COLUMNS, to_user
from ..principal import Principal
from .lists import Listing, read_page

LISTING = Listing(f"SELECT {USER_COLUMNS} FROM users", "SELECT count(*) FROM users")


def user_not_found(user_id: str) -> ProblemError:
    return ProblemError("notFound", f"No user has the id {user_id}.")


def email_taken() -> ProblemError:
    return ProblemError(
        "conflict",
        "A user with this e-mail address already exists.",
        errors=[{"path": "body.email", "message": "is already registered"}],
    )


def reachable(principal: Principal, next_param: int) -> tuple[str, list[Any]]:
    """The users a principal may reach, as a condition of the statement itself (data-access's reachableUsers):
    every user for an admin, only themself for a customer, so that another customer's id finds nothing (a 404, as
    for an id that does not exist). The condition's text, to append after `WHERE id = $1 …`, and its argument."""
    if principal.role == "admin":
        return "", []
    return f" AND id = ${next_param}", [principal.id]


def contains(q: str) -> str:
    """A case-insensitive literal substring pattern for ILIKE: `%` and `_` in q are not wildcards."""
    return "%" + q.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"


async def list_users(db: Database, query: ListUsersQuery) -> dict[str, Any]:
    filters = (["(name ILIKE $1 OR email ILIKE $1)"], [contains(query.q)]) if query.q else ([], [])
    return await read_page(db, LISTING, query, NEWEST, filters, to_user)


async def get_user(db: Database, user_id: str, principal: Principal) -> dict[str, Any]:
    own, args = reachable(principal, 2)
    row = await db.fetchrow(f"SELECT {USER_COLUMNS} FROM users WHERE id = $1{own}", user_id, *args)
    if row is None:
        raise user_not_found(user_id)
    return to_user(row)


async def create_user(db: Database, email: str, name: str, password_hash: str | None = None) -> dict[str, Any]:
    try:
        row = await db.fetchrow(
            f"INSERT INTO users (email, name, password_hash) VALUES ($1, $2, $3) RETURNING {USER_COLUMNS}",
            email,
            name,
            password_hash,
        )
    except asyncpg.UniqueViolationError:
        raise email_taken() from None
    return to_user(row)


async def update_user(db: Database, user_id: str, changes: dict[str, Any], principal: Principal) -> dict[str, Any]:
    columns = [c for c in ("email", "name") if c in changes]
    assignments = ", ".join(f"{c} = ${i + 2}" for i, c in enumerate(columns))
    own, args = reachable(principal, len(columns) + 2)
    try:
        row = await db.fetchrow(
            f"UPDATE users SET {assignments}, updated_at = now() WHERE id = $1{own} RETURNING {USER_COLUMNS}",
            user_id,
            *(changes[c] for c in columns),
            *args,
        )
    except asyncpg.UniqueViolationError:
        raise email_taken() from None
    if row is None:
        raise user_not_found(user_id)
    return to_user(row)


async def delete_user(db: Database, user_id: str, principal: Principal) -> None:
    own, args = reachable(principal, 2)
    try:
        deleted = await db.fetchval(f"DELETE FROM users WHERE id = $1{own} RETURNING id", user_id, *args)
    except (asyncpg.ForeignKeyViolationError, asyncpg.RestrictViolationError):
        raise ProblemError("conflict", "The user has orders and cannot be deleted.") from None
    if deleted is None:
        raise user_not_found(user_id)
