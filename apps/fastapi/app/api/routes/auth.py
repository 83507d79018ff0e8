"""`/auth/register`, `/auth/login`, `/auth/me`. Their successful answers carry a token or the caller's own user, so
no cache may keep them (`no_store` on the router). Register and login are limited per client address
(edges/rate_limit.py), before their body is read."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends

from api_contract.models import LoginBody, LoginResponse, RegisterBody, RegisterResponse, User
from api_core.data import auth

from ...edges.rate_limit import limit_per_address
from ...edges.strict_paths import ContractRoute
from ...edges.validate import from_body
from ..deps import CurrentUser, DbDep, SettingsDep, no_store

router = APIRouter(prefix="/auth", tags=["auth"], route_class=ContractRoute, dependencies=[Depends(no_store)])


@router.post("/register", status_code=201, response_model=RegisterResponse, dependencies=[Depends(limit_per_address)])
async def register(body: Annotated[RegisterBody, from_body(RegisterBody)], db: DbDep, settings: SettingsDep) -> Any:
    return await auth.register(db, settings.jwt_secret, body)


@router.post("/login", response_model=LoginResponse, dependencies=[Depends(limit_per_address)])
async def login(body: Annotated[LoginBody, from_body(LoginBody)], db: DbDep, settings: SettingsDep) -> Any:
    return await auth.login(db, settings.jwt_secret, body)


@router.get("/me", response_model=User)
async def me(user: CurrentUser, db: DbDep) -> Any:
    return await auth.me(db, user)
