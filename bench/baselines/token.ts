// The raw baselines' bearer tokens, by hand: HS256 JWTs signed and verified with node:crypto's HMAC (and a
// constant-time comparison), no JWT library — the format of docs/api.md ("Formats every implementation shares"), so a
// token one server issues every other accepts. Verification refuses what the implementations refuse (jose in
// packages/data-access): `alg: none` and every other algorithm, a bad signature, a missing or past `exp`, a `sub` that
// is not a UUID. Runtime-neutral (Node, Bun and Deno all have node:crypto): pg-routes.ts uses it on every runtime.
import { createHmac, timingSafeEqual } from "node:crypto";
import { Problem, UUID } from "./http.ts";

type Claims = Record<string, unknown>;

const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
const HEADER = part({ alg: "HS256", typ: "JWT" });
const BEARER_SCHEME = /^bearer(\s|$)/i;
const BEARER = /^Bearer ([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]+)$/i;

/** A 401 with its RFC 6750 §3 challenge: `Bearer` without a bearer token, `error="invalid_token"` for a refused one. */
export function unauthorized(detail: string, challenge: "missing" | "invalid_token" = "invalid_token") {
  const header = challenge === "missing" ? "Bearer" : 'Bearer error="invalid_token"';
  return new Problem("unauthorized", detail, undefined, { "www-authenticate": header });
}

/** A 403: the caller is known, and their role may not do this. */
export const forbidden = (detail = "This needs the admin role.") =>
  new Problem("forbidden", detail, undefined, { "www-authenticate": 'Bearer error="insufficient_scope"' });

function decodeJson(segment: string): Claims | undefined {
  try {
    const value: unknown = JSON.parse(Buffer.from(segment, "base64url").toString("utf8"));
    return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Claims) : undefined;
  } catch {
    return undefined;
  }
}

/** Signs and verifies the run's tokens with `secret` (the server's JWT_SECRET). */
export function tokens(secret: string) {
  const key = Buffer.from(secret, "utf8");
  const signature = (unsigned: string) => createHmac("sha256", key).update(unsigned).digest();

  return {
    /** A token for user `sub`, valid for an hour. */
    sign(sub: string, nowS = Math.floor(Date.now() / 1000)): string {
      const unsigned = `${HEADER}.${part({ sub, iat: nowS, exp: nowS + 3600 })}`;
      return `${unsigned}.${signature(unsigned).toString("base64url")}`;
    },

    /** The user id an `authorization` header's token names; a 401 problem for anything but a valid HS256 token. */
    verify(authorization: string | undefined, nowS = Math.floor(Date.now() / 1000)): string {
      const value = authorization?.trim();
      if (!value || !BEARER_SCHEME.test(value)) {
        throw unauthorized("An `authorization: Bearer <token>` header is required.", "missing");
      }
      const match = BEARER.exec(value);
      if (!match) throw unauthorized("The bearer token is not a JWT.");
      const [, header = "", payload = "", sent = ""] = match;
      // The algorithm is the server's, never the token's: `none` and every other `alg` are refused.
      if (decodeJson(header)?.alg !== "HS256") throw unauthorized("The token is not signed with HS256.");
      const expected = signature(`${header}.${payload}`);
      const given = Buffer.from(sent, "base64url");
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
        throw unauthorized("The token's signature is not valid.");
      }
      const claims = decodeJson(payload);
      if (!claims) throw unauthorized("The token's claims are not a JSON object.");
      if (typeof claims.exp !== "number" || claims.exp <= nowS) throw unauthorized("The token has expired.");
      if (claims.nbf !== undefined && (typeof claims.nbf !== "number" || claims.nbf > nowS)) {
        throw unauthorized("The token is not valid yet.");
      }
      if (claims.iat !== undefined && typeof claims.iat !== "number")
        throw unauthorized("The token's iat is not a time.");
      if (typeof claims.sub !== "string" || !UUID.test(claims.sub)) throw unauthorized("The token names no user.");
      return claims.sub;
    },
  };
}
