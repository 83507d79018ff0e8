"""Routes on a fake database, in FastAPI's testing idiom: `TestClient` with `app.dependency_overrides` replacing
the `get_db` dependency every router takes. test_app.py covers what is decided before any query (against an
unreachable PostgreSQL); this file covers what a route does with the data it gets: the caller read from a real
token and the role their row holds now, the success path, the not-found problem from the data layer (another
customer's row included), and the lifespan that closes the pool."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import pytest
from fastapi.testclient import TestClient
from tests.test_app import CHALLENGE, JSON_TYPE, SETTINGS, USER, problem

from api_contract.cursor import decode_cursor
from api_core.dto import USER_COLUMNS
from api_core.security import hash_password_sync, issue_token
from app import main
from app.api.deps import get_db
from app.main import create_app

CREATED = datetime(2025, 1, 1, tzinfo=UTC)
STAMP = "2025-01-01T00:00:00.000Z"
OTHER = "00000000-0000-4000-8000-000000000002"
ADMIN = "00000000-0000-4000-8000-000000000003"
MISSING = "00000000-0000-4000-8000-00000000ffff"
PASSWORD = "seed-password-1"


def row(user_id: str, name: str, role: str = "customer") -> dict[str, Any]:
    email = f"{name.lower()}@example.com"
    return {"id": user_id, "email": email, "name": name, "role": role, "created_at": CREATED, "updated_at": CREATED}


def bearer(user_id: str) -> dict[str, str]:
    return {"authorization": f"Bearer {issue_token(user_id, SETTINGS.jwt_secret)}"}


class FakeDatabase:
    """Answers the statements these tests send (the caller's role, a user by id — the customer's condition included —
    a user deleted by id, a page of users, a login's lookup, a registration) from a dict of rows, and fails the test
    on any other, so a route that starts querying differently is noticed. A page's statements are kept in
    `listed`."""

    def __init__(self) -> None:
        self.users = {USER: row(USER, "Ada"), OTHER: row(OTHER, "Grace"), ADMIN: row(ADMIN, "Root", "admin")}
        self.password_hash = hash_password_sync(PASSWORD, bytes(16))
        self.closed = False
        self.listed: list[tuple[str, list[Any], str | None]] = []

    def _reachable(self, args: tuple[Any, ...]) -> dict[str, Any] | None:
        """`WHERE id = $1`, and for a customer `AND id = $2` (themself): the row only if both hold."""
        found = self.users.get(args[0])
        return found if found is not None and all(a == args[0] for a in args[1:]) else None

    async def fetchrow(self, query: str, *args: Any) -> dict[str, Any] | None:
        if query == "SELECT id, role FROM users WHERE id = $1":
            return self._reachable(args)
        if query == "SELECT id, password_hash FROM users WHERE email = $1":
            match = [u for u in self.users.values() if u["email"] == args[0]]
            return {"id": match[0]["id"], "password_hash": self.password_hash} if match else None
        if query == f"INSERT INTO users (email, name, password_hash) VALUES ($1, $2, $3) RETURNING {USER_COLUMNS}":
            new = {**row(str(uuid.uuid4()), args[1]), "email": args[0]}
            self.users[new["id"]] = new
            return new
        assert query in (
            f"SELECT {USER_COLUMNS} FROM users WHERE id = $1",
            f"SELECT {USER_COLUMNS} FROM users WHERE id = $1 AND id = $2",
        ), query
        return self._reachable(args)

    async def fetchval(self, query: str, *args: Any) -> str | None:
        assert query in (
            "DELETE FROM users WHERE id = $1 RETURNING id",
            "DELETE FROM users WHERE id = $1 AND id = $2 RETURNING id",
        ), query
        found = self._reachable(args)
        return self.users.pop(found["id"])["id"] if found else None

    async def fetch_page(
        self, select: str, select_args: list[Any], count: str | None, count_args: list[Any]
    ) -> tuple[list[dict[str, Any]], int | None]:
        """The users in the order they were added, as many as the statement's LIMIT (its last parameter but the
        OFFSET) takes; where a cursor starts is not the fake's to decide."""
        assert select.lstrip("(").startswith(f"SELECT {USER_COLUMNS} FROM users"), select
        self.listed.append((select, select_args, count))
        limit = select_args[-2] if "OFFSET" in select else select_args[-1]
        return list(self.users.values())[:limit], None if count is None else len(self.users)

    async def close(self) -> None:
        self.closed = True


