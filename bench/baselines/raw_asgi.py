"""Baseline that splits FastAPI's database figures in two: a raw ASGI application on uvicorn, no framework,
serving the database scenarios through the data access FastAPI uses (packages/python's api_core: the same
asyncpg pool, SQL and DTOs), with requests read by hand as the Node baselines read them. So
    fastapi ÷ raw-asgi        = what FastAPI (routing, pydantic validation, middleware) costs,
    raw-asgi ÷ node-http-pg   = what the runtime and driver (Python, uvicorn, asyncpg) cost.
It also keeps the contract's per-request duties: x-request-id on every response and the HTTP metrics, and its
authorization (docs/api.md "Authorization"): every route that needs a caller verifies the bearer token and reads the
caller's current role through api_core (`auth.authenticate`, one primary-key read), before anything of the request
itself; admin routes answer anyone else 403; a customer's rows are a condition of api_core's statements.

Run with apps/fastapi's venv, where packages/python (api_contract, api_core) is installed; it imports no app. PORT,
HOST, DATABASE_URL, JWT_SECRET, DB_POOL_SIZE and WEB_CONCURRENCY from the environment, like the app.
"""

from __future__ import annotations

import re
import sys
import time
import uuid
from typing import Any
from urllib.parse import parse_qs

import orjson
import uvicorn

from api_contract.cursor import INVALID_CURSOR, is_cursor
from api_contract.models import (
    CreateOrderBody,
    ListOrdersQuery,
    ListProductsQuery,
    ListUsersQuery,
    LoginBody,
    RegisterBody,
)
from api_contract.problems import ProblemError
from api_core.data import auth, orders, products, users
from api_core.db import DATABASE_UNAVAILABLE, Database, create_pool
from api_core.http import REQUEST_ID
from api_core.metrics import HttpMetrics
from api_core.principal import Principal, require_admin
from api_core.settings import load_settings_or_exit

PROBLEM = b"application/problem+json"
UUID = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$", re.I)
STATUSES = ("pending", "shipped", "delivered", "cancelled")
SORTS = ("createdAt", "-createdAt", "priceCents", "-priceCents", "name")


def invalid(path: str, message: str) -> ProblemError:
    return ProblemError("validation", "The request is not valid.", errors=[{"path": path, "message": message}])


def ident(raw: str) -> str:
    if not UUID.match(raw):
        raise invalid("params.id", "must be a UUID")
    return raw


def int_param(query: dict[str, str], key: str, low: int, high: int, default: int | None = None) -> int | None:
    raw = query.get(key)
    if raw is None:
        return default
    if not re.fullmatch(r"[0-9]{1,10}", raw) or not low <= int(raw) <= high:
        raise invalid(f"query.{key}", f"must be an integer from {low} to {high}")
    return int(raw)


def text(body: dict[str, Any], key: str, most: int, required: bool) -> str | None:
    value = body.get(key)
    if value is None and not required and key not in body:
        return None
    if not isinstance(value, str) or not 1 <= len(value) <= most:
        raise invalid(f"body.{key}", "must be a string")
    return value


def integer(body: dict[str, Any], key: str, low: int, high: int, required: bool) -> int | None:
    if key not in body and not required:
        return None
    value = body.get(key)
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise invalid(f"body.{key}", f"must be an integer from {low} to {high}")
    return value


def only(body: dict[str, Any], keys: tuple[str, ...]) -> None:
    for key in body:
        if key not in keys:
            raise invalid(f"body.{key}", "is not a known field")


def include_of(query: dict[str, str]) -> list[str] | None:
    raw = query.get("include")
    if raw is None:
        return None
    parts = raw.split(",")
    if not re.fullmatch(r"(user|product)(,(user|product))?", raw) or len(set(parts)) != len(parts):
        raise invalid("query.include", "must be a comma list of: user, product")
    return parts


def paging(query: dict[str, str]) -> dict[str, Any]:
    """Every list's first fields: `page` or `cursor`, `limit`, `total`. That a cursor decodes in the list's sort and
    has no page beside it, api_core checks (a 400 at query.cursor or query.page)."""
    cursor = query.get("cursor")
    if cursor is not None and not is_cursor(cursor):
        raise invalid("query.cursor", INVALID_CURSOR)
    total = query.get("total", "false")
    if total not in ("true", "false"):
        raise invalid("query.total", "must be true or false")
    return {
        "page": int_param(query, "page", 1, 1_000_000),
        "limit": int_param(query, "limit", 1, 100, 20),
        "cursor": cursor,
        "total": total == "true",
    }


