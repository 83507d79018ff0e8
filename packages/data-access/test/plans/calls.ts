// The catalogue's cases as calls of the Node data access, each as a route would make it: the query string parsed by
// the contract's own schemas, the caller as the principal the route would pass.
import { ListOrdersQuery, ListProductsQuery, ListUsersQuery } from "@api-ref/contract";
import { fixtureProducts, fixtureUsers, SEED_PASSWORD } from "@api-ref/db";
import type { DataAccess, Principal } from "../../src/index.ts";
import type { Caller, ListCase, Names } from "./catalogue.ts";

export interface Callers {
  admin: Principal;
  customer: Principal;
}

export const callersOf = (names: Names): Callers => ({
  admin: { id: fixtureUsers.admin.id, role: "admin" },
  customer: { id: names.user, role: "customer" },
});

const principalOf = (callers: Callers, caller: Caller) => (caller === "customer" ? callers.customer : callers.admin);

/** One list read with `query` (no {names} left in it); its nextCursor for the cursor cases. */
export async function readList(da: DataAccess, callers: Callers, { route, caller }: ListCase, query: string) {
  const params = Object.fromEntries(new URLSearchParams(query));
  switch (route) {
    case "GET /users":
      return da.users.list(ListUsersQuery.parse(params));
    case "GET /products":
      return da.products.list(ListProductsQuery.parse(params));
    case "GET /orders":
      return da.orders.list(ListOrdersQuery.parse(params), principalOf(callers, caller));
    default:
      throw new Error(`the catalogue lists ${route}, which the plans test cannot call`);
  }
}

/** What the lookups share: who calls, the seeded names, and the order the write lookups make and remove. */
export interface LookupContext {
  da: DataAccess;
  callers: Callers;
  names: Names;
  /** The Idempotency-Key of this mode's order. */
  key: string;
  created: { order?: string };
}

type Lookup = (context: LookupContext) => Promise<unknown>;

const NEW_ORDER = { productId: fixtureProducts.unordered.id, quantity: 1 };

/** Each lookup of the catalogue, by its name there. */
export const LOOKUP_CALLS: Record<string, Lookup> = {
  "GET /users/{user} (admin)": ({ da, names, callers }) => da.users.get(names.user, callers.admin),
  "GET /users/{user} (customer, themself)": ({ da, names, callers }) => da.users.get(names.user, callers.customer),
  "GET /products/{product}": ({ da, names }) => da.products.get(names.product),
  "GET /orders/{order} (admin)": ({ da, names, callers }) => da.orders.get(names.order, undefined, callers.admin),
  "GET /orders/{order}?include=user,product (admin)": ({ da, names, callers }) =>
    da.orders.get(names.order, ["user", "product"], callers.admin),
  "GET /orders/{order}?include=user,product (customer, theirs)": ({ da, names, callers }) =>
    da.orders.get(names.order, ["user", "product"], callers.customer),
  "POST /auth/login ({email})": ({ da, names }) => da.auth.login({ email: names.email, password: SEED_PASSWORD }),
  "a bearer token's caller ({user})": async ({ da, names }) => {
    const { token } = await da.auth.login({ email: names.email, password: SEED_PASSWORD });
    return da.auth.authenticate(`Bearer ${token}`);
  },
  "GET /auth/me (customer)": ({ da, callers }) => da.auth.me(callers.customer),
  "PATCH /users/{user} (customer, themself)": ({ da, names, callers }) =>
    da.users.update(names.user, { name: "Plans Reader" }, callers.customer),
  "PATCH /products/{product}": ({ da, names }) => da.products.update(names.product, { stock: 700 }),
  "POST /orders with a new Idempotency-Key (customer)": async ({ da, callers, key, created }) => {
    created.order = (await da.orders.create(NEW_ORDER, callers.customer, key)).order.id;
  },
  "POST /orders with that Idempotency-Key again (customer, replayed)": ({ da, callers, key }) =>
    da.orders.create(NEW_ORDER, callers.customer, key),
  "PATCH /orders/:id to cancelled (customer, the new order)": ({ da, callers, created }) =>
    da.orders.updateStatus(createdOrder(created), "cancelled", callers.customer),
  "DELETE /orders/:id (admin, the new order)": ({ da, created }) => da.orders.remove(createdOrder(created)),
};

function createdOrder({ order }: LookupContext["created"]): string {
  if (!order) throw new Error("no order was created: the catalogue's POST /orders lookup comes first");
  return order;
}
