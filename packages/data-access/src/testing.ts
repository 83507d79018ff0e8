// A data access without a database, for each app's own tests: in-memory users, products and orders in the
// contract's DTO shapes, with the same not-found and unauthorized problems the real one throws. Plain functions
// (no test-runner mocks), so any runner can use it; replace one method per test with `overrides`.
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import {
  type CursorSort,
  type Order,
  PROBLEM_CONTENT_TYPE,
  PROBLEMS,
  type Problem,
  type ProblemKind,
  type Product,
  type User,
} from "@api-ref/contract";
import type { DataAccess } from "./index.ts";
import { orderNotFound } from "./orders.ts";
import { forbidden, type Principal, unauthorized } from "./principal.ts";
import { productNotFound } from "./products.ts";
import { answerList, listWindow, NEWEST_FIRST, type Paging } from "./search.ts";
import { userNotFound } from "./users.ts";

const CREATED_AT = "2025-01-01T00:00:00.000Z";

/** A customer: FAKE_ORDER is theirs. */
export const FAKE_USER: User = {
  id: "00000000-0000-4000-8000-000000000001",
  email: "ada@example.com",
  name: "Ada",
  role: "customer",
  createdAt: CREATED_AT,
  updatedAt: CREATED_AT,
};

export const FAKE_ADMIN: User = {
  id: "00000000-0000-4000-8000-000000000004",
  email: "grace@example.com",
  name: "Grace",
  role: "admin",
  createdAt: CREATED_AT,
  updatedAt: CREATED_AT,
};

/**
 * The `authorization` headers the fake's `auth.authenticate` accepts: FAKE_USER's and FAKE_ADMIN's. Anything else
 * is the 401 the real one throws, challenge included.
 */
export const FAKE_AUTH = { customer: "Bearer fake-customer-token", admin: "Bearer fake-admin-token" } as const;

export const FAKE_PRODUCT: Product = {
  id: "00000000-0000-4000-8000-000000000002",
  name: "Lamp",
  description: null,
  priceCents: 1999,
  stock: 5,
  createdAt: CREATED_AT,
  updatedAt: CREATED_AT,
};

export const FAKE_ORDER: Order = {
  id: "00000000-0000-4000-8000-000000000003",
  userId: FAKE_USER.id,
  productId: FAKE_PRODUCT.id,
  quantity: 2,
  unitPriceCents: 1999,
  totalCents: 3998,
  status: "pending",
  createdAt: CREATED_AT,
  updatedAt: CREATED_AT,
};

/** A valid id that the fake does not hold: its `get` throws the real data access's not-found problem. */
export const MISSING_ID = "00000000-0000-4000-8000-00000000ffff";

/** Replace any method of a resource, or `ping` / `close`, e.g. `{ users: { get: async () => { throw … } } }`. */
export type FakeOverrides = {
  [K in keyof DataAccess]?: DataAccess[K] extends (...args: never[]) => unknown
    ? DataAccess[K]
    : Partial<DataAccess[K]>;
};

function table<T extends { id: string }>(first: T, notFound: (id: string) => Error) {
  const rows = new Map([[first.id, first]]);
  const get = (id: string) => {
    const row = rows.get(id);
    if (!row) throw notFound(id);
    return row;
  };
  return {
    get,
    /** The real lists' paging and answer, over the rows in the order they were put (the fake has no sorts). */
    list: (query: Paging & { sort?: CursorSort }, keep: (row: T) => boolean = () => true) => {
      const window = listWindow(query, query.sort ?? NEWEST_FIRST);
      const all = [...rows.values()].filter(keep);
      const start = window.after ? all.findIndex((row) => row.id === window.after?.id) + 1 : window.offset;
      const found = all.slice(start, start + window.limit + 1);
      return answerList(
        window,
        Promise.resolve(found),
        window.total ? Promise.resolve(all.length) : undefined,
        (r) => r,
      );
    },
    put: (row: T) => {
      rows.set(row.id, row);
      return row;
    },
    remove: (id: string) => void rows.delete(get(id).id),
  };
}

const stamped = () => ({ id: randomUUID(), createdAt: new Date().toISOString(), updatedAt: new Date().toISOString() });

/** The fake's principals, by the `authorization` header that names them. */
const FAKE_PRINCIPALS: ReadonlyMap<string, Principal> = new Map([
  [FAKE_AUTH.customer, { id: FAKE_USER.id, role: "customer" }],
  [FAKE_AUTH.admin, { id: FAKE_ADMIN.id, role: "admin" }],
]);

/** The real repositories' ownership rule: a customer reaches only their own rows (404 for another's). */
function reachable<T>(row: T, ownerId: string, principal: Principal, notFound: () => Error): T {
  if (principal.role !== "admin" && ownerId !== principal.id) throw notFound();
  return row;
}

