"""`/products` and `/products/{id}`: anyone reads products; admins create, update and delete them."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends
from starlette.responses import Response

from api_contract.models import CreateProductBody, ListProductsQuery, UpdateProductBody
from api_core.data import products

from ..dependencies import Db, require_admin
from ..responses import JSONResponse, created
from ..routing import ContractRoute
from ..validation import PathId, from_body, from_query

router = APIRouter(route_class=ContractRoute)


@router.get("/products")
async def list_products(query: Annotated[ListProductsQuery, from_query(ListProductsQuery)], db: Db) -> Response:
    return JSONResponse(await products.list_products(db, query))


@router.post("/products", dependencies=[Depends(require_admin)])
async def create_product(body: Annotated[CreateProductBody, from_body(CreateProductBody)], db: Db) -> Response:
    product = await products.create_product(db, body.model_dump())
    return created(product, f"/products/{product['id']}")


@router.get("/products/{id}")
async def get_product(params: PathId, db: Db) -> Response:
    return JSONResponse(await products.get_product(db, params.id))


@router.patch("/products/{id}", dependencies=[Depends(require_admin)])
async def update_product(
    params: PathId,
    body: Annotated[UpdateProductBody, from_body(UpdateProductBody)],
    db: Db,
) -> Response:
    return JSONResponse(await products.update_product(db, params.id, body.changes()))


@router.delete("/products/{id}", dependencies=[Depends(require_admin)])
async def delete_product(params: PathId, db: Db) -> Response:
    await products.delete_product(db, params.id)
    return Response(status_code=204)
