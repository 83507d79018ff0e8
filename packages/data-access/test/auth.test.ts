// Tokens: the format every implementation reads (HS256, sub/iat/exp), and a login that does not wait behind
// other requests' password hashes for its token.

import { scryptSync } from "node:crypto";
import type { ProblemError } from "@api-ref/contract";
import type { PrismaClient } from "@api-ref/db";
import { hashPassword, needsRehash, verifyPassword } from "@api-ref/db";
import { decodeProtectedHeader, jwtVerify } from "jose";
import { describe, expect, it } from "vitest";
import { authRepository, signToken } from "../src/auth.ts";
import { requireAdmin } from "../src/principal.ts";

const SECRET = "test-secret-0123456789abcdef0123";
const USER_ID = "00000000-0000-4000-8000-000000000001";
const key = new TextEncoder().encode(SECRET);

describe("signToken", () => {
  it("issues an HS256 JWT that jose verifies, naming the user, valid for an hour", async () => {
    const token = signToken(USER_ID, key, 1_800_000_000);
    expect(decodeProtectedHeader(token)).toEqual({ alg: "HS256", typ: "JWT" });
    const { payload } = await jwtVerify(token, key, {
      algorithms: ["HS256"],
      currentDate: new Date(1_800_000_100_000),
    });
    expect(payload).toEqual({ sub: USER_ID, iat: 1_800_000_000, exp: 1_800_003_600 });
  });

  it("is refused by jose under another secret", async () => {
    await expect(jwtVerify(signToken(USER_ID, key), new TextEncoder().encode(`${SECRET}x`))).rejects.toThrow();
  });
});

describe("login under concurrent password hashing", () => {
  it("answers right after its own hash, not after every hash queued behind it", async () => {
    const passwordHash = await hashPassword("right password");
    const prisma = {
      user: { findUnique: async () => ({ id: USER_ID, passwordHash }) },
    } as unknown as PrismaClient;
    const auth = authRepository(prisma, SECRET);
    const done: string[] = [];
    // The login's scrypt is queued first on the threadpool; sixteen other hashes (other users' logins and
    // registrations) queue after it.
    const login = auth.login({ email: "a@example.com", password: "right password" }).then((answer) => {
      done.push("login");
      return answer;
    });
    await new Promise((resolve) => setImmediate(resolve));
    const others = Array.from({ length: 16 }, (_, i) => hashPassword(`other ${i}`).then(() => done.push(`hash ${i}`)));
    const answer = await login;
    await Promise.all(others);
    expect(answer.tokenType).toBe("Bearer");
    // Signing its token must not queue behind the others (jose's WebCrypto signing did: the login came last).
    expect(done.indexOf("login")).toBeLessThan(8);
  }, 30_000);
});

describe("authenticate", () => {
  const roleOf = new Map([[USER_ID, "customer"]]);
  const prisma = {
    user: {
      findUnique: async ({ where }: { where: { id: string } }) => {
        const role = roleOf.get(where.id);
        return role ? { id: where.id, role } : null;
      },
    },
  } as unknown as PrismaClient;
  const auth = authRepository(prisma, SECRET);
  const refusal = (authorization: string | undefined) =>
    auth.authenticate(authorization).then(
      () => expect.unreachable("accepted"),
      (error: ProblemError) => ({ kind: error.kind, challenge: error.headers["www-authenticate"] }),
    );

  it("answers the token's user with their current role", async () => {
    expect(await auth.authenticate(`Bearer ${signToken(USER_ID, key)}`)).toEqual({ id: USER_ID, role: "customer" });
  });

  it.each([
    ["no header", undefined],
    ["an empty header", ""],
    ["another scheme", "Basic dXNlcjpwYXNz"],
  ])("challenges %s with a plain Bearer (RFC 6750 §3.1: no error code)", async (_, authorization) => {
    expect(await refusal(authorization)).toEqual({ kind: "unauthorized", challenge: "Bearer" });
  });

  it.each([
    ["a token that is no JWT", "Bearer abc"],
    ["a token signed with another secret", `Bearer ${signToken(USER_ID, new TextEncoder().encode(`${SECRET}x`))}`],
    ["an expired token", `Bearer ${signToken(USER_ID, key, 1_000_000_000)}`],
    ["a deleted user's token", `Bearer ${signToken("00000000-0000-4000-8000-00000000dead", key)}`],
  ])("refuses %s with error=invalid_token", async (_, authorization) => {
    expect(await refusal(authorization)).toEqual({
      kind: "unauthorized",
      challenge: 'Bearer error="invalid_token"',
    });
  });
});

describe("requireAdmin", () => {
  it("lets an admin through and refuses a customer with a 403 naming insufficient_scope", () => {
    expect(() => requireAdmin({ id: USER_ID, role: "admin" })).not.toThrow();
    expect(() => requireAdmin({ id: USER_ID, role: "customer" })).toThrow(
      expect.objectContaining({
        kind: "forbidden",
        headers: { "www-authenticate": 'Bearer error="insufficient_scope"' },
      }),
    );
  });
});

describe("login with a hash from older scrypt parameters", () => {
  it("answers the token and stores a hash with today's parameters; a wrong password changes nothing", async () => {
    const salt = Buffer.alloc(16, 3);
    const key = scryptSync("old password", salt, 64, { N: 16384, r: 8, p: 1 });
    const stored = `scrypt$16384$8$1$${salt.toString("base64")}$${key.toString("base64")}`;
    const updates: string[] = [];
    const prisma = {
      user: {
        findUnique: async () => ({ id: USER_ID, passwordHash: stored }),
        update: async ({ data }: { data: { passwordHash: string } }) => updates.push(data.passwordHash),
      },
    } as unknown as PrismaClient;
    const auth = authRepository(prisma, SECRET);
    await expect(auth.login({ email: "a@example.com", password: "wrong password" })).rejects.toThrow();
    expect(updates).toEqual([]);
    expect((await auth.login({ email: "a@example.com", password: "old password" })).tokenType).toBe("Bearer");
    expect(updates).toHaveLength(1);
    expect(needsRehash(updates[0] as string)).toBe(false);
    expect(await verifyPassword("old password", updates[0])).toBe(true);
  });
});
