// Interoperability: every implementation reads and writes the same database and shares JWT_SECRET, so that a
// user registered through one logs in through every other, and a token issued by one is accepted by every
// other. The column is the issuing target, a. Its tokens are tried on every target (cheap: a signature each).
// Its password hashes are checked against the documented format (below), which is what makes any pair agree,
// and end to end on the next target in the list, b (a ring: each target writes for one other and reads for one
// other; (a, a) when only one is selected): every ordered pair would cost 16 × 16 × 3 scrypt hashes of a
// quarter second each, for nothing the format checks miss.
//
// In this suite each implementation has a database of its own, so for a ≠ b the suite copies the user's row,
// exactly as a wrote it (password hash included), into b's database: what b then reads is what it would read
// if the two shared one database.
//
// The suite also checks the formats themselves, independent of any implementation: a token it signs and a
// password hash it writes, in the documented formats, are accepted; and what an implementation writes and
// issues is in those formats. Agreeing with each other is not enough; they must agree with docs/api.md.
import { randomBytes, randomUUID, scrypt, timingSafeEqual } from "node:crypto";
import { promisify } from "node:util";
import { fixtureUsers, SEED_PASSWORD } from "@api-ref/db/fixtures";
import { NEEDS, sql } from "@api-ref/harness";
import { decodeProtectedHeader, jwtVerify, SignJWT } from "jose";
import { expect, it } from "vitest";
import { PROBLEMS } from "../src/problems.ts";
import { contract, describeEachTarget, http, type Target, targets } from "./targets.ts";

/** The documented format: scrypt$N$r$p$<salt base64>$<hash base64>, N=16384, r=8, p=5, 16-byte salt, 64-byte key. */
const SCRYPT = { N: 16384, r: 8, p: 5, saltBytes: 16, keyBytes: 64, maxmem: 64 * 1024 * 1024 } as const;
const HASH_FORMAT = /^scrypt\$16384\$8\$5\$([A-Za-z0-9+/]+={0,2})\$([A-Za-z0-9+/]+={0,2})$/;
/** The parameters of earlier versions' hashes (p=1): they still verify, and are replaced at the next login. */
const EARLIER = { ...SCRYPT, p: 1 } as const;
const scryptAsync = promisify(scrypt) as (
  password: string,
  salt: Buffer,
  keyBytes: number,
  params: typeof SCRYPT | typeof EARLIER,
) => Promise<Buffer>;
/** The key scrypt derives with the given parameters (off the event loop: the other implementations' checks go on). */
const documentedKey = (password: string, salt: Buffer, params: typeof SCRYPT | typeof EARLIER = SCRYPT) =>
  scryptAsync(password, salt, params.keyBytes, params);

async function documentedHash(password: string, params: typeof SCRYPT | typeof EARLIER = SCRYPT) {
  const salt = randomBytes(params.saltBytes);
  const key = await documentedKey(password, salt, params);
  return `scrypt$${params.N}$${params.r}$${params.p}$${salt.toString("base64")}$${key.toString("base64")}`;
}

/** Checks that `hash` is in today's format and is scrypt(password, its salt). */
async function expectDocumentedHash(hash: string | null | undefined, password: string) {
  const match = HASH_FORMAT.exec(hash ?? "");
  expect(match, `stored hash: ${hash}`).not.toBeNull();
  const salt = Buffer.from(match?.[1] ?? "", "base64");
  const stored = Buffer.from(match?.[2] ?? "", "base64");
  expect(salt).toHaveLength(SCRYPT.saltBytes);
  expect(stored).toHaveLength(SCRYPT.keyBytes);
  const recomputed = await documentedKey(password, salt);
  expect(timingSafeEqual(recomputed, stored), "the key is scrypt(password, salt) with N=16384, r=8, p=5").toBe(true);
}

const secretKey = (secret: string) => new TextEncoder().encode(secret);
const email = (label: string) => `${label}-${randomUUID()}@interop.contract.example.com`;

