// Mutations of who is calling. Authentication: missing, malformed, tampered, expired, unsigned (`alg: none`), other
// algorithms and foreign tokens, the admin's identity forged among them. Authorization (docs/api.md,
// "Authorization"): the customer's token where the admin's was (a customer on an admin route is a 403; on another
// user's row a 404), a role slipped into a user's body, a userId slipped into an order's body (both 400: the bodies
// are strict). What each must get is the oracle's decision, from the request as sent.

import type { RouteSpec } from "@api-ref/contract";
import { MISSING_ID } from "@api-ref/db/fixtures";
import { forgeToken } from "@api-ref/harness";
import fc from "fast-check";
import { bearer, jsonBody, type Mutation, type Pools, withBody } from "../draft.ts";

/** `authorization` values every implementation must answer with a 401 ("" stands for no header at all). */
export function badAuthorizations(pools: Pools): string[] {
  const now = Math.floor(Date.now() / 1000);
  const { customer, admin, jwtSecret } = pools;
  const [h, p, sig] = customer.token.split(".");
  const flip = (s = "") => (s.length > 4 ? `${s.slice(0, 2)}${s[2] === "A" ? "B" : "A"}${s.slice(3)}` : `${s}A`);
  return [
    "",
    "Bearer",
    "Bearer ",
    `bearer${customer.token}`,
    `Basic ${Buffer.from("a:b").toString("base64")}`,
    `Bearer ${h}.${flip(p)}.${sig}`,
    `Bearer ${h}.${p}.${flip(sig)}`,
    `Bearer ${customer.token}x`,
    `Bearer ${forgeToken(jwtSecret, customer.id, { issuedAt: now - 7200, expiresAt: now - 3600 })}`,
    `Bearer ${forgeToken(jwtSecret, MISSING_ID)}`,
    `Bearer ${forgeToken(jwtSecret, "not-a-uuid")}`,
    `Bearer ${forgeToken(jwtSecret, customer.id, { alg: "none" })}`,
    `Bearer ${forgeToken("another-secret-of-32-characters!", customer.id)}`,
    // The admin's identity, forged: unsigned, signed with another key, with another algorithm, expired.
    `Bearer ${forgeToken(jwtSecret, admin.id, { alg: "none" })}`,
    `Bearer ${forgeToken("another-secret-of-32-characters!", admin.id)}`,
    `Bearer ${forgeToken(jwtSecret, admin.id, { alg: "HS512" })}`,
    `Bearer ${forgeToken(jwtSecret, admin.id, { issuedAt: now - 7200, expiresAt: now - 3600 })}`,
    `Bearer ${"x".repeat(5000)}`,
  ];
}

const withAuthorization = (d: Parameters<Mutation>[0], authorization: string, mutation: string) => {
  const headers: Record<string, string> = { ...d.headers, authorization };
  if (authorization === "") delete headers.authorization;
  return { ...d, headers, mutations: [...d.mutations, mutation] };
};

export function authMutation(pools: Pools): [string, Mutation] {
  const bad = badAuthorizations(pools);
  return [
    "bad token",
    (d) =>
      d.route.access !== "public"
        ? fc
            .constantFrom(...bad)
            .map((authorization) =>
              withAuthorization(d, authorization, `authorization: ${authorization.slice(0, 40) || "(none)"}`),
            )
        : fc.constant(d),
  ];
}

/** The routes whose body is a user's own fields, where a role could be slipped in. */
const USER_BODIES = new Set(["POST /users", "PATCH /users/:id", "POST /auth/register"]);

/**
 * Object- and function-level authorization attacks that fit `route`: the customer's token on any route that needs
 * a caller, a role in a user's body, a userId in an order's body.
 */
export function authorizationMutations(pools: Pools, route: RouteSpec): Array<[string, Mutation]> {
  const key = `${route.method} ${route.path}`;
  const mutations: Array<[string, Mutation]> = [];
  if (route.access !== "public") {
    mutations.push([
      "as the customer",
      (d) => fc.constant(withAuthorization(d, bearer(pools.customer), "as the customer")),
    ]);
  }
  if (USER_BODIES.has(key)) {
    mutations.push([
      "role mass assignment",
      (d) => {
        const body = jsonBody(d);
        if (!body) return fc.constant(d);
        return fc
          .constantFrom("admin", "customer")
          .map((role) => withBody(d, { json: { ...body, role } }, `body.role: ${role}`));
      },
    ]);
  }
  if (key === "POST /orders") {
    mutations.push([
      "userId injection",
      (d) => {
        const body = jsonBody(d);
        if (!body) return fc.constant(d);
        return fc
          .constantFrom(...pools.userIds.slice(0, 20), pools.admin.id)
          .map((userId) => withBody(d, { json: { ...body, userId } }, `body.userId: ${userId}`));
      },
    ]);
  }
  return mutations;
}
