"""The HTTP rules of the contract that need no database, through the whole app (Starlette's TestClient):
routing, 404/405 with `allow`, the caller's 401 and 403 before anything about the request itself, the
415 → 413 → 400 order for bodies, validation order and paths, request ids, problem+json everywhere, and a 503 (not
a crash) when PostgreSQL cannot be reached.

The database URL points at a port nothing listens on: every route that would need the database answers 503,
which also proves that these checks are decided before any query. The caller is FastAPI's to replace in a test
(`app.dependency_overrides[get_current_user]`): `client` is signed in as an admin, so that the rules after the
caller's are reached on every route; `customer` as a customer; `anonymous` replaces nothing, so its tokens are
checked for real (and any that passes meets the unreachable database)."""

from __future__ import annotations

import gzip
import json
import re
import uuid
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from api_contract import exported as contract
from api_contract.cursor import CursorPosition, encode_cursor
from api_core.principal import Principal
from api_core.security import issue_token
from api_core.settings import Settings
from app.api.deps import get_current_user
from app.main import create_app

SETTINGS = Settings(
    port=0,
    host="127.0.0.1",
    database_url="postgres://nobody:secret@127.0.0.1:9/nothing",
    jwt_secret="test-secret-0123456789abcdef0123",
    log_level="silent",
    pool_size=2,
    workers=1,
    shutdown_grace_seconds=1,
)
USER = "00000000-0000-4000-8000-000000000001"
ADMIN = Principal(id="00000000-0000-4000-8000-000000000003", role="admin")
CUSTOMER = Principal(id=USER, role="customer")
PROBLEM_TYPE = "application/problem+json; charset=utf-8"
JSON_TYPE = "application/json; charset=utf-8"
JSON = {"content-type": "application/json"}
NEWEST_CURSOR = encode_cursor("-createdAt", CursorPosition("2025-01-01T00:00:00.000Z", USER))
NAME_CURSOR = encode_cursor("name", CursorPosition("Desk lamp", USER))
CHALLENGE = {
    "missing": "Bearer",
    "invalid_token": 'Bearer error="invalid_token"',
    "insufficient_scope": 'Bearer error="insufficient_scope"',
}


def client_as(caller: Principal | None) -> Iterator[TestClient]:
    app = create_app(SETTINGS)
    if caller is not None:
        app.dependency_overrides[get_current_user] = lambda: caller
    with TestClient(app, raise_server_exceptions=False) as test_client:
        yield test_client


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    yield from client_as(ADMIN)


@pytest.fixture(scope="module")
def customer() -> Iterator[TestClient]:
    yield from client_as(CUSTOMER)


@pytest.fixture(scope="module")
def anonymous() -> Iterator[TestClient]:
    yield from client_as(None)


def problem(response, status: int, kind: str, paths: list[str] | None = None) -> dict:
    spec = contract.problems()[kind]
    assert response.status_code == status, response.text
    assert response.headers["content-type"] == PROBLEM_TYPE
    body = response.json()
    assert {k: body[k] for k in ("type", "title", "status")} == spec
    assert isinstance(body["detail"], str)
    if paths is not None:
        assert [e["path"] for e in body["errors"]] == paths
    return body


def test_hello_and_health(client: TestClient) -> None:
    hello = client.get("/")
    assert (hello.status_code, hello.text, hello.headers["content-type"]) == (
        200,
        "Hello World!",
        "text/plain; charset=utf-8",
    )
    health = client.get("/health")
    assert health.headers["content-type"] == JSON_TYPE
    body = health.json()
    assert body["status"] == "ok" and body["framework"] == "fastapi" and isinstance(body["timestamp"], int)


def test_request_ids(client: TestClient) -> None:
    assert client.get("/health", headers={"x-request-id": "abc.DEF_1-2"}).headers["x-request-id"] == "abc.DEF_1-2"
    for bad in ("has space", "x" * 129, "", "é".encode()):
        fresh = client.get("/health", headers={"x-request-id": bad}).headers["x-request-id"]
        assert uuid.UUID(fresh).version == 4
    repeated = client.get("/health", headers=[("x-request-id", "a"), ("x-request-id", "b")]).headers["x-request-id"]
    assert repeated not in ("a", "b", "a, b")
    assert uuid.UUID(client.get("/nope").headers["x-request-id"])  # errors too