async function register(target: Target, label: string) {
  const credentials = { email: email(label), name: `Interop ${label}`, password: `pw-${randomUUID()}` };
  const res = await http(target).post("/auth/register").send(credentials);
  expect(res.status, `register on ${target.name}: ${JSON.stringify(res.body)}`).toBe(201);
  return { ...credentials, id: res.body.user.id as string, token: res.body.token as string };
}

/** Makes the user a registered visible to b, as a shared database would: a copy of a's row, column for column. */
async function share(a: Target, b: Target, userId: string) {
  if (a.databaseUrl === b.databaseUrl) return;
  if (!a.databaseUrl || !b.databaseUrl) throw new Error("sharing a user between targets needs their databases");
  const columns = "id, email, name, role, password_hash, created_at, updated_at";
  const [row] = await sql<Record<string, unknown>>(a.databaseUrl, `SELECT ${columns} FROM users WHERE id = $1`, [
    userId,
  ]);
  if (!row) throw new Error(`${a.name} reported user ${userId} registered, but its database has no such row`);
  await sql(b.databaseUrl, `INSERT INTO users (${columns}) VALUES ($1, $2, $3, $4, $5, $6, $7)`, [
    row.id,
    row.email,
    row.name,
    row.role,
    row.password_hash,
    row.created_at,
    row.updated_at,
  ]);
}

async function expectMe(target: Target, token: string, user: { id: string; email: string }) {
  const res = await http(target).get("/auth/me").set("authorization", `Bearer ${token}`);
  expect(res.status, `/auth/me on ${target.name}: ${JSON.stringify(res.body)}`).toBe(200);
  expect(res.body).toMatchObject({ id: user.id, email: user.email });
}

async function expectUnauthorized(target: Target, token: string) {
  const res = await http(target).get("/auth/me").set("authorization", `Bearer ${token}`);
  expect(res.status).toBe(401);
  expect(res.body).toMatchObject({ type: PROBLEMS.unauthorized.type, status: 401 });
}

/** The target after `a` in the list, wrapping round: the one that reads what `a` writes. */
const next = (a: Target) => targets[(targets.indexOf(a) + 1) % targets.length] as Target;

