"""`/auth/register`, `/auth/login`, `/auth/me`. Their successful answers carry a token or the caller's own user, so
no cache may keep them (`cache-control: no-store`, RFC 6749 §5.1). Register and login are limited per client address
(rate_limit.py), before their body is read."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends
from starlette.responses import Response

from api_contract.models import LoginBody, RegisterBody
from api_core.data import auth

from ..dependencies import AppSettings, CurrentUser, Db
from ..rate_limit import limit_per_address
from ..responses import JSONResponse
from ..routing import ContractRoute
from ..validation import from_body

router = APIRouter(route_class=ContractRoute)

NO_STORE = {"cache-control": "no-store"}


@router.post("/auth/register", dependencies=[Depends(limit_per_address)])
async def register(body: Annotated[RegisterBody, from_body(RegisterBody)], db: Db, settings: AppSettings) -> Response:
    return JSONResponse(await auth.register(db, settings.jwt_secret, body), status_code=201, headers=NO_STORE)


@router.post("/auth/login", dependencies=[Depends(limit_per_address)])
async def login(body: Annotated[LoginBody, from_body(LoginBody)], db: Db, settings: AppSettings) -> Response:
    return JSONResponse(await auth.login(db, settings.jwt_secret, body), headers=NO_STORE)


@router.get("/auth/me")
async def me(user: CurrentUser, db: Db) -> Response:
    return JSONResponse(await auth.me(db, user), headers=NO_STORE)
