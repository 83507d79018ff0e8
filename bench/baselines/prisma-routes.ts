// Baselines that split a database figure in two: a raw server (node:http in node-http-prisma.ts, Bun.serve in
// bun-http-prisma.ts) serving the database scenarios through packages/data-access exactly as the apps call it
// (createDataAccess: the same Prisma client, pool, queries, DTOs and error translation), with no framework around
// it. Requests are read by hand as in the raw pg baselines (requests.ts), so that the two differ only in their
// data access:
//   implementation ÷ <runtime>-http-prisma   = what the framework costs,
//   <runtime>-http-prisma ÷ <runtime>-http-pg = what the data access (Prisma and its driver adapter) costs.
// Callers are authenticated as the apps authenticate them, by the data access's own `auth.authenticate` (the token
// verified with jose, the user's role read through Prisma) and `requireAdmin`, before the body is read.
import { type OrderStatus, ProblemError } from "@api-ref/contract";
import { createDataAccess, internalError, type Principal, requireAdmin } from "@api-ref/data-access";
import { loadConfig } from "@api-ref/server";
import {
  type Baseline,
  empty,
  type Incoming,
  invalid,
  json,
  Problem,
  type ProblemKind,
  probeRoutes,
  route,
  UUID,
} from "./http.ts";
import * as read from "./requests.ts";

type Row = Record<string, unknown>;

const PRODUCT_SORTS = ["createdAt", "-createdAt", "priceCents", "-priceCents", "name"] as const;
/** Users and orders are listed newest first; products may choose. */
const NEWEST_FIRST = "-createdAt";

/** A list's paging checked here as the apps' schemas check it, for the data access to read its window from. */
function pagingOf(url: URL, sort: (typeof PRODUCT_SORTS)[number]) {
  const { page, limit, cursor, total } = read.paging(url, sort);
  return { page, limit, cursor, total };
}

function productQuery(url: URL) {
  const inStock = url.searchParams.get("inStock");
  if (inStock !== null && inStock !== "true" && inStock !== "false") {
    throw invalid("query.inStock", "must be true or false");
  }
  const sort = (url.searchParams.get("sort") ?? NEWEST_FIRST) as (typeof PRODUCT_SORTS)[number];
  if (!PRODUCT_SORTS.includes(sort)) throw invalid("query.sort", "must be a known sort");
  return {
    ...pagingOf(url, sort),
    q: url.searchParams.get("q") || undefined,
    minPriceCents: read.intParam(url, "minPriceCents", 0, 100_000_000),
    maxPriceCents: read.intParam(url, "maxPriceCents", 0, 100_000_000),
    inStock: inStock === null ? undefined : inStock === "true",
    sort,
  };
}

function orderQuery(url: URL) {
  const status = url.searchParams.get("status");
  if (status !== null && !read.STATUSES.includes(status)) throw invalid("query.status", "must be an order status");
  const uuid = (param: string) => {
    const v = url.searchParams.get(param);
    if (v !== null && !UUID.test(v)) throw invalid(`query.${param}`, "must be a UUID");
    return v ?? undefined;
  };
  const include = read.includes(url);
  return {
    ...pagingOf(url, NEWEST_FIRST),
    status: (status ?? undefined) as OrderStatus | undefined,
    userId: uuid("userId"),
    productId: uuid("productId"),
    include: [...(include.user ? ["user" as const] : []), ...(include.product ? ["product" as const] : [])],
  };
}

/** POST /orders's body: a product and a quantity (the order is the caller's). */
function orderBody(body: Row) {
  read.onlyKeys(body, ["productId", "quantity"]);
  const productId = read.str(body, "productId", 36, true) as string;
  if (!UUID.test(productId)) throw invalid("body.productId", "must be a UUID");
  return { productId, quantity: read.int(body, "quantity", 1, 100, true) as number };
}

function productBody(body: Row, required: boolean) {
  const f = read.productFields(body, required);
  const fields: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(f)) if (value !== undefined || key in body) fields[key] = value;
  return fields as { name: string; description?: string | null; priceCents: number; stock: number };
}

function userBody(body: Row, required: boolean) {
  const { email, name } = read.userFields(body, required);
  return { ...(email !== undefined ? { email } : {}), ...(name !== undefined ? { name } : {}) } as {
    email: string;
    name: string;
  };
}

const created = (path: string, value: { id: string }) => json(201, value, { location: `${path}/${value.id}` });

