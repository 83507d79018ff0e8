"""JSON bodies from their bytes, as server's parseJsonBody reads them (README "Edges of HTTP" in packages/contract)."""

from __future__ import annotations

import pytest

from api_contract.problems import ProblemError
from api_core.http import parse_json_body


def test_one_byte_order_mark_is_ignored() -> None:
    assert parse_json_body(b'\xef\xbb\xbf{"a":1}') == {"a": 1}


@pytest.mark.parametrize(
    "raw",
    [
        b'\xef\xbb\xbf\xef\xbb\xbf{"a":1}',  # two byte-order marks
        b'{"a":"\xc3\x28"}',  # invalid UTF-8
        b'{"a":"\xed\xa0\x80"}',  # a surrogate encoded as UTF-8
        '\ufeff{"a":1}'.encode("utf-16-le"),  # UTF-16
    ],
)
def test_anything_but_utf8_json_is_malformed(raw: bytes) -> None:
    with pytest.raises(ProblemError) as raised:
        parse_json_body(raw)
    assert raised.value.kind == "malformedJson"
