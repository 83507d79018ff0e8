"""`/products` and `/products/{id}`: anyone reads products; admins create, update and delete them."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Response

from api_contract.models import CreateProductBody, ListProductsQuery, Product, ProductList, UpdateProductBody
from api_core.data import products

from ...edges.strict_paths import ContractRoute
from ...edges.validate import PathId, from_body, from_query
from ..deps import DbDep, require_admin

router = APIRouter(prefix="/products", tags=["products"], route_class=ContractRoute)


@router.get("", response_model=ProductList)
async def list_products(query: Annotated[ListProductsQuery, from_query(ListProductsQuery)], db: DbDep) -> Any:
    return await products.list_products(db, query)


@router.post("", status_code=201, response_model=Product, dependencies=[Depends(require_admin)])
async def create_product(
    body: Annotated[CreateProductBody, from_body(CreateProductBody)], db: DbDep, response: Response
) -> Any:
    product = await products.create_product(db, body.model_dump())
    response.headers["location"] = f"/products/{product['id']}"
    return product


@router.get("/{id}", response_model=Product)
async def get_product(params: PathId, db: DbDep) -> Any:
    return await products.get_product(db, params.id)


@router.patch("/{id}", response_model=Product, dependencies=[Depends(require_admin)])
async def update_product(
    params: PathId, body: Annotated[UpdateProductBody, from_body(UpdateProductBody)], db: DbDep
) -> Any:
    return await products.update_product(db, params.id, body.changes())


# `response_class=Response`: a 204 has no body and, as in Express, no content-type.
@router.delete("/{id}", status_code=204, response_class=Response, dependencies=[Depends(require_admin)])
async def delete_product(params: PathId, db: DbDep) -> None:
    await products.delete_product(db, params.id)
