// The API of docs/api.md as Zod schemas: one source for validation (every Node app), types, the OpenAPI
// document, the JSON Schemas of Fastify's JSON-Schema mode and the contract suite's response checks.
// Each schema has a type of the same name beside it (`type IdParams = z.output<typeof IdParams>`), its parsed value:
// apps import both from here and never re-declare one.
import { z } from "zod";
import { CURSOR_PATTERN, type CursorSort, decodeCursor, SORT_KEYS } from "./cursor.ts";

/** One message for every cursor refused: a client can only have a good one from a list's `nextCursor`. */
const INVALID_CURSOR = "must be the nextCursor of a list in the same sort";

// ---- building blocks ---------------------------------------------------------------------------------------

/** PostgreSQL cannot store NUL in text; every string input refuses it. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching NUL is the point
const NO_NUL = /^[^\u0000]*$/;
const text = () => z.string().regex(NO_NUL, { error: "must not contain NUL characters" });

/** Any UUID PostgreSQL accepts (8-4-4-4-12 hex digits, any version). */
export const Id = z.guid({ error: "must be a UUID" });

/** ISO 8601 UTC with milliseconds, as every implementation prints timestamps. */
export const Timestamp = z.iso.datetime({ precision: 3, offset: false, local: false });

/**
 * What a query parameter means, for the OpenAPI document and docs/api.md: on the wire every query parameter is a
 * string (digits, `true`/`false`, a comma list), which is what the schemas here validate; client generators should
 * see an integer with its bounds, a boolean, an array. Validation never reads this registry.
 */
export interface QueryParameterMeaning {
  /** JSON Schema of the value once decoded. */
  schema: Record<string, unknown>;
  /** OpenAPI serialisation, when not the default (`form`, exploded). */
  style?: "form";
  explode?: boolean;
}
export const queryMeaning = z.registry<QueryParameterMeaning>();

/**
 * Query integers: decimal digits only on the wire ("2", not "2.0", "0x2", "1e1" or " 2"), then bounds.
 * A parameter given twice arrives as an array and fails the string check: a 400, as the contract says.
 */
const queryInt = (min: number, max: number, meaning: Record<string, unknown> = {}) =>
  z
    .string()
    .regex(/^[0-9]{1,10}$/, { error: "must be a non-negative integer" })
    .transform(Number)
    .pipe(z.number().int().min(min).max(max))
    .register(queryMeaning, { schema: { type: "integer", minimum: min, maximum: max, ...meaning } });

/** Query booleans: `true` or `false` on the wire, nothing else. */
const queryBool = () =>
  z
    .enum(["true", "false"], { error: "must be true or false" })
    .transform((v) => v === "true")
    .register(queryMeaning, { schema: { type: "boolean" } });

export const MAX_PAGE = 1_000_000;
export const MAX_LIMIT = 100;
export const DEFAULT_LIMIT = 20;
export const DEFAULT_PAGE = 1;

/**
 * Where a list starts and what it counts: `page` (OFFSET: its cost grows with the page) or `cursor` (a list's
 * `nextCursor`: its cost does not), never both; `total=true` asks for the exact count, which costs a pass over
 * every matching row, so it is never paid unasked. `page` has no Zod default, so that "both given" can be told
 * from "cursor given"; an absent page is page 1 (the default the documents state).
 */
const paging = {
  page: queryInt(1, MAX_PAGE, { default: DEFAULT_PAGE }).optional(),
  limit: queryInt(1, MAX_LIMIT).optional().default(DEFAULT_LIMIT),
  cursor: z
    .string()
    .regex(CURSOR_PATTERN, { error: INVALID_CURSOR })
    .optional()
    .describe("The `nextCursor` of the page before; the list goes on after that row."),
  total: queryBool().optional().default(false),
};

/** The sort every list but the products' is read in. */
const NEWEST = "-createdAt" satisfies CursorSort;

/**
 * The list-wide rules of `paging`: not both page and cursor; a cursor this list, in this sort, gave. Zod runs them
 * even when a field failed, so each rule looks only at fields that passed (a failed one has its own issue).
 */
const pagingRules =
  (sortOf: (query: { sort?: CursorSort }) => CursorSort) =>
  (query: { page?: number; cursor?: string; sort?: CursorSort }, ctx: z.core.$RefinementCtx) => {
    const { page, cursor } = query;
    if (typeof cursor !== "string" || !CURSOR_PATTERN.test(cursor)) return;
    if (page !== undefined) {
      if (typeof page === "number") {
        ctx.addIssue({ code: "custom", path: ["page"], message: "cannot be combined with cursor", input: page });
      }
      return;
    }
    const sort = sortOf(query);
    if (Object.hasOwn(SORT_KEYS, sort) && !decodeCursor(cursor, sort)) {
      ctx.addIssue({ code: "custom", path: ["cursor"], message: INVALID_CURSOR, input: cursor });
    }
  };