@pytest.mark.parametrize("path", ["/nope", "/users/", "/Users", "/health/", "/user%73", "/users/%zz/x", "/users/a/b"])
def test_unknown_paths_are_404(client: TestClient, path: str) -> None:
    problem(client.get(path), 404, "notFound")


def _concrete(template: str) -> str:
    return template.replace(":id", USER)


@pytest.mark.parametrize("template", sorted(contract.methods_by_path()))
def test_other_methods_are_405_with_the_contract_allow(client: TestClient, template: str) -> None:
    allowed = contract.methods_by_path()[template]
    for method in ("GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"):
        if method in allowed:
            continue
        response = client.request(method, _concrete(template), content=b"{}", headers=JSON)
        problem(response, 405, "methodNotAllowed")
        assert response.headers["allow"] == ", ".join(allowed)


@pytest.mark.parametrize("path", ["/", "/health", "/metrics", "/openapi.json", "/docs"])
def test_head_wherever_get(client: TestClient, path: str) -> None:
    get, head = client.get(path), client.head(path)
    assert head.status_code == 200 and head.content == b""
    assert head.headers["content-type"] == get.headers["content-type"]


def test_the_contracts_own_openapi_document(client: TestClient) -> None:
    response = client.get("/openapi.json")
    assert response.headers["content-type"] == JSON_TYPE
    assert response.json() == contract.openapi_document()
    assert client.get("/docs").headers["content-type"] == "text/html; charset=utf-8"


@pytest.mark.parametrize(
    "headers,body",
    [
        ({"content-type": "text/plain"}, b'{"email":"a@b.co","name":"x"}'),
        ({}, b'{"email":"a@b.co","name":"x"}'),
        ({"content-type": "application/json; charset=latin1"}, b"{}"),
        ({"content-type": "application/jsonx"}, b"{}"),
        ({"content-type": "application/json", "content-encoding": "gzip"}, gzip.compress(b"{}")),
        ({"content-type": "application/json", "content-encoding": "br"}, b"{}"),
        ({"content-type": "application/json", "content-encoding": "GZIP"}, gzip.compress(b"{}")),
        ({"content-type": "text/plain"}, b"x" * (2 * 1024 * 1024)),  # 415 comes before 413
    ],
)
def test_non_json_bodies_are_415(client: TestClient, headers: dict, body: bytes) -> None:
    problem(client.post("/users", content=body, headers=headers), 415, "unsupportedMediaType")


def test_json_media_types(client: TestClient) -> None:
    for content_type in ("application/json", "application/merge-patch+json", 'application/json; charset="UTF-8"'):
        response = client.post("/echo", content=b'{"a":1}', headers={"content-type": content_type})
        assert response.status_code == 200, content_type
    identity = client.post("/echo", content=b'{"a":1}', headers={**JSON, "content-encoding": "identity"})
    assert identity.status_code == 200


