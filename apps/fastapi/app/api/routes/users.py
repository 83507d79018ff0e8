"""`/users` and `/users/{id}`: admins list and create users; a user reads, updates and deletes themself (another
customer's id is a 404, as if it did not exist: api_core makes ownership a condition of the statement)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Response

from api_contract.models import CreateUserBody, ListUsersQuery, UpdateUserBody, User, UserList
from api_core.data import users

from ...edges.strict_paths import ContractRoute
from ...edges.validate import PathId, from_body, from_query
from ..deps import CurrentUser, DbDep, require_admin

router = APIRouter(prefix="/users", tags=["users"], route_class=ContractRoute)


@router.get("", response_model=UserList, dependencies=[Depends(require_admin)])
async def list_users(query: Annotated[ListUsersQuery, from_query(ListUsersQuery)], db: DbDep) -> Any:
    return await users.list_users(db, query)


@router.post("", status_code=201, response_model=User, dependencies=[Depends(require_admin)])
async def create_user(body: Annotated[CreateUserBody, from_body(CreateUserBody)], db: DbDep, response: Response) -> Any:
    user = await users.create_user(db, body.email, body.name)
    response.headers["location"] = f"/users/{user['id']}"
    return user


@router.get("/{id}", response_model=User)
async def get_user(user: CurrentUser, params: PathId, db: DbDep) -> Any:
    return await users.get_user(db, params.id, user)


@router.patch("/{id}", response_model=User)
async def update_user(
    user: CurrentUser, params: PathId, body: Annotated[UpdateUserBody, from_body(UpdateUserBody)], db: DbDep
) -> Any:
    return await users.update_user(db, params.id, body.changes(), user)


# `response_class=Response`: a 204 has no body and, as in Express, no content-type.
@router.delete("/{id}", status_code=204, response_class=Response)
async def delete_user(user: CurrentUser, params: PathId, db: DbDep) -> None:
    await users.delete_user(db, params.id, user)