/** Case-insensitive substring search; matched literally (`%` and `_` are not wildcards). */
const search = text().min(1).max(100);

// ---- resources ----------------------------------------------------------------------------------------------

export const Email = z
  .email({ error: "must be a valid e-mail address" })
  .max(254)
  .regex(NO_NUL, { error: "must not contain NUL characters" })
  .toLowerCase();
const UserName = text().trim().min(1).max(100);
export const Password = text().min(8).max(128);

/** `customer`: what registration and `POST /users` create. `admin`: made by a command or the seed, never the API. */
export const ROLES = ["customer", "admin"] as const;
export const Role = z.enum(ROLES);
export type Role = z.output<typeof Role>;

export const User = z.strictObject({
  id: Id,
  email: z.string(),
  name: z.string(),
  role: Role,
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type User = z.output<typeof User>;

export const CreateUserBody = z.strictObject({ email: Email, name: UserName });
export type CreateUserBody = z.output<typeof CreateUserBody>;
export const UpdateUserBody = CreateUserBody.partial().refine((b) => Object.keys(b).length > 0, {
  error: "must contain at least one field",
});
export type UpdateUserBody = z.output<typeof UpdateUserBody>;

export const MAX_PRICE_CENTS = 100_000_000;
export const MAX_STOCK = 1_000_000;
const PriceCents = z.int().min(0).max(MAX_PRICE_CENTS);
const Stock = z.int().min(0).max(MAX_STOCK);

export const Product = z.strictObject({
  id: Id,
  name: z.string(),
  description: z.string().nullable(),
  priceCents: z.int(),
  stock: z.int(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type Product = z.output<typeof Product>;

export const CreateProductBody = z.strictObject({
  name: text().min(1).max(200),
  description: text().max(2000).nullable().optional(),
  priceCents: PriceCents,
  stock: Stock,
});
export type CreateProductBody = z.output<typeof CreateProductBody>;
export const UpdateProductBody = CreateProductBody.partial().refine((b) => Object.keys(b).length > 0, {
  error: "must contain at least one field",
});
export type UpdateProductBody = z.output<typeof UpdateProductBody>;

export const ORDER_STATUSES = ["pending", "shipped", "delivered", "cancelled"] as const;
export const OrderStatus = z.enum(ORDER_STATUSES);
export type OrderStatus = z.output<typeof OrderStatus>;

/** The only transitions an order may take; anything else is a 409. */
export const ORDER_TRANSITIONS: Record<OrderStatus, readonly OrderStatus[]> = {
  pending: ["shipped", "cancelled"],
  shipped: ["delivered"],
  delivered: [],
  cancelled: [],
};

/** The one status change a customer may make to their own order; every other is an admin's (403 otherwise). */
export const CUSTOMER_ORDER_STATUSES: readonly OrderStatus[] = ["cancelled"];

export const Order = z.strictObject({
  id: Id,
  userId: Id,
  productId: Id,
  quantity: z.int(),
  unitPriceCents: z.int(),
  totalCents: z.int(),
  status: OrderStatus,
  createdAt: Timestamp,
  updatedAt: Timestamp,
  user: User.optional(),
  product: Product.optional(),
});
export type Order = z.output<typeof Order>;

/** The order's user is the caller (the token's `sub`), never a field of the body. */
export const CreateOrderBody = z.strictObject({
  productId: Id,
  quantity: z.int().min(1).max(100),
});
export type CreateOrderBody = z.output<typeof CreateOrderBody>;
export const UpdateOrderBody = z.strictObject({ status: OrderStatus });
export type UpdateOrderBody = z.output<typeof UpdateOrderBody>;

export const ORDER_INCLUDES = ["user", "product"] as const;
/** `include=user,product`: a comma list of known relations, each at most once. */
const Include = text()
  .regex(/^(user|product)(,(user|product))?$/, { error: "must be a comma list of: user, product" })
  .refine((v) => new Set(v.split(",")).size === v.split(",").length, { error: "must not repeat a relation" })
  .transform((v) => v.split(",") as Array<(typeof ORDER_INCLUDES)[number]>)
  .register(queryMeaning, {
    schema: {
      type: "array",
      items: { type: "string", enum: [...ORDER_INCLUDES] },
      minItems: 1,
      maxItems: ORDER_INCLUDES.length,
      uniqueItems: true,
    },
    style: "form",
    explode: false,
  });

// ---- auth ---------------------------------------------------------------------------------------------------

export const RegisterBody = z.strictObject({ email: Email, name: UserName, password: Password });
export type RegisterBody = z.output<typeof RegisterBody>;
export const LoginBody = z.strictObject({
  email: text().min(1).max(254),
  password: text().min(1).max(128),
});
export type LoginBody = z.output<typeof LoginBody>;
export const TOKEN_TTL_SECONDS = 3600;
export const RegisterResponse = z.strictObject({ user: User, token: z.string() });
export type RegisterResponse = z.output<typeof RegisterResponse>;
export const LoginResponse = z.strictObject({
  token: z.string(),
  tokenType: z.literal("Bearer"),
  expiresIn: z.literal(TOKEN_TTL_SECONDS),
});
export type LoginResponse = z.output<typeof LoginResponse>;

// ---- params and queries -------------------------------------------------------------------------------------

export const IdParams = z.strictObject({ id: Id });
export type IdParams = z.output<typeof IdParams>;

export const ListUsersQuery = z
  .strictObject({ ...paging, q: search.optional() })
  .superRefine(pagingRules(() => NEWEST));
export type ListUsersQuery = z.output<typeof ListUsersQuery>;

export const PRODUCT_SORTS = ["createdAt", "-createdAt", "priceCents", "-priceCents", "name"] as const;
export const ListProductsQuery = z
  .strictObject({
    ...paging,
    q: search.optional(),
    minPriceCents: queryInt(0, MAX_PRICE_CENTS).optional(),
    maxPriceCents: queryInt(0, MAX_PRICE_CENTS).optional(),
    inStock: queryBool().optional(),
    sort: z.enum(PRODUCT_SORTS).optional().default(NEWEST),
  })
  .refine((q) => q.minPriceCents === undefined || q.maxPriceCents === undefined || q.minPriceCents <= q.maxPriceCents, {
    error: "must not be greater than maxPriceCents",
    path: ["minPriceCents"],
  })
  .superRefine(pagingRules((q) => q.sort ?? NEWEST));

export const ListOrdersQuery = z
  .strictObject({
    ...paging,
    status: OrderStatus.optional(),
    userId: Id.optional(),
    productId: Id.optional(),
    include: Include.optional(),
  })
  .superRefine(pagingRules(() => NEWEST));
export type ListOrdersQuery = z.output<typeof ListOrdersQuery>;
export type ListProductsQuery = z.output<typeof ListProductsQuery>;
export const GetOrderQuery = z.strictObject({ include: Include.optional() });
export type GetOrderQuery = z.output<typeof GetOrderQuery>;

// ---- lists, misc --------------------------------------------------------------------------------------------

/**
 * A list's answer. `page` is null when the list was read by cursor; `total` and `pages` are null unless asked for
 * (`total=true`); `nextCursor` is null on the last page.
 */
export const listOf = <T extends z.ZodType>(item: T) =>
  z.strictObject({
    data: z.array(item),
    page: z.int().min(1).nullable(),
    limit: z.int().min(1).max(MAX_LIMIT),
    total: z.int().min(0).nullable(),
    pages: z.int().min(0).nullable(),
    nextCursor: z.string().regex(CURSOR_PATTERN).nullable(),
  });
export const UserList = listOf(User);
export type UserList = z.output<typeof UserList>;
export const ProductList = listOf(Product);
export type ProductList = z.output<typeof ProductList>;
export const OrderList = listOf(Order);
export type OrderList = z.output<typeof OrderList>;

export const Health = z.strictObject({ status: z.literal("ok"), timestamp: z.int(), framework: z.string().min(1) });
export type Health = z.output<typeof Health>;
export const Ready = z.strictObject({ status: z.literal("ok") });
export type Ready = z.output<typeof Ready>;
export const EchoBody = z.record(z.string(), z.unknown());
export type EchoBody = z.output<typeof EchoBody>;
export const EchoResponse = z.looseObject({ txnId: z.uuidv4() });
export type EchoResponse = z.output<typeof EchoResponse>;

/** Request id: the client's own when it is 1–128 characters of [A-Za-z0-9._-], else a fresh UUID. */
export const REQUEST_ID_PATTERN = /^[A-Za-z0-9._-]{1,128}$/;
export const IDEMPOTENCY_KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

/** Headers POST /orders reads (other headers pass through untouched). */
export const CreateOrderHeaders = z.object({
  "idempotency-key": z
    .string()
    .regex(IDEMPOTENCY_KEY_PATTERN, { error: "must be 1–255 visible ASCII characters" })
    .optional(),
});
export type CreateOrderHeaders = z.output<typeof CreateOrderHeaders>;

// ---- types beyond the schemas' own ---------------------------------------------------------------------------

export type OrderInclude = (typeof ORDER_INCLUDES)[number];
export type ProductSort = (typeof PRODUCT_SORTS)[number];
export interface Page<T> {
  data: T[];
  page: number | null;
  limit: number;
  total: number | null;
  pages: number | null;
  nextCursor: string | null;
}
