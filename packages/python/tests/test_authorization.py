"""Who may do what, as packages/data-access decides it: the caller read from the token and the database, the 401 and 403
problems with their challenges, and ownership as a condition of each statement (never a row read and compared); and
a login, which replaces a password hash made with older scrypt parameters once the password is known to be right.

A recording fake stands in for the pool: each test sees the statements the data access sends, and what they answer
is scripted. That the SQL does what it says on PostgreSQL is the contract suite's part (it runs FastAPI on a real
database)."""

from __future__ import annotations

import asyncio
import base64
import hashlib
import time
from collections.abc import Callable, Iterator
from contextlib import asynccontextmanager
from typing import Any

import asyncpg
import pytest

from api_contract.models import CreateOrderBody, ListOrdersQuery, LoginBody
from api_contract.problems import ProblemError
from api_core.data import auth, orders, users
from api_core.principal import Principal, forbidden, require_admin, unauthorized
from api_core.security import (
    SCRYPT_N,
    SCRYPT_P,
    SCRYPT_R,
    issue_token,
    needs_rehash,
    verify_bearer,
    verify_password_sync,
)
from api_core.settings import Settings

SECRET = "0123456789abcdef0123456789abcdef"
SETTINGS = Settings(
    port=0,
    host="127.0.0.1",
    database_url="postgres://u@127.0.0.1/db",
    jwt_secret=SECRET,
    log_level="silent",
    pool_size=1,
    workers=1,
    shutdown_grace_seconds=1,
)
CUSTOMER = Principal(id="00000000-0000-4000-8000-000000000001", role="customer")
ADMIN = Principal(id="00000000-0000-4000-8000-000000000003", role="admin")
OTHER = "00000000-0000-4000-8000-000000000002"
ORDER = "00000000-0000-4000-8000-0000000000aa"
PRODUCT = "00000000-0000-4000-8000-000000000104"
INVALID_TOKEN = 'Bearer error="invalid_token"'


class RecordingDatabase:
    """Api_core's Database as far as these tests need it: every statement is recorded with its arguments, and
    `answer(query, args)` decides what it returns (or raises)."""

    def __init__(self, answer: Callable[[str, tuple[Any, ...]], Any] = lambda _q, _a: None) -> None:
        self.statements: list[tuple[str, tuple[Any, ...]]] = []
        self.answer = answer

    async def _run(self, query: str, *args: Any) -> Any:
        self.statements.append((" ".join(query.split()), args))
        result = self.answer(query, args)
        if isinstance(result, BaseException):
            raise result
        return result

    fetchrow = fetchval = execute = fetch = _run

    async def fetch_page(self, select: str, select_args: list[Any], count: str | None, count_args: list[Any]) -> Any:
        await self._run(select, *select_args)
        if count is not None:
            await self._run(count, *count_args)
        return [], None if count is None else 0

    @asynccontextmanager
    async def acquire(self) -> Any:
        yield self

    @asynccontextmanager
    async def transaction(self) -> Any:
        yield

    def where(self) -> list[str]:
        """Each statement's text from its WHERE on."""
        return [q[q.index("WHERE") :] if "WHERE" in q else "" for q, _ in self.statements]


def run(coroutine: Any) -> Any:
    return asyncio.run(coroutine)


def refused(coroutine: Any) -> ProblemError:
    with pytest.raises(ProblemError) as raised:
        run(coroutine)
    return raised.value


# ---- who is calling ---------------------------------------------------------------------------------------------


def test_the_caller_is_the_tokens_user_with_the_role_the_database_holds_now() -> None:
    db = RecordingDatabase(lambda _q, args: {"id": args[0], "role": "admin"})
    principal = run(auth.authenticate(db, SETTINGS, f"Bearer {issue_token(ADMIN.id, SECRET)}"))
    assert principal == ADMIN
    assert db.statements == [("SELECT id, role FROM users WHERE id = $1", (ADMIN.id,))]


