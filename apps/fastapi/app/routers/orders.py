"""`/orders` and `/orders/{id}`."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter
from starlette.responses import Response

from api_contract.models import (
    CreateOrderBody,
    CreateOrderHeaders,
    GetOrderQuery,
    ListOrdersQuery,
    UpdateOrderBody,
)
from api_core.data import orders

from ..dependencies import Db
from ..responses import JSONResponse, created
from ..routing import ContractRoute
from ..validation import PathId, from_body, from_headers, from_query

router = APIRouter(route_class=ContractRoute)


@router.get("/orders")
async def list_orders(query: Annotated[ListOrdersQuery, from_query(ListOrdersQuery)], db: Db) -> Response:
    return JSONResponse(await orders.list_orders(db, query))


@router.post("/orders")
async def create_order(
    headers: Annotated[CreateOrderHeaders, from_headers(CreateOrderHeaders)],
    body: Annotated[CreateOrderBody, from_body(CreateOrderBody)],
    db: Db,
) -> Response:
    order = await orders.create_order(db, body, headers.idempotency_key)
    return created(order, f"/orders/{order['id']}")


@router.get("/orders/{id}")
async def get_order(
    params: PathId,
    query: Annotated[GetOrderQuery, from_query(GetOrderQuery)],
    db: Db,
) -> Response:
    return JSONResponse(await orders.get_order(db, params.id, query.include))


@router.patch("/orders/{id}")
async def update_order(
    params: PathId,
    body: Annotated[UpdateOrderBody, from_body(UpdateOrderBody)],
    db: Db,
) -> Response:
    return JSONResponse(await orders.update_order_status(db, params.id, body.status))


@router.delete("/orders/{id}")
async def delete_order(params: PathId, db: Db) -> Response:
    await orders.delete_order(db, params.id)
    return Response(status_code=204)