/**
 * A fresh fake data access holding FAKE_USER, FAKE_ADMIN, FAKE_PRODUCT and FAKE_ORDER. Reads and writes work on its own
 * maps, with the real one's ownership rule; `get`, `update` and `remove` of an unknown id throw the real data access's
 * not-found problem; `auth.authenticate` knows FAKE_AUTH's two headers and answers 401 to any other; `auth.login`
 * answers 401; `ping` and `close` resolve.
 */
export function createFakeDataAccess(overrides: FakeOverrides = {}): DataAccess {
  const users = table(FAKE_USER, userNotFound);
  users.put(FAKE_ADMIN);
  const products = table(FAKE_PRODUCT, productNotFound);
  const orders = table(FAKE_ORDER, orderNotFound);
  const user = (id: string, principal: Principal) => reachable(users.get(id), id, principal, () => userNotFound(id));
  const order = (id: string, principal: Principal) => {
    const row = orders.get(id);
    return reachable(row, row.userId, principal, () => orderNotFound(id));
  };
  const fake: DataAccess = {
    users: {
      list: async (query) => users.list(query),
      get: async (id, principal) => user(id, principal),
      create: async (body) => users.put({ ...stamped(), role: "customer", ...body }),
      update: async (id, body, principal) => users.put({ ...user(id, principal), ...body }),
      remove: async (id, principal) => users.remove(user(id, principal).id),
    },
    products: {
      list: async (query) => products.list(query),
      get: async (id) => products.get(id),
      create: async (body) => products.put({ ...stamped(), description: null, ...body }),
      update: async (id, body) => products.put({ ...products.get(id), ...body }),
      remove: async (id) => products.remove(id),
    },
    orders: {
      list: async (query, principal) =>
        orders.list(query, (o) => principal.role === "admin" || o.userId === principal.id),
      get: async (id, _include, principal) => order(id, principal),
      create: async ({ productId, quantity }, principal) => {
        const { priceCents } = products.get(productId);
        const placed = { ...stamped(), userId: principal.id, productId, quantity, status: "pending" as const };
        return {
          order: orders.put({ ...placed, unitPriceCents: priceCents, totalCents: priceCents * quantity }),
          replayed: false,
        };
      },
      updateStatus: async (id, status, principal) => {
        if (principal.role !== "admin" && status !== "cancelled") throw forbidden();
        return orders.put({ ...order(id, principal), status });
      },
      remove: async (id) => orders.remove(id),
    },
    auth: {
      authenticate: async (authorization) => {
        const principal = authorization === undefined ? undefined : FAKE_PRINCIPALS.get(authorization);
        if (!principal) throw unauthorized("The token is not valid.", authorization ? "invalid_token" : "missing");
        return principal;
      },
      register: async ({ email, name }) => ({
        user: users.put({ ...stamped(), email, name, role: "customer" }),
        token: "fake.token.value",
      }),
      login: async () => {
        throw unauthorized("The e-mail address or the password is wrong.", "missing");
      },
      me: async (principal) => users.get(principal.id),
      verifyBearer: async () => {
        throw unauthorized("The token is not valid.");
      },
    },
    ping: async () => {},
    close: async () => {},
  };
  for (const [key, value] of Object.entries(overrides)) {
    const name = key as keyof DataAccess;
    Object.assign(fake, { [name]: typeof value === "function" ? value : { ...fake[name], ...value } });
  }
  return fake;
}

/** What every client gives back, in one shape: supertest, inject, `app.request()` answers map onto it. */
export interface ProblemResponse {
  status: number;
  contentType: string | null | undefined;
  body: unknown;
}

/**
 * Asserts a problem+json answer of the contract's `kind` (status, media type, type, title, status, a detail) and,
 * when given, the `errors[].path` list; returns the body. Throws node:assert's AssertionError, so any runner works.
 */
export function expectProblem(response: ProblemResponse, kind: ProblemKind, paths?: string[]): Problem {
  const { status, type, title } = PROBLEMS[kind];
  assert.equal(response.status, status, `status of ${JSON.stringify(response.body)}`);
  assert.match(response.contentType ?? "", new RegExp(`^${PROBLEM_CONTENT_TYPE.replace("+", "\\+")}(;|$)`));
  const body = response.body as Problem;
  assert.deepEqual({ type: body.type, title: body.title, status: body.status }, { type, title, status });
  assert.equal(typeof body.detail, "string");
  if (paths)
    assert.deepEqual(
      body.errors?.map((e) => e.path),
      paths,
    );
  return body;
}

/** A web-standard `Response` (Hono's `app.request()`, Elysia's `app.handle()`) in the shape `expectProblem` takes. */
export async function fetchedProblem(res: Response): Promise<ProblemResponse> {
  return { status: res.status, contentType: res.headers.get("content-type"), body: await res.json() };
}

/** A JSON request's `RequestInit` as a client sends it: its media type and its length declared. */
export function jsonInit(method: string, body: string, headers: Record<string, string> = {}): RequestInit {
  return {
    method,
    body,
    headers: { "content-type": "application/json", "content-length": String(Buffer.byteLength(body)), ...headers },
  };
}
