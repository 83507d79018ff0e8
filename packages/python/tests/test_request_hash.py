"""The idempotency fingerprint is the one packages/core/src/orders.ts computes, so a key used through a Node app
and retried through this one (or the other way round) is recognised as the same request."""

from __future__ import annotations

from api_contract.models import CreateOrderBody
from api_core.data.orders import request_hash

# requestHash({userId: "…00A", productId: "…104", quantity: 3}) in packages/core/src/orders.ts: the SHA-256 of
# {"userId":"00000000-0000-4000-8000-00000000000a","productId":"00000000-0000-4000-8000-000000000104","quantity":3}
NODE_HASH = "c2c738ef61d886ed7060e22f5e1b0c302258c9009a7bb16e11f35f01a8355ae8"


def test_the_fingerprint_matches_node_byte_for_byte() -> None:
    body = CreateOrderBody.model_validate(
        {
            "userId": "00000000-0000-4000-8000-00000000000A",
            "productId": "00000000-0000-4000-8000-000000000104",
            "quantity": 3,
        }
    )
    assert request_hash(body) == NODE_HASH


def test_ids_count_whatever_their_case_and_field_order_does_not_matter() -> None:
    a = CreateOrderBody.model_validate(
        {
            "quantity": 3,
            "productId": "00000000-0000-4000-8000-000000000104",
            "userId": "00000000-0000-4000-8000-00000000000a",
        }
    )
    assert request_hash(a) == NODE_HASH
    b = a.model_copy(update={"quantity": 4})
    assert request_hash(b) != NODE_HASH
