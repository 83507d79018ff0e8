// The crud-mix load: the benchmark's 24-step cycle over every CRUD route (15 reads, 3 creates, 3 updates,
// 3 deletes), each connection repeating it. Rows a cycle creates, it updates and deletes again, so every answer
// is an exact status and the data set does not drift however long the soak runs.
import type { Exchange } from "../http.ts";

export interface MixPools {
  userIds: string[];
  productIds: string[];
  orderIds: string[];
}

/** Ids of the rows one connection created in its current cycle. */
export type MixContext = { user?: string; product?: string; order?: string };

export interface MixStep {
  exchange: Exchange;
  status: number;
  /** Where the id of a created row goes. */
  remember?: keyof MixContext;
}

const JSON_HEADERS = { "content-type": "application/json" };
const DEAD = "00000000-0000-4000-8000-00000000dead";

/** Step `i` (0–23) of the cycle, for a connection with context `ctx`; `r` draws numbers for it. */
export function crudMixStep(i: number, ctx: MixContext, pools: MixPools, r: () => number): MixStep {
  const pick = (items: string[]) => items[Math.floor(r() * items.length)] as string;
  const int = (min: number, max: number) => min + Math.floor(r() * (max - min + 1));
  const get = (path: string): MixStep => ({ exchange: { method: "GET", path }, status: 200 });
  const send = (method: string, path: string, body: unknown, status: number, remember?: keyof MixContext): MixStep => ({
    exchange: { method, path, headers: JSON_HEADERS, body: JSON.stringify(body) },
    status,
    ...(remember ? { remember } : {}),
  });
  const del = (path: string): MixStep => ({ exchange: { method: "DELETE", path }, status: 204 });
  const user = ctx.user ?? DEAD;
  const product = ctx.product ?? DEAD;
  const order = ctx.order ?? DEAD;
  switch (i % 24) {
    case 0:
      return get(`/users/${pick(pools.userIds)}`);
    case 1:
      return get(`/products/${pick(pools.productIds)}`);
    case 2:
      return get(`/products?limit=20&sort=priceCents&page=${int(1, 50)}`);
    case 3:
      return send(
        "POST",
        "/users",
        { email: `soak-${crypto.randomUUID()}@faults.example.com`, name: "Soak User" },
        201,
        "user",
      );
    case 4:
      return get(`/orders/${pick(pools.orderIds)}?include=user,product`);
    case 5:
      return send(
        "POST",
        "/products",
        { name: "Soak Product", description: null, priceCents: int(100, 99_999), stock: 1_000_000 },
        201,
        "product",
      );
    case 6:
      return get(`/users/${user}`);
    case 7:
      return send("PATCH", `/users/${user}`, { name: "Soak User Renamed" }, 200);
    case 8:
      return get(`/products/${pick(pools.productIds)}`);
    case 9:
      return send("PATCH", `/products/${product}`, { priceCents: int(100, 99_999) }, 200);
    case 10:
      return get(`/users/${pick(pools.userIds)}`);
    case 11:
      return send(
        "POST",
        "/orders",
        { userId: pick(pools.userIds), productId: product, quantity: int(1, 5) },
        201,
        "order",
      );
    case 12:
      return get(`/orders/${order}?include=product`);
    case 13:
      return get(`/users?page=${int(1, 20)}&limit=20`);
    case 14:
      return send("PATCH", `/orders/${order}`, { status: "cancelled" }, 200);
    case 15:
      return get(`/products/${pick(pools.productIds)}`);
    case 16:
      return get(`/orders?userId=${pick(pools.userIds)}&limit=20`);
    case 17:
      return get(`/users/${pick(pools.userIds)}`);
    case 18:
      return del(`/orders/${order}`);
    case 19:
      return get(`/products/${product}`);
    case 20:
      return del(`/products/${product}`);
    case 21:
      return get(`/orders/${pick(pools.orderIds)}?include=user`);
    case 22:
      return del(`/users/${user}`);
    default:
      return get(`/products/${pick(pools.productIds)}`);
  }
}