def user_fields(body: dict[str, Any], required: bool) -> dict[str, Any]:
    only(body, ("email", "name"))
    fields: dict[str, Any] = {}
    email = text(body, "email", 254, required)
    if email is not None:
        if not re.fullmatch(r"[^@\s]+@[^@\s]+\.[^@\s]+", email):
            raise invalid("body.email", "must be an e-mail address")
        fields["email"] = email.lower()
    name = text(body, "name", 200, required)
    if name is not None:
        if not 1 <= len(name.strip()) <= 100:
            raise invalid("body.name", "must be 1–100 characters")
        fields["name"] = name.strip()
    if not fields:
        raise invalid("body", "must contain at least one field")
    return fields


def product_fields(body: dict[str, Any], required: bool) -> dict[str, Any]:
    only(body, ("name", "description", "priceCents", "stock"))
    fields: dict[str, Any] = {}
    name = text(body, "name", 200, required)
    if name is not None:
        fields["name"] = name
    if "description" in body:
        fields["description"] = None if body["description"] is None else text(body, "description", 2000, False)
    for key, high in (("priceCents", 100_000_000), ("stock", 1_000_000)):
        value = integer(body, key, 0, high, required)
        if value is not None:
            fields[key] = value
    if not fields:
        raise invalid("body", "must contain at least one field")
    return fields


