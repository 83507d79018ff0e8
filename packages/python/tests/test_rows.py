"""Rows → JSON (api_core.dto) and bodies → columns (api_core.data) give exactly the contract's fields. A field the
response models have (tests/test_models_vs_openapi.py holds them to the contract) but a column list, a serializer
or a writable map forgot fails here, naming the field."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

import pytest
from pydantic import BaseModel

from api_contract import models
from api_core import dto
from api_core.data import products

INTEGER_COLUMNS = {"price_cents", "stock", "quantity", "unit_price_cents", "total_cents"}


def fake_value(column: str) -> Any:
    """A value of the column's type, as asyncpg decodes it (ids as text, timestamps as datetimes)."""
    if column.endswith("_at"):
        return datetime(2025, 1, 31, 12, tzinfo=UTC)
    if column == "id" or column.endswith("_id"):
        return "0b0f4a4e-8c1a-4f43-9a53-2f6c3d0e9b11"
    if column == "status":
        return "pending"
    if column == "role":
        return "customer"
    return 1 if column in INTEGER_COLUMNS else "x"


def row_of(columns: str, prefix: str = "") -> dict[str, Any]:
    """What `SELECT {columns}` returns (a Record reads like a dict), each column under `prefix`."""
    return {prefix + c: fake_value(c) for c in (c.strip() for c in columns.split(","))}


def serialized(serialize: Callable[..., dict[str, Any]], row: dict[str, Any], *args: Any) -> dict[str, Any]:
    try:
        return serialize(row, *args)
    except KeyError as error:
        pytest.fail(f"{serialize.__name__} reads the column {error}, which its column list does not select")


def assert_shape(out: dict[str, Any], model: type[BaseModel], where: str) -> None:
    required = {name for name, field in model.model_fields.items() if field.is_required()}
    missing = sorted(required - out.keys())
    unknown = sorted(out.keys() - model.model_fields.keys())
    assert not missing, f"{where} leaves out {', '.join(missing)} (a field of the contract's {model.__name__})"
    assert not unknown, f"{where} writes {', '.join(unknown)}, which the contract's {model.__name__} does not have"
    model.model_validate(out)


@pytest.mark.parametrize(
    ("columns", "serialize", "model"),
    [
        (dto.USER_COLUMNS, dto.to_user, models.User),
        (dto.PRODUCT_COLUMNS, dto.to_product, models.Product),
        (dto.ORDER_COLUMNS, dto.to_order, models.Order),
    ],
    ids=["user", "product", "order"],
)
def test_a_row_becomes_the_contracts_shape(
    columns: str, serialize: Callable[..., dict[str, Any]], model: type[BaseModel]
) -> None:
    assert_shape(serialized(serialize, row_of(columns)), model, serialize.__name__)


def test_an_order_with_its_user_and_product() -> None:
    row = row_of(dto.ORDER_COLUMNS) | row_of(dto.USER_COLUMNS, "u_") | row_of(dto.PRODUCT_COLUMNS, "p_")
    out = serialized(dto.to_order, row, ["user", "product"])
    assert_shape(out, models.Order, "to_order")
    assert out["user"].keys() == models.User.model_fields.keys()
    assert out["product"].keys() == models.Product.model_fields.keys()


@pytest.mark.parametrize("body", [models.CreateProductBody, models.UpdateProductBody])
def test_products_write_every_field_of_their_bodies(body: type[BaseModel]) -> None:
    missing = sorted(body.model_fields.keys() - products.WRITABLE.keys())
    unknown = sorted(products.WRITABLE.keys() - body.model_fields.keys())
    assert not missing, f"api_core.data.products.WRITABLE has no column for {', '.join(missing)}"
    assert not unknown, f"api_core.data.products.WRITABLE writes {', '.join(unknown)}, not a field of {body.__name__}"
