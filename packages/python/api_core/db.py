"""asyncpg against the migrated database (packages/db/prisma/migrations): one pool per process.

asyncpg rather than SQLAlchemy: the queries are the same hand-written SQL the Node apps' data access produces,
asyncpg prepares and caches each statement per connection by itself, and it decodes rows in C without an ORM
layer in between — the fastest PostgreSQL path Python has, which is what a benchmark of the framework wants.
"""

from __future__ import annotations

import asyncio
from typing import Any

import asyncpg
import orjson

# What an unreachable (or restarting) PostgreSQL looks like through asyncpg.
DATABASE_UNAVAILABLE: tuple[type[BaseException], ...] = (
    OSError,  # refused, reset, unreachable
    asyncio.TimeoutError,  # connect or pool-acquire timeout
    asyncpg.PostgresConnectionError,  # class 08
    asyncpg.InterfaceError,  # connection closed under a query
    asyncpg.CannotConnectNowError,  # 57P03: starting up
    asyncpg.AdminShutdownError,  # 57P01
    asyncpg.CrashShutdownError,  # 57P02
    # A healthy server that could not do the work in time, as the Node apps map them (packages/data-access errors.ts):
    asyncpg.InsufficientResourcesError,  # class 53: too many connections (53300), out of memory, disk full
    asyncpg.TransactionRollbackError,  # class 40: serialization failure (40001), deadlock (40P01)
    asyncpg.QueryCanceledError,  # 57014: statement timeout
    asyncpg.LockNotAvailableError,  # 55P03
)

# A new connection that takes longer than this means PostgreSQL is unreachable: 503 (the Node apps' pg pool
# uses the same bound).
CONNECT_TIMEOUT_SECONDS = 2.0
# Waiting for a free connection is normal under load and must not fail a request; this bound only keeps a
# request from hanging forever behind connections stuck on a database that stopped answering.
ACQUIRE_TIMEOUT_SECONDS = 30.0


async def _init_connection(conn: asyncpg.Connection) -> None:
    # Ids travel as text (no uuid.UUID objects to convert back); JSONB as Python values.
    await conn.set_type_codec("uuid", encoder=str, decoder=str, schema="pg_catalog", format="text")
    await conn.set_type_codec(
        "jsonb", encoder=lambda v: orjson.dumps(v).decode(), decoder=orjson.loads, schema="pg_catalog", format="text"
    )


async def _keep_session(conn: asyncpg.Connection) -> None:
    """Released connections keep their session: this app sets no session state, takes no advisory locks and
    listens to nothing, so asyncpg's default reset (`SELECT pg_advisory_unlock_all(); CLOSE ALL; UNLISTEN *;
    RESET ALL`) would only cost a round trip per request. asyncpg still rolls back a transaction left open."""


async def create_pool(database_url: str, size: int, statement_timeout_ms: int) -> asyncpg.Pool:
    """A pool that connects lazily, as the Node apps' pg pool does: the app starts (and /health answers) while
    PostgreSQL is down, requests that need it get a 503 within CONNECT_TIMEOUT_SECONDS, and it recovers by itself.
    Every connection starts with `statement_timeout` set, as the Node apps' do (no round trip per request)."""
    return await asyncpg.create_pool(
        database_url,
        min_size=0,
        max_size=size,
        max_inactive_connection_lifetime=0,
        timeout=CONNECT_TIMEOUT_SECONDS,
        init=_init_connection,
        reset=_keep_session,
        server_settings={"statement_timeout": str(statement_timeout_ms)},
    )


class Database:
    """The pool, with the wait for a connection bounded (see ACQUIRE_TIMEOUT_SECONDS)."""

    def __init__(self, pool: asyncpg.Pool) -> None:
        self.pool = pool

    def acquire(self) -> Any:
        return self.pool.acquire(timeout=ACQUIRE_TIMEOUT_SECONDS)

    async def fetch(self, query: str, *args: Any) -> list[asyncpg.Record]:
        async with self.acquire() as conn:
            return await conn.fetch(query, *args)

    async def fetchrow(self, query: str, *args: Any) -> asyncpg.Record | None:
        async with self.acquire() as conn:
            return await conn.fetchrow(query, *args)

    async def fetchval(self, query: str, *args: Any) -> Any:
        async with self.acquire() as conn:
            return await conn.fetchval(query, *args)

    async def fetch_page(
        self, select: str, select_args: list[Any], count: str | None, count_args: list[Any]
    ) -> tuple[list[asyncpg.Record], int | None]:
        """The rows of a list's page and, when `count` is given, the number of rows it counts: the two queries side
        by side on two connections."""
        if count is None:
            return await self.fetch(select, *select_args), None
        rows, total = await asyncio.gather(self.fetch(select, *select_args), self.fetchval(count, *count_args))
        return rows, total

    async def execute(self, query: str, *args: Any) -> str:
        async with self.acquire() as conn:
            return await conn.execute(query, *args)

    async def close(self) -> None:
        await self.pool.close()
