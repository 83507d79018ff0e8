// The login's answer must not tell an unknown e-mail from a wrong password by its cost: the work is compared
// (the scrypt calls and their parameters), never the clock.
import * as crypto from "node:crypto";
import { lookup } from "node:dns/promises";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { hashPassword, needsRehash, SCRYPT_PARAMS, verifyPassword } from "../src/password.ts";

vi.mock("node:crypto", async (importOriginal) => {
  const actual = await importOriginal<typeof import("node:crypto")>();
  return { ...actual, scrypt: vi.fn(actual.scrypt) };
});

const scrypt = vi.mocked(crypto.scrypt);
/** What each scrypt call cost: key length and N, r, p. */
const costs = () => scrypt.mock.calls.map(([, , keylen, options]) => ({ keylen, ...(options as object) }));

describe("verifyPassword", () => {
  let stored: string;
  beforeEach(async () => {
    stored = await hashPassword("right password");
    scrypt.mockClear();
  });

  it("accepts the right password and refuses a wrong one, at one scrypt each", async () => {
    expect(await verifyPassword("right password", stored)).toBe(true);
    expect(await verifyPassword("wrong password", stored)).toBe(false);
    expect(scrypt).toHaveBeenCalledTimes(2);
  });

  it.each([
    ["no user (null)", null],
    ["no user (undefined)", undefined],
    ["an empty hash", ""],
    ["another algorithm's hash", "bcrypt$x"],
    ["a hash with a part missing", "scrypt$16384$8$1$AAAA"],
  ])("spends the same scrypt on %s as on a wrong password, and refuses", async (_, hash) => {
    await verifyPassword("wrong password", stored);
    const wrongPassword = costs();
    scrypt.mockClear();

    expect(await verifyPassword("wrong password", hash)).toBe(false);
    expect(wrongPassword).toEqual([
      expect.objectContaining({
        keylen: SCRYPT_PARAMS.keyLength,
        N: SCRYPT_PARAMS.N,
        r: SCRYPT_PARAMS.r,
        p: SCRYPT_PARAMS.p,
      }),
    ]);
    expect(costs()).toEqual(wrongPassword);
  });
});

describe("needsRehash", () => {
  it("is false for a hash made with today's parameters, true for older ones or another shape", async () => {
    expect(needsRehash(await hashPassword("a password"))).toBe(false);
    const { N, r } = SCRYPT_PARAMS;
    const older = `scrypt$${N}$${r}$1$${Buffer.alloc(16).toString("base64")}$${Buffer.alloc(64).toString("base64")}`;
    expect(needsRehash(older)).toBe(true);
    expect(needsRehash("bcrypt$x")).toBe(true);
  });

  it("leaves a hash with older parameters verifiable (they are read from the hash)", async () => {
    const salt = Buffer.alloc(16, 7);
    const key = crypto.scryptSync("old password", salt, 64, { N: 16384, r: 8, p: 1 });
    const older = `scrypt$16384$8$1$${salt.toString("base64")}$${key.toString("base64")}`;
    expect(await verifyPassword("old password", older)).toBe(true);
  });
});

describe("a burst of hashes", () => {
  it("leaves libuv's thread pool room for a DNS lookup (and a new database connection's handshake)", async () => {
    let finished = 0;
    const hashes = Array.from({ length: 10 }, () => hashPassword("burst").then(() => finished++));
    await lookup("localhost");
    // Unbounded, the lookup would queue behind every hash but the first four.
    const finishedWhenLookedUp = finished;
    await Promise.all(hashes);
    expect(finishedWhenLookedUp).toBeLessThan(3);
    expect(finished).toBe(10);
  });
});