@pytest.fixture
def fake() -> FakeDatabase:
    return FakeDatabase()


@pytest.fixture
def client(fake: FakeDatabase) -> Iterator[TestClient]:
    app = create_app(SETTINGS)
    app.dependency_overrides[get_db] = lambda: fake
    with TestClient(app, raise_server_exceptions=False) as test_client:
        yield test_client


def test_get_user_answers_the_row_as_the_contracts_dto(client: TestClient) -> None:
    response = client.get(f"/users/{USER}", headers=bearer(USER))
    assert response.status_code == 200
    assert response.headers["content-type"] == JSON_TYPE
    assert response.json() == {
        "id": USER,
        "email": "ada@example.com",
        "name": "Ada",
        "role": "customer",
        "createdAt": STAMP,
        "updatedAt": STAMP,
    }


def test_an_id_the_database_does_not_hold_is_the_not_found_problem(client: TestClient) -> None:
    body = problem(client.get(f"/users/{MISSING}", headers=bearer(ADMIN)), 404, "notFound")
    assert MISSING in body["detail"]


def test_another_customers_row_is_a_404_exactly_as_a_missing_one(client: TestClient, fake: FakeDatabase) -> None:
    other = problem(client.get(f"/users/{OTHER}", headers=bearer(USER)), 404, "notFound")
    missing = problem(client.get(f"/users/{MISSING}", headers=bearer(USER)), 404, "notFound")
    assert other["detail"].replace(OTHER, "<id>") == missing["detail"].replace(MISSING, "<id>")
    problem(client.delete(f"/users/{OTHER}", headers=bearer(USER)), 404, "notFound")
    assert OTHER in fake.users


def test_the_admin_reaches_every_user(client: TestClient) -> None:
    assert client.get(f"/users/{OTHER}", headers=bearer(ADMIN)).json()["name"] == "Grace"
    listed = client.get("/users", headers=bearer(ADMIN))
    assert listed.status_code == 200
    assert {u["role"] for u in listed.json()["data"]} == {"customer", "admin"}


def test_a_response_models_bytes_are_the_contracts(client: TestClient) -> None:
    """The routes answer through `response_model`: fields in the contract's order (a list's `data` first), nothing
    added, no nulls for what the row lacks, bytes as JSON.stringify writes them."""
    listed = client.get("/users?limit=2", headers=bearer(ADMIN))
    assert listed.headers["content-type"] == JSON_TYPE
    assert list(listed.json()) == ["data", "page", "limit", "total", "pages", "nextCursor"]
    one = client.get(f"/users/{USER}", headers=bearer(USER))
    user = f'"id":"{USER}","email":"ada@example.com","name":"Ada","role":"customer"'
    assert one.content == f'{{{user},"createdAt":"{STAMP}","updatedAt":"{STAMP}"}}'.encode()


def test_a_list_is_counted_only_when_asked(client: TestClient, fake: FakeDatabase) -> None:
    listed = client.get("/users", headers=bearer(ADMIN)).json()
    assert {k: listed[k] for k in ("page", "limit", "total", "pages", "nextCursor")} == {
        "page": 1,
        "limit": 20,
        "total": None,
        "pages": None,
        "nextCursor": None,
    }
    counted = client.get("/users?total=true&limit=2", headers=bearer(ADMIN)).json()
    assert (counted["total"], counted["pages"]) == (3, 2)
    assert [count for _, _, count in fake.listed] == [None, "SELECT count(*) FROM users "]


def test_a_list_goes_on_from_its_next_cursor(client: TestClient, fake: FakeDatabase) -> None:
    first = client.get("/users?limit=2", headers=bearer(ADMIN)).json()
    assert [u["id"] for u in first["data"]] == [USER, OTHER]
    assert decode_cursor(first["nextCursor"], "-createdAt") == (STAMP, OTHER)
    after = client.get(f"/users?limit=2&cursor={first['nextCursor']}", headers=bearer(ADMIN))
    assert after.status_code == 200
    assert after.json()["page"] is None
    select, args, _ = fake.listed[-1]
    assert "WHERE created_at = $1::timestamptz AND id > $2 " in select
    assert "WHERE created_at < $1::timestamptz " in select
    assert args == [CREATED, OTHER, 3]


