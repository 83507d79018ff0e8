"""Who is calling, register, log in, who am I: packages/data-access/src/auth.ts, with security.py's scrypt and HS256."""

from __future__ import annotations

from typing import Any

from api_contract.models import LoginBody, RegisterBody

from ..db import Database
from ..dto import USER_COLUMNS, to_user
from ..principal import Principal, unauthorized
from ..security import (
    TOKEN_TTL_SECONDS,
    hash_password,
    issue_token,
    needs_rehash,
    verify_bearer,
    verify_password,
)
from ..settings import Settings
from .users import create_user


async def authenticate(db: Database, settings: Settings, authorization: str | None) -> Principal:
    """Who sent the request: the token verified, then its user read (by primary key) for their current role. A token
    whose user was deleted is a 401 on every route, as an expired one is."""
    user_id = verify_bearer(authorization, settings.jwt_secret)
    row = await db.fetchrow("SELECT id, role FROM users WHERE id = $1", user_id)
    if row is None:
        raise unauthorized("The token's user no longer exists.")
    return Principal(id=row["id"], role=row["role"])


async def register(db: Database, secret: str, body: RegisterBody) -> dict[str, Any]:
    password_hash = await hash_password(body.password)
    user = await create_user(db, body.email, body.name, password_hash)
    return {"user": user, "token": issue_token(user["id"], secret)}


async def login(db: Database, secret: str, body: LoginBody) -> dict[str, Any]:
    """Same answer, and the same scrypt cost, whether the e-mail is unknown or the password wrong. A hash stored with
    older scrypt parameters is replaced by one with today's, now that the password is known to be right."""
    row = await db.fetchrow("SELECT id, password_hash FROM users WHERE email = $1", body.email.lower())
    valid = await verify_password(body.password, row["password_hash"] if row else None)
    if row is None or row["password_hash"] is None or not valid:
        # Credentials, not a bearer token, were refused: the challenge names no token error (RFC 6750 §3).
        raise unauthorized("The e-mail address or the password is wrong.", "missing")
    if needs_rehash(row["password_hash"]):
        password_hash = await hash_password(body.password)
        await db.execute(
            "UPDATE users SET password_hash = $1, updated_at = now() WHERE id = $2", password_hash, row["id"]
        )
    return {"token": issue_token(row["id"], secret), "tokenType": "Bearer", "expiresIn": TOKEN_TTL_SECONDS}


async def me(db: Database, principal: Principal) -> dict[str, Any]:
    """The caller's own user, whole."""
    row = await db.fetchrow(f"SELECT {USER_COLUMNS} FROM users WHERE id = $1", principal.id)
    if row is None:
        raise unauthorized("The token's user no longer exists.")
    return to_user(row)
