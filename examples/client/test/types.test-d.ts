// The generated types agree with the contract's Zod types, checked by the type checker (`pnpm typecheck` compiles
// this file, and vitest runs it in typecheck mode): a response, a request body or a query parameter whose type
// drifts from the contract fails to compile. client.test.ts checks the same agreement at run time, parsing each
// response with the contract's schemas.
import type * as contract from "@api-ref/contract";
import { describe, expectTypeOf, it } from "vitest";
import type { z } from "zod";
import type { components, operations } from "../src/client.ts";

type Json<
  Op extends keyof operations,
  Status extends keyof operations[Op]["responses"],
> = operations[Op]["responses"][Status] extends { content: { "application/json": infer T } } ? T : never;
type Body<Op extends keyof operations> = operations[Op]["requestBody"] extends
  | { content: { "application/json": infer T } }
  | undefined
  ? T
  : never;
type Query<Op extends keyof operations> = NonNullable<operations[Op]["parameters"]["query"]>;

describe("generated types = the contract's Zod types", () => {
  it("responses", () => {
    expectTypeOf<Json<"getUser", 200>>().toEqualTypeOf<contract.User>();
    expectTypeOf<Json<"getProduct", 200>>().toEqualTypeOf<contract.Product>();
    expectTypeOf<Json<"getOrder", 200>>().toEqualTypeOf<contract.Order>();
    expectTypeOf<Json<"listProducts", 200>>().toEqualTypeOf<z.output<typeof contract.ProductList>>();
    expectTypeOf<Json<"listOrders", 200>>().toEqualTypeOf<z.output<typeof contract.OrderList>>();
    expectTypeOf<Json<"login", 200>>().toEqualTypeOf<z.output<typeof contract.LoginResponse>>();
    expectTypeOf<Json<"register", 201>>().toEqualTypeOf<z.output<typeof contract.RegisterResponse>>();
    expectTypeOf<components["schemas"]["Problem"]>().toEqualTypeOf<contract.Problem>();
  });

  it("request bodies", () => {
    expectTypeOf<Body<"createOrder">>().toEqualTypeOf<z.input<typeof contract.CreateOrderBody>>();
    expectTypeOf<Body<"createProduct">>().toEqualTypeOf<z.input<typeof contract.CreateProductBody>>();
    expectTypeOf<Body<"updateOrder">>().toEqualTypeOf<z.input<typeof contract.UpdateOrderBody>>();
    expectTypeOf<Body<"login">>().toEqualTypeOf<z.input<typeof contract.LoginBody>>();
  });

  it("query parameters: what they mean (numbers, booleans, arrays), every one optional", () => {
    expectTypeOf<Query<"listProducts">>().toEqualTypeOf<Partial<contract.ListProductsQuery>>();
    expectTypeOf<Query<"listOrders">>().toEqualTypeOf<Partial<contract.ListOrdersQuery>>();
    expectTypeOf<Query<"listUsers">>().toEqualTypeOf<Partial<contract.ListUsersQuery>>();
    expectTypeOf<Query<"listProducts">["page"]>().toEqualTypeOf<number | undefined>();
    expectTypeOf<Query<"listProducts">["inStock"]>().toEqualTypeOf<boolean | undefined>();
  });
});
