// Tokens: the format every implementation reads (HS256, sub/iat/exp), and a login that does not wait behind
// other requests' password hashes for its token.
import type { PrismaClient } from "@api-ref/db";
import { hashPassword } from "@api-ref/db";
import { decodeProtectedHeader, jwtVerify } from "jose";
import { describe, expect, it } from "vitest";
import { authRepository, signToken } from "../src/auth.ts";

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
  });
});
