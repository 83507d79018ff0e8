"""Register, log in, who am I: packages/core/src/auth.ts, with security.py's scrypt and HS256."""

from __future__ import annotations

from typing import Any

from api_contract.models import LoginBody, RegisterBody
from api_contract.problems import ProblemError
from api_contract.types import GUID_PATTERN, js_regex

from ..db import Database
from ..dto import USER_COLUMNS, to_user
from ..security import TOKEN_TTL_SECONDS, hash_password, issue_token, verify_bearer, verify_password
from .users import create_user

_is_uuid = js_regex(GUID_PATTERN)


async def register(db: Database, secret: str, body: RegisterBody) -> dict[str, Any]:
    password_hash = await hash_password(body.password)
    user = await create_user(db, body.email, body.name, password_hash)
    return {"user": user, "token": issue_token(user["id"], secret)}


async def login(db: Database, secret: str, body: LoginBody) -> dict[str, Any]:
    """Same answer, and the same scrypt cost, whether the e-mail is unknown or the password wrong."""
    row = await db.fetchrow("SELECT id, password_hash FROM users WHERE email = $1", body.email.lower())
    valid = await verify_password(body.password, row["password_hash"] if row else None)
    if row is None or not valid:
        raise ProblemError("unauthorized", "The e-mail address or the password is wrong.")
    return {"token": issue_token(row["id"], secret), "tokenType": "Bearer", "expiresIn": TOKEN_TTL_SECONDS}


async def me(db: Database, secret: str, authorization: str | None) -> dict[str, Any]:
    user_id = verify_bearer(authorization, secret)
    # A validly signed token whose subject is not a UUID names no user either (401, not a database error).
    row = await db.fetchrow(f"SELECT {USER_COLUMNS} FROM users WHERE id = $1", user_id) if _is_uuid(user_id) else None
    if row is None:
        raise ProblemError("unauthorized", "The token's user no longer exists.")
    return to_user(row)
