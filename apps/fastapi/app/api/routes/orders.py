"""`/orders` and `/orders/{id}`: a customer places orders for themself, reads only their own and may cancel them
(api_core makes ownership a condition of each statement, and refuses any other status with a 403); admins do
everything to every order, and alone delete one.

`response_model_exclude_unset=True` on every order: `user` and `product` appear only when `?include=` asked for
them (absent, not `null`)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Response

from api_contract.models import (
    CreateOrderBody,
    CreateOrderHeaders,
    GetOrderQuery,
    ListOrdersQuery,
    Order,
    OrderList,
    UpdateOrderBody,
)
from api_core.data import orders

from ...edges.strict_paths import ContractRoute
from ...edges.validate import PathId, from_body, from_headers, from_query
from ..deps import CurrentUser, DbDep, require_admin

router = APIRouter(prefix="/orders", tags=["orders"], route_class=ContractRoute)


@router.get("", response_model=OrderList, response_model_exclude_unset=True)
async def list_orders(
    user: CurrentUser, query: Annotated[ListOrdersQuery, from_query(ListOrdersQuery)], db: DbDep
) -> Any:
    return await orders.list_orders(db, query, user)


@router.post("", status_code=201, response_model=Order, response_model_exclude_unset=True)
async def create_order(
    user: CurrentUser,
    headers: Annotated[CreateOrderHeaders, from_headers(CreateOrderHeaders)],
    body: Annotated[CreateOrderBody, from_body(CreateOrderBody)],
    db: DbDep,
    response: Response,
) -> Any:
    order = await orders.create_order(db, body, user, headers.idempotency_key)
    response.headers["location"] = f"/orders/{order['id']}"
    return order


@router.get("/{id}", response_model=Order, response_model_exclude_unset=True)
async def get_order(
    user: CurrentUser, params: PathId, query: Annotated[GetOrderQuery, from_query(GetOrderQuery)], db: DbDep
) -> Any:
    return await orders.get_order(db, params.id, query.include, user)


@router.patch("/{id}", response_model=Order, response_model_exclude_unset=True)
async def update_order(
    user: CurrentUser, params: PathId, body: Annotated[UpdateOrderBody, from_body(UpdateOrderBody)], db: DbDep
) -> Any:
    return await orders.update_order_status(db, params.id, body.status, user)


# `response_class=Response`: a 204 has no body and, as in Express, no content-type.
@router.delete("/{id}", status_code=204, response_class=Response, dependencies=[Depends(require_admin)])
async def delete_order(params: PathId, db: DbDep) -> None:
    await orders.delete_order(db, params.id)