def test_bodies_over_1_mib_are_413(client: TestClient) -> None:
    big = b'{"a":"' + b"x" * (1024 * 1024) + b'"}'
    problem(client.post("/echo", content=big, headers=JSON), 413, "payloadTooLarge")

    def chunks() -> Iterator[bytes]:
        yield big[: len(big) // 2]
        yield big[len(big) // 2 :]

    problem(client.post("/echo", content=chunks(), headers=JSON), 413, "payloadTooLarge")
    exactly = b'{"a":"' + b"x" * (1024 * 1024 - 8) + b'"}'
    assert client.post("/echo", content=exactly, headers=JSON).status_code == 200


def test_method_comes_before_the_body_checks(client: TestClient) -> None:
    problem(
        client.post("/health", content=b"x" * (2 * 1024 * 1024), headers={"content-type": "text/plain"}),
        405,
        "methodNotAllowed",
    )


# Express drops two byte-order marks (body-parser's decoder, then secure-json-parse), so a third is malformed.
@pytest.mark.parametrize(
    "body", [b"{", b"NaN", b'{"a":Infinity}', b" ", b"{'a':1}", b'{"a":1}x', b"\xef\xbb\xbf" * 3 + b"{}"]
)
def test_malformed_json_is_400(client: TestClient, body: bytes) -> None:
    problem(client.post("/echo", content=body, headers=JSON), 400, "malformedJson")


@pytest.mark.parametrize(
    "body",
    [
        '{"__proto__":{"admin":true}}',
        '{"a":[{"b":{"__proto__":1}}]}',
        '{"\\u005f_proto__":1}',
        '{"constructor":{"prototype":{"admin":true}}}',
        '{"a":{"constructor":{"prototype":null}}}',
    ],
)
def test_prototype_poisoning_keys_are_refused_on_every_json_route(client: TestClient, body: str) -> None:
    for method, path in (("POST", "/echo"), ("POST", "/users"), ("PATCH", f"/orders/{USER}")):
        problem(client.request(method, path, content=body, headers=JSON), 400, "validation", ["body"])


def test_harmless_lookalikes_pass(client: TestClient) -> None:
    body = '{"constructor":{"name":"x"},"a":{"constructor":[{"prototype":1}]},"s":"__proto__"}'
    assert client.post("/echo", content=body, headers=JSON).status_code == 200


def test_echo(client: TestClient) -> None:
    response = client.post("/echo", content=b'\xef\xbb\xbf{"a":1.0,"txnId":"mine","n":[1e2,-0]}', headers=JSON)
    body = response.json()
    assert uuid.UUID(body.pop("txnId")).version == 4
    assert body == {"a": 1, "n": [100, 0]}
    # One byte-order mark is ignored, a second is not JSON (README "Edges of HTTP" in packages/contract).
    problem(client.post("/echo", content=b'\xef\xbb\xbf\xef\xbb\xbf{"a":1}', headers=JSON), 400, "malformedJson")
    for not_an_object in (b"[]", b"null", b'"x"', b"5"):
        problem(client.post("/echo", content=not_an_object, headers=JSON), 400, "validation", ["body"])


def test_deeply_nested_json(client: TestClient) -> None:
    # The contract accepts 1,000 levels of arrays/objects (the object itself is the first) and no more.
    deep = "[" * 999 + "]" * 999
    response = client.post("/echo", content=f'{{"a":{deep},"b":1e400}}', headers=JSON)
    assert response.status_code == 200
    assert response.text.startswith('{"a":[[[') and '"b":null' in response.text
    too_deep = "[" * 1000 + "]" * 1000
    problem(client.post("/echo", content=f'{{"a":{too_deep}}}', headers=JSON), 400, "malformedJson")
    problem(client.post("/echo", content="[" * 20000 + "]" * 20000, headers=JSON), 400, "malformedJson")


def test_no_body_is_a_validation_error_on_body(client: TestClient) -> None:
    problem(client.post("/users"), 400, "validation", ["body"])
    problem(client.post("/users", content=b"", headers=JSON), 400, "validation", ["body"])
    problem(client.post("/users", content=b"\xef\xbb\xbf", headers=JSON), 400, "validation", ["body"])


def test_the_first_failing_part_answers(client: TestClient) -> None:
    # JSON syntax before params; params before query, headers and body.
    problem(client.patch("/users/nope", content=b"{", headers=JSON), 400, "malformedJson")
    problem(client.patch("/users/nope?x=1", content=b'{"foo":1}', headers=JSON), 400, "validation", ["params.id"])
    problem(client.get("/orders/nope?include=x&zzz=1"), 400, "validation", ["params.id"])
    problem(client.get(f"/orders/{USER}?include=x&zzz=1"), 400, "validation", ["query.include", "query.zzz"])
    response = client.post("/orders", content=b'{"quantity":0}', headers={**JSON, "idempotency-key": "a b"})
    problem(response, 400, "validation", ["headers.idempotency-key"])
    problem(
        client.post("/orders", content=b'{"quantity":0}', headers=JSON),
        400,
        "validation",
        ["body.productId", "body.quantity"],
    )


@pytest.mark.parametrize(
    "query,paths",
    [
        ("limit=1&limit=2", ["query.limit"]),
        ("limit=%2B1", ["query.limit"]),
        ("limit=+1", ["query.limit"]),
        ("page=1.0", ["query.page"]),
        ("page=0", ["query.page"]),
        ("limit=101", ["query.limit"]),
        ("q=", ["query.q"]),
        ("q=a%00b", ["query.q"]),
        ("foo=1&2=x&1=y", ["query.1", "query.2", "query.foo"]),
        ("=x", ["query."]),
        ("total=yes", ["query.total"]),
        ("cursor=abc", ["query.cursor"]),
        ("cursor=not%20base64url", ["query.cursor"]),
        (f"cursor={NEWEST_CURSOR}&cursor={NEWEST_CURSOR}", ["query.cursor"]),
        (f"cursor={NEWEST_CURSOR}&page=2", ["query.page"]),
        (f"cursor={NEWEST_CURSOR}&page=0", ["query.page", "query.page"]),
        (f"cursor={NAME_CURSOR}", ["query.cursor"]),
    ],
)
def test_query_wire_rules(client: TestClient, query: str, paths: list[str]) -> None:
    problem(client.get(f"/users?{query}"), 400, "validation", paths)


def test_a_cursor_is_read_in_the_sort_it_was_given_in(client: TestClient) -> None:
    """Refused before any query (a cursor that passed would meet the unreachable database: a 503)."""
    problem(client.get(f"/products?cursor={NAME_CURSOR}"), 400, "validation", ["query.cursor"])
    problem(client.get(f"/products?sort=-priceCents&cursor={NAME_CURSOR}"), 400, "validation", ["query.cursor"])
    problem(client.get(f"/orders?cursor={NAME_CURSOR}"), 400, "validation", ["query.cursor"])
    assert client.get(f"/products?sort=name&cursor={NAME_CURSOR}").status_code == 503
    assert client.get(f"/orders?cursor={NEWEST_CURSOR}&total=true").status_code == 503


def test_product_and_order_query_rules(client: TestClient) -> None:
    problem(client.get("/products?minPriceCents=5&maxPriceCents=3"), 400, "validation", ["query.minPriceCents"])
    problem(
        client.get("/products?minPriceCents=5&maxPriceCents=x"),
        400,
        "validation",
        ["query.maxPriceCents", "query.minPriceCents"],
    )
    problem(client.get("/products?sort=price&inStock=1"), 400, "validation", ["query.inStock", "query.sort"])
    problem(client.get("/orders?include=user,user"), 400, "validation", ["query.include"])
    problem(client.get("/orders?include=user&include=product"), 400, "validation", ["query.include"])


def test_unknown_fields_and_coercion_are_400(client: TestClient) -> None:
    body = {"email": "a@b.co", "name": "x", "id": USER, "createdAt": "2025-01-01T00:00:00.000Z"}
    problem(client.post("/users", json=body), 400, "validation", ["body.id", "body.createdAt"])
    problem(client.post("/orders", json={"productId": USER, "quantity": "5"}), 400, "validation", ["body.quantity"])
    # The order's user is the caller: a userId in the body is an unknown field, whoever it names.
    for owner in (USER, ADMIN.id):
        order = {"userId": owner, "productId": USER, "quantity": 1}
        problem(client.post("/orders", json=order), 400, "validation", ["body.userId"])
    problem(client.patch(f"/users/{USER}", json={}), 400, "validation", ["body"])


def test_an_unreachable_database_is_a_503_and_the_process_keeps_serving(client: TestClient) -> None:
    for path in ("/ready", f"/users/{USER}", "/orders?limit=1"):
        response = client.get(path)
        problem(response, 503, "unavailable")
        assert response.headers["retry-after"] == "1"
    problem(client.post("/auth/login", json={"email": "a@b.co", "password": "x"}), 503, "unavailable")
    assert client.get("/health").status_code == 200


# ---- who may call what: the caller's checks come before everything about the request itself ----------------

# Every operation that needs a caller, with a request that would otherwise reach its validation: (method, path).
SIGNED_IN = [
    (method, template.replace(":id", USER))
    for template, methods in contract.methods_by_path().items()
    for method in methods
    if method != "HEAD"
    and contract.openapi_document()["paths"][template.replace(":id", "{id}")][method.lower()]["security"]
]
ADMIN_ONLY = [
    ("GET", "/users"),
    ("POST", "/users"),
    ("POST", "/products"),
    ("PATCH", f"/products/{USER}"),
    ("DELETE", f"/products/{USER}"),
    ("DELETE", f"/orders/{USER}"),
]


def test_the_route_lists_follow_the_contract() -> None:
    # 14 operations need a caller (docs/api.md "Authorization"); the admin's each document a 403.
    assert len(SIGNED_IN) == 14
    assert set(ADMIN_ONLY) <= set(SIGNED_IN)
    for method, path in ADMIN_ONLY:
        template = path.replace(USER, "{id}")
        assert "403" in contract.openapi_document()["paths"][template][method.lower()]["responses"]


@pytest.mark.parametrize(("method", "path"), SIGNED_IN)
def test_no_token_is_a_401_challenging_for_a_bearer_token(anonymous: TestClient, method: str, path: str) -> None:
    for headers in ({}, {"authorization": "Basic dXNlcjpwYXNz"}, {"authorization": ""}):
        response = anonymous.request(method, path, headers=headers)
        problem(response, 401, "unauthorized")
        assert response.headers["www-authenticate"] == CHALLENGE["missing"]


@pytest.mark.parametrize(
    "authorization",
    [
        "Bearer",
        "Bearer a.b.c",
        "Bearer not-a-jwt",
        f"Bearer {issue_token(USER, 'another-secret-0123456789abcdef01')}",
        f"Bearer {issue_token(USER, SETTINGS.jwt_secret, now=1_700_000_000)}",  # expired
        f"Bearer {issue_token('not-a-uuid', SETTINGS.jwt_secret)}",
    ],
)
def test_a_refused_token_is_a_401_with_invalid_token(anonymous: TestClient, authorization: str) -> None:
    response = anonymous.get("/auth/me", headers={"authorization": authorization})
    problem(response, 401, "unauthorized")
    assert response.headers["www-authenticate"] == CHALLENGE["invalid_token"]


def test_a_valid_token_is_checked_against_the_database(anonymous: TestClient) -> None:
    # The user's current role is read on every request: an unreachable database is a 503, never a pass.
    token = issue_token(USER, SETTINGS.jwt_secret)
    problem(anonymous.get("/auth/me", headers={"authorization": f"Bearer {token}"}), 503, "unavailable")


@pytest.mark.parametrize(
    ("headers", "body"),
    [
        ({"content-type": "text/plain"}, b"quantity=1"),  # not a 415
        (JSON, b'{"productId":"x","quantity":1,"pad":"' + b"x" * (1024 * 1024) + b'"}'),  # not a 413
        (JSON, b"{"),  # not malformed JSON
        (JSON, b'{"userId":"x"}'),  # not a validation error
    ],
)
def test_without_a_token_nothing_about_the_request_is_looked_at(
    anonymous: TestClient, headers: dict, body: bytes
) -> None:
    for method, path in (("POST", "/orders"), ("PATCH", f"/orders/{USER}"), ("POST", "/products")):
        response = anonymous.request(method, path, content=body, headers=headers)
        problem(response, 401, "unauthorized")
        assert response.headers["www-authenticate"] == CHALLENGE["missing"]
    problem(anonymous.get("/users/not-a-uuid?unknown=1"), 401, "unauthorized")


def test_routing_comes_before_the_caller(anonymous: TestClient) -> None:
    problem(anonymous.get("/orders/not-a-uuid/items"), 404, "notFound")
    problem(anonymous.put(f"/users/{USER}"), 405, "methodNotAllowed")
    problem(anonymous.delete("/users"), 405, "methodNotAllowed")


@pytest.mark.parametrize(("method", "path"), ADMIN_ONLY)
def test_a_customer_on_an_admin_route_is_a_403_insufficient_scope(customer: TestClient, method: str, path: str) -> None:
    response = customer.request(method, path, content=b'{"name":"x"}', headers=JSON)
    body = problem(response, 403, "forbidden")
    assert response.headers["www-authenticate"] == CHALLENGE["insufficient_scope"]
    assert "admin" in body["detail"]


def test_the_role_comes_before_the_request_itself(customer: TestClient) -> None:
    # A caller who may not call a route learns nothing about its body, its path or its query.
    for method, path, headers, body in (
        ("POST", "/products", JSON, b'{"name":'),  # malformed JSON
        ("POST", "/products", {"content-type": "text/plain"}, b"x"),  # a 415 otherwise
        ("POST", "/users", JSON, b'{"name":"' + b"x" * (2 * 1024 * 1024) + b'"}'),  # a 413 otherwise
        ("POST", "/users", JSON, b'{"unknown":true}'),  # a validation error otherwise
        ("PATCH", "/products/not-a-uuid", JSON, b'{"stock":1}'),
        ("DELETE", "/orders/not-a-uuid", {}, b""),
        ("GET", "/users?limit=0", {}, b""),
    ):
        problem(customer.request(method, path, content=body, headers=headers), 403, "forbidden")


def test_a_customer_reaches_the_routes_they_may_call(customer: TestClient) -> None:
    # Past the caller's checks: the request's own (a 400), then the database (unreachable here: 503).
    problem(customer.patch("/users/not-a-uuid", json={"name": "x"}), 400, "validation", ["params.id"])
    problem(customer.post("/orders", content=b"{", headers=JSON), 400, "malformedJson")
    problem(customer.get(f"/orders/{USER}"), 503, "unavailable")
    problem(customer.patch(f"/orders/{USER}", json={"status": "cancelled"}), 503, "unavailable")


@pytest.mark.parametrize("status", ["pending", "shipped", "delivered"])
def test_a_customer_setting_a_status_other_than_cancelled_is_a_403_before_any_query(
    customer: TestClient, status: str
) -> None:
    response = customer.patch(f"/orders/{USER}", json={"status": status})
    problem(response, 403, "forbidden")
    assert response.headers["www-authenticate"] == CHALLENGE["insufficient_scope"]
    # Still after the body's own checks: the status it asks for is part of the decision.
    problem(customer.patch(f"/orders/{USER}", json={"status": "lost"}), 400, "validation", ["body.status"])


def test_the_admin_passes_every_check_of_the_caller(client: TestClient) -> None:
    problem(client.get("/users"), 503, "unavailable")
    problem(client.delete(f"/orders/{USER}"), 503, "unavailable")
    problem(client.patch(f"/orders/{USER}", json={"status": "shipped"}), 503, "unavailable")


def test_metrics_label_routes_by_template(client: TestClient) -> None:
    client.get("/users/not-a-uuid")
    client.get("/definitely/not/here")
    client.delete("/health")
    text = client.get("/metrics").text
    assert client.get("/metrics").headers["content-type"] == "text/plain; version=0.0.4; charset=utf-8"
    assert re.search(r'http_requests_total\{[^}]*method="GET",route="/users/:id",status="400"\}', text)
    assert re.search(r'http_requests_total\{[^}]*method="GET",route="unmatched",status="404"\}', text)
    assert re.search(r'http_requests_total\{[^}]*method="DELETE",route="/health",status="405"\}', text)
    assert "http_request_duration_seconds_bucket" in text
    assert "not-a-uuid" not in text and "/definitely" not in text


def test_problem_bodies_carry_nothing_internal(client: TestClient) -> None:
    for response in (client.get(f"/users/{USER}"), client.post("/echo", content=b"{", headers=JSON)):
        text = json.dumps(response.json())
        assert "asyncpg" not in text and "Traceback" not in text and ".py" not in text


@pytest.mark.parametrize(
    ("message", "status", "kind"),
    [
        # A query sent on a pooled connection whose session PostgreSQL had just ended (the fault suite's outage).
        ("cannot switch to state 12; another operation (2) is in progress", 503, "unavailable"),
        ("some other protocol bug", 500, "internal"),
    ],
)
def test_asyncpg_internal_client_errors(
    client: TestClient, monkeypatch: pytest.MonkeyPatch, message: str, status: int, kind: str
) -> None:
    import asyncpg

    from api_core.data import users

    async def broken(*_args: object) -> None:
        raise asyncpg.InternalClientError(message)

    monkeypatch.setattr(users, "get_user", broken)
    problem(client.get(f"/users/{USER}"), status, kind)