def test_a_deleted_users_token_is_a_401_with_invalid_token() -> None:
    db = RecordingDatabase()
    problem = refused(auth.authenticate(db, SETTINGS, f"Bearer {issue_token(OTHER, SECRET)}"))
    assert (problem.status, problem.detail) == (401, "The token's user no longer exists.")
    assert problem.headers == {"www-authenticate": INVALID_TOKEN}


@pytest.mark.parametrize(
    ("authorization", "challenge"),
    [
        (None, "Bearer"),
        ("Basic dXNlcjpwYXNz", "Bearer"),
        ("Bearer nope", INVALID_TOKEN),
        (f"Bearer {issue_token(CUSTOMER.id, 'another-secret-0123456789abcdef01')}", INVALID_TOKEN),
        (f"Bearer {issue_token(CUSTOMER.id, SECRET, now=int(time.time()) - 7200)}", INVALID_TOKEN),
    ],
)
def test_a_request_without_a_valid_token_is_refused_before_any_query(authorization: str | None, challenge: str) -> None:
    db = RecordingDatabase()
    problem = refused(auth.authenticate(db, SETTINGS, authorization))
    assert problem.status == 401 and problem.headers == {"www-authenticate": challenge}
    assert db.statements == []


def test_wrong_credentials_at_login_are_challenged_with_bearer_alone() -> None:
    body = LoginBody.model_validate({"email": "nobody@example.com", "password": "whatever-1"})
    problem = refused(auth.login(RecordingDatabase(), SECRET, body))
    assert problem.status == 401 and problem.headers == {"www-authenticate": "Bearer"}


# ---- logging in: a hash made with older scrypt parameters is made anew -------------------------------------------

PASSWORD = "seed-password-1"
LOOKUP = "SELECT id, password_hash FROM users WHERE email = $1"
REHASH = "UPDATE users SET password_hash = $1, updated_at = now() WHERE id = $2"


def hash_with(n: int, r: int, p: int, password: str = PASSWORD) -> str:
    """A hash in the shared format, made with the given parameters (what an older release stored)."""
    salt = bytes(range(16))
    key = hashlib.scrypt(password.encode(), salt=salt, n=n, r=r, p=p, maxmem=64 * 1024 * 1024, dklen=64)
    return f"scrypt${n}${r}${p}${base64.b64encode(salt).decode()}${base64.b64encode(key).decode()}"


def logging_in(stored: str, password: str = PASSWORD) -> tuple[RecordingDatabase, Any]:
    db = RecordingDatabase(lambda q, _a: {"id": CUSTOMER.id, "password_hash": stored} if q == LOOKUP else None)
    body = LoginBody.model_validate({"email": "Ada@Example.com", "password": password})
    return db, auth.login(db, SECRET, body)


@pytest.mark.parametrize(("n", "r", "p"), [(16384, 8, 1), (1024, 8, 1), (16384, 4, 5)])
def test_a_login_replaces_a_hash_made_with_older_parameters(n: int, r: int, p: int) -> None:
    db, login = logging_in(hash_with(n, r, p))
    answer = run(login)
    assert verify_bearer(f"Bearer {answer['token']}", SECRET) == CUSTOMER.id
    assert [q for q, _ in db.statements] == [LOOKUP, REHASH]
    assert db.statements[0][1] == ("ada@example.com",)
    new_hash, user_id = db.statements[1][1]
    assert user_id == CUSTOMER.id
    # Today's parameters (N=16384, r=8, p=5), a fresh salt, and the same password.
    assert new_hash.startswith(f"scrypt${SCRYPT_N}${SCRYPT_R}${SCRYPT_P}$") and not needs_rehash(new_hash)
    assert new_hash.split("$")[4] != base64.b64encode(bytes(range(16))).decode()
    assert verify_password_sync(PASSWORD, new_hash)


