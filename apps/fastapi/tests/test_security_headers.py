"""Security headers (docs/api.md "Security headers") through the whole app: every response — a JSON answer, a
problem of any origin (a route's, routing's, the body checks', the rate limit's, an unexpected error's) — carries
`x-content-type-options: nosniff`, `x-frame-options: DENY` and the API's content-security policy, once each; /docs
carries its page's policy instead, the one packages/contract computes (docsContentSecurityPolicy(), exported)."""

from __future__ import annotations

import base64
import dataclasses
import hashlib
import re
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient
from tests.test_app import ADMIN, JSON, SETTINGS, USER

from api_contract import exported as contract
from app.api.deps import get_current_user
from app.main import create_app

API = {
    "x-content-type-options": "nosniff",
    "x-frame-options": "DENY",
    "content-security-policy": "default-src 'none'; frame-ancestors 'none'",
}


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    app = create_app(dataclasses.replace(SETTINGS, auth_rate_limit=1))
    with TestClient(app, raise_server_exceptions=False) as test_client:
        yield test_client


def security_headers(response) -> dict[str, str]:
    """The three headers, each asserted to be sent once."""
    for name in API:
        assert len(response.headers.get_list(name)) == 1, (name, response.headers)
    return {name: response.headers[name] for name in API}


def test_the_values_are_the_contracts() -> None:
    assert {**contract.security_headers(), "content-security-policy": contract.api_content_security_policy()} == API


def test_a_json_answer_carries_them(client: TestClient) -> None:
    response = client.get("/health")
    assert response.status_code == 200
    assert security_headers(response) == API
    assert security_headers(client.head("/health")) == API


@pytest.mark.parametrize(
    ("method", "path", "headers", "body", "status"),
    [
        ("GET", "/no-such-route", {}, b"", 404),
        ("PUT", "/users", {}, b"", 405),
        ("GET", "/auth/me", {}, b"", 401),
        ("POST", "/echo", {"content-type": "text/plain"}, b"x", 415),
        ("POST", "/echo", JSON, b'{"a":' + b" " * (1024 * 1024) + b"1}", 413),
        ("POST", "/echo", JSON, b"{", 400),
        ("GET", "/ready", {}, b"", 503),
        ("PUT", "/docs", {}, b"", 405),  # at /docs, but not the page
        ("GET", "/docs/", {}, b"", 404),
    ],
)
def test_a_problem_carries_them(
    client: TestClient, method: str, path: str, headers: dict, body: bytes, status: int
) -> None:
    response = client.request(method, path, headers=headers, content=body)
    assert response.status_code == status
    assert response.headers["content-type"].startswith("application/problem+json")
    assert security_headers(response) == API


def test_the_rate_limits_429_carries_them(client: TestClient) -> None:
    # The module's app allows one login a window.
    client.post("/auth/login", json={"email": "a@b.co", "password": "whatever-password"})
    response = client.post("/auth/login", json={})
    assert response.status_code == 429
    assert security_headers(response) == API


def test_an_unexpected_error_carries_them(monkeypatch: pytest.MonkeyPatch) -> None:
    # A 500 is sent by Starlette's ServerErrorMiddleware, outside every other middleware.
    from api_core.data import users

    async def broken(*_args: object) -> None:
        raise RuntimeError("a bug")

    monkeypatch.setattr(users, "get_user", broken)
    app = create_app(SETTINGS)
    app.dependency_overrides[get_current_user] = lambda: ADMIN
    with TestClient(app, raise_server_exceptions=False) as test_client:
        response = test_client.get(f"/users/{USER}")
    assert response.status_code == 500
    assert security_headers(response) == API
    assert response.headers["x-request-id"]


def test_docs_carries_its_pages_policy(client: TestClient) -> None:
    for response in (client.get("/docs"), client.head("/docs")):
        assert response.status_code == 200
        policy = contract.docs_content_security_policy()
        assert security_headers(response) == {**API, "content-security-policy": policy}
    # The exported policy is the page's: it allows exactly the inline scripts of the page served, by hash.
    page = client.get("/docs").text
    scripts = re.findall(r"<script>([\s\S]*?)</script>", page)
    hashes = [f"'sha256-{base64.b64encode(hashlib.sha256(s.encode()).digest()).decode()}'" for s in scripts]
    assert len(hashes) == 2
    assert f"script-src {' '.join(hashes)};" in policy
