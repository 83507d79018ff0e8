"""The Pydantic models describe the same shapes as the contract's OpenAPI document (exported from packages/contract):
for every operation, each request part's properties, types, bounds, patterns, required fields and
`additionalProperties`, and each response's schema. A bound changed on one side only fails here; a field on one
side only fails naming it (`Product (getProduct response): sku: in the contract, not in the model`)."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import BaseModel

from api_contract import exported as contract
from api_contract import models

DOC = contract.openapi_document()
OPERATIONS = {
    op["operationId"]: (method.upper(), path, op) for path, item in DOC["paths"].items() for method, op in item.items()
}


def normalize(schema: Any, defs: dict[str, Any] | None = None) -> Any:
    """Both dialects to one form: $refs inlined; titles dropped (Pydantic adds them); `anyOf` of bare types as a
    type list (Zod writes `"type": ["string", "null"]` for what Pydantic writes as `anyOf`); the type of a `const`
    dropped (Zod calls 3600 a number, Pydantic an integer); `required` as a set."""
    if isinstance(schema, list):
        return [normalize(s, defs) for s in schema]
    if not isinstance(schema, dict):
        return schema
    defs = {**(defs or {}), **schema.get("$defs", {})}
    if "$ref" in schema:
        target = defs[schema["$ref"].split("/")[-1]]
        return normalize({**target, **{k: v for k, v in schema.items() if k != "$ref"}}, defs)
    out = {k: normalize(v, defs) for k, v in schema.items() if k not in ("title", "$defs", "description")}
    if "anyOf" in out and all(set(s) == {"type"} for s in out["anyOf"]):
        types = out.pop("anyOf")
        out["type"] = [t for s in types for t in (s["type"] if isinstance(s["type"], list) else [s["type"]])]
    if "const" in out:
        out.pop("type", None)
    if isinstance(out.get("required"), list):
        out["required"] = sorted(out["required"])
    return out


def without_defaults(schema: Any) -> Any:
    """Pydantic writes the default of every optional field; bodies and responses have none in the contract."""
    if isinstance(schema, list):
        return [without_defaults(s) for s in schema]
    if isinstance(schema, dict):
        return {k: without_defaults(v) for k, v in schema.items() if k != "default"}
    return schema


def field_differences(ours: Any, theirs: Any, at: str = "") -> list[str]:
    """The fields one side has and the other lacks, and required ones that are not required on both sides, by their
    path (`data[].sku`): what a field added to the contract and forgotten here (or the reverse) looks like."""
    if isinstance(ours, dict) and isinstance(theirs, dict):
        out: list[str] = []
        ours_props, theirs_props = ours.get("properties", {}), theirs.get("properties", {})
        out += [f"{at}{name}: in the contract, not in the model" for name in theirs_props if name not in ours_props]
        out += [f"{at}{name}: in the model, not in the contract" for name in ours_props if name not in theirs_props]
        for name in ours_props.keys() & theirs_props.keys():
            if (name in ours.get("required", [])) != (name in theirs.get("required", [])):
                out.append(f"{at}{name}: required on one side only")
            out += field_differences(ours_props[name], theirs_props[name], f"{at}{name}.")
        if "items" in ours and "items" in theirs:
            out += field_differences(ours["items"], theirs["items"], f"{at.rstrip('.')}[].")
        return out
    return []


def assert_same_schema(ours: dict[str, Any], theirs: dict[str, Any], what: str) -> None:
    differences = field_differences(ours, theirs)
    assert not differences, f"{what}: " + "; ".join(differences)
    assert ours == theirs


def model_schema(model: type[BaseModel], mode: str = "validation") -> dict[str, Any]:
    return normalize(model.model_json_schema(mode=mode))


def test_every_operation_with_input_has_models_and_every_model_an_operation() -> None:
    with_input = {
        op_id
        for op_id, (_, _, op) in OPERATIONS.items()
        if "requestBody" in op or any(p["in"] in ("path", "query") for p in op["parameters"])
    }
    assert with_input <= set(models.REQUEST_MODELS) | {"echo"}
    assert set(models.REQUEST_MODELS) <= set(OPERATIONS)


@pytest.mark.parametrize("operation_id", sorted(models.REQUEST_MODELS))
def test_request_body(operation_id: str) -> None:
    model = models.REQUEST_MODELS[operation_id].get("body")
    _, _, op = OPERATIONS[operation_id]
    if model is None:
        assert "requestBody" not in op
        return
    expected = normalize(op["requestBody"]["content"]["application/json"]["schema"])
    assert_same_schema(without_defaults(model_schema(model)), expected, f"{model.__name__} ({operation_id} body)")


@pytest.mark.parametrize("operation_id", sorted(models.REQUEST_MODELS))
@pytest.mark.parametrize("location,part", [("path", "params"), ("query", "query")])
def test_path_and_query_parameters(operation_id: str, location: str, part: str) -> None:
    """The model accepts what the contract's Zod schema accepts on the wire (strings: digits, `true`/`false`, comma
    lists); the document lists the same parameters, by meaning, with the same required ones."""
    model = models.REQUEST_MODELS[operation_id].get(part)
    _, _, op = OPERATIONS[operation_id]
    params = [p for p in op["parameters"] if p["in"] == location]
    wire = contract.wire_parameters(operation_id, location)
    if model is None:
        assert params == []
        assert wire is None
        return
    schema = model_schema(model)
    assert schema["additionalProperties"] is False  # unknown parameters are a 400
    assert list(schema["properties"]) == [p["name"] for p in params]
    assert schema.get("required", []) == sorted(p["name"] for p in params if p["required"])
    assert wire is not None
    for name, wire_schema in wire["properties"].items():
        ours = dict(schema["properties"][name])
        theirs = normalize(wire_schema)
        if "default" not in theirs:
            ours.pop("default", None)  # page=1, limit=20: Zod does not write defaults behind a transform
        assert ours == theirs, name


# Documented defaults that validation leaves unset, applied by the data access: an absent `page` is page 1, but a
# page beside a cursor must be told from none (schemas.ts's `paging` has no default for it either).
APPLIED_AFTER_VALIDATION = {"page": models.DEFAULT_PAGE}


@pytest.mark.parametrize("operation_id", sorted(models.REQUEST_MODELS))
def test_query_defaults_are_the_documented_ones(operation_id: str) -> None:
    model = models.REQUEST_MODELS[operation_id].get("query")
    if model is None:
        return
    _, _, op = OPERATIONS[operation_id]
    for param in (p for p in op["parameters"] if p["in"] == "query"):
        name = param["name"]
        field = model.model_fields[name]
        default = APPLIED_AFTER_VALIDATION.get(name) if field.default is None else field.default
        assert default == param["schema"].get("default"), name


def test_the_idempotency_key_header() -> None:
    _, _, op = OPERATIONS["createOrder"]
    (header,) = [p for p in op["parameters"] if p["name"] == "idempotency-key"]
    ours = model_schema(models.CreateOrderHeaders)["properties"]["idempotency-key"]
    assert header["required"] is False
    assert ours["anyOf"][0]["pattern"] == header["schema"]["pattern"]


@pytest.mark.parametrize("operation_id", sorted(models.RESPONSE_MODELS))
def test_success_response(operation_id: str) -> None:
    _, _, op = OPERATIONS[operation_id]
    (success,) = [r for status, r in op["responses"].items() if status.startswith("2")]
    expected = normalize(success["content"]["application/json"]["schema"])
    model = models.RESPONSE_MODELS[operation_id]
    ours = model_schema(model, mode="serialization")
    assert_same_schema(without_defaults(ours), expected, f"{model.__name__} ({operation_id} response)")
