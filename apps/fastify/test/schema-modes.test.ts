// The two modes must answer every request part exactly as the contract's Zod schemas do: accept the same
// values, and reject the rest with the same `errors[].path` set (what the parity check compares). The JSON-Schema
// mode is the one at risk: Ajv runs JSON Schema generated from Zod, so for every part it takes over, Ajv and Zod
// are compared here on thousands of generated values, through Fastify (parsing, validation, error handler).
import {
  CreateOrderBody,
  CreateProductBody,
  CreateUserBody,
  EchoBody,
  GetOrderQuery,
  IdParams,
  ListOrdersQuery,
  ListProductsQuery,
  ListUsersQuery,
  LoginBody,
  ProblemError,
  parseRequestPart,
  RegisterBody,
  type RequestPart,
  routes,
  UpdateOrderBody,
  UpdateProductBody,
  UpdateUserBody,
} from "@api-ref/contract";
import { parseJsonBody } from "@api-ref/server";
import type { ZodTypeProvider } from "@fastify/type-provider-zod";
import fc from "fast-check";
import Fastify, { type InjectOptions } from "fastify";
import { afterAll, describe, expect, it } from "vitest";
import type { z } from "zod";
import { routerOptions } from "../src/app.ts";
import jsonBody from "../src/edges/json-body.ts";
import { problemHandler } from "../src/edges/problems.ts";
import { compilersFor, SCHEMA_MODES, type SchemaMode } from "../src/modes/index.ts";
import { isExactInJsonSchema } from "../src/modes/json-schema.ts";

describe("which request parts the JSON-Schema mode gives to Ajv", () => {
  // A part goes to Ajv when its JSON Schema says everything its Zod schema checks; the rest stay with Zod.
  it.each([
    ["IdParams", "Ajv", IdParams],
    ["CreateProductBody", "Ajv", CreateProductBody],
    ["CreateOrderBody", "Ajv", CreateOrderBody],
    ["UpdateOrderBody", "Ajv", UpdateOrderBody],
    ["LoginBody", "Ajv", LoginBody],
    ["EchoBody", "Ajv", EchoBody],
    ["CreateUserBody (trims the name, lower-cases the e-mail)", "Zod", CreateUserBody],
    ["UpdateUserBody (the same, and at least one field)", "Zod", UpdateUserBody],
    ["RegisterBody (trims, lower-cases)", "Zod", RegisterBody],
    ["UpdateProductBody (at least one field)", "Zod", UpdateProductBody],
    ["ListUsersQuery (strings to integers, defaults)", "Zod", ListUsersQuery],
    ["ListProductsQuery (and minPriceCents ≤ maxPriceCents)", "Zod", ListProductsQuery],
    ["ListOrdersQuery (include split into a list)", "Zod", ListOrdersQuery],
    ["GetOrderQuery (include without repeats)", "Zod", GetOrderQuery],
  ] as const)("%s: %s", (_, validator, schema) => {
    expect(isExactInJsonSchema(schema)).toBe(validator === "Ajv");
  });
});

// ---- differential check against the contract's own parse ----------------------------------------------------

const uuid = "0b4ac5f8-3c1e-4d2a-9f00-5a0c3e1d2b7f";
const strings = [
  "",
  " ",
  "   x   ",
  "x",
  "a\u0000b",
  "😀".repeat(100),
  "😀".repeat(101),
  "x".repeat(100),
  "x".repeat(101),
  "x".repeat(200),
  "x".repeat(201),
  "x".repeat(2000),
  "x".repeat(2001),
  uuid,
  uuid.toUpperCase(),
  `${uuid}0`,
  "urn:uuid:0b4ac5f8-3c1e-4d2a-9f00-5a0c3e1d2b7f",
  "0b4ac5f8-3c1e-4d2a-9f00-5a0c3e1d2b7g",
  "ada@example.com",
  "Ada.Lovelace@Example.COM",
  "not-an-email",
  "a@b",
  "a..b@example.com",
  ".a@example.com",
  `${"a".repeat(243)}@example.com`,
  `${"a".repeat(242)}@example.com`,
  "pending",
  "shipped",
  "lost",
  "1",
  "2",
  "0",
  "-1",
  "2.0",
  "+2",
  "1e1",
  " 2",
  "user",
  "user,product",
  "user,user",
  "true",
  "-createdAt",
];
const numbers = [0, 1, -1, 1.5, 2, 100, 101, 100_000_000, 100_000_001, 1_000_000, 1_000_001, 2 ** 53, -0, 1e21];
const scalar = fc.oneof(fc.constantFrom<unknown>(...strings, ...numbers, null, true, false), fc.string(), fc.integer());
const value = fc.oneof(
  { weight: 6, arbitrary: scalar },
  { weight: 1, arbitrary: fc.constantFrom<unknown>([], {}, ["x"], { a: 1 }) },
);