/** The route table of a Prisma baseline named `framework`, and how to close its data access. */
export function prismaBaseline(framework: string): { baseline: Baseline; close: () => Promise<void> } {
  const dataAccess = createDataAccess(loadConfig());
  const { users, products, orders, auth } = dataAccess;
  /** The caller, as every app learns it: the data access's authenticate (a 401 problem with its www-authenticate). */
  const caller = (req: Incoming): Promise<Principal> => auth.authenticate(req.authorization);
  /** The caller, who must be an admin (the data access's requireAdmin: a 403 otherwise). */
  const admin = async (req: Incoming): Promise<Principal> => {
    const principal = await caller(req);
    requireAdmin(principal);
    return principal;
  };
  const baseline: Baseline = {
    framework,
    routes: () => [
      ...probeRoutes(framework, () => dataAccess.ping()),
      route("/users", {
        GET: async (req, url) => {
          await admin(req);
          const q = url.searchParams.get("q") || undefined;
          return json(200, await users.list({ ...pagingOf(url, NEWEST_FIRST), q }));
        },
        POST: async (req) => {
          await admin(req);
          return created("/users", await users.create(userBody(await req.json(), true)));
        },
      }),
      route("/users/:id", {
        GET: async (req, _url, [raw]) => {
          const principal = await caller(req);
          return json(200, await users.get(read.id(raw), principal));
        },
        PATCH: async (req, _url, [raw]) => {
          const principal = await caller(req);
          const key = read.id(raw);
          return json(200, await users.update(key, userBody(await req.json(), false), principal));
        },
        DELETE: async (req, _url, [raw]) => {
          const principal = await caller(req);
          await users.remove(read.id(raw), principal);
          return empty(204);
        },
      }),
      route("/products", {
        GET: async (_req, url) => json(200, await products.list(productQuery(url))),
        POST: async (req) => {
          await admin(req);
          return created("/products", await products.create(productBody(await req.json(), true)));
        },
      }),
      route("/products/:id", {
        GET: async (_req, _url, [raw]) => json(200, await products.get(read.id(raw))),
        PATCH: async (req, _url, [raw]) => {
          await admin(req);
          const key = read.id(raw);
          return json(200, await products.update(key, productBody(await req.json(), false)));
        },
        DELETE: async (req, _url, [raw]) => {
          await admin(req);
          await products.remove(read.id(raw));
          return empty(204);
        },
      }),
      route("/orders", {
        GET: async (req, url) => {
          const principal = await caller(req);
          return json(200, await orders.list(orderQuery(url), principal));
        },
        POST: async (req) => {
          const principal = await caller(req);
          const { order } = await orders.create(orderBody(await req.json()), principal);
          return created("/orders", order);
        },
      }),
      route("/orders/:id", {
        GET: async (req, url, [raw]) => {
          const principal = await caller(req);
          const key = read.id(raw);
          return json(200, await orders.get(key, orderQuery(url).include, principal));
        },
        PATCH: async (req, _url, [raw]) => {
          const principal = await caller(req);
          const key = read.id(raw);
          const body = await req.json();
          read.onlyKeys(body, ["status"]);
          if (typeof body.status !== "string" || !read.STATUSES.includes(body.status)) {
            throw invalid("body.status", "must be an order status");
          }
          return json(200, await orders.updateStatus(key, body.status as OrderStatus, principal));
        },
        DELETE: async (req, _url, [raw]) => {
          await admin(req);
          await orders.remove(read.id(raw));
          return empty(204);
        },
      }),
      route("/auth/register", {
        POST: async (req) => {
          return json(201, await auth.register(read.registerFields(await req.json())));
        },
      }),
      route("/auth/login", {
        POST: async (req) => {
          const body = await req.json();
          read.onlyKeys(body, ["email", "password"]);
          const email = read.str(body, "email", 254, true) as string;
          const password = read.str(body, "password", 128, true) as string;
          return json(200, await auth.login({ email, password }));
        },
      }),
    ],
    onError: (error) => {
      // packages/data-access throws the contract's problems (its database errors already translated, 503 included).
      if (!(error instanceof ProblemError)) process.stderr.write(`${(error as Error).stack}\n`);
      const known = error instanceof ProblemError ? error : internalError();
      return new Problem(known.kind as ProblemKind, known.message, known.errors, known.headers);
    },
  };
  return { baseline, close: () => dataAccess.close() };
}
