"""What path operations get injected, as `Annotated` aliases (the full-stack template's api/deps.py: `SessionDep`,
`CurrentUser`): the database and the settings, both on `app.state` (the lifespan opens the pool), and the caller.

Authentication is a dependency like any other, so its place among a route's dependencies decides when it runs: the
caller comes first in every signature, and `dependencies=[Depends(require_admin)]` (which FastAPI solves before the
signature's own) guards the admin routes. Nothing of the request is read before them — the body is read by the first
validation dependency (edges/validate.py) — so the contract's order holds: 401 → 403 → 415 → 413 → malformed JSON →
validation.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Header, Request, Response

from api_core.data import auth
from api_core.db import Database
from api_core.principal import Principal
from api_core.principal import require_admin as require_admin_role
from api_core.settings import Settings


async def get_db(request: Request) -> Database:
    return request.app.state.db


async def get_settings(request: Request) -> Settings:
    return request.app.state.settings


DbDep = Annotated[Database, Depends(get_db)]
SettingsDep = Annotated[Settings, Depends(get_settings)]


async def get_current_user(
    db: DbDep, settings: SettingsDep, authorization: Annotated[str | None, Header()] = None
) -> Principal:
    """The caller: the bearer token verified and its user's current role read (a 401 with `www-authenticate`
    otherwise). The header goes to api_core as it was sent, not through `HTTPBearer`, whose parsing of it differs
    from the contract's (a bare `Bearer`, whitespace), which every implementation answers alike."""
    return await auth.authenticate(db, settings, authorization)


CurrentUser = Annotated[Principal, Depends(get_current_user)]


async def require_admin(user: CurrentUser) -> Principal:
    """Admins pass; anyone else signed in is a 403 (`insufficient_scope`)."""
    require_admin_role(user)
    return user


async def no_store(response: Response) -> None:
    """`cache-control: no-store` on a successful answer (a token, the caller's own user: RFC 6749 §5.1); errors
    leave through the exception handlers, without it."""
    response.headers["cache-control"] = "no-store"
