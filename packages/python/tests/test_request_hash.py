"""The idempotency fingerprint is the one packages/data-access/src/orders.ts computes, so a key used through a Node app
and retried through this one (or the other way round) is recognised as the same request."""

from __future__ import annotations

from api_contract.models import CreateOrderBody
from api_core.data.orders import request_hash

# requestHash({productId: "…104", quantity: 3}) in packages/data-access/src/orders.ts: the SHA-256 of
# {"productId":"00000000-0000-4000-8000-000000000104","quantity":3} (JSON.stringify's bytes: no spaces)
NODE_HASH = "4a0c54a83aec50d22d6fed2323deb653743f02324f148814269281a4b46319fe"


def test_the_fingerprint_matches_node_byte_for_byte() -> None:
    body = CreateOrderBody.model_validate({"productId": "00000000-0000-4000-8000-000000000104", "quantity": 3})
    assert request_hash(body) == NODE_HASH


def test_the_id_counts_whatever_its_case_and_field_order_does_not_matter() -> None:
    a = CreateOrderBody.model_validate({"quantity": 3, "productId": "00000000-0000-4000-8000-00000000010A"})
    b = CreateOrderBody.model_validate({"productId": "00000000-0000-4000-8000-00000000010a", "quantity": 3})
    assert request_hash(a) == request_hash(b)
    c = CreateOrderBody.model_validate({"quantity": 3, "productId": "00000000-0000-4000-8000-000000000104"})
    assert request_hash(c) == NODE_HASH
    assert request_hash(c.model_copy(update={"quantity": 4})) != NODE_HASH
