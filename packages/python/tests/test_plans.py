"""Indexes proven for the Python twin: every list of the contract in every filter, sort and way of paging (a cursor amid
rows that share its sort key included), and every lookup (packages/data-access/test/plans/catalogue.json, the
catalogue the Node data access is proven on), run through api_core's own functions on a database seeded at the
catalogue's scale, with the plan of every statement PostgreSQL executes judged by plan_verdict's rule. The plans come
from auto_explain, which PostgreSQL sends each connection as a NOTICE (scripts/plans-database.ts makes the database;
its reasons are in packages/data-access/test/plans/tap.ts): asyncpg hands notices to a connection's log listeners,
which ExplainingDatabase adds to every connection api_core acquires, so the statements judged are exactly those
api_core sends, with their parameters."""

from __future__ import annotations

import asyncio
import json
import shutil
import subprocess
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlencode

import asyncpg
import pytest
from plan_catalogue import CATALOGUE, LIST_CASES, LOOKUPS, TIE_CASES, ListCase, TieCase, named
from plan_verdict import ALLOWANCES, ROWS_BOUND, explained_in, judge, outline, violations_of

from api_contract.cursor import SORT_KEYS, CursorPosition, encode_cursor
from api_contract.models import CreateOrderBody, ListOrdersQuery, ListProductsQuery, ListUsersQuery, LoginBody
from api_contract.validation import validate
from api_core.data import auth, orders, products, users
from api_core.db import Database, create_pool
from api_core.principal import Principal
from api_core.settings import Settings

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "plans-database.ts"
SECRET = "plans-test-secret-0123456789abcdef"
SEED_PASSWORD = "seed-password-1"  # packages/db's fixtures: every seeded user's
ADMIN = Principal(id="00000000-0000-4000-8000-000000000003", role="admin")  # fixtureUsers.admin
UNORDERED_PRODUCT = "00000000-0000-4000-8000-000000000104"  # fixtureProducts.unordered: stock to spare


class ExplainingDatabase(Database):
    """api_core's Database, every connection it lends listening for the plans auto_explain sends."""

    def __init__(self, pool: asyncpg.Pool) -> None:
        super().__init__(pool)
        self.explained: list[dict[str, Any]] = []

    @asynccontextmanager
    async def acquire(self) -> AsyncIterator[asyncpg.Connection]:  # type: ignore[override]
        async with super().acquire() as conn:
            conn.add_log_listener(self._notice)
            try:
                yield conn
            finally:
                conn.remove_log_listener(self._notice)

    def _notice(self, _conn: asyncpg.Connection, message: asyncpg.PostgresLogMessage) -> None:
        statement = explained_in(message.message)
        if statement is not None:
            self.explained.append(statement)

    def take(self) -> list[dict[str, Any]]:
        taken, self.explained = self.explained, []
        return taken


@dataclass
class Plans:
    """What every case shares: the event loop the pool lives on, the database, the seeded names, the callers."""

    loop: asyncio.AbstractEventLoop
    db: ExplainingDatabase
    names: dict[str, str]
    customer: Principal
    created: dict[str, str] = field(default_factory=dict)
    used: set[int] = field(default_factory=set)

    def run(self, work: Awaitable[Any]) -> Any:
        return self.loop.run_until_complete(work)


