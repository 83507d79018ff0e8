"""`/users` and `/users/{id}`: admins list and create users; a user reads, updates and deletes themself (another
customer's id is a 404, as if it did not exist: api_core makes ownership a condition of the statement)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends
from starlette.responses import Response

from api_contract.models import CreateUserBody, ListUsersQuery, UpdateUserBody
from api_core.data import users

from ..dependencies import CurrentUser, Db, require_admin
from ..responses import JSONResponse, created
from ..routing import ContractRoute
from ..validation import PathId, from_body, from_query

router = APIRouter(route_class=ContractRoute)


@router.get("/users", dependencies=[Depends(require_admin)])
async def list_users(query: Annotated[ListUsersQuery, from_query(ListUsersQuery)], db: Db) -> Response:
    return JSONResponse(await users.list_users(db, query.page, query.limit, query.q))


@router.post("/users", dependencies=[Depends(require_admin)])
async def create_user(body: Annotated[CreateUserBody, from_body(CreateUserBody)], db: Db) -> Response:
    user = await users.create_user(db, body.email, body.name)
    return created(user, f"/users/{user['id']}")


@router.get("/users/{id}")
async def get_user(user: CurrentUser, params: PathId, db: Db) -> Response:
    return JSONResponse(await users.get_user(db, params.id, user))


@router.patch("/users/{id}")
async def update_user(
    user: CurrentUser,
    params: PathId,
    body: Annotated[UpdateUserBody, from_body(UpdateUserBody)],
    db: Db,
) -> Response:
    return JSONResponse(await users.update_user(db, params.id, body.changes(), user))


@router.delete("/users/{id}")
async def delete_user(user: CurrentUser, params: PathId, db: Db) -> Response:
    await users.delete_user(db, params.id, user)
    return Response(status_code=204)
