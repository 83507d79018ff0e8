// What the raw PostgreSQL baselines answer: every route the database scenarios send (users, products and orders CRUD
// with lists and includes, register, login) plus /health and /ready, running the SQL each route of the shared data
// access runs (packages/data-access) and answering the same JSON. One route table over a `Db` (db.ts: pg with named
// prepared statements, or Bun's built-in SQL client), served by node:http (node-http-pg.ts) or Bun.serve
// (bun-http-pg.ts). Not in the contract suite.
//
// Authorization as every implementation does it (docs/api.md, "Authorization"): on every route that needs a caller
// the bearer token is verified (token.ts) and the caller's current role read (`SELECT id, role FROM users WHERE
// id = $1`) before the body is read; admin routes answer a customer 403; a customer's rows are a condition of the
// query itself (`AND user_id = $n`), so another's row is a 404.
// The password hashing every implementation shares (the scrypt format of docs/api.md, the dummy hash of an
// unknown user): its cost is part of what the auth scenarios measure, so it is the same code, not a copy.
import type { Order, Product, Role, User } from "@api-ref/contract";
import { type CursorPosition, type CursorSort, type ListWindow, pageOf, SORT_KEYS } from "@api-ref/contract/cursor";
import { hashPassword, verifyPassword } from "@api-ref/db/password";
import type { Db } from "./db.ts";
import {
  type Baseline,
  empty,
  type Handler,
  type Incoming,
  invalid,
  json,
  Problem,
  probeRoutes,
  route,
  UUID,
} from "./http.ts";
import * as read from "./requests.ts";
import { forbidden, tokens, unauthorized } from "./token.ts";

const jwt = tokens(process.env.JWT_SECRET ?? "");

/** Who is calling: the token's user, with the role the database holds now. */
interface Principal {
  id: string;
  role: Role;
}
/** A list as a PostgreSQL array literal (`{a,b}`, for `$1::uuid[]`): the same text whichever driver sends it. */
const pgArray = (items: readonly unknown[]) => `{${items.join(",")}}`;

// ---- rows → JSON ----------------------------------------------------------------------------------------------
// Each mapping `satisfies` the contract's field names (types only: Zod is not loaded), so that a field the
// contract gains and a mapping lacks fails `pnpm typecheck` here.

// The role is an enum: both drivers answer it as its text.
const USER_COLUMNS = "id, email, name, role, created_at, updated_at";
const PRODUCT_COLUMNS = "id, name, description, price_cents, stock, created_at, updated_at";
const ORDER_COLUMNS =
  "id, user_id, product_id, quantity, unit_price_cents, total_cents, status, created_at, updated_at";

type Row = Record<string, unknown>;
const iso = (v: unknown) => (v as Date).toISOString();

const toUser = (r: Row, p = "") =>
  ({
    id: r[`${p}id`],
    email: r[`${p}email`],
    name: r[`${p}name`],
    role: r[`${p}role`],
    createdAt: iso(r[`${p}created_at`]),
    updatedAt: iso(r[`${p}updated_at`]),
  }) satisfies Record<keyof User, unknown>;
const toProduct = (r: Row, p = "") =>
  ({
    id: r[`${p}id`],
    name: r[`${p}name`],
    description: r[`${p}description`],
    priceCents: r[`${p}price_cents`],
    stock: r[`${p}stock`],
    createdAt: iso(r[`${p}created_at`]),
    updatedAt: iso(r[`${p}updated_at`]),
  }) satisfies Record<keyof Product, unknown>;
const toOrder = (r: Row) =>
  ({
    id: r.id,
    userId: r.user_id,
    productId: r.product_id,
    quantity: r.quantity,
    unitPriceCents: r.unit_price_cents,
    // BIGINT: pg returns it as a string; totals stay far below 2^53.
    totalCents: Number(r.total_cents),
    status: r.status,
    createdAt: iso(r.created_at),
    updatedAt: iso(r.updated_at),
    ...(r.u_id ? { user: toUser(r, "u_") } : {}),
    ...(r.p_id ? { product: toProduct(r, "p_") } : {}),
  }) satisfies Record<Exclude<keyof Order, "user" | "product">, unknown>;

