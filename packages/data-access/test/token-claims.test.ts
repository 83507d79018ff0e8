// Bearer tokens' claim types, as README "Edges of HTTP" (packages/contract) decides them for every implementation.
import { createHmac } from "node:crypto";
import type { PrismaClient } from "@api-ref/db";
import { describe, expect, it } from "vitest";
import { authRepository } from "../src/auth.ts";

describe("verifyBearer: timing claims must be JSON numbers", () => {
  const secret = "test-secret-0123456789abcdef0123";
  const user = "00000000-0000-4000-8000-000000000001";
  const { verifyBearer } = authRepository(null as unknown as PrismaClient, secret);
  const sign = (claims: string) => {
    const b64 = (s: string) => Buffer.from(s).toString("base64url");
    const unsigned = `${b64('{"alg":"HS256","typ":"JWT"}')}.${b64(claims)}`;
    return `Bearer ${unsigned}.${createHmac("sha256", secret).update(unsigned).digest("base64url")}`;
  };
  const now = Math.floor(Date.now() / 1000);

  it("accepts numbers, fractions included", async () => {
    await expect(verifyBearer(sign(`{"sub":"${user}","iat":${now},"nbf":${now},"exp":${now + 60}.5}`))).resolves.toBe(
      user,
    );
  });

  it.each(["exp", "nbf", "iat"])("refuses %s of any other JSON type with a 401", async (claim) => {
    for (const value of ['"9999999999"', "null", "true", "[1]", '{"t":1}']) {
      const claims = { sub: `"${user}"`, exp: String(now + 60), [claim]: value };
      const text = `{${Object.entries(claims)
        .map(([k, v]) => `"${k}":${v}`)
        .join(",")}}`;
      await expect(verifyBearer(sign(text)), `${claim}: ${value}`).rejects.toMatchObject({ status: 401 });
    }
  });
});
