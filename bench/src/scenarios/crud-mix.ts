// The crud-mix scenario: the harness's 24-step cycle (what to send), with what a correct answer to each of its
// requests is (what the bench checks before it measures).
import { Order, Product, User } from "@api-ref/contract";
import { bearerCache, CRUD_MIX, type CrudMixRequest, type OrdersQuery, type ProductsQuery } from "@api-ref/harness";
import {
  createOrder,
  getOrder,
  getProduct,
  getUser,
  ordersRequest,
  productsRequest,
  sendJson,
  signedIn,
  usersRequest,
} from "./requests.ts";
import type { BenchRequest, Pools, SequenceContext, Step } from "./types.ts";

/** Reads what a create step needs later: the id of the new row, under `key`. */
const remember =
  (key: string) =>
  (status: number, body: string, ctx: SequenceContext): void => {
    if (status !== 201) return;
    try {
      ctx[key] = (JSON.parse(body) as { id?: string }).id;
    } catch {
      ctx[key] = undefined;
    }
  };

const numberOf = (params: URLSearchParams, name: string) => (params.has(name) ? Number(params.get(name)) : undefined);

/** A create or update that must answer with the row, carrying what the request set. */
function written(request: CrudMixRequest, schema: typeof User | typeof Product | typeof Order): BenchRequest {
  const body = request.body ?? {};
  return sendJson(request.method, request.path, body, {
    status: request.status,
    schema,
    check: (answer) => {
      const wrong = Object.entries(body).find(([key, value]) => (answer as Record<string, unknown>)[key] !== value);
      return wrong ? `${wrong[0]} is not ${JSON.stringify(wrong[1])}` : undefined;
    },
  });
}

/** A request of the cycle with the answer the contract requires of it, and its caller's bearer token. */
export function benchRequestOf(request: CrudMixRequest, bearer: (userId: string) => string): BenchRequest {
  const built = answerOf(request);
  return request.caller ? signedIn(built, bearer(request.caller)) : built;
}

function answerOf(request: CrudMixRequest): BenchRequest {
  const url = new URL(request.path, "http://crud-mix");
  const [, resource, id] = url.pathname.split("/");
  const params = url.searchParams;
  const route = `${request.method} /${resource}${id ? "/:id" : ""}`;
  switch (route) {
    case "GET /users/:id":
      return getUser(id as string);
    case "GET /products/:id":
      return getProduct(id as string);
    case "GET /orders/:id":
      return getOrder(id as string, params.get("include") ?? "");
    case "GET /users":
      return usersRequest(Number(params.get("page")), Number(params.get("limit")));
    case "GET /products": {
      const query: ProductsQuery = {
        page: Number(params.get("page")),
        limit: Number(params.get("limit")),
        sort: params.get("sort") as ProductsQuery["sort"],
      };
      const min = numberOf(params, "minPriceCents");
      const max = numberOf(params, "maxPriceCents");
      if (min !== undefined) query.minPriceCents = min;
      if (max !== undefined) query.maxPriceCents = max;
      if (params.get("inStock") === "true") query.inStock = true;
      if (params.has("q")) query.q = params.get("q") as string;
      return productsRequest(query);
    }
    case "GET /orders": {
      const query: OrdersQuery = {
        page: Number(params.get("page")),
        limit: Number(params.get("limit")),
        include: "user,product",
      };
      if (params.has("status")) query.status = params.get("status") as NonNullable<OrdersQuery["status"]>;
      if (params.has("userId")) query.userId = params.get("userId") as string;
      return ordersRequest(query);
    }
    case "POST /orders": {
      const { productId, quantity } = request.body as { productId: string; quantity: number };
      // The order is its caller's: the customer the cycle acts for.
      return createOrder(request.caller ?? "", productId, quantity);
    }
    case "POST /users":
    case "PATCH /users/:id":
      return written(request, User);
    case "POST /products":
    case "PATCH /products/:id":
      return written(request, Product);
    case "PATCH /orders/:id":
      return written(request, Order);
    default:
      if (request.method === "DELETE")
        return { method: "DELETE", path: request.path, expect: { status: 204, body: "empty" } };
      throw new Error(`crud-mix: no expectation for ${route}`);
  }
}

/**
 * The cycle as each connection's repeating sequence: rows created in it are updated and deleted by it, so that
 * every answer is a 2xx and the data set does not drift.
 */
export function crudMixSteps(pools: Pools): Step[] {
  const bearer = bearerCache(pools.jwtSecret);
  return CRUD_MIX.map((step) => ({
    label: step.label,
    build: (ctx, rng) => benchRequestOf(step.request(ctx, pools, rng), bearer),
    ...(step.remember ? { onResponse: remember(step.remember) } : {}),
  }));
}
