// Every route of the API in one table: the OpenAPI document, the `allow` header of a 405 and the contract
// suite are derived from it, so that none of them can forget a route.
import type { z } from "zod";
import * as s from "./schemas.ts";

export type Method = "GET" | "POST" | "PATCH" | "DELETE";

/** `public`: no token needed. `user`: a valid bearer token of an existing user. `admin`: that, with the admin role. */
export type Access = "public" | "user" | "admin";

export interface RouteSpec {
  method: Method;
  /** Express-style template, e.g. `/users/:id`; also the `route` label of the metrics. */
  path: string;
  operationId: string;
  summary: string;
  tag: string;
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  /** Request headers the route validates (others pass through). */
  headers?: z.ZodType;
  /** Who may call it (docs/api.md "Authorization"): anyone, any signed-in user, or admins only. */
  access: Access;
  /**
   * On a `user` route: a customer reaches only their own rows. Another user's row is a 404, as if it did not exist
   * (so ids cannot be probed), and a list holds only the caller's rows. Admins reach every row.
   */
  ownRows?: boolean;
  /** Touches the database (so it may answer 503). */
  database?: boolean;
  idempotencyKey?: boolean;
  /** Limited per client address (AUTH_RATE_LIMIT requests a window): past it, a 429 with `retry-after`. */
  rateLimited?: boolean;
  success: { status: number; description: string; schema?: z.ZodType; contentType?: string; location?: boolean };
  /** Statuses beyond those implied by params/query/body/auth/database. */
  errors?: number[];
}

const JSON_TYPE = "application/json";

