"""`/auth/register`, `/auth/login`, `/auth/me`."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Header
from starlette.responses import Response

from api_contract.models import LoginBody, RegisterBody
from api_core.data import auth

from ..dependencies import AppSettings, Db
from ..responses import JSONResponse
from ..routing import ContractRoute
from ..validation import from_body

router = APIRouter(route_class=ContractRoute)


@router.post("/auth/register")
async def register(body: Annotated[RegisterBody, from_body(RegisterBody)], db: Db, settings: AppSettings) -> Response:
    return JSONResponse(await auth.register(db, settings.jwt_secret, body), status_code=201)


@router.post("/auth/login")
async def login(body: Annotated[LoginBody, from_body(LoginBody)], db: Db, settings: AppSettings) -> Response:
    return JSONResponse(await auth.login(db, settings.jwt_secret, body))


@router.get("/auth/me")
async def me(db: Db, settings: AppSettings, authorization: Annotated[str | None, Header()] = None) -> Response:
    return JSONResponse(await auth.me(db, settings.jwt_secret, authorization))