// ---- lists ------------------------------------------------------------------------------------------------------
// As the data access reads them (packages/data-access/src/search.ts and columns.sql.ts): a window of limit + 1 rows
// by offset or after a cursor's row, ordered by the sort's column then id, the count only when asked for.

/** Users and orders are listed newest first; products may choose. */
const NEWEST_FIRST = "-createdAt" satisfies CursorSort;

/** What a list reads: its columns, its table, and the alias its conditions name columns by ("" or "o."). */
interface ListSource {
  columns: string;
  from: string;
  alias: string;
}
const USERS: ListSource = { columns: USER_COLUMNS, from: "users", alias: "" };
const PRODUCTS: ListSource = { columns: PRODUCT_COLUMNS, from: "products", alias: "" };
const ORDERS: ListSource = { columns: ORDER_COLUMNS, from: "orders o", alias: "o." };

/** The column each sort key reads, and the type its cursor's key is compared as. */
const SORT_COLUMNS = {
  createdAt: { column: "created_at", type: "timestamptz" },
  priceCents: { column: "price_cents", type: "int" },
  name: { column: "name", type: "text" },
} as const;

const whereOf = (conditions: string[]) => (conditions.length ? ` WHERE ${conditions.join(" AND ")}` : "");

/** A sort in SQL: its column, then id ascending, so that pages never overlap or skip a row. */
function orderBy(sort: CursorSort, alias: string) {
  const { field, descending } = SORT_KEYS[sort];
  return `${alias}${SORT_COLUMNS[field].column} ${descending ? "DESC" : "ASC"}, ${alias}id ASC`;
}

/**
 * The two index ranges that follow a cursor's row, in order, its key and id appended to `values`: at its key with a
 * greater id, then past its key. Read apart, each starts where its rows do; one OR of the two would make PostgreSQL
 * read, and throw away, every row that shares the cursor's key before it.
 */
function seekRanges(sort: CursorSort, after: CursorPosition, alias: string, values: unknown[]): [string, string] {
  const { field, descending } = SORT_KEYS[sort];
  const { column, type } = SORT_COLUMNS[field];
  const n = values.push(after.key, after.id);
  const [key, id, col] = [`$${n - 1}::${type}`, `$${n}::uuid`, `${alias}${column}`];
  return [`${col} = ${key} AND ${alias}id > ${id}`, `${col} ${descending ? "<" : ">"} ${key}`];
}

/**
 * A list's window as one statement, its parameters appended to `values`: limit + 1 rows from the top or past a page
 * number's offset; after a cursor, the union of its two ranges, each read in order, ordered again by output names.
 */
function windowStatement(source: ListSource, filters: string[], values: unknown[], w: ListWindow): string {
  const select = `SELECT ${source.columns} FROM ${source.from}`;
  const order = orderBy(w.sort, source.alias);
  if (!w.after) {
    const n = values.push(w.limit + 1, w.offset);
    return `${select}${whereOf(filters)} ORDER BY ${order} LIMIT $${n - 1} OFFSET $${n}`;
  }
  const ranges = seekRanges(w.sort, w.after, source.alias, values);
  const take = `LIMIT $${values.push(w.limit + 1)}`;
  const reads = ranges.map((range) => `(${select}${whereOf([...filters, range])} ORDER BY ${order} ${take})`);
  return `${reads.join(" UNION ALL ")} ORDER BY ${orderBy(w.sort, "")} ${take}`;
}

/** A list's answer, the contract's page: at most `limit` rows, and the cursor after the last when a row follows. */
const listAnswer = (w: ListWindow, rows: Row[], total: number | undefined, toItem: (r: Row) => Row) =>
  json(200, pageOf(w, rows, total, toItem as (r: Row) => Row & { id: string }));