def test_a_login_keeps_a_hash_made_with_todays_parameters() -> None:
    db, login = logging_in(hash_with(SCRYPT_N, SCRYPT_R, SCRYPT_P))
    assert run(login)["tokenType"] == "Bearer"
    assert [q for q, _ in db.statements] == [LOOKUP]


def test_a_wrong_password_leaves_an_old_hash_as_it_is() -> None:
    db, login = logging_in(hash_with(16384, 8, 1), password="wrong-password-1")
    problem = refused(login)
    assert problem.status == 401 and problem.headers == {"www-authenticate": "Bearer"}
    assert [q for q, _ in db.statements] == [LOOKUP]


def test_a_user_without_a_password_is_refused_and_nothing_is_written() -> None:
    # Users made by POST /users have no password: they cannot log in, and no hash is made for them.
    db = RecordingDatabase(lambda q, _a: {"id": CUSTOMER.id, "password_hash": None} if q == LOOKUP else None)
    body = LoginBody.model_validate({"email": "ada@example.com", "password": PASSWORD})
    assert refused(auth.login(db, SECRET, body)).status == 401
    assert [q for q, _ in db.statements] == [LOOKUP]


def test_me_is_the_callers_own_row() -> None:
    db = RecordingDatabase()
    assert refused(auth.me(db, CUSTOMER)).status == 401  # deleted since the token was checked
    assert db.statements[0][1] == (CUSTOMER.id,)


# ---- the role -------------------------------------------------------------------------------------------------


def test_require_admin() -> None:
    require_admin(ADMIN)
    with pytest.raises(ProblemError) as raised:
        require_admin(CUSTOMER)
    problem = raised.value
    assert (problem.status, problem.kind) == (403, "forbidden")
    assert problem.headers == {"www-authenticate": 'Bearer error="insufficient_scope"'}
    assert problem.to_json()["type"] == "/problems/forbidden"


def test_each_problem_has_its_own_headers() -> None:
    first, second = unauthorized("a"), forbidden()
    first.headers["x"] = "y"
    assert unauthorized("b").headers == {"www-authenticate": INVALID_TOKEN}
    assert second.headers == {"www-authenticate": 'Bearer error="insufficient_scope"'}


@pytest.mark.parametrize("status", ["pending", "shipped", "delivered"])
def test_a_customer_may_set_no_status_but_cancelled_whichever_order_it_names(status: str) -> None:
    db = RecordingDatabase()
    problem = refused(orders.update_order_status(db, ORDER, status, CUSTOMER))
    assert problem.status == 403 and problem.headers == {"www-authenticate": 'Bearer error="insufficient_scope"'}
    assert db.statements == []  # decided before looking at the order


# ---- ownership: a condition of the statement -------------------------------------------------------------------


@pytest.fixture
def missing() -> Iterator[RecordingDatabase]:
    """A database in which nothing matches: every read and write finds no row."""
    yield RecordingDatabase()


def test_a_customer_reaches_only_themself(missing: RecordingDatabase) -> None:
    assert refused(users.get_user(missing, OTHER, CUSTOMER)).status == 404
    assert refused(users.update_user(missing, OTHER, {"name": "x"}, CUSTOMER)).status == 404
    assert refused(users.delete_user(missing, OTHER, CUSTOMER)).status == 404
    assert missing.where() == [
        "WHERE id = $1 AND id = $2",
        "WHERE id = $1 AND id = $3 RETURNING id, email, name, role, created_at, updated_at",
        "WHERE id = $1 AND id = $2 RETURNING id",
    ]
    assert [args for _, args in missing.statements] == [
        (OTHER, CUSTOMER.id),
        (OTHER, "x", CUSTOMER.id),
        (OTHER, CUSTOMER.id),
    ]


def test_an_admin_reaches_every_user(missing: RecordingDatabase) -> None:
    for call in (
        users.get_user(missing, OTHER, ADMIN),
        users.update_user(missing, OTHER, {"name": "x"}, ADMIN),
        users.delete_user(missing, OTHER, ADMIN),
    ):
        assert refused(call).status == 404
    assert [w.split(" RETURNING")[0] for w in missing.where()] == ["WHERE id = $1"] * 3