// The implementations side by side (each row registers users of its own): most of the file is scrypt hashes.
describeEachTarget((a: Target) => {
  const b = next(a);
  it(`lets a user registered through ${a.name} log in through ${b.name}`, async () => {
    const user = await register(a, `${a.name}-to-${b.name}`);
    await share(a, b, user.id);
    const login = await http(b).post("/auth/login").send({ email: user.email, password: user.password });
    expect(login.status, `login on ${b.name}: ${JSON.stringify(login.body)}`).toBe(200);
    expect(login.body).toMatchObject({ tokenType: "Bearer", expiresIn: 3600 });
    await expectMe(b, login.body.token, user);
    const wrong = await http(b)
      .post("/auth/login")
      .send({ email: user.email, password: `${user.password}x` });
    expect(wrong.status).toBe(401);
  });

  it("issues tokens that every target's /auth/me accepts (at registration and at login)", async () => {
    const user = await register(a, `token-${a.name}`);
    const login = await http(a)
      .post("/auth/login")
      .send({ email: fixtureUsers.buyer.email, password: SEED_PASSWORD })
      .expect(200);
    for (const reader of targets) {
      await share(a, reader, user.id);
      await expectMe(reader, user.token, user);
      await expectMe(reader, login.body.token, fixtureUsers.buyer);
    }
  });

  it("accepts a token the suite signs itself (HS256, the shared secret, sub = user id, exp in one hour) and refuses it signed with any other secret", async (ctx) => {
    if (!contract.jwtSecret) return ctx.skip(NEEDS.jwtSecret);
    const claims = () =>
      new SignJWT({})
        .setProtectedHeader({ alg: "HS256", typ: "JWT" })
        .setSubject(fixtureUsers.buyer.id)
        .setIssuedAt()
        .setExpirationTime("1h");
    await expectMe(a, await claims().sign(secretKey(contract.jwtSecret)), fixtureUsers.buyer);
    await expectUnauthorized(a, await claims().sign(secretKey(`${contract.jwtSecret}-not-it`)));
  });

  it("issues HS256 tokens over the shared secret whose sub is the user id and which expire one hour after issue", async (ctx) => {
    if (!contract.jwtSecret) return ctx.skip(NEEDS.jwtSecret);
    const before = Math.floor(Date.now() / 1000);
    const user = await register(a, "token-format");
    const login = await http(a).post("/auth/login").send({ email: user.email, password: user.password }).expect(200);
    const after = Math.ceil(Date.now() / 1000);
    for (const token of [user.token, login.body.token as string]) {
      expect(decodeProtectedHeader(token).alg).toBe("HS256");
      const { payload } = await jwtVerify(token, secretKey(contract.jwtSecret), { algorithms: ["HS256"] });
      expect(payload.sub).toBe(user.id);
      expect(typeof payload.exp).toBe("number");
      const exp = payload.exp as number;
      if (typeof payload.iat === "number") expect(exp - payload.iat).toBe(3600);
      expect(exp).toBeGreaterThanOrEqual(before + 3600);
      expect(exp).toBeLessThanOrEqual(after + 3600);
    }
  });

  it("lets a user log in whose password hash the suite wrote itself in the documented scrypt format", async (ctx) => {
    const databaseUrl = a.databaseUrl;
    if (!databaseUrl) return ctx.skip(NEEDS.database);
    const password = `suite-${randomUUID()}`;
    const address = email("suite-hash");
    const [row] = await sql<{ id: string }>(
      databaseUrl,
      "INSERT INTO users (email, name, password_hash) VALUES ($1, $2, $3) RETURNING id",
      [address, "Suite Hashed", await documentedHash(password)],
    );
    if (!row) throw new Error("the INSERT returned no row");
    const login = await http(a).post("/auth/login").send({ email: address, password });
    expect(login.status, JSON.stringify(login.body)).toBe(200);
    await expectMe(a, login.body.token, { id: row.id, email: address });
    const wrong = await http(a)
      .post("/auth/login")
      .send({ email: address, password: `${password}x` });
    expect(wrong.status).toBe(401);
  });

  it("stores the passwords of registered users as documented: scrypt$16384$8$5$<16-byte salt>$<64-byte key>", async (ctx) => {
    const databaseUrl = a.databaseUrl;
    if (!databaseUrl) return ctx.skip(NEEDS.database);
    const user = await register(a, "hash-format");
    const [row] = await sql<{ password_hash: string | null }>(
      databaseUrl,
      "SELECT password_hash FROM users WHERE id = $1",
      [user.id],
    );
    await expectDocumentedHash(row?.password_hash, user.password);
  });

  it("lets a user log in whose hash has earlier versions' parameters (p=1), and replaces it with today's at that login", async (ctx) => {
    const databaseUrl = a.databaseUrl;
    if (!databaseUrl) return ctx.skip(NEEDS.database);
    const password = `earlier-${randomUUID()}`;
    const address = email("earlier-hash");
    const earlier = await documentedHash(password, EARLIER);
    const [row] = await sql<{ id: string }>(
      databaseUrl,
      "INSERT INTO users (email, name, password_hash) VALUES ($1, $2, $3) RETURNING id",
      [address, "Earlier Hash", earlier],
    );
    if (!row) throw new Error("the INSERT returned no row");
    const stored = async () =>
      (await sql<{ password_hash: string }>(databaseUrl, "SELECT password_hash FROM users WHERE id = $1", [row.id]))[0]
        ?.password_hash;
    // A failed login changes nothing; the successful one rehashes.
    expect(
      (
        await http(a)
          .post("/auth/login")
          .send({ email: address, password: `${password}x` })
      ).status,
    ).toBe(401);
    expect(await stored()).toBe(earlier);
    const login = await http(a).post("/auth/login").send({ email: address, password });
    expect(login.status, JSON.stringify(login.body)).toBe(200);
    await expectMe(a, login.body.token, { id: row.id, email: address });
    await expectDocumentedHash(await stored(), password);
    expect((await http(a).post("/auth/login").send({ email: address, password })).status).toBe(200);
  });
});
