"""The contract's request and response shapes as Pydantic v2 models (packages/contract/src/schemas.ts, mirrored).

Every model is strict (`extra="forbid"`: unknown fields are a 400, never stored) and uses the contract types of
contract_types.py, so that a value passes or fails here exactly as it does in Zod. tests/test_models_vs_openapi.py
compares each model's JSON Schema with the contract's OpenAPI document, and tests/test_validation_vectors.py runs
a corpus of requests through both, so the two cannot drift apart silently.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, RootModel, ValidationError, model_validator
from pydantic_core import InitErrorDetails, PydanticCustomError

from .cursor import CURSOR_PATTERN, INVALID_CURSOR, SORT_KEYS, CursorSort, decode_cursor, is_cursor
from .types import (
    EMAIL_PATTERN,
    GUID_PATTERN,
    INCLUDE_PATTERN,
    TIMESTAMP_PATTERN,
    Distinct,
    JsInt,
    Lower,
    MaxLength,
    MinLength,
    NoNul,
    Pattern,
    QueryBool,
    QueryInt,
    Text,
    Trim,
    aborted,
    js_less_or_equal,
    with_issues,
)

MAX_PAGE = 1_000_000
MAX_LIMIT = 100
DEFAULT_LIMIT = 20
DEFAULT_PAGE = 1
MAX_PRICE_CENTS = 100_000_000
MAX_STOCK = 1_000_000
TOKEN_TTL_SECONDS = 3600

# ---- field types (schemas.ts: building blocks) -------------------------------------------------------------------

Id = Annotated[str, Text(Pattern(GUID_PATTERN, "must be a UUID", json_format="uuid"))]
Email = Annotated[
    str,
    Text(
        Pattern(EMAIL_PATTERN, "must be a valid e-mail address"),
        MaxLength(254, "must be a valid e-mail address"),
        NoNul(),
        Lower(),
    ),
]
UserName = Annotated[str, Text(NoNul(), Trim(), MinLength(1), MaxLength(100))]
Password = Annotated[str, Text(NoNul(), MinLength(8), MaxLength(128))]
ProductName = Annotated[str, Text(NoNul(), MinLength(1), MaxLength(200))]
Description = Annotated[str, Text(NoNul(), MaxLength(2000))]
PriceCents = Annotated[int, JsInt(0, MAX_PRICE_CENTS)]
Stock = Annotated[int, JsInt(0, MAX_STOCK)]
Quantity = Annotated[int, JsInt(1, 100)]
OrderStatus = Literal["pending", "shipped", "delivered", "cancelled"]
# `customer`: what registration and POST /users make; `admin`: made by a command or the seed, never the API.
Role = Literal["customer", "admin"]
ROLES: tuple[Role, ...] = ("customer", "admin")
Search = Annotated[str, Text(NoNul(), MinLength(1), MaxLength(100))]
Include = Annotated[
    str,
    Text(NoNul(), Pattern(INCLUDE_PATTERN, "must be a comma list of: user, product"), Distinct()),
    AfterValidator(lambda v: v.split(",")),
]
Page = Annotated[int, QueryInt(1, MAX_PAGE)]
Limit = Annotated[int, QueryInt(1, MAX_LIMIT)]
PriceBound = Annotated[int, QueryInt(0, MAX_PRICE_CENTS)]
ProductSort = CursorSort
# The sort every list but the products' is read in.
NEWEST: CursorSort = "-createdAt"
PAGE_BESIDE_CURSOR = "cannot be combined with cursor"
Cursor = Annotated[str, Text(Pattern(CURSOR_PATTERN, INVALID_CURSOR))]
IdempotencyKey = Annotated[str, Text(Pattern(r"^[\x21-\x7e]{1,255}$", "must be 1–255 visible ASCII characters"))]
Timestamp = Annotated[str, Text(Pattern(TIMESTAMP_PATTERN, "must be an ISO 8601 UTC timestamp", "date-time"))]
Int = Annotated[int, JsInt()]

# The only transitions an order may take; anything else is a 409.
ORDER_TRANSITIONS: dict[str, tuple[str, ...]] = {
    "pending": ("shipped", "cancelled"),
    "shipped": ("delivered",),
    "delivered": (),
    "cancelled": (),
}
# The one status change a customer may make to their own order; every other is an admin's (403 otherwise).
CUSTOMER_ORDER_STATUSES: tuple[str, ...] = ("cancelled",)


class Strict(BaseModel):
    """`z.strictObject`: unknown keys are an error, nothing is coerced."""

    model_config = ConfigDict(extra="forbid", strict=True)


def _refinement(message: str, loc: tuple[str, ...] = ()) -> InitErrorDetails:
    return {"type": PydanticCustomError("contract", "{message}", {"message": message}), "loc": loc, "input": None}


class PartialBody(Strict):
    """`Create….partial().refine(non-empty)`: any subset of the fields, but at least one.

    Fields default to None without being Optional: an absent field is left alone, `null` is refused (except where
    the contract allows null). `model_fields_set` says which fields the client sent.
    """

    @model_validator(mode="wrap")
    @classmethod
    def at_least_one_field(cls, data: Any, handler: Any) -> Any:
        if not isinstance(data, dict) or any(key in cls.model_fields for key in data):
            return handler(data)
        # Like Zod, the refinement is reported after the unknown-key errors that the same body may have.
        error = None
        try:
            handler(data)
        except ValidationError as e:
            error = e
        raise with_issues(cls.__name__, error, [_refinement("must contain at least one field")])

    def changes(self) -> dict[str, Any]:
        """The fields the client sent, by name."""
        return {name: getattr(self, name) for name in self.model_fields_set}


# ---- bodies -------------------------------------------------------------------------------------------------------


class CreateUserBody(Strict):
    email: Email
    name: UserName


class UpdateUserBody(PartialBody):
    email: Email = None  # type: ignore[assignment]
    name: UserName = None  # type: ignore[assignment]


class CreateProductBody(Strict):
    name: ProductName
    description: Description | None = None
    priceCents: PriceCents
    stock: Stock


class UpdateProductBody(PartialBody):
    name: ProductName = None  # type: ignore[assignment]
    description: Description | None = None
    priceCents: PriceCents = None  # type: ignore[assignment]
    stock: Stock = None  # type: ignore[assignment]


class CreateOrderBody(Strict):
    """The order's user is the caller (the token's `sub`), never a field of the body."""

    productId: Id
    quantity: Quantity


class UpdateOrderBody(Strict):
    status: OrderStatus


class EchoBody(RootModel[dict[str, Any]]):
    """`z.record(z.string(), z.unknown())`: any JSON object."""

    model_config = ConfigDict(strict=True)


class RegisterBody(Strict):
    email: Email
    name: UserName
    password: Password


class LoginBody(Strict):
    email: Annotated[str, Text(NoNul(), MinLength(1), MaxLength(254))]
    password: Annotated[str, Text(NoNul(), MinLength(1), MaxLength(128))]


# ---- params, queries, headers -----------------------------------------------------------------------------------


class IdParams(Strict):
    id: Id


def paging_issues(query: dict[str, Any], sort: str) -> list[InitErrorDetails]:
    """`pagingRules`: not both page and cursor; a cursor this list gave in this sort. Each looks only at the fields
    that passed their checks (a failed one has its own issue), on the value Zod's refinement sees (the page's number
    when its digits parsed, even out of bounds)."""
    cursor = query.get("cursor")
    if not is_cursor(cursor):
        return []
    if "page" in query:
        page = QueryInt.js_value(query["page"])
        return [_refinement(PAGE_BESIDE_CURSOR, ("page",))] if isinstance(page, int) else []
    if sort in SORT_KEYS and decode_cursor(cursor, sort) is None:
        return [_refinement(INVALID_CURSOR, ("cursor",))]
    return []


class ListQuery(Strict):
    """Every list's query: its first fields (the contract's `...paging`: `page` or `cursor`, never both, `limit`,
    `total`) and the object's rules, checked as Zod checks them: after the fields, even when some failed their
    checks (not when a value had the wrong type), on the values those fields got (a number, or the raw string)."""

    # No default: a page beside a cursor must be told from none. Absent is page 1 (DEFAULT_PAGE), as documented.
    page: Page = None  # type: ignore[assignment]
    limit: Limit = DEFAULT_LIMIT
    cursor: Cursor = None  # type: ignore[assignment]
    total: Annotated[bool, QueryBool()] = False

    @classmethod
    def sort_of(cls, query: dict[str, Any]) -> str:
        """The sort a list is read in, from its raw query."""
        return NEWEST

    @classmethod
    def object_issues(cls, query: dict[str, Any]) -> list[InitErrorDetails]:
        return paging_issues(query, cls.sort_of(query))

    @model_validator(mode="wrap")
    @classmethod
    def object_rules(cls, data: Any, handler: Any) -> Any:
        error = None
        try:
            result = handler(data)
        except ValidationError as e:
            error, result = e, None
        issues = cls.object_issues(data) if isinstance(data, dict) and not aborted(error) else []
        if issues:
            raise with_issues(cls.__name__, error, issues)
        if error:
            raise error
        return result


class ListUsersQuery(ListQuery):
    q: Search = None  # type: ignore[assignment]


class ListProductsQuery(ListQuery):
    q: Search = None  # type: ignore[assignment]
    minPriceCents: PriceBound = None  # type: ignore[assignment]
    maxPriceCents: PriceBound = None  # type: ignore[assignment]
    inStock: Annotated[bool, QueryBool()] = None  # type: ignore[assignment]
    sort: ProductSort = NEWEST

    @classmethod
    def sort_of(cls, query: dict[str, Any]) -> str:
        return query.get("sort", NEWEST)

    @classmethod
    def object_issues(cls, query: dict[str, Any]) -> list[InitErrorDetails]:
        """minPriceCents ≤ maxPriceCents (the schema's `.refine`), then the paging rules (its `.superRefine`)."""
        low, high = query.get("minPriceCents"), query.get("maxPriceCents")
        inverted = (
            low is not None
            and high is not None
            and not js_less_or_equal(QueryInt.js_value(low), QueryInt.js_value(high))
        )
        bounds = [_refinement("must not be greater than maxPriceCents", ("minPriceCents",))] if inverted else []
        return [*bounds, *super().object_issues(query)]


class ListOrdersQuery(ListQuery):
    status: OrderStatus = None  # type: ignore[assignment]
    userId: Id = None  # type: ignore[assignment]
    productId: Id = None  # type: ignore[assignment]
    include: Include = None  # type: ignore[assignment]


class GetOrderQuery(Strict):
    include: Include = None  # type: ignore[assignment]


class CreateOrderHeaders(BaseModel):
    """The headers POST /orders reads; every other header passes through."""

    model_config = ConfigDict(extra="ignore")
    idempotency_key: IdempotencyKey | None = Field(default=None, alias="idempotency-key")


# ---- responses (what the serializers in dto.py produce; tests check them against these) ------------------------


class User(Strict):
    id: Id
    email: str
    name: str
    role: Role
    createdAt: Timestamp
    updatedAt: Timestamp


class Product(Strict):
    id: Id
    name: str
    description: str | None
    priceCents: Int
    stock: Int
    createdAt: Timestamp
    updatedAt: Timestamp


class Order(Strict):
    id: Id
    userId: Id
    productId: Id
    quantity: Int
    unitPriceCents: Int
    totalCents: Int
    status: OrderStatus
    createdAt: Timestamp
    updatedAt: Timestamp
    user: User = None  # type: ignore[assignment]
    product: Product = None  # type: ignore[assignment]


class Page_(Strict):
    """`listOf(item)`: `data` first, as the contract orders a list's fields (so a response model renders them in
    that order); each list narrows it to its items. `page` is null when the list was read by cursor, `total` and
    `pages` unless `total=true` asked for them, `nextCursor` on the last page."""

    data: list[Any]
    page: Annotated[int, JsInt(1)] | None
    limit: Annotated[int, JsInt(1, MAX_LIMIT)]
    total: Annotated[int, JsInt(0)] | None
    pages: Annotated[int, JsInt(0)] | None
    nextCursor: Cursor | None


class UserList(Page_):
    data: list[User]


class ProductList(Page_):
    data: list[Product]


class OrderList(Page_):
    data: list[Order]


class RegisterResponse(Strict):
    user: User
    token: str


class LoginResponse(Strict):
    token: str
    tokenType: Literal["Bearer"]
    expiresIn: Literal[3600]


# Which model validates which part of which route, by the contract's operationId (the drift test walks this).
REQUEST_MODELS: dict[str, dict[str, type[BaseModel]]] = {
    "listUsers": {"query": ListUsersQuery},
    "createUser": {"body": CreateUserBody},
    "getUser": {"params": IdParams},
    "updateUser": {"params": IdParams, "body": UpdateUserBody},
    "deleteUser": {"params": IdParams},
    "listProducts": {"query": ListProductsQuery},
    "createProduct": {"body": CreateProductBody},
    "getProduct": {"params": IdParams},
    "updateProduct": {"params": IdParams, "body": UpdateProductBody},
    "deleteProduct": {"params": IdParams},
    "listOrders": {"query": ListOrdersQuery},
    "createOrder": {"body": CreateOrderBody, "headers": CreateOrderHeaders},
    "getOrder": {"params": IdParams, "query": GetOrderQuery},
    "updateOrder": {"params": IdParams, "body": UpdateOrderBody},
    "deleteOrder": {"params": IdParams},
    "register": {"body": RegisterBody},
    "login": {"body": LoginBody},
}
RESPONSE_MODELS: dict[str, type[BaseModel]] = {
    "listUsers": UserList,
    "createUser": User,
    "getUser": User,
    "updateUser": User,
    "listProducts": ProductList,
    "createProduct": Product,
    "getProduct": Product,
    "updateProduct": Product,
    "listOrders": OrderList,
    "createOrder": Order,
    "getOrder": Order,
    "updateOrder": Order,
    "register": RegisterResponse,
    "login": LoginResponse,
    "me": User,
}
