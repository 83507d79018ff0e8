// Valid requests for a route: built from the contract's schemas, with ids, emails and passwords that exist in the
// fault's database (or are new where they must be), sent by the caller the route's class calls for (docs/api.md,
// "Authorization"): nobody on a public route, the admin on an admin route, the customer or the admin on the others.
import { randomUUID } from "node:crypto";
import { jsonSchema, type RouteSpec } from "@api-ref/contract";
import { MISSING_ID, SEED_PASSWORD } from "@api-ref/db/fixtures";
import fc from "fast-check";
import { bearer, type Caller, type Draft, JSON_TYPE, type Pools } from "./draft.ts";
import { arbitraryOf, type JsonSchema, type Overrides } from "./schema-arbitrary.ts";

let uniqueCounter = 0;
const uniqueEmail = () => `fz-${randomUUID().slice(0, 8)}-${++uniqueCounter}@faults.example.com`;

export function overridesFor(pools: Pools): Overrides {
  const existingOrMissing = (ids: string[]) =>
    fc.oneof({ weight: 8, arbitrary: fc.constantFrom(...ids) }, { weight: 1, arbitrary: fc.constantFrom(MISSING_ID) });
  const pageLike = (max: number) =>
    fc.oneof(
      { weight: 6, arbitrary: fc.integer({ min: 1, max }).map(String) },
      { weight: 1, arbitrary: fc.stringMatching(/^[0-9]{1,10}$/) },
    );
  const email = fc.oneof(
    { weight: 3, arbitrary: fc.constant(null).map(() => uniqueEmail()) },
    { weight: 1, arbitrary: fc.constantFrom(...pools.emails) },
    { weight: 1, arbitrary: fc.emailAddress().filter((e) => e.length <= 254) },
  );
  const price = fc.integer({ min: 0, max: 100_000_000 }).map(String);
  return {
    "query.page": pageLike(60),
    "query.limit": pageLike(100),
    "query.minPriceCents": price,
    "query.maxPriceCents": price,
    "query.userId": existingOrMissing(pools.userIds),
    "query.productId": existingOrMissing(pools.productIds),
    "body.productId": existingOrMissing(pools.productIds),
    "body.email": email,
    "body.password": fc.oneof(fc.constant(SEED_PASSWORD), fc.string({ minLength: 8, maxLength: 40 })),
  };
}

/**
 * An id for the route's `:id`: a row of the pools (another user's, for a customer), sometimes one that does not
 * exist; the customer's own user as well on GET and PATCH /users/:id (never DELETE: the customer must outlive the run).
 */
const pathIdFor = (route: RouteSpec, pools: Pools, caller: Caller | undefined): fc.Arbitrary<string> => {
  const resource = route.path.split("/")[1];
  const ids = resource === "users" ? pools.userIds : resource === "products" ? pools.productIds : pools.orderIds;
  const own =
    caller?.role === "customer" && resource === "users" && route.method !== "DELETE"
      ? [{ weight: 4, arbitrary: fc.constant(caller.id) }]
      : [];
  return fc.oneof(
    { weight: 8, arbitrary: fc.constantFrom(...ids) },
    ...own,
    { weight: 1, arbitrary: fc.constantFrom(MISSING_ID) },
    { weight: 1, arbitrary: fc.uuid().map((id) => id.toUpperCase()) },
  );
};

/** Who sends a valid request for `route`: nobody (public), the admin (admin), the customer or the admin (user). */
export function callerFor(route: RouteSpec, pools: Pools): fc.Arbitrary<Caller | undefined> {
  if (route.access === "public") return fc.constant(undefined);
  if (route.access === "admin") return fc.constant(pools.admin);
  return fc.constantFrom(pools.customer, pools.admin);
}

/** A valid request for `route` (valid by construction; the oracle still has the last word). */
export function validDraft(route: RouteSpec, pools: Pools, overrides: Overrides): fc.Arbitrary<Draft> {
  return callerFor(route, pools).chain((caller) => draftBy(route, pools, overrides, caller));
}

function draftBy(
  route: RouteSpec,
  pools: Pools,
  overrides: Overrides,
  caller: Caller | undefined,
): fc.Arbitrary<Draft> {
  const schemaOf = (s: RouteSpec["query"]) => (s ? (jsonSchema(s, "input") as JsonSchema) : undefined);
  const query = schemaOf(route.query);
  const body = schemaOf(route.body);
  const parts = {
    id: route.params ? pathIdFor(route, pools, caller) : fc.constant(undefined),
    query: query ? arbitraryOf(query, "query", overrides) : fc.constant(undefined),
    body: body ? arbitraryOf(body, "body", overrides) : fc.constant(undefined),
    idempotencyKey: route.idempotencyKey
      ? fc.option(
          fc.constant(null).map(() => `fz-${randomUUID()}`),
          { nil: undefined },
        )
      : fc.constant(undefined),
  };
  return fc.record(parts).map(({ id, query: q, body: b, idempotencyKey }) => {
    const headers: Record<string, string> = {};
    if (b !== undefined) headers["content-type"] = JSON_TYPE;
    if (idempotencyKey) headers["idempotency-key"] = idempotencyKey;
    if (caller) headers.authorization = bearer(caller);
    return {
      route,
      method: route.method,
      pathname: route.path.replace(":id", encodeURIComponent(id ?? "")),
      query: Object.entries((q as Record<string, unknown> | undefined) ?? {}).map(([k, v]) => [k, String(v)]),
      headers,
      ...(b !== undefined ? { body: { json: b } } : {}),
      mutations: [],
    };
  });
}
