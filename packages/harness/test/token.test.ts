// The token forger against jose, the JWT library the implementations' tokens are checked with elsewhere: what it
// signs verifies with the same secret and algorithm, and what it is asked to break is broken.
import { decodeProtectedHeader, jwtVerify } from "jose";
import { describe, expect, it } from "vitest";
import { bearerFor, forgeToken, signToken } from "../src/index.ts";

const SECRET = "a-secret-of-32-characters-exact!";
const key = new TextEncoder().encode(SECRET);

describe("forgeToken", () => {
  it("signs an HS256 token for the user, valid for an hour", async () => {
    const { payload, protectedHeader } = await jwtVerify(forgeToken(SECRET, "user-1"), key, { algorithms: ["HS256"] });
    expect(protectedHeader).toEqual({ alg: "HS256", typ: "JWT" });
    expect(payload.sub).toBe("user-1");
    expect((payload.exp as number) - (payload.iat as number)).toBe(3600);
  });

  it.each(["HS384", "HS512"] as const)("signs with %s when asked", async (alg) => {
    const { protectedHeader } = await jwtVerify(forgeToken(SECRET, "user-1", { alg }), key, { algorithms: [alg] });
    expect(protectedHeader.alg).toBe(alg);
  });

  it("leaves an unsigned token's signature empty", () => {
    const token = forgeToken(SECRET, "user-1", { alg: "none" });
    expect(token.endsWith(".")).toBe(true);
    expect(decodeProtectedHeader(token).alg).toBe("none");
  });

  it("makes an expired token when given the times", async () => {
    const now = Math.floor(Date.now() / 1000);
    const token = forgeToken(SECRET, "user-1", { issuedAt: now - 7200, expiresAt: now - 3600 });
    await expect(jwtVerify(token, key)).rejects.toThrow(/exp/);
  });

  it("does not verify with another secret", async () => {
    await expect(jwtVerify(forgeToken("another-secret-of-32-characters!", "u"), key)).rejects.toThrow(/signature/);
  });
});

describe("signToken", () => {
  it("signs claims given as JSON text exactly as written, under the given header", async () => {
    const token = signToken(SECRET, '{"sub":42,"exp":9999999999}', { header: '{"alg":"HS256"}' });
    const [header, claims] = token.split(".").map((part) => Buffer.from(part, "base64url").toString());
    expect([header, claims]).toEqual(['{"alg":"HS256"}', '{"sub":42,"exp":9999999999}']);
    const { payload } = await jwtVerify(token, key);
    expect(payload.sub).toBe(42);
  });
});

describe("bearerFor", () => {
  it("is the authorization header of a fresh HS256 token for the principal", async () => {
    const header = bearerFor(SECRET, "00000000-0000-4000-8000-000000000003");
    expect(header).toMatch(/^Bearer [\w-]+\.[\w-]+\.[\w-]+$/);
    const { payload } = await jwtVerify(header.slice("Bearer ".length), key, { algorithms: ["HS256"] });
    expect(payload.sub).toBe("00000000-0000-4000-8000-000000000003");
  });
});
