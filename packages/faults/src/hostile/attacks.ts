// Authorization attacks every hostile-input run sends, each once (generated requests reach them only by chance):
// object-level (a customer reading, changing or deleting another user's user or order by its id, listing another's
// orders), function-level (a customer on every admin route, setting an order status only an admin may), mass
// assignment (a role in a user's body at registration, creation and update; a userId in an order's body), and
// tokens forged for the admin (unsigned, another key, another algorithm, expired). What each must get — 404, 403,
// 400 or 401 — is the oracle's decision from the request as sent, as for every other request; afterwards the run
// checks in SQL that no admin was made and no order was placed for anyone but its caller.
import { randomUUID } from "node:crypto";
import { fixtureProducts, MISSING_ID } from "@api-ref/db/fixtures";
import { type Exchange, forgeToken } from "@api-ref/harness";
import { bearer, type GeneratedRequest, JSON_TYPE, type Pools } from "./draft.ts";

export function authorizationAttacks(pools: Pools): GeneratedRequest[] {
  const { customer, admin, jwtSecret } = pools;
  const asCustomer = bearer(customer);
  const asAdmin = bearer(admin);
  const [other = MISSING_ID] = pools.userIds;
  const [order = MISSING_ID] = pools.orderIds;
  const product = pools.productIds[0] ?? fixtureProducts.unordered.id;
  const now = Math.floor(Date.now() / 1000);
  const attacks: Array<[string, Exchange]> = [];
  const add = (label: string, method: string, path: string, authorization: string | undefined, body?: unknown) => {
    const headers: Record<string, string> = {};
    if (authorization) headers.authorization = authorization;
    if (body !== undefined) headers["content-type"] = JSON_TYPE;
    attacks.push([label, { method, path, headers, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) }]);
  };

  // Object level: another user's rows, by id (a 404, as if they did not exist), and another's orders by filter.
  add("customer reads another user", "GET", `/users/${other}`, asCustomer);
  add("customer renames another user", "PATCH", `/users/${other}`, asCustomer, { name: "Taken Over" });
  add("customer deletes another user", "DELETE", `/users/${other}`, asCustomer);
  add("customer reads another's order", "GET", `/orders/${order}?include=user,product`, asCustomer);
  add("customer cancels another's order", "PATCH", `/orders/${order}`, asCustomer, { status: "cancelled" });
  add("customer lists another's orders", "GET", `/orders?userId=${other}&include=user`, asCustomer);
  add("customer lists every order", "GET", "/orders?limit=100&include=user", asCustomer);
  // Function level: an admin's route, or an admin's status change (a 403, even before the body is read).
  add("customer lists users", "GET", "/users", asCustomer);
  add("customer creates a user", "POST", "/users", asCustomer, {
    email: `x-${randomUUID()}@faults.example.com`,
    name: "X",
  });
  add("customer creates a product", "POST", "/products", asCustomer, { name: "X", priceCents: 1, stock: 1 });
  add("customer creates a product, malformed body", "POST", "/products", asCustomer, "{");
  add("customer reprices a product", "PATCH", `/products/${product}`, asCustomer, { priceCents: 1 });
  add("customer deletes a product", "DELETE", `/products/${product}`, asCustomer);
  add("customer deletes an order", "DELETE", `/orders/${order}`, asCustomer);
  add("customer ships an order", "PATCH", `/orders/${order}`, asCustomer, { status: "shipped" });
  add("customer delivers a missing order", "PATCH", `/orders/${MISSING_ID}`, asCustomer, { status: "delivered" });
  // Mass assignment: a role or a user the bodies have no field for (a 400: the bodies are strict).
  add("customer makes themself admin", "PATCH", `/users/${customer.id}`, asCustomer, { role: "admin" });
  add("customer renames themself as admin", "PATCH", `/users/${customer.id}`, asCustomer, {
    name: "Still Customer",
    role: "admin",
  });
  add("registers as admin", "POST", "/auth/register", undefined, {
    email: `admin-${randomUUID()}@faults.example.com`,
    name: "Would Be Admin",
    password: "would-be-admin",
    role: "admin",
  });
  add("admin creates an admin", "POST", "/users", asAdmin, {
    email: `admin-${randomUUID()}@faults.example.com`,
    name: "Would Be Admin",
    role: "admin",
  });
  add("customer orders for another user", "POST", "/orders", asCustomer, {
    userId: other,
    productId: product,
    quantity: 1,
  });
  add("customer orders for the admin", "POST", "/orders", asCustomer, {
    userId: admin.id,
    productId: product,
    quantity: 1,
  });
  // Tokens forged for the admin, and the customer's unsigned: a 401 each.
  add("unsigned admin token", "GET", "/users", `Bearer ${forgeToken(jwtSecret, admin.id, { alg: "none" })}`);
  add(
    "admin token, another key",
    "GET",
    "/users",
    `Bearer ${forgeToken("another-secret-of-32-characters!", admin.id)}`,
  );
  add("admin token, HS512", "GET", "/users", `Bearer ${forgeToken(jwtSecret, admin.id, { alg: "HS512" })}`);
  add(
    "expired admin token",
    "DELETE",
    `/products/${product}`,
    `Bearer ${forgeToken(jwtSecret, admin.id, { issuedAt: now - 7200, expiresAt: now - 3600 })}`,
  );
  add(
    "unsigned customer token",
    "GET",
    `/users/${customer.id}`,
    `Bearer ${forgeToken(jwtSecret, customer.id, { alg: "none" })}`,
  );
  add("no token on an admin route", "POST", "/products", undefined, { name: "X", priceCents: 1, stock: 1 });
  return attacks.map(([label, exchange]) => ({ exchange, label: `attack: ${label}`, mutations: [label] }));
}