def test_a_customer_reaches_only_their_own_orders(missing: RecordingDatabase) -> None:
    query = ListOrdersQuery.model_validate({"userId": OTHER, "include": "user", "total": "true"})
    run(orders.list_orders(missing, query, CUSTOMER))
    assert refused(orders.get_order(missing, ORDER, None, CUSTOMER)).status == 404
    assert refused(orders.update_order_status(missing, ORDER, "cancelled", CUSTOMER)).status == 404
    assert missing.where() == [
        "WHERE o.user_id = $1 AND o.user_id = $2 ORDER BY o.created_at DESC, o.id LIMIT $3 OFFSET $4",
        "WHERE o.user_id = $1 AND o.user_id = $2",
        "WHERE o.id = $1 AND o.user_id = $2",
        "WHERE o.id = $1 AND o.status = ANY($3::order_status[]) AND o.user_id = $4 RETURNING "
        "id, user_id, product_id, quantity, unit_price_cents, total_cents, status, created_at, updated_at",
        "WHERE o.id = $1 AND o.user_id = $2",
    ]
    assert missing.statements[0][1] == (CUSTOMER.id, OTHER, 21, 0)  # then LIMIT (a row past the page) and OFFSET
    assert missing.statements[1][1] == (CUSTOMER.id, OTHER)


def test_an_admin_reaches_every_order(missing: RecordingDatabase) -> None:
    run(orders.list_orders(missing, ListOrdersQuery.model_validate({"total": "true"}), ADMIN))
    assert refused(orders.get_order(missing, ORDER, None, ADMIN)).status == 404
    assert refused(orders.update_order_status(missing, ORDER, "shipped", ADMIN)).status == 404
    assert "user_id = $" not in " ".join(missing.where())


# ---- placing an order ----------------------------------------------------------------------------------------


BODY = CreateOrderBody.model_validate({"productId": PRODUCT, "quantity": 2})


def test_the_order_is_the_callers() -> None:
    def answer(query: str, args: tuple[Any, ...]) -> Any:
        if query.startswith("UPDATE products"):
            return 100
        if query.startswith("INSERT INTO orders"):
            return asyncpg.ForeignKeyViolationError("orders_user_id_fkey")
        return None

    db = RecordingDatabase(answer)
    problem = refused(orders.create_order(db, BODY, CUSTOMER))
    # The caller was deleted after their token was checked: the token no longer names anyone.
    assert (problem.status, problem.detail) == (401, "The token's user no longer exists.")
    assert problem.headers == {"www-authenticate": INVALID_TOKEN}
    (insert,) = [args for q, args in db.statements if q.startswith("INSERT INTO orders")]
    assert insert == (CUSTOMER.id, PRODUCT, 2, 100, 200)


def test_an_idempotency_key_is_its_users() -> None:
    def answer(query: str, args: tuple[Any, ...]) -> Any:
        if query.startswith("INSERT INTO idempotency_keys"):
            return None  # already claimed
        if query.startswith("SELECT request_hash"):
            return {"request_hash": orders.request_hash(BODY), "response_status": 201, "response_body": {"id": ORDER}}
        return None

    db = RecordingDatabase(answer)
    assert run(orders.create_order(db, BODY, CUSTOMER, "key-1")) == {"id": ORDER}
    assert db.statements == [
        (
            "INSERT INTO idempotency_keys (user_id, key, request_hash) VALUES ($1, $2, $3) "
            "ON CONFLICT DO NOTHING RETURNING key",
            (CUSTOMER.id, "key-1", orders.request_hash(BODY)),
        ),
        (
            "SELECT request_hash, response_status, response_body FROM idempotency_keys WHERE user_id = $1 AND key = $2",
            (CUSTOMER.id, "key-1"),
        ),
    ]