@pytest.fixture(scope="module")
def plans() -> Iterator[Plans]:
    node = shutil.which("node")
    if node is None:
        pytest.skip("needs Node 24 on PATH to start a seeded PostgreSQL (scripts/plans-database.ts)")
    helper = subprocess.Popen([node, str(SCRIPT)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        line = helper.stdout.readline() if helper.stdout else ""
        if not line:
            pytest.fail(f"{SCRIPT.name} started no database (exit {helper.wait()}); its error is above")
        url = json.loads(line)["url"]
        loop = asyncio.new_event_loop()
        names = loop.run_until_complete(_read_names(url))
        # One connection: a call's statements meet the same session (auto_explain's settings are the database's).
        db = ExplainingDatabase(loop.run_until_complete(create_pool(url, 1, 60_000)))
        yield Plans(loop, db, names, Principal(id=names["user"], role="customer"))
        loop.run_until_complete(db.close())
        loop.close()
    finally:
        if helper.stdin:
            helper.stdin.close()
        helper.wait(timeout=60)


async def _read_names(url: str) -> dict[str, str]:
    conn = await asyncpg.connect(url)
    try:
        row = await conn.fetchrow(CATALOGUE["names"])
    finally:
        await conn.close()
    assert row is not None, "the catalogue's names query found no rows: is the database seeded?"
    return dict(row)


def judge_call(plans: Plans, name: str, params: set[str], work: Callable[[], Awaitable[Any]]) -> list[str]:
    """Runs `work` and judges every statement it made: the failures, each naming the case, what is wrong, the plan."""
    plans.db.take()
    plans.run(work())
    statements = plans.db.take()
    if not statements:
        return [f"{name}: no statement was explained (is auto_explain loaded?)"]
    failures = []
    for statement in statements:
        found, used = judge(params, statement)
        plans.used.update(used)
        if found:
            failures.append(f"{name}: {'; '.join(found)}\n{statement['Query Text']}\n{outline(statement['Plan'])}")
    return failures


async def read_list(plans: Plans, case: ListCase, query: str) -> dict[str, Any]:
    """One list read with `query` (no {names} left in it), its query string validated as FastAPI's routes do."""
    params = dict(parse_qsl(query))
    if case.route == "GET /users":
        return await users.list_users(plans.db, validate(ListUsersQuery, params, "query"))
    if case.route == "GET /products":
        return await products.list_products(plans.db, validate(ListProductsQuery, params, "query"))
    if case.route == "GET /orders":
        caller = plans.customer if case.caller == "customer" else ADMIN
        return await orders.list_orders(plans.db, validate(ListOrdersQuery, params, "query"), caller)
    raise AssertionError(f"the catalogue lists {case.route}, which the plans test cannot call")


async def case_query(plans: Plans, case: ListCase) -> str:
    """The query a case reads, its {names} filled in and its {cursor} fetched from the same list read deeper."""
    query = named(case.query, plans.names)
    if "{cursor}" not in query:
        return query
    rest = "&".join(part for part in query.split("&") if part != "cursor={cursor}")

    async def cursor_from(paging: str) -> str | None:
        return (await read_list(plans, case, "&".join(filter(None, [rest, paging]))))["nextCursor"]

    cursor = await cursor_from("page=100") or await cursor_from("limit=1")
    assert cursor, f"{case.name}: the list has no second row to start after"
    return query.replace("cursor={cursor}", urlencode({"cursor": cursor}))


@pytest.mark.parametrize("case", LIST_CASES, ids=[case.name for case in LIST_CASES])
def test_every_list_reads_a_bounded_number_of_rows(plans: Plans, case: ListCase) -> None:
    assert_bounded(plans, case, plans.run(case_query(plans, case)))


def assert_bounded(plans: Plans, case: ListCase, query: str) -> None:
    """Reads `case` at `query`; every statement it made must pass the rule."""
    params = {key for key, _ in parse_qsl(query)}
    failures = judge_call(plans, case.name, params, lambda: read_list(plans, case, query))
    assert not failures, "\n\n".join(failures)


async def tied_query(plans: Plans, case: TieCase) -> str:
    """A tie case's query with its {tied} cursor: after the run's row `middle` finds, by the query's sort."""
    row = await plans.db.fetchrow(case.middle)
    assert row is not None, f"no run of tied rows: {case.middle}"
    sort = dict(parse_qsl(case.query)).get("sort", "-createdAt")
    cursor = encode_cursor(sort, CursorPosition(row[SORT_KEYS[sort].field], row["id"]))
    return case.query.replace("cursor={tied}", urlencode({"cursor": cursor}))


@pytest.mark.parametrize("case", TIE_CASES, ids=[case.name for case in TIE_CASES])
def test_a_cursor_amid_rows_that_share_its_key_reads_from_its_row(plans: Plans, case: TieCase) -> None:
    assert_bounded(plans, case, plans.run(tied_query(plans, case)))


async def _authenticate(plans: Plans) -> Principal:
    login = await auth.login(plans.db, SECRET, LoginBody(email=plans.names["email"], password=SEED_PASSWORD))
    settings = Settings.from_env({"DATABASE_URL": "postgres://unused", "JWT_SECRET": SECRET})
    return await auth.authenticate(plans.db, settings, f"Bearer {login['token']}")


async def _create_order(plans: Plans) -> None:
    order = await orders.create_order(plans.db, NEW_ORDER, plans.customer, "plans-python")
    plans.created["order"] = order["id"]


NEW_ORDER = CreateOrderBody(productId=UNORDERED_PRODUCT, quantity=1)
# Each lookup of the catalogue, by its name there.
LOOKUP_CALLS: dict[str, Callable[[Plans], Awaitable[Any]]] = {
    "GET /users/{user} (admin)": lambda p: users.get_user(p.db, p.names["user"], ADMIN),
    "GET /users/{user} (customer, themself)": lambda p: users.get_user(p.db, p.names["user"], p.customer),
    "GET /products/{product}": lambda p: products.get_product(p.db, p.names["product"]),
    "GET /orders/{order} (admin)": lambda p: orders.get_order(p.db, p.names["order"], None, ADMIN),
    "GET /orders/{order}?include=user,product (admin)": lambda p: orders.get_order(
        p.db, p.names["order"], ["user", "product"], ADMIN
    ),
    "GET /orders/{order}?include=user,product (customer, theirs)": lambda p: orders.get_order(
        p.db, p.names["order"], ["user", "product"], p.customer
    ),
    "POST /auth/login ({email})": lambda p: auth.login(
        p.db, SECRET, LoginBody(email=p.names["email"], password=SEED_PASSWORD)
    ),
    "a bearer token's caller ({user})": _authenticate,
    "GET /auth/me (customer)": lambda p: auth.me(p.db, p.customer),
    "PATCH /users/{user} (customer, themself)": lambda p: users.update_user(
        p.db, p.names["user"], {"name": "Plans Reader"}, p.customer
    ),
    "PATCH /products/{product}": lambda p: products.update_product(p.db, p.names["product"], {"stock": 700}),
    "POST /orders with a new Idempotency-Key (customer)": _create_order,
    "POST /orders with that Idempotency-Key again (customer, replayed)": lambda p: orders.create_order(
        p.db, NEW_ORDER, p.customer, "plans-python"
    ),
    "PATCH /orders/:id to cancelled (customer, the new order)": lambda p: orders.update_order_status(
        p.db, p.created["order"], "cancelled", p.customer
    ),
    "DELETE /orders/:id (admin, the new order)": lambda p: orders.delete_order(p.db, p.created["order"]),
}


@pytest.mark.parametrize("lookup", LOOKUPS)
def test_every_lookup_finds_its_rows_by_an_index(plans: Plans, lookup: str) -> None:
    call = LOOKUP_CALLS.get(lookup)
    assert call is not None, f'the catalogue\'s lookup "{lookup}" has no call in LOOKUP_CALLS'
    failures = judge_call(plans, lookup, set(), lambda: call(plans))
    assert not failures, "\n\n".join(failures)


def test_the_rule_catches_a_list_that_reads_a_whole_table_to_sort_it(plans: Plans) -> None:
    plans.db.take()
    plans.run(plans.db.fetch("SELECT id FROM orders ORDER BY total_cents DESC, id LIMIT 21"))
    (statement,) = plans.db.take()
    assert {kind for kind, _ in violations_of(statement["Plan"], ROWS_BOUND)} == {"seq-scan", "sort"}


def test_every_allowance_excuses_something(plans: Plans) -> None:
    """An allowance no statement needs is stale (this test runs after the cases, in file order)."""
    assert [a["why"] for i, a in enumerate(ALLOWANCES) if i not in plans.used] == []
