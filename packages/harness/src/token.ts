// Tokens as the implementations issue them (HS256 JWTs over JWT_SECRET), and the ones they must refuse: other
// algorithms, unsigned, expired, signed with another secret, claims of the wrong JSON type.
import { createHmac } from "node:crypto";

export type TokenAlgorithm = "HS256" | "HS384" | "HS512" | "none";

const b64 = (text: string) => Buffer.from(text).toString("base64url");

/**
 * Signs `claims` (an object, or JSON text so that claims of any JSON type can be signed). `header` is JSON text
 * too (default `{"alg":<alg>,"typ":"JWT"}`); alg "none" leaves the signature empty.
 */
export function signToken(
  secret: string,
  claims: Record<string, unknown> | string,
  options: { alg?: TokenAlgorithm; header?: string } = {},
): string {
  const alg = options.alg ?? "HS256";
  const header = options.header ?? JSON.stringify({ alg, typ: "JWT" });
  const unsigned = `${b64(header)}.${b64(typeof claims === "string" ? claims : JSON.stringify(claims))}`;
  if (alg === "none") return `${unsigned}.`;
  const hash = { HS256: "sha256", HS384: "sha384", HS512: "sha512" }[alg];
  return `${unsigned}.${createHmac(hash, secret).update(unsigned).digest("base64url")}`;
}

/** A token for user `sub`, by default issued now and valid for an hour. */
export function forgeToken(
  secret: string,
  sub: string,
  options: { alg?: TokenAlgorithm; issuedAt?: number; expiresAt?: number } = {},
): string {
  const now = Math.floor(Date.now() / 1000);
  const iat = options.issuedAt ?? now;
  return signToken(secret, { sub, iat, exp: options.expiresAt ?? iat + 3600 }, { alg: options.alg ?? "HS256" });
}

/** The `authorization` header of a signed-in user: a fresh token for `sub`, valid for an hour. */
export const bearerFor = (secret: string, sub: string) => `Bearer ${forgeToken(secret, sub)}`;