def test_a_row_its_response_model_refuses_is_a_500(client: TestClient, fake: FakeDatabase) -> None:
    fake.users[USER]["role"] = "owner"  # no role of the contract's
    problem(client.get(f"/users/{USER}", headers=bearer(ADMIN)), 500, "internal")


def test_a_204_has_no_body_and_no_content_type(client: TestClient) -> None:
    response = client.delete(f"/users/{OTHER}", headers=bearer(ADMIN))
    assert (response.status_code, response.content) == (204, b"")
    assert "content-type" not in response.headers


def test_a_customer_on_an_admin_route_is_a_403(client: TestClient) -> None:
    response = client.get("/users", headers=bearer(USER))
    problem(response, 403, "forbidden")
    assert response.headers["www-authenticate"] == CHALLENGE["insufficient_scope"]


def test_the_role_is_the_one_the_database_holds_now(client: TestClient, fake: FakeDatabase) -> None:
    token = bearer(OTHER)
    assert client.get("/users", headers=token).status_code == 403
    fake.users[OTHER]["role"] = "admin"  # the same token, a changed role: it counts at once
    assert client.get("/users", headers=token).status_code == 200


def test_a_deleted_users_token_is_a_401_on_every_route(client: TestClient) -> None:
    token = bearer(OTHER)
    response = client.delete(f"/users/{OTHER}", headers=token)
    assert (response.status_code, response.content) == (204, b"")
    for path in ("/auth/me", f"/users/{OTHER}", "/users"):
        response = client.get(path, headers=token)
        body = problem(response, 401, "unauthorized")
        assert response.headers["www-authenticate"] == CHALLENGE["invalid_token"]
        assert body["detail"] == "The token's user no longer exists."


def test_delete_user_is_a_204_without_a_body_and_the_row_is_gone(client: TestClient, fake: FakeDatabase) -> None:
    response = client.delete(f"/users/{USER}", headers=bearer(ADMIN))
    assert (response.status_code, response.content) == (204, b"")
    assert USER not in fake.users
    problem(client.delete(f"/users/{USER}", headers=bearer(ADMIN)), 404, "notFound")


def test_me_is_the_caller_and_no_cache_keeps_it(client: TestClient) -> None:
    response = client.get("/auth/me", headers=bearer(ADMIN))
    assert response.status_code == 200
    assert response.json()["role"] == "admin"
    assert response.headers["cache-control"] == "no-store"


def test_login_is_not_cached_and_wrong_credentials_challenge_for_a_bearer_token(client: TestClient) -> None:
    response = client.post("/auth/login", json={"email": "ada@example.com", "password": PASSWORD})
    assert response.status_code == 200
    assert response.headers["cache-control"] == "no-store"
    assert client.get("/auth/me", headers={"authorization": f"Bearer {response.json()['token']}"}).json()["id"] == USER
    wrong = client.post("/auth/login", json={"email": "ada@example.com", "password": "wrong-password"})
    problem(wrong, 401, "unauthorized")
    assert wrong.headers["www-authenticate"] == CHALLENGE["missing"]
    assert "cache-control" not in wrong.headers


def test_register_makes_a_customer_and_no_cache_keeps_the_token(client: TestClient) -> None:
    response = client.post("/auth/register", json={"email": "new@example.com", "name": "New", "password": PASSWORD})
    assert response.status_code == 201
    assert response.headers["cache-control"] == "no-store"
    assert response.json()["user"]["role"] == "customer"


def test_the_lifespan_closes_the_database_on_shutdown(monkeypatch: pytest.MonkeyPatch, fake: FakeDatabase) -> None:
    async def no_pool(*_: Any) -> None:
        return None

    monkeypatch.setattr(main, "create_pool", no_pool)
    monkeypatch.setattr(main, "Database", lambda _pool: fake)
    with TestClient(create_app(SETTINGS)) as client:
        assert client.get(f"/users/{USER}", headers=bearer(USER)).status_code == 200
        assert not fake.closed
    assert fake.closed
