// Lists read by cursor (docs/api.md, "Lists"), over real HTTP: a walk by nextCursor lists every row once, in the
// list's order, on every list and every sort; rows written during a walk neither repeat nor hide the rows it has
// yet to reach; a page number's nextCursor goes on where that page ends; the total is counted only when asked.
import { beforeAll, describe, expect, it } from "vitest";
import { OrderList, type Page, PRODUCT_SORTS, ProductList, type ProductSort, UserList } from "../src/index.ts";
import {
  type Customer,
  checkContext,
  createCustomer,
  createOrder,
  createProduct,
  expectJson,
  unique,
} from "./support/http-asserts.ts";
import * as cases from "./support/route-cases.ts";
import { type Caller, describeEachTarget, httpAs } from "./targets.ts";

type ListSchema = typeof UserList | typeof ProductList | typeof OrderList;

describeEachTarget((target) => {
  const { db, itDb } = checkContext(target);
  const ids = async (text: string, params: unknown[] = []) =>
    (await db<{ id: string }>(text, params)).map((row) => row.id);

  /** One page of `path` (its query included) as `caller`, checked against the list's schema. */
  const read = async (caller: Caller, path: string, schema: ListSchema) =>
    expectJson(await httpAs(target, caller).get(path), 200, schema) as Page<{ id: string }>;

  /**
   * Follows nextCursor from `path`'s first page to the end. Every page after the first is a cursor page (`page`
   * null, nothing counted), and only a full page may say another follows.
   */
  async function walk(caller: Caller, path: string, schema: ListSchema, limit: number) {
    const join = path.includes("?") ? "&" : "?";
    const pages: Array<Page<{ id: string }>> = [await read(caller, `${path}${join}limit=${limit}`, schema)];
    for (let next = pages[0]?.nextCursor; next; next = pages.at(-1)?.nextCursor) {
      const page = await read(caller, `${path}${join}limit=${limit}&cursor=${next}`, schema);
      expect(page).toMatchObject({ page: null, limit, total: null, pages: null });
      pages.push(page);
    }
    for (const page of pages.slice(0, -1)) expect(page.data).toHaveLength(limit);
    expect(pages.at(-1)?.nextCursor).toBeNull();
    return pages.flatMap((page) => page.data.map((row) => row.id));
  }

  /**
   * A walk of a list others may write to meanwhile: no row twice, in the list's order (as PostgreSQL sorts the
   * rows it listed), and every row that was there before and after the walk listed.
   */
  async function expectWalk(path: string, schema: ListSchema, select: string, params: unknown[] = []) {
    const before = new Set(await ids(select, params));
    const limit = Math.min(100, Math.max(2, Math.ceil(before.size / 4)));
    const walked = await walk("admin", path, schema, limit);
    const after = await ids(select, params);
    const listed = new Set(walked);
    const present = new Set(after);
    expect(listed.size, "no row twice").toBe(walked.length);
    expect(
      after.filter((id) => before.has(id) && !listed.has(id)),
      "rows there throughout, not listed",
    ).toEqual([]);
    expect(
      walked.filter((id) => present.has(id)),
      "the list's order",
    ).toEqual(after.filter((id) => listed.has(id)));
  }

  describe("a walk by nextCursor lists every row once, in order", () => {
    itDb("GET /users", async () => {
      await expectWalk("/users", UserList, `SELECT id FROM users ${cases.NEWEST_FIRST}`);
    });

    itDb.each(PRODUCT_SORTS)("GET /products?sort=%s", async (sort) => {
      await expectWalk(`/products?sort=${sort}`, ProductList, cases.productIdsSql("", sort));
    });

    itDb("GET /products filtered (inStock, a price range)", async () => {
      const where = "stock > 0 AND price_cents BETWEEN 1000 AND 60000";
      await expectWalk(
        "/products?inStock=true&minPriceCents=1000&maxPriceCents=60000&sort=-priceCents",
        ProductList,
        cases.productIdsSql(where, "-priceCents"),
      );
    });

    itDb("GET /orders?include=user,product", async () => {
      await expectWalk("/orders?include=user,product", OrderList, cases.orderIdsSql());
    });

    itDb("GET /orders?status=shipped", async () => {
      await expectWalk("/orders?status=shipped", OrderList, cases.orderIdsSql("status = 'shipped'"));
    });
  });

  describe("on rows the checks own", () => {
    /** Products of one walk's own: a unique name prefix, prices with ties, in creation order. */
    const PRICES = [500, 300, 500, 100, 300, 500, 200];
    let tag: string;
    let products: Array<{ id: string }>;

    beforeAll(async () => {
      tag = unique("Cursor");
      products = [];
      for (const [i, priceCents] of PRICES.entries()) {
        products.push(await createProduct(target, { name: `${tag} ${i + 1}`, priceCents }));
      }
    });

    it.each(PRODUCT_SORTS)("every sort, ties across page boundaries included: sort=%s", async (sort: ProductSort) => {
      const walked = await walk("admin", `/products?q=${tag}&sort=${sort}`, ProductList, 2);
      expect([...walked].sort()).toEqual(products.map((p) => p.id).sort());
      if (target.databaseUrl) {
        expect(walked).toEqual(await ids(cases.productIdsSql("starts_with(name, $1)", sort), [tag]));
      }
    });

    it("a row written ahead of the cursor is reached; one behind it is not, and nothing repeats", async () => {
      const first = await read("admin", `/products?q=${tag}&sort=name&limit=2`, ProductList);
      expect(first.data.map((p) => p.id)).toEqual([products[0]?.id, products[1]?.id]);
      const behind = await createProduct(target, { name: `${tag} 1a` });
      const ahead = await createProduct(target, { name: `${tag} 2a` });
      const rest: string[] = [];
      for (let next = first.nextCursor; next; ) {
        const page = await read("admin", `/products?q=${tag}&sort=name&limit=2&cursor=${next}`, ProductList);
        rest.push(...page.data.map((p) => p.id));
        next = page.nextCursor;
      }
      expect(rest).toEqual([ahead.id, ...products.slice(2).map((p) => p.id)]);
      expect(rest).not.toContain(behind.id);
    });

    describe("a customer's orders", () => {
      let customer: Customer;
      let placed: string[];

      beforeAll(async () => {
        customer = await createCustomer(target);
        for (const product of products.slice(0, 6)) {
          await createOrder(target, customer, { productId: product.id, quantity: 1 });
        }
        // As the list orders them (two placed in the same millisecond are in id order, not placement order).
        placed = (await read(customer, "/orders?limit=100", OrderList)).data.map((o) => o.id);
        expect(placed).toHaveLength(6);
      });

      it("are walked alone, newest first, and an order placed meanwhile does not shift the walk", async () => {
        const first = await read(customer, "/orders?limit=2&include=product", OrderList);
        expect(first.data.map((o) => o.id)).toEqual(placed.slice(0, 2));
        const meanwhile = await createOrder(target, customer, { productId: products[6]?.id ?? "", quantity: 1 });
        const second = await read(customer, `/orders?limit=2&include=product&cursor=${first.nextCursor}`, OrderList);
        expect(second.data.map((o) => o.id)).toEqual(placed.slice(2, 4));
        expect(second.data.map((o) => o.id)).not.toContain(meanwhile.id);
        placed.unshift(meanwhile.id); // the newest, so first in the lists that follow
      });

      it("a page number's nextCursor goes on where that page ends", async () => {
        const second = await read(customer, "/orders?page=2&limit=2", OrderList);
        const third = await read(customer, "/orders?page=3&limit=2", OrderList);
        expect(await read(customer, `/orders?limit=2&cursor=${second.nextCursor}`, OrderList)).toEqual({
          ...third,
          page: null,
        });
      });

      it("counts when asked, by cursor too; the last page has no nextCursor", async () => {
        const first = await read(customer, "/orders?limit=3&total=true", OrderList);
        expect(first).toMatchObject({ page: 1, total: placed.length, pages: Math.ceil(placed.length / 3) });
        const next = await read(customer, `/orders?limit=3&total=true&cursor=${first.nextCursor}`, OrderList);
        expect(next).toMatchObject({ page: null, total: placed.length, pages: Math.ceil(placed.length / 3) });
        const last = await read(customer, `/orders?page=${Math.ceil(placed.length / 3)}&limit=3`, OrderList);
        expect(last.nextCursor).toBeNull();
      });
    });
  });
});
