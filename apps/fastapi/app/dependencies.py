"""What routes get injected besides validated request parts: the database and the settings (on app.state)."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request

from api_core.db import Database
from api_core.settings import Settings


async def database(request: Request) -> Database:
    return request.app.state.db


async def settings(request: Request) -> Settings:
    return request.app.state.settings


Db = Annotated[Database, Depends(database)]
AppSettings = Annotated[Settings, Depends(settings)]