class RawApp:
    """The whole server: one ASGI callable, a route table of regular expressions, no framework."""

    def __init__(self) -> None:
        self.settings = load_settings_or_exit()
        self.metrics = HttpMetrics("raw-asgi")
        self.db: Database | None = None
        self.routes: list[tuple[str, re.Pattern[str], dict[str, Any]]] = [
            (t, re.compile("^" + re.sub(r":[a-z]+", "([^/]+)", t) + "$"), m)
            for t, m in (
                ("/health", {"GET": self.health}),
                ("/ready", {"GET": self.ready}),
                ("/users", {"GET": self.list_users, "POST": self.create_user}),
                (
                    "/users/:id",
                    self.one_by_id(users.get_user, users.update_user, users.delete_user, user_fields, owned=True),
                ),
                ("/products", {"GET": self.list_products, "POST": self.create_product}),
                (
                    "/products/:id",
                    self.one_by_id(
                        products.get_product,
                        products.update_product,
                        products.delete_product,
                        product_fields,
                        owned=False,
                    ),
                ),
                ("/orders", {"GET": self.list_orders, "POST": self.create_order}),
                ("/orders/:id", {"GET": self.get_order, "PATCH": self.update_order, "DELETE": self.delete_order}),
                ("/auth/register", {"POST": self.register}),
                ("/auth/login", {"POST": self.login}),
            )
        ]

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "lifespan":
            await self.lifespan(receive, send)
            return
        started = time.perf_counter()
        # The first of a repeated header, as node:http keeps the first `authorization` and `content-type`.
        headers: dict[bytes, bytes] = {}
        for name, value in scope["headers"]:
            headers.setdefault(name, value)
        incoming = headers.get(b"x-request-id", b"").decode("latin-1")
        request_id = incoming if REQUEST_ID.fullmatch(incoming) else str(uuid.uuid4())
        method = scope["method"]
        template = "unmatched"
        try:
            status, body, extra = 404, None, {}
            for t, pattern, methods in self.routes:
                match = pattern.match(scope["path"])
                if not match:
                    continue
                template = t
                handler = methods.get(method)
                if handler is None:
                    raise ProblemError("methodNotAllowed", f"{method} is not supported here.")
                query = {k: v[0] for k, v in parse_qs(scope["query_string"].decode("latin-1")).items()}
                status, body, extra = await handler(match.groups(), query, receive, headers)
                break
            else:
                raise ProblemError("notFound", f"Nothing lives at {scope['path']}.")
            content_type = b"application/json"
        except ProblemError as problem:
            # A problem's own headers: `www-authenticate` on a 401 and a 403, `retry-after` on a 503.
            status, body, extra, content_type = problem.status, problem.to_json(), problem.headers, PROBLEM
        except DATABASE_UNAVAILABLE:
            problem = ProblemError("unavailable", "The database cannot be reached; try again shortly.")
            status, body, extra, content_type = problem.status, problem.to_json(), problem.headers, PROBLEM
        except Exception as error:  # any other error is a 500 problem, logged
            print(f"raw-asgi: {error!r}", file=sys.stderr)
            problem = ProblemError("internal", "An unexpected error occurred.")
            status, body, extra, content_type = problem.status, problem.to_json(), {}, PROBLEM
        payload = b"" if body is None else orjson.dumps(body)
        response_headers = [(b"x-request-id", request_id.encode("latin-1"))]
        if body is not None:
            response_headers += [(b"content-type", content_type), (b"content-length", str(len(payload)).encode())]
        response_headers += [(k.encode(), v.encode()) for k, v in extra.items()]
        await send({"type": "http.response.start", "status": status, "headers": response_headers})
        await send({"type": "http.response.body", "body": payload})
        self.metrics.observe(method, template, status, time.perf_counter() - started)

    async def lifespan(self, receive: Any, send: Any) -> None:
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                self.db = Database(
                    await create_pool(
                        self.settings.database_url, self.settings.pool_size, self.settings.statement_timeout_ms
                    )
                )
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                if self.db:
                    await self.db.close()
                await send({"type": "lifespan.shutdown.complete"})
                return

    @property
    def database(self) -> Database:
        assert self.db is not None
        return self.db

    async def caller(self, headers: dict[bytes, bytes]) -> Principal:
        """Who sent the request (a 401 otherwise): api_core's token check and the role the database holds now."""
        authorization = headers.get(b"authorization")
        decoded = None if authorization is None else authorization.decode("latin-1")
        return await auth.authenticate(self.database, self.settings, decoded)

    async def admin(self, headers: dict[bytes, bytes]) -> Principal:
        """The caller, who must be an admin (a 403 otherwise)."""
        principal = await self.caller(headers)
        require_admin(principal)
        return principal

    @staticmethod
    async def json_body(receive: Any, headers: dict[bytes, bytes]) -> dict[str, Any]:
        kind = headers.get(b"content-type", b"").split(b";")[0].strip().lower()
        if kind != b"application/json":
            raise ProblemError("unsupportedMediaType", "Send the body as application/json.")
        chunks = []
        more = True
        while more:
            message = await receive()
            chunks.append(message.get("body", b""))
            more = message.get("more_body", False)
        try:
            body = orjson.loads(b"".join(chunks))
        except orjson.JSONDecodeError:
            raise ProblemError("malformedJson", "The body is not valid JSON.") from None
        if not isinstance(body, dict):
            raise invalid("body", "must be an object")
        return body

    # ---- routes: (path groups, query, receive, headers) → (status, body, extra headers) ----

    async def health(self, *_: Any) -> tuple[int, Any, dict[str, str]]:
        return 200, {"status": "ok", "timestamp": int(time.time() * 1000), "framework": "raw-asgi"}, {}

    async def ready(self, *_: Any) -> tuple[int, Any, dict[str, str]]:
        await self.database.fetchval("SELECT 1")
        return 200, {"status": "ok"}, {}

    async def list_users(
        self, _p: Any, query: dict[str, str], _r: Any, headers: Any
    ) -> tuple[int, Any, dict[str, str]]:
        await self.admin(headers)
        parsed = ListUsersQuery.model_construct(**paging(query), q=query.get("q") or None)
        return 200, await users.list_users(self.database, parsed), {}

    async def create_user(self, _p: Any, _q: Any, receive: Any, headers: Any) -> tuple[int, Any, dict[str, str]]:
        await self.admin(headers)
        fields = user_fields(await self.json_body(receive, headers), True)
        user = await users.create_user(self.database, fields["email"], fields["name"])
        return 201, user, {"location": f"/users/{user['id']}"}

    def one_by_id(self, get: Any, update: Any, delete: Any, fields: Any, *, owned: bool) -> dict[str, Any]:
        """GET, PATCH and DELETE of one row by its id, through one data module's functions and its body's fields.
        `owned` (users): every method needs a caller, passed on to the data access (a customer reaches only
        themself); otherwise (products) anyone reads and only an admin writes."""

        async def reader(headers: dict[bytes, bytes]) -> tuple[Principal, ...]:
            return (await self.caller(headers),) if owned else ()

        async def writer(headers: dict[bytes, bytes]) -> tuple[Principal, ...]:
            if owned:
                return (await self.caller(headers),)
            await self.admin(headers)
            return ()

        async def get_one(groups: Any, _q: Any, _r: Any, headers: Any) -> tuple[int, Any, dict[str, str]]:
            who = await reader(headers)
            return 200, await get(self.database, ident(groups[0]), *who), {}

        async def update_one(groups: Any, _q: Any, receive: Any, headers: Any) -> tuple[int, Any, dict[str, str]]:
            who = await writer(headers)
            key = ident(groups[0])
            changes = fields(await self.json_body(receive, headers), False)
            return 200, await update(self.database, key, changes, *who), {}

        async def delete_one(groups: Any, _q: Any, _r: Any, headers: Any) -> tuple[int, Any, dict[str, str]]:
            who = await writer(headers)
            await delete(self.database, ident(groups[0]), *who)
            return 204, None, {}

        return {"GET": get_one, "PATCH": update_one, "DELETE": delete_one}

    async def list_products(self, _p: Any, query: dict[str, str], *_: Any) -> tuple[int, Any, dict[str, str]]:
        paging_fields = paging(query)
        in_stock = query.get("inStock")
        if in_stock not in (None, "true", "false"):
            raise invalid("query.inStock", "must be true or false")
        sort = query.get("sort", "-createdAt")
        if sort not in SORTS:
            raise invalid("query.sort", "must be a known sort")
        parsed = ListProductsQuery.model_construct(
            **paging_fields,
            q=query.get("q") or None,
            minPriceCents=int_param(query, "minPriceCents", 0, 100_000_000),
            maxPriceCents=int_param(query, "maxPriceCents", 0, 100_000_000),
            inStock=None if in_stock is None else in_stock == "true",
            sort=sort,
        )
        return 200, await products.list_products(self.database, parsed), {}

    async def create_product(self, _p: Any, _q: Any, receive: Any, headers: Any) -> tuple[int, Any, dict[str, str]]:
        await self.admin(headers)
        product = await products.create_product(
            self.database, product_fields(await self.json_body(receive, headers), True)
        )
        return 201, product, {"location": f"/products/{product['id']}"}

    async def list_orders(
        self, _p: Any, query: dict[str, str], _r: Any, headers: Any
    ) -> tuple[int, Any, dict[str, str]]:
        principal = await self.caller(headers)
        paging_fields = paging(query)
        status = query.get("status")
        if status is not None and status not in STATUSES:
            raise invalid("query.status", "must be an order status")
        for key in ("userId", "productId"):
            if key in query and not UUID.match(query[key]):
                raise invalid(f"query.{key}", "must be a UUID")
        parsed = ListOrdersQuery.model_construct(
            **paging_fields,
            status=status,
            userId=query.get("userId"),
            productId=query.get("productId"),
            include=include_of(query),
        )
        return 200, await orders.list_orders(self.database, parsed, principal), {}

    async def create_order(self, _p: Any, _q: Any, receive: Any, headers: Any) -> tuple[int, Any, dict[str, str]]:
        """The order is the caller's: the body names no user."""
        principal = await self.caller(headers)
        body = await self.json_body(receive, headers)
        only(body, ("productId", "quantity"))
        if not UUID.match(text(body, "productId", 36, True) or ""):
            raise invalid("body.productId", "must be a UUID")
        parsed = CreateOrderBody.model_construct(
            productId=body["productId"], quantity=integer(body, "quantity", 1, 100, True)
        )
        order = await orders.create_order(self.database, parsed, principal)
        return 201, order, {"location": f"/orders/{order['id']}"}

    async def get_order(
        self, groups: Any, query: dict[str, str], _r: Any, headers: Any
    ) -> tuple[int, Any, dict[str, str]]:
        principal = await self.caller(headers)
        return 200, await orders.get_order(self.database, ident(groups[0]), include_of(query), principal), {}

    async def update_order(self, groups: Any, _q: Any, receive: Any, headers: Any) -> tuple[int, Any, dict[str, str]]:
        principal = await self.caller(headers)
        key = ident(groups[0])
        body = await self.json_body(receive, headers)
        only(body, ("status",))
        if body.get("status") not in STATUSES:
            raise invalid("body.status", "must be an order status")
        return 200, await orders.update_order_status(self.database, key, body["status"], principal), {}

    async def delete_order(self, groups: Any, _q: Any, _r: Any, headers: Any) -> tuple[int, Any, dict[str, str]]:
        await self.admin(headers)
        await orders.delete_order(self.database, ident(groups[0]))
        return 204, None, {}

    async def register(self, _p: Any, _q: Any, receive: Any, headers: Any) -> tuple[int, Any, dict[str, str]]:
        body = await self.json_body(receive, headers)
        only(body, ("email", "name", "password"))
        password = text(body, "password", 128, True) or ""
        if len(password) < 8:
            raise invalid("body.password", "must be 8–128 characters")
        fields = user_fields({"email": body.get("email"), "name": body.get("name")}, True)
        parsed = RegisterBody.model_construct(email=fields["email"], name=fields["name"], password=password)
        return 201, await auth.register(self.database, self.settings.jwt_secret, parsed), {}

    async def login(self, _p: Any, _q: Any, receive: Any, headers: Any) -> tuple[int, Any, dict[str, str]]:
        body = await self.json_body(receive, headers)
        only(body, ("email", "password"))
        parsed = LoginBody.model_construct(
            email=text(body, "email", 254, True), password=text(body, "password", 128, True)
        )
        return 200, await auth.login(self.database, self.settings.jwt_secret, parsed), {}


def create_app() -> RawApp:
    return RawApp()


if __name__ == "__main__":
    # A configuration it cannot start with (a JWT_SECRET too short or a placeholder, …): one line, exit 2.
    settings = load_settings_or_exit()
    uvicorn.run(
        "raw_asgi:create_app",
        factory=True,
        host=settings.host,
        port=settings.port,
        workers=settings.workers,
        loop="auto",
        http="auto",
        lifespan="on",
        log_level="critical",
        access_log=False,
        server_header=False,
    )
