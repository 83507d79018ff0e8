// The seams of a half-migrated app, shared by the two migration templates (apps/express-to-fastify and
// apps/express-to-nestjs): whichever framework serves /users and which /products, both worlds must answer with one
// error format, one `allow`, the same body limits, one request id and one metrics registry. Over real HTTP and
// without a database (every request here is answered before the data access is reached). Each template's own
// test file adds what only its bridge can get wrong. With an admin's `authorization` (an app built on a fake data
// access that knows it), the seams are the body's; without one (a process with no database to check a token
// against), every protected route's first answer is the 401, and the seams are that refusal's.
import { describe, expect, it } from "vitest";
import { allowHeader } from "./index.ts";

export interface MixedApp {
  /** The base URL of the running app (read when a test runs, after `beforeAll`). */
  url: () => string;
  /** The name of the world (framework) serving each resource, for the tests' titles. */
  worlds: { users: string; products: string };
  /** The `framework` label of its metrics (the app's name). */
  framework: string;
  /** An admin's `authorization` header the app accepts without a database, if it has one. */
  authorization?: string;
}

/** A request over real HTTP; a body is sent as JSON unless `headers` say otherwise. */
export const sendTo =
  (url: () => string) =>
  (method: string, path: string, body?: string, headers: Record<string, string> = {}) =>
    fetch(`${url()}${path}`, {
      method,
      headers: body === undefined ? headers : { "content-type": "application/json", ...headers },
      body,
    });

/** The problem+json body of a response (asserting its media type). */
export async function problemOf(res: Response) {
  expect(res.headers.get("content-type")).toMatch(/^application\/problem\+json/);
  return (await res.json()) as { type: string; status: number; errors?: { path: string }[] };
}

type Layer = { route?: { path: string }; handle: { stack?: Layer[] } };

/** The route templates of the Express routers mounted in an Express app or `Router` (each `router.route(path)`). */
export function expressPaths(router: unknown): string[] {
  return (router as { stack: Layer[] }).stack
    .flatMap((layer) => layer.handle.stack ?? [])
    .flatMap((layer) => (layer.route ? [layer.route.path] : []));
}

/** Declares the tests every mixed state must pass, with `/users` and `/products` in different worlds. */
export function describeMixedSeams({ url, worlds, framework, authorization }: MixedApp) {
  const sendAnonymously = sendTo(url);
  const send: typeof sendAnonymously = (method, path, body, headers = {}) =>
    sendAnonymously(method, path, body, authorization ? { authorization, ...headers } : headers);
  const id = "00000000-0000-4000-8000-000000000001";
  /** What a protected route answers first: the body's own problem for an admin, else the 401. */
  const refusedAs = (status: number) => (authorization ? status : 401);

  describe("one error format for both worlds", () => {
    it.each([
      [worlds.users, "/users", ["body.email", "body.name"]],
      [worlds.products, "/products", ["body.name", "body.priceCents", "body.stock"]],
    ])("a body that fails validation on a route %s serves is the contract's 400", async (_, path, paths) => {
      const res = await send("POST", path, "{}");
      expect(res.status).toBe(refusedAs(400));
      const body = await problemOf(res);
      if (!authorization) return expect(body.type).toBe("/problems/unauthorized");
      expect(body.type).toBe("/problems/validation-error");
      expect(body.errors?.map((e) => e.path).sort()).toEqual([...paths].sort());
    });

    it.each([
      [worlds.users, "/users"],
      [worlds.products, "/products"],
    ])("a write %s serves without a token is the contract's 401 with its challenge", async (_, path) => {
      const res = await sendAnonymously("POST", path, "{}");
      expect(res.status).toBe(401);
      expect(res.headers.get("www-authenticate")).toBe("Bearer");
      expect((await problemOf(res)).type).toBe("/problems/unauthorized");
    });

    it.each([
      [worlds.users, `/users/${id}`, "/users/:id"],
      [worlds.products, `/products/${id}`, "/products/:id"],
    ])("a method a path served by %s does not serve is a 405 with the contract's allow", async (_, path, template) => {
      const res = await send("PUT", path);
      expect(res.status).toBe(405);
      expect(res.headers.get("allow")).toBe(allowHeader(template));
      expect((await problemOf(res)).type).toBe("/problems/method-not-allowed");
    });
  });

  describe("bodies: each world reads its own", () => {
    const tooLarge = `{"filler":"${"x".repeat(1024 * 1024)}"}`;
    it.each([
      [worlds.users, "/users"],
      [worlds.products, "/products"],
    ])("%s answers a body over 1 MiB with a 413 (a 401 first without a token)", async (_, path) => {
      const res = await send("POST", path, tooLarge);
      expect(res.status).toBe(refusedAs(413));
      expect((await problemOf(res)).type).toBe(
        authorization ? "/problems/payload-too-large" : "/problems/unauthorized",
      );
    });

    it.each(["/users", "/products"])(
      "POST %s with a text/plain body is a 415 (a 401 first without a token)",
      async (path) => {
        const res = await send("POST", path, "{}", { "content-type": "text/plain" });
        expect(res.status).toBe(refusedAs(415));
      },
    );
  });

  describe("request ids and metrics across both worlds", () => {
    it.each(["/users/not-a-uuid", "/products/not-a-uuid", "/nowhere"])(
      "%s echoes the client's x-request-id",
      async (path) => {
        const res = await send("GET", path, undefined, { "x-request-id": "trace-42" });
        expect(res.headers.get("x-request-id")).toBe("trace-42");
      },
    );

    it("one registry labels both worlds' requests with their route templates, never the raw path", async () => {
      await send("GET", "/users/not-a-uuid");
      await send("GET", "/products/not-a-uuid");
      await send("GET", "/nowhere-to-be-found");
      const text = await (await send("GET", "/metrics")).text();
      // Reading a product is public (its bad id is a 400 either way); reading a user needs a token.
      for (const [route, status] of [
        ["/users/:id", refusedAs(400)],
        ["/products/:id", 400],
      ] as const) {
        expect(text).toMatch(
          new RegExp(
            `^http_requests_total\\{[^}]*route="${route}"[^}]*status="${status}"[^}]*framework="${framework}"`,
            "m",
          ),
        );
      }
      expect(text).toMatch(/^http_requests_total\{[^}]*route="unmatched"/m);
      expect(text).not.toContain("not-a-uuid");
    });
  });
}
