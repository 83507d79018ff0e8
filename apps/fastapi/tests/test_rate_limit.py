"""The abuse limit on POST /auth/register and POST /auth/login (docs/api.md "Abuse limits"), through the whole app
with a small limit: per route and client address, every request counts whatever its outcome (here a 503 or a 400:
the database is unreachable, test_app.py's SETTINGS), and past the limit the answer is the contract's 429 with a
`retry-after`, before anything about the request is read — after routing. Each test starts a fresh app, whose
counters start from nothing."""

from __future__ import annotations

import asyncio
import dataclasses
import math
import time
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient
from tests.test_app import JSON, SETTINGS, problem

from api_core.settings import AUTH_RATE_WINDOW_SECONDS
from app.edges.rate_limit import AuthRateLimit
from app.main import create_app

LIMIT = 3
LOGIN = {"email": "a@b.co", "password": "whatever-password"}


@pytest.fixture
def client() -> Iterator[TestClient]:
    app = create_app(dataclasses.replace(SETTINGS, auth_rate_limit=LIMIT))
    with TestClient(app, raise_server_exceptions=False) as test_client:
        yield test_client


def limited(response) -> int:
    """The 429 problem; its `retry-after`, whole seconds within the window."""
    body = problem(response, 429, "tooManyRequests")
    retry_after = response.headers["retry-after"]
    assert retry_after.isdigit() and 1 <= int(retry_after) <= AUTH_RATE_WINDOW_SECONDS
    assert body["detail"] == f"Too many requests to /auth/login from this address; retry in {retry_after} s."
    return int(retry_after)


def spend_login(client: TestClient) -> None:
    for _ in range(LIMIT):
        assert client.post("/auth/login", json=LOGIN).status_code != 429


def test_the_request_past_the_limit_is_a_429_with_retry_after(client: TestClient) -> None:
    # Whatever their outcome, the first LIMIT are answered (no database here: 503, or 400 for an invalid body).
    problem(client.post("/auth/login", json=LOGIN), 503, "unavailable")
    problem(client.post("/auth/login", json={}), 400, "validation")
    problem(client.post("/auth/login", json=LOGIN), 503, "unavailable")
    assert limited(client.post("/auth/login", json=LOGIN)) > AUTH_RATE_WINDOW_SECONDS - 5
    assert limited(client.post("/auth/login", json=LOGIN)) >= 1


@pytest.mark.parametrize(
    ("headers", "body"),
    [
        ({"content-type": "text/plain"}, b'{"email":"a@b.co"}'),  # else a 415
        (JSON, b'{"email":"' + b"x" * (1024 * 1024) + b'"}'),  # else a 413
        (JSON, b'{"email":'),  # else malformed JSON
        (JSON, b'{"email":"not-an-email"}'),  # else a validation error
    ],
)
def test_past_the_limit_nothing_about_the_request_is_read(client: TestClient, headers: dict, body: bytes) -> None:
    spend_login(client)
    limited(client.post("/auth/login", content=body, headers=headers))


def test_the_429_comes_before_the_415(client: TestClient) -> None:
    text = {"content-type": "text/plain"}
    for _ in range(LIMIT):
        problem(client.post("/auth/login", content=b"x", headers=text), 415, "unsupportedMediaType")
    limited(client.post("/auth/login", content=b"x", headers=text))


def test_routing_comes_before_the_limit(client: TestClient) -> None:
    spend_login(client)
    problem(client.get("/auth/login"), 405, "methodNotAllowed")
    problem(client.post("/auth/login/"), 404, "notFound")


def test_each_route_is_counted_apart(client: TestClient) -> None:
    spend_login(client)
    limited(client.post("/auth/login", json=LOGIN))
    # Register has its own allowance, spent by requests of any outcome.
    for _ in range(LIMIT):
        problem(client.post("/auth/register", json={}), 400, "validation")
    body = problem(client.post("/auth/register", json={}), 429, "tooManyRequests")
    assert body["detail"].startswith("Too many requests to /auth/register from this address")


def test_no_forwarding_header_names_another_address(client: TestClient) -> None:
    # The address is the connection's (and uvicorn's proxy_headers is off: test_server.py checks it over a socket).
    spend_login(client)
    limited(client.post("/auth/login", json=LOGIN, headers={"x-forwarded-for": "203.0.113.7"}))
    limited(client.post("/auth/login", json=LOGIN, headers={"forwarded": "for=203.0.113.7"}))


def test_the_other_routes_are_never_limited(client: TestClient) -> None:
    spend_login(client)
    for _ in range(LIMIT * 2):
        assert client.post("/echo", json={"a": 1}).status_code == 200
        problem(client.get("/auth/me"), 401, "unauthorized")
        assert client.get("/health").status_code == 200


def test_each_route_and_address_has_its_own_counter() -> None:
    limit = AuthRateLimit(1)

    async def hits() -> list[int | None]:
        keys = [("/auth/login", "192.0.2.1"), ("/auth/login", "192.0.2.2"), ("/auth/register", "192.0.2.1")]
        return [await limit.hit(*key) for key in keys] + [await limit.hit("/auth/login", "192.0.2.1")]

    first, second, other_route, again = asyncio.run(hits())
    assert (first, second, other_route) == (None, None, None)
    assert again is not None


def test_retry_after_counts_down_to_the_end_of_the_window(monkeypatch: pytest.MonkeyPatch) -> None:
    now = [1_000_000.0]
    monkeypatch.setattr(time, "time", lambda: now[0])
    limit = AuthRateLimit(2)

    async def hits() -> list[int | None]:
        seen = []
        for at in (0, 1, 1.5, 30.2, 59.9, 60.1, 60.2):
            now[0] = 1_000_000.0 + at
            seen.append(await limit.hit("/auth/login", "192.0.2.1"))
        return seen

    # Two in the window, then the seconds left (rounded up, at least 1); a new window after 60 s.
    assert asyncio.run(hits()) == [None, None, 59, math.ceil(60 - 30.2), 1, None, None]