/** Objects built from the schema's own keys (and a few unknown ones), plus any JSON at all now and then. */
function requestValues(schema: z.ZodType) {
  const keys = Object.keys((schema as unknown as { shape?: Record<string, unknown> }).shape ?? {});
  const key = fc.constantFrom(...keys, ...keys, ...keys, "extra", "id", "a/b", "");
  return fc.oneof(
    { weight: 8, arbitrary: fc.dictionary(key, value, { maxKeys: keys.length + 2 }) },
    { weight: 1, arbitrary: fc.jsonValue() },
  );
}

/**
 * What Express answers for the same value: the contract's parse, as a status and an errors path set. A body is first
 * read as every app reads it, by `@api-ref/server`'s `parseJsonBody`, which refuses `__proto__` keys (400, path `body`)
 * before any schema sees them; `fc.jsonValue()` does generate such keys.
 */
function contractAnswer(schema: z.ZodType, input: unknown, part: RequestPart) {
  try {
    parseRequestPart(schema, part === "body" ? parseJsonBody(Buffer.from(JSON.stringify(input))) : input, part);
    return { status: 200, paths: [] as string[] };
  } catch (error) {
    if (!(error instanceof ProblemError)) throw error;
    return { status: error.status, paths: [...new Set((error.errors ?? []).map((e) => e.path))].sort() };
  }
}

const apps = new Map<SchemaMode, Awaited<ReturnType<typeof appFor>>>();
async function appFor(mode: SchemaMode) {
  const app = Fastify({ routerOptions }).withTypeProvider<ZodTypeProvider>();
  const { validatorCompiler, serializerCompiler } = compilersFor(mode);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  await app.register(jsonBody);
  app.setErrorHandler(problemHandler);
  for (const [i, route] of routes.filter((r) => r.body).entries()) {
    app.post(`/body/${i}`, { schema: { body: route.body as z.ZodType } }, async () => ({ ok: true }));
  }
  for (const [i, route] of routes.filter((r) => r.query).entries()) {
    app.get(`/query/${i}`, { schema: { querystring: route.query as z.ZodType } }, async () => ({ ok: true }));
  }
  app.get("/params/:id", { schema: { params: IdParams } }, async () => ({ ok: true }));
  await app.ready();
  return app;
}
async function answer(mode: SchemaMode, inject: InjectOptions) {
  let app = apps.get(mode);
  if (!app) {
    app = await appFor(mode);
    apps.set(mode, app);
  }
  const res = await app.inject(inject);
  const body = res.json() as { errors?: Array<{ path: string }> };
  return { status: res.statusCode, paths: [...new Set((body.errors ?? []).map((e) => e.path))].sort() };
}
afterAll(async () => {
  for (const app of apps.values()) await app.close();
});

describe.each(SCHEMA_MODES)("%s mode answers like the contract's Zod schemas", (mode) => {
  const bodyRoutes = routes.filter((r) => r.body);
  it.each(bodyRoutes.map((r, i) => [`${r.method} ${r.path}`, r.body as z.ZodType, i] as const))(
    "the body of %s",
    async (_, schema, i) => {
      await fc.assert(
        fc.asyncProperty(requestValues(schema), async (input) => {
          const got = await answer(mode, {
            method: "POST",
            url: `/body/${i}`,
            headers: { "content-type": "application/json" },
            payload: JSON.stringify(input),
          });
          expect(got).toEqual(contractAnswer(schema, input, "body"));
        }),
        { numRuns: 250 },
      );
    },
  );

  const queryRoutes = routes.filter((r) => r.query);
  it.each(queryRoutes.map((r, i) => [`${r.method} ${r.path}`, r.query as z.ZodType, i] as const))(
    "the query of %s",
    async (_, schema, i) => {
      const pair = fc.tuple(
        fc.constantFrom(...Object.keys((schema as unknown as { shape?: object }).shape ?? { page: 1 }), "unknown"),
        fc.constantFrom(...strings.filter((s) => s.length < 300)),
      );
      await fc.assert(
        fc.asyncProperty(fc.array(pair, { maxLength: 4 }), async (pairs) => {
          const search = new URLSearchParams(pairs);
          const input: Record<string, string | string[]> = {};
          for (const [k, v] of pairs) {
            const seen = input[k];
            input[k] = seen === undefined ? v : [...(Array.isArray(seen) ? seen : [seen]), v];
          }
          const got = await answer(mode, { method: "GET", url: `/query/${i}?${search}` });
          expect(got).toEqual(contractAnswer(schema, input, "query"));
        }),
        { numRuns: 200 },
      );
    },
  );

  it("path ids", async () => {
    for (const id of strings.filter((s) => s.length > 0 && s.length < 300 && !s.includes("/"))) {
      const got = await answer(mode, { method: "GET", url: `/params/${encodeURIComponent(id)}` });
      expect(got, id).toEqual(contractAnswer(IdParams, { id }, "params"));
    }
  });
});
