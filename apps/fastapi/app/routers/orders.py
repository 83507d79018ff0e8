"""`/orders` and `/orders/{id}`: a customer places orders for themself, reads only their own and may cancel them
(api_core makes ownership a condition of each statement, and refuses any other status with a 403); admins do
everything to every order, and alone delete one."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends
from starlette.responses import Response

from api_contract.models import (
    CreateOrderBody,
    CreateOrderHeaders,
    GetOrderQuery,
    ListOrdersQuery,
    UpdateOrderBody,
)
from api_core.data import orders

from ..dependencies import CurrentUser, Db, require_admin
from ..responses import JSONResponse, created
from ..routing import ContractRoute
from ..validation import PathId, from_body, from_headers, from_query

router = APIRouter(route_class=ContractRoute)


@router.get("/orders")
async def list_orders(
    user: CurrentUser, query: Annotated[ListOrdersQuery, from_query(ListOrdersQuery)], db: Db
) -> Response:
    return JSONResponse(await orders.list_orders(db, query, user))


@router.post("/orders")
async def create_order(
    user: CurrentUser,
    headers: Annotated[CreateOrderHeaders, from_headers(CreateOrderHeaders)],
    body: Annotated[CreateOrderBody, from_body(CreateOrderBody)],
    db: Db,
) -> Response:
    order = await orders.create_order(db, body, user, headers.idempotency_key)
    return created(order, f"/orders/{order['id']}")


@router.get("/orders/{id}")
async def get_order(
    user: CurrentUser,
    params: PathId,
    query: Annotated[GetOrderQuery, from_query(GetOrderQuery)],
    db: Db,
) -> Response:
    return JSONResponse(await orders.get_order(db, params.id, query.include, user))


@router.patch("/orders/{id}")
async def update_order(
    user: CurrentUser,
    params: PathId,
    body: Annotated[UpdateOrderBody, from_body(UpdateOrderBody)],
    db: Db,
) -> Response:
    return JSONResponse(await orders.update_order_status(db, params.id, body.status, user))


@router.delete("/orders/{id}", dependencies=[Depends(require_admin)])
async def delete_order(params: PathId, db: Db) -> Response:
    await orders.delete_order(db, params.id)
    return Response(status_code=204)