/** The route table of a raw PostgreSQL baseline named `framework`, on `db`. */
export function pgBaseline(framework: string, db: Db): Baseline {
  // ---- who is calling -------------------------------------------------------------------------------------------

  /** The caller: the token verified, then its user's current role read; a deleted user's token is a 401. */
  async function authenticate(req: Incoming): Promise<Principal> {
    const id = jwt.verify(req.authorization);
    const { rows } = await db.query<{ id: string; role: Role }>("SELECT id, role FROM users WHERE id = $1", [id]);
    if (!rows[0]) throw unauthorized("The token's user no longer exists.");
    return rows[0];
  }

  /** The caller, who must be an admin (403 otherwise). */
  async function authenticateAdmin(req: Incoming): Promise<Principal> {
    const principal = await authenticate(req);
    if (principal.role !== "admin") throw forbidden();
    return principal;
  }

  /** A customer's condition on `column` (their own rows only), as the next parameter after `values`; none for an admin. */
  function own(principal: Principal, column: string, values: unknown[]): string {
    if (principal.role === "admin") return "";
    values.push(principal.id);
    return ` AND ${column} = $${values.length}`;
  }

  /**
   * A list's rows in its window, limit + 1 of them (the one past the page says that a next page exists), and the
   * count of every matching row only when asked for (`total=true`); both at once.
   */
  async function readWindow(source: ListSource, filters: string[], values: unknown[], w: ListWindow) {
    const rowValues = [...values];
    const [found, count] = await Promise.all([
      db.query(windowStatement(source, filters, rowValues, w), rowValues),
      w.total
        ? db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${source.from}${whereOf(filters)}`, values)
        : null,
    ]);
    return { rows: found.rows, total: count ? Number(count.rows[0]?.n ?? 0) : undefined };
  }

  const notFound = (what: string, key: string) => new Problem("notFound", `No ${what} has the id ${key}.`);

  // ---- users ----------------------------------------------------------------------------------------------------

  async function listUsers(url: URL) {
    const w = read.listWindow(url, NEWEST_FIRST);
    const q = url.searchParams.get("q");
    const filters = q ? ["(name ILIKE $1 OR email ILIKE $1)"] : [];
    const { rows, total } = await readWindow(USERS, filters, q ? [read.likePattern(q)] : [], w);
    return listAnswer(w, rows, total, (r) => toUser(r));
  }

  async function getUser(key: string, principal: Principal) {
    const values: unknown[] = [key];
    const mine = own(principal, "id", values);
    const { rows } = await db.query(`SELECT ${USER_COLUMNS} FROM users WHERE id = $1${mine} LIMIT 1`, values);
    if (!rows[0]) throw notFound("user", key);
    return json(200, toUser(rows[0]));
  }

  const emailTaken = () =>
    new Problem("conflict", "A user with this e-mail address already exists.", [
      { path: "body.email", message: "is already registered" },
    ]);

  // ---- products --------------------------------------------------------------------------------------------------

  async function listProducts(url: URL) {
    const sort = url.searchParams.get("sort") ?? NEWEST_FIRST;
    if (!Object.hasOwn(SORT_KEYS, sort)) throw invalid("query.sort", "must be a known sort");
    const w = read.listWindow(url, sort as CursorSort);
    const filters: string[] = [];
    const values: unknown[] = [];
    const q = url.searchParams.get("q");
    if (q) {
      values.push(read.likePattern(q));
      filters.push(`name ILIKE $${values.length}`);
    }
    const min = read.intParam(url, "minPriceCents", 0, 100_000_000);
    const max = read.intParam(url, "maxPriceCents", 0, 100_000_000);
    if (min !== undefined) {
      values.push(min);
      filters.push(`price_cents >= $${values.length}`);
    }
    if (max !== undefined) {
      values.push(max);
      filters.push(`price_cents <= $${values.length}`);
    }
    const inStock = url.searchParams.get("inStock");
    if (inStock === "true") filters.push("stock > 0");
    else if (inStock === "false") filters.push("stock = 0");
    else if (inStock !== null) throw invalid("query.inStock", "must be true or false");
    const { rows, total } = await readWindow(PRODUCTS, filters, values, w);
    return listAnswer(w, rows, total, (r) => toProduct(r));
  }

  // ---- orders -----------------------------------------------------------------------------------------------------

  /** Which statuses may move to the key (the contract's transitions, read backwards). */
  const FROM: Record<string, string[]> = {
    pending: [],
    shipped: ["pending"],
    delivered: ["shipped"],
    cancelled: ["pending"],
  };

  /** The order columns, plus the user's and the product's when included, joined in the same statement. */
  function orderSelect(include: { user: boolean; product: boolean }) {
    const columns = ORDER_COLUMNS.split(", ").map((c) => `o.${c}`);
    let joins = "";
    if (include.user) {
      columns.push(...USER_COLUMNS.split(", ").map((c) => `u.${c} AS u_${c}`));
      joins += " JOIN users u ON u.id = o.user_id";
    }
    if (include.product) {
      columns.push(...PRODUCT_COLUMNS.split(", ").map((c) => `p.${c} AS p_${c}`));
      joins += " JOIN products p ON p.id = o.product_id";
    }
    return `SELECT ${columns.join(", ")} FROM orders o${joins}`;
  }

  async function listOrders(url: URL, principal: Principal) {
    const w = read.listWindow(url, NEWEST_FIRST);
    const filters: string[] = [];
    const values: unknown[] = [];
    if (principal.role !== "admin") {
      values.push(principal.id);
      filters.push(`o.user_id = $${values.length}`);
    }
    const status = url.searchParams.get("status");
    if (status !== null) {
      if (!read.STATUSES.includes(status)) throw invalid("query.status", "must be an order status");
      values.push(status);
      filters.push(`o.status = $${values.length}::order_status`);
    }
    for (const [param, column] of [
      ["userId", "user_id"],
      ["productId", "product_id"],
    ] as const) {
      const v = url.searchParams.get(param);
      if (v === null) continue;
      if (!UUID.test(v)) throw invalid(`query.${param}`, "must be a UUID");
      values.push(v);
      filters.push(`o.${column} = $${values.length}`);
    }
    const include = read.includes(url);
    // The page alone, then its users and products by id: an OFFSET over a JOIN makes PostgreSQL join every row it
    // skips, while the page needs at most 2 × limit related rows (measured: 1.75 ms of PostgreSQL CPU per request
    // with the JOIN against ~1 ms this way, which is also how Prisma's default relation strategy answers).
    const { rows, total } = await readWindow(ORDERS, filters, values, w);
    const page = rows.slice(0, w.limit);
    const related = async (wanted: boolean, table: string, columns: string, key: string) => {
      if (!wanted || page.length === 0) return new Map<unknown, Row>();
      const ids = [...new Set(page.map((r) => r[key]))];
      const { rows } = await db.query(`SELECT ${columns} FROM ${table} WHERE id = ANY($1::uuid[])`, [pgArray(ids)]);
      return new Map(rows.map((r) => [r.id, r]));
    };
    const [users, products] = await Promise.all([
      related(include.user, "users", USER_COLUMNS, "user_id"),
      related(include.product, "products", PRODUCT_COLUMNS, "product_id"),
    ]);
    return listAnswer(w, rows, total, (r) => {
      const user = users.get(r.user_id);
      const product = products.get(r.product_id);
      return {
        ...toOrder(r),
        ...(user ? { user: toUser(user) } : {}),
        ...(product ? { product: toProduct(product) } : {}),
      };
    });
  }

  const unknownProduct = (key: string) =>
    new Problem("unprocessable", `No product has the id ${key}.`, [
      { path: "body.productId", message: "does not name an existing record" },
    ]);

  /** POST /orders: the order is the caller's (the body names no user). */
  async function createOrder(body: Row, principal: Principal) {
    read.onlyKeys(body, ["productId", "quantity"]);
    const userId = principal.id;
    const productId = read.str(body, "productId", 36, true) as string;
    if (!UUID.test(productId)) throw invalid("body.productId", "must be a UUID");
    const quantity = read.int(body, "quantity", 1, 100, true) as number;
    // The stock taken and the order recorded in one statement (one round trip, atomic by itself, no BEGIN/COMMIT):
    // the conditional decrement never oversells, and inserts only when there was enough stock.
    let rows: Row[];
    try {
      ({ rows } = await db.query(
        `WITH taken AS (
         UPDATE products SET stock = stock - $3, updated_at = now() WHERE id = $2 AND stock >= $3 RETURNING price_cents
       )
       INSERT INTO orders (user_id, product_id, quantity, unit_price_cents, total_cents)
       SELECT $1::uuid, $2::uuid, $3, price_cents, price_cents::bigint * $3 FROM taken
       RETURNING ${ORDER_COLUMNS}`,
        [userId, productId, quantity],
      ));
    } catch (error) {
      // The caller was deleted after the request was authenticated: their token no longer names anyone.
      if (db.codeOf(error) === "23503") throw unauthorized("The token's user no longer exists.");
      throw error;
    }
    if (!rows[0]) {
      // Nothing taken: an unknown product is a 422 whatever the stock; only then is a shortage a 409.
      const product = await db.query<{ stock: number }>("SELECT stock FROM products WHERE id = $1", [productId]);
      if (!product.rows[0]) throw unknownProduct(productId);
      throw new Problem("conflict", `Only ${product.rows[0].stock} left in stock; ${quantity} requested.`, [
        { path: "body.quantity", message: "exceeds the stock left" },
      ]);
    }
    const order = toOrder(rows[0]);
    return json(201, order, { location: `/orders/${order.id}` });
  }

  async function updateOrderStatus(key: string, body: Row, principal: Principal) {
    read.onlyKeys(body, ["status"]);
    const status = body.status;
    if (typeof status !== "string" || !read.STATUSES.includes(status))
      throw invalid("body.status", "must be an order status");
    // A customer may only cancel (their own order): any other status is a 403, whichever order it names.
    if (principal.role !== "admin" && status !== "cancelled") {
      throw forbidden(`Only an admin may mark an order ${status}; a customer may cancel their own pending order.`);
    }
    const values: unknown[] = [key, status, pgArray(FROM[status] ?? [])];
    const mine = own(principal, "user_id", values);
    const order = await db.transaction(async (q) => {
      const { rows } = await q(
        `UPDATE orders SET status = $2::order_status, updated_at = now() WHERE id = $1 AND status = ANY($3::order_status[])${mine} RETURNING ${ORDER_COLUMNS}`,
        values,
      );
      const row = rows[0];
      if (!row) {
        const lookup: unknown[] = [key];
        const current = await q<{ status: string }>(
          `SELECT status FROM orders WHERE id = $1${own(principal, "user_id", lookup)}`,
          lookup,
        );
        if (!current.rows[0]) throw notFound("order", key);
        throw new Problem("conflict", `An order that is ${current.rows[0].status} cannot become ${status}.`, [
          { path: "body.status", message: `not allowed from ${current.rows[0].status}` },
        ]);
      }
      if (status === "cancelled") {
        await q("UPDATE products SET stock = stock + $1, updated_at = now() WHERE id = $2", [
          row.quantity,
          row.product_id,
        ]);
      }
      return toOrder(row);
    });
    return json(200, order);
  }

  async function deleteOrder(key: string) {
    await db.transaction(async (q) => {
      const { rows } = await q<{ status: string; product_id: string; quantity: number }>(
        "DELETE FROM orders WHERE id = $1 RETURNING status, product_id, quantity",
        [key],
      );
      const row = rows[0];
      if (!row) throw notFound("order", key);
      if (row.status === "pending") {
        await q("UPDATE products SET stock = stock + $1, updated_at = now() WHERE id = $2", [
          row.quantity,
          row.product_id,
        ]);
      }
    });
    return empty(204);
  }

  // ---- auth -----------------------------------------------------------------------------------------------------

  async function register(body: Row) {
    const { email, name, password } = read.registerFields(body);
    const passwordHash = await hashPassword(password);
    try {
      const { rows } = await db.query(
        `INSERT INTO users (email, name, password_hash) VALUES ($1, $2, $3) RETURNING ${USER_COLUMNS}`,
        [email, name, passwordHash],
      );
      const user = toUser(rows[0] as Row);
      return json(201, { user, token: jwt.sign(user.id as string) });
    } catch (error) {
      if (db.codeOf(error) === "23505") throw emailTaken();
      throw error;
    }
  }

  async function login(body: Row) {
    read.onlyKeys(body, ["email", "password"]);
    const email = read.str(body, "email", 254, true) as string;
    const password = read.str(body, "password", 128, true) as string;
    const { rows } = await db.query<{ id: string; password_hash: string | null }>(
      "SELECT id, password_hash FROM users WHERE email = $1 LIMIT 1",
      [email.toLowerCase()],
    );
    const valid = await verifyPassword(password, rows[0]?.password_hash);
    if (!rows[0] || !valid) throw new Problem("unauthorized", "The e-mail address or the password is wrong.");
    return json(200, { token: jwt.sign(rows[0].id), tokenType: "Bearer", expiresIn: 3600 });
  }

  // ---- routes ----------------------------------------------------------------------------------------------------

  /**
   * DELETE /<table>/:id: 204, 404 when there is no such row (or, for a user, not the caller's own unless an admin
   * asks), 409 (with `conflict`) while an order references it. Products are an admin's to delete.
   */
  function deleteById(table: "users" | "products", resource: string, conflict: string): Handler {
    return async (req, _url, [raw]) => {
      const principal = table === "users" ? await authenticate(req) : await authenticateAdmin(req);
      const key = read.id(raw);
      const values: unknown[] = [key];
      const mine = table === "users" ? own(principal, "id", values) : "";
      try {
        const { rowCount } = await db.query(`DELETE FROM ${table} WHERE id = $1${mine}`, values);
        if (!rowCount) throw notFound(resource, key);
      } catch (error) {
        if (db.codeOf(error) === "23503") throw new Problem("conflict", conflict);
        throw error;
      }
      return empty(204);
    };
  }

  const RETURNING_USER = `RETURNING ${USER_COLUMNS}`;
  const RETURNING_PRODUCT = `RETURNING ${PRODUCT_COLUMNS}`;

  return {
    framework,
    routes: () => [
      ...probeRoutes(framework, () => db.query("SELECT 1")),
      route("/users", {
        GET: async (req, url) => {
          await authenticateAdmin(req);
          return listUsers(url);
        },
        POST: async (req) => {
          await authenticateAdmin(req);
          const { email, name } = read.userFields(await req.json(), true);
          try {
            const { rows } = await db.query(`INSERT INTO users (email, name) VALUES ($1, $2) ${RETURNING_USER}`, [
              email,
              name,
            ]);
            const user = toUser(rows[0] as Row);
            return json(201, user, { location: `/users/${user.id}` });
          } catch (error) {
            if (db.codeOf(error) === "23505") throw emailTaken();
            throw error;
          }
        },
      }),
      route("/users/:id", {
        GET: async (req, _url, [raw]) => {
          const principal = await authenticate(req);
          return getUser(read.id(raw), principal);
        },
        PATCH: async (req, _url, [raw]) => {
          const principal = await authenticate(req);
          const key = read.id(raw);
          const { email, name } = read.userFields(await req.json(), false);
          const values: unknown[] = [key, email ?? null, name ?? null];
          const mine = own(principal, "id", values);
          try {
            const { rows } = await db.query(
              `UPDATE users SET email = COALESCE($2, email), name = COALESCE($3, name), updated_at = now() WHERE id = $1${mine} ${RETURNING_USER}`,
              values,
            );
            if (!rows[0]) throw notFound("user", key);
            return json(200, toUser(rows[0]));
          } catch (error) {
            if (db.codeOf(error) === "23505") throw emailTaken();
            throw error;
          }
        },
        DELETE: deleteById("users", "user", "The user has orders and cannot be deleted."),
      }),
      route("/products", {
        GET: (_req, url) => listProducts(url),
        POST: async (req) => {
          await authenticateAdmin(req);
          const f = read.productFields(await req.json(), true);
          const { rows } = await db.query(
            `INSERT INTO products (name, description, price_cents, stock) VALUES ($1, $2, $3, $4) ${RETURNING_PRODUCT}`,
            [f.name, f.description ?? null, f.priceCents, f.stock],
          );
          const product = toProduct(rows[0] as Row);
          return json(201, product, { location: `/products/${product.id}` });
        },
      }),
      route("/products/:id", {
        GET: async (_req, _url, [raw]) => {
          const key = read.id(raw);
          const { rows } = await db.query(`SELECT ${PRODUCT_COLUMNS} FROM products WHERE id = $1 LIMIT 1`, [key]);
          if (!rows[0]) throw notFound("product", key);
          return json(200, toProduct(rows[0]));
        },
        PATCH: async (req, _url, [raw]) => {
          await authenticateAdmin(req);
          const key = read.id(raw);
          const body = await req.json();
          const f = read.productFields(body, false);
          const { rows } = await db.query(
            `UPDATE products SET name = COALESCE($2, name), description = CASE WHEN $3::boolean THEN $4 ELSE description END,
             price_cents = COALESCE($5, price_cents), stock = COALESCE($6, stock), updated_at = now()
           WHERE id = $1 ${RETURNING_PRODUCT}`,
            [key, f.name ?? null, "description" in body, f.description ?? null, f.priceCents ?? null, f.stock ?? null],
          );
          if (!rows[0]) throw notFound("product", key);
          return json(200, toProduct(rows[0]));
        },
        DELETE: deleteById("products", "product", "Orders reference this product; it cannot be deleted."),
      }),
      route("/orders", {
        GET: async (req, url) => listOrders(url, await authenticate(req)),
        POST: async (req) => {
          const principal = await authenticate(req);
          return createOrder(await req.json(), principal);
        },
      }),
      route("/orders/:id", {
        GET: async (req, url, [raw]) => {
          const principal = await authenticate(req);
          const key = read.id(raw);
          const values: unknown[] = [key];
          const mine = own(principal, "o.user_id", values);
          const { rows } = await db.query(`${orderSelect(read.includes(url))} WHERE o.id = $1${mine} LIMIT 1`, values);
          if (!rows[0]) throw notFound("order", key);
          return json(200, toOrder(rows[0]));
        },
        PATCH: async (req, _url, [raw]) => {
          const principal = await authenticate(req);
          const key = read.id(raw);
          return updateOrderStatus(key, await req.json(), principal);
        },
        DELETE: async (req, _url, [raw]) => {
          await authenticateAdmin(req);
          return deleteOrder(read.id(raw));
        },
      }),
      route("/auth/register", { POST: async (req) => register(await req.json()) }),
      route("/auth/login", { POST: async (req) => login(await req.json()) }),
    ],
    onError: (error) => {
      const code = db.codeOf(error);
      if (code === "ECONNREFUSED" || code?.startsWith("08") || code?.startsWith("57P")) {
        return new Problem("unavailable", "The database cannot be reached; try again shortly.");
      }
      process.stderr.write(`${(error as Error).stack}\n`);
      return new Problem("internal", "An unexpected error occurred.");
    },
  };
}
