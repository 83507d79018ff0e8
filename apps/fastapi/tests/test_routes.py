"""Routes on a fake database, in FastAPI's testing idiom: `TestClient` with `app.dependency_overrides` replacing
the `database` dependency every router takes. test_app.py covers what is decided before any query (against an
unreachable PostgreSQL); this file covers what a route does with the data it gets: the success path, the
not-found problem from the data layer, and the lifespan that closes the pool."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import pytest
from fastapi.testclient import TestClient
from tests.test_app import JSON_TYPE, SETTINGS, USER, problem

from app import main
from app.dependencies import database
from app.main import create_app

CREATED = datetime(2025, 1, 1, tzinfo=UTC)
ROW = {"id": USER, "email": "ada@example.com", "name": "Ada", "created_at": CREATED, "updated_at": CREATED}
MISSING = "00000000-0000-4000-8000-00000000ffff"


class FakeDatabase:
    """Answers the two statements these tests send (a user by id, a user deleted by id) from a dict of rows,
    and fails the test on any other, so a route that starts querying differently is noticed."""

    def __init__(self) -> None:
        self.users = {USER: ROW}
        self.closed = False

    async def fetchrow(self, query: str, *args: Any) -> dict[str, Any] | None:
        assert query.startswith("SELECT") and query.endswith("FROM users WHERE id = $1"), query
        return self.users.get(args[0])

    async def fetchval(self, query: str, *args: Any) -> str | None:
        assert query == "DELETE FROM users WHERE id = $1 RETURNING id", query
        return self.users.pop(args[0], {}).get("id")

    async def close(self) -> None:
        self.closed = True


@pytest.fixture
def fake() -> FakeDatabase:
    return FakeDatabase()


@pytest.fixture
def client(fake: FakeDatabase) -> Iterator[TestClient]:
    app = create_app(SETTINGS)
    app.dependency_overrides[database] = lambda: fake
    with TestClient(app, raise_server_exceptions=False) as test_client:
        yield test_client


def test_get_user_answers_the_row_as_the_contracts_dto(client: TestClient) -> None:
    response = client.get(f"/users/{USER}")
    assert response.status_code == 200
    assert response.headers["content-type"] == JSON_TYPE
    stamp = "2025-01-01T00:00:00.000Z"
    assert response.json() == {"id": USER, "email": ROW["email"], "name": "Ada", "createdAt": stamp, "updatedAt": stamp}


def test_an_id_the_database_does_not_hold_is_the_not_found_problem(client: TestClient) -> None:
    body = problem(client.get(f"/users/{MISSING}"), 404, "notFound")
    assert MISSING in body["detail"]


def test_delete_user_is_a_204_without_a_body_and_the_row_is_gone(client: TestClient, fake: FakeDatabase) -> None:
    response = client.delete(f"/users/{USER}")
    assert (response.status_code, response.content) == (204, b"")
    assert fake.users == {}
    problem(client.delete(f"/users/{USER}"), 404, "notFound")


def test_the_lifespan_closes_the_database_on_shutdown(monkeypatch: pytest.MonkeyPatch, fake: FakeDatabase) -> None:
    async def no_pool(*_: Any) -> None:
        return None

    monkeypatch.setattr(main, "create_pool", no_pool)
    monkeypatch.setattr(main, "Database", lambda _pool: fake)
    with TestClient(create_app(SETTINGS)) as client:
        assert client.get(f"/users/{USER}").status_code == 200
        assert not fake.closed
    assert fake.closed
