// Mutations of the authorization header: missing, malformed, tampered, expired, unsigned and foreign tokens.
import { MISSING_ID } from "@api-ref/db/fixtures";
import { forgeToken } from "@api-ref/harness";
import fc from "fast-check";
import type { Mutation, Pools } from "../draft.ts";

function badAuthorizations(pools: Pools): string[] {
  const now = Math.floor(Date.now() / 1000);
  const [h, p, sig] = pools.token.split(".");
  const flip = (s = "") => (s.length > 4 ? `${s.slice(0, 2)}${s[2] === "A" ? "B" : "A"}${s.slice(3)}` : `${s}A`);
  return [
    "",
    "Bearer",
    "Bearer ",
    `bearer${pools.token}`,
    `Basic ${Buffer.from("a:b").toString("base64")}`,
    `Bearer ${h}.${flip(p)}.${sig}`,
    `Bearer ${h}.${p}.${flip(sig)}`,
    `Bearer ${pools.token}x`,
    `Bearer ${forgeToken(pools.jwtSecret, pools.tokenUserId, { issuedAt: now - 7200, expiresAt: now - 3600 })}`,
    `Bearer ${forgeToken(pools.jwtSecret, MISSING_ID)}`,
    `Bearer ${forgeToken(pools.jwtSecret, "not-a-uuid")}`,
    `Bearer ${forgeToken(pools.jwtSecret, pools.tokenUserId, { alg: "none" })}`,
    `Bearer ${forgeToken("another-secret-of-32-characters!", pools.tokenUserId)}`,
    `Bearer ${"x".repeat(5000)}`,
  ];
}

export function authMutation(pools: Pools): [string, Mutation] {
  const bad = badAuthorizations(pools);
  return [
    "bad token",
    (d) =>
      d.route.auth
        ? fc.constantFrom(...bad).map((authorization) => {
            const headers = { ...d.headers, authorization };
            if (authorization === "") delete (headers as Record<string, string>).authorization;
            return {
              ...d,
              headers,
              mutations: [...d.mutations, `authorization: ${authorization.slice(0, 40) || "(none)"}`],
            };
          })
        : fc.constant(d),
  ];
}