export const routes: readonly RouteSpec[] = [
  {
    method: "GET",
    path: "/",
    operationId: "hello",
    access: "public",
    tag: "meta",
    summary: "Hello world",
    success: { status: 200, description: "The text `Hello World!`", contentType: "text/plain" },
  },
  {
    method: "GET",
    path: "/health",
    operationId: "health",
    access: "public",
    tag: "meta",
    summary: "Liveness (never touches the database)",
    success: { status: 200, description: "Alive", schema: s.Health },
  },
  {
    method: "GET",
    path: "/ready",
    operationId: "ready",
    access: "public",
    tag: "meta",
    summary: "Readiness: pings the database",
    database: true,
    success: { status: 200, description: "Ready", schema: s.Ready },
  },
  {
    method: "POST",
    path: "/echo",
    operationId: "echo",
    access: "public",
    tag: "meta",
    summary: "Echo a JSON object with a fresh txnId",
    body: s.EchoBody,
    success: { status: 200, description: "The body plus `txnId`", schema: s.EchoResponse },
  },
  {
    method: "GET",
    path: "/metrics",
    operationId: "metrics",
    access: "public",
    tag: "meta",
    summary: "Prometheus metrics",
    success: { status: 200, description: "Prometheus text format", contentType: "text/plain" },
  },
  {
    method: "GET",
    path: "/openapi.json",
    operationId: "openapi",
    access: "public",
    tag: "meta",
    summary: "This document",
    success: { status: 200, description: "OpenAPI 3.1 document", contentType: JSON_TYPE },
  },
  {
    method: "GET",
    path: "/docs",
    operationId: "docs",
    access: "public",
    tag: "meta",
    summary: "Interactive API documentation",
    success: { status: 200, description: "HTML page", contentType: "text/html" },
  },

  {
    method: "GET",
    path: "/users",
    operationId: "listUsers",
    access: "admin",
    tag: "users",
    summary: "List users, newest first",
    query: s.ListUsersQuery,
    database: true,
    success: { status: 200, description: "A page of users", schema: s.UserList },
  },
  {
    method: "POST",
    path: "/users",
    operationId: "createUser",
    access: "admin",
    tag: "users",
    summary: "Create a user",
    body: s.CreateUserBody,
    database: true,
    errors: [409],
    success: { status: 201, description: "Created", schema: s.User, location: true },
  },
  {
    method: "GET",
    path: "/users/:id",
    operationId: "getUser",
    access: "user",
    ownRows: true,
    tag: "users",
    summary: "Get a user",
    params: s.IdParams,
    database: true,
    errors: [404],
    success: { status: 200, description: "The user", schema: s.User },
  },
  {
    method: "PATCH",
    path: "/users/:id",
    operationId: "updateUser",
    access: "user",
    ownRows: true,
    tag: "users",
    summary: "Update a user",
    params: s.IdParams,
    body: s.UpdateUserBody,
    database: true,
    errors: [404, 409],
    success: { status: 200, description: "The updated user", schema: s.User },
  },
  {
    method: "DELETE",
    path: "/users/:id",
    operationId: "deleteUser",
    access: "user",
    ownRows: true,
    tag: "users",
    summary: "Delete a user without orders",
    params: s.IdParams,
    database: true,
    errors: [404, 409],
    success: { status: 204, description: "Deleted" },
  },

  {
    method: "GET",
    path: "/products",
    operationId: "listProducts",
    access: "public",
    tag: "products",
    summary: "List products",
    query: s.ListProductsQuery,
    database: true,
    success: { status: 200, description: "A page of products", schema: s.ProductList },
  },
  {
    method: "POST",
    path: "/products",
    operationId: "createProduct",
    access: "admin",
    tag: "products",
    summary: "Create a product",
    body: s.CreateProductBody,
    database: true,
    success: { status: 201, description: "Created", schema: s.Product, location: true },
  },
  {
    method: "GET",
    path: "/products/:id",
    operationId: "getProduct",
    access: "public",
    tag: "products",
    summary: "Get a product",
    params: s.IdParams,
    database: true,
    errors: [404],
    success: { status: 200, description: "The product", schema: s.Product },
  },
  {
    method: "PATCH",
    path: "/products/:id",
    operationId: "updateProduct",
    access: "admin",
    tag: "products",
    summary: "Update a product",
    params: s.IdParams,
    body: s.UpdateProductBody,
    database: true,
    errors: [404],
    success: { status: 200, description: "The updated product", schema: s.Product },
  },
  {
    method: "DELETE",
    path: "/products/:id",
    operationId: "deleteProduct",
    access: "admin",
    tag: "products",
    summary: "Delete a product no order references",
    params: s.IdParams,
    database: true,
    errors: [404, 409],
    success: { status: 204, description: "Deleted" },
  },

  {
    method: "GET",
    path: "/orders",
    operationId: "listOrders",
    access: "user",
    ownRows: true,
    tag: "orders",
    summary: "List orders, newest first",
    query: s.ListOrdersQuery,
    database: true,
    success: { status: 200, description: "A page of orders", schema: s.OrderList },
  },
  {
    method: "POST",
    path: "/orders",
    operationId: "createOrder",
    access: "user",
    tag: "orders",
    summary: "Place an order: takes stock atomically, never oversells",
    body: s.CreateOrderBody,
    headers: s.CreateOrderHeaders,
    idempotencyKey: true,
    database: true,
    errors: [409, 422],
    success: { status: 201, description: "Created", schema: s.Order, location: true },
  },
  {
    method: "GET",
    path: "/orders/:id",
    operationId: "getOrder",
    access: "user",
    ownRows: true,
    tag: "orders",
    summary: "Get an order",
    params: s.IdParams,
    query: s.GetOrderQuery,
    database: true,
    errors: [404],
    success: { status: 200, description: "The order", schema: s.Order },
  },
  {
    method: "PATCH",
    path: "/orders/:id",
    operationId: "updateOrder",
    access: "user",
    ownRows: true,
    tag: "orders",
    summary: "Change an order's status (a customer may only cancel their own pending order)",
    params: s.IdParams,
    body: s.UpdateOrderBody,
    database: true,
    errors: [403, 404, 409],
    success: { status: 200, description: "The updated order", schema: s.Order },
  },
  {
    method: "DELETE",
    path: "/orders/:id",
    operationId: "deleteOrder",
    access: "admin",
    tag: "orders",
    summary: "Delete an order (a pending one gives its stock back)",
    params: s.IdParams,
    database: true,
    errors: [404],
    success: { status: 204, description: "Deleted" },
  },

  {
    method: "POST",
    path: "/auth/register",
    operationId: "register",
    access: "public",
    rateLimited: true,
    tag: "auth",
    summary: "Register and get a token",
    body: s.RegisterBody,
    database: true,
    errors: [409],
    success: { status: 201, description: "Registered", schema: s.RegisterResponse },
  },
  {
    method: "POST",
    path: "/auth/login",
    operationId: "login",
    access: "public",
    rateLimited: true,
    tag: "auth",
    summary: "Exchange credentials for a token",
    body: s.LoginBody,
    database: true,
    errors: [401],
    success: { status: 200, description: "A bearer token", schema: s.LoginResponse },
  },
  {
    method: "GET",
    path: "/auth/me",
    operationId: "me",
    access: "user",
    tag: "auth",
    summary: "The user the token belongs to",
    database: true,
    success: { status: 200, description: "The user", schema: s.User },
  },
];

const METHOD_ORDER: readonly string[] = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"];

/** Path template → methods served there, HEAD included wherever GET is. */
export const methodsByPath: ReadonlyMap<string, readonly string[]> = (() => {
  const map = new Map<string, string[]>();
  for (const route of routes) {
    const methods = map.get(route.path) ?? [];
    methods.push(route.method);
    if (route.method === "GET") methods.push("HEAD");
    map.set(route.path, methods);
  }
  for (const methods of map.values()) methods.sort((a, b) => METHOD_ORDER.indexOf(a) - METHOD_ORDER.indexOf(b));
  return map;
})();

/** The `allow` header of a 405 on this path template, e.g. `GET, HEAD, POST`. */
export function allowHeader(path: string): string {
  const methods = methodsByPath.get(path);
  if (!methods) throw new Error(`no route has the path ${path}`);
  return methods.join(", ");
}

export const findRoute = (method: string, path: string) => routes.find((r) => r.method === method && r.path === path);
