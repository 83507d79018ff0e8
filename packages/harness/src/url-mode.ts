// URL mode (`pnpm test:contract --url URL`): the suite checks a server it did not start, such as an implementation
// in another stack. What it knows of that server comes from the user: the JWT secret the server signs tokens with
// (for checks that forge tokens) and the connection string of its database (for checks that set up or inspect
// rows directly). Each check that needs one of them and was not given it is skipped with one of the reasons below,
// which the matrix reporter counts and prints once.
//
// Before the run, `checkUrlTarget` makes sure what was given is right, so that a wrong secret or database is one
// message up front instead of dozens of failures (or crypto errors) later.
import { randomUUID } from "node:crypto";
import { fixtureProducts, fixtureUsers, SEED_PASSWORD } from "@api-ref/db/fixtures";
import { decodeProtectedHeader, errors as joseErrors, jwtVerify } from "jose";
import pg from "pg";

/** Why a check was not made: the skip note of every such check, and what to pass to make it. */
export const NEEDS = {
  database: "needs the server's database: pass --database-url URL (or set DATABASE_URL)",
  jwtSecret: "needs the server's JWT secret: pass --jwt-secret SECRET (or set JWT_SECRET)",
  ownInstances: "starts registered implementations itself: runs with --impl, never with --url",
} as const;

export interface UrlTarget {
  url: string;
  jwtSecret?: string | undefined;
  databaseUrl?: string | undefined;
}

/** A problem with what the user gave (URL, secret, database): one line, said as it is. */
export class UrlTargetError extends Error {}

/** How long one request of the checks may take: generous, for a server that has just started on a busy machine. */
const TIMEOUT_MS = 30_000;

async function request(url: string, path: string, init: RequestInit = {}) {
  try {
    const res = await fetch(`${url}${path}`, { ...init, signal: AbortSignal.timeout(TIMEOUT_MS) });
    const text = await res.text();
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
    return { status: res.status, body, text };
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    throw new UrlTargetError(
      `${init.method ?? "GET"} ${url}${path} got no answer (${cause?.code ?? cause?.message ?? (error as Error).message}); is the server running there?`,
    );
  }
}

const postJson = (url: string, path: string, body: unknown, headers: Record<string, string> = {}) =>
  request(url, path, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });

/** The token `email` (a seeded user, by default with the seed password) gets from the server's login; null if refused. */
export async function loginToken(url: string, email: string, password = SEED_PASSWORD): Promise<string | null> {
  const login = await postJson(url, "/auth/login", { email, password });
  const token = (login.body as { token?: unknown } | undefined)?.token;
  return login.status === 200 && typeof token === "string" ? token : null;
}

/**
 * Checks the target before the suite runs: it answers /health, it serves the seed and has not been used since,
 * the secret (when given) signs its tokens, and the database (when given) is the one it writes to. Throws a
 * UrlTargetError naming the first problem.
 */
export async function checkUrlTarget({ url, jwtSecret, databaseUrl }: UrlTarget): Promise<void> {
  const health = await request(url, "/health");
  if (health.status !== 200) throw new UrlTargetError(`GET ${url}/health answered ${health.status}, not 200`);

  // The suite expects a fresh copy of the seed: the concurrency check sells the 10 items of this product.
  const lowStock = await request(url, `/products/${fixtureProducts.lowStock.id}`);
  const stock = (lowStock.body as { stock?: unknown } | undefined)?.stock;
  if (lowStock.status !== 200) {
    throw new UrlTargetError(
      `GET /products/${fixtureProducts.lowStock.id} (a seeded product) answered ${lowStock.status}: start the server on a database prepared with pnpm db:migrate and pnpm db:seed`,
    );
  }
  if (stock !== fixtureProducts.lowStock.stock) {
    throw new UrlTargetError(
      `the server's database is not a fresh seed (the seeded product ${fixtureProducts.lowStock.id} has stock ${String(stock)}, not ${fixtureProducts.lowStock.stock}, so an earlier run used it): re-seed it (pnpm db:seed --reset) and restart the server`,
    );
  }

  if (jwtSecret !== undefined) await checkSecret(url, jwtSecret);
  if (databaseUrl !== undefined) await checkDatabase(url, databaseUrl);
}

async function checkSecret(url: string, jwtSecret: string) {
  if (jwtSecret === "") throw new UrlTargetError("the JWT secret is empty: pass the server's JWT_SECRET");
  const login = await postJson(url, "/auth/login", { email: fixtureUsers.buyer.email, password: SEED_PASSWORD });
  const token = (login.body as { token?: unknown } | undefined)?.token;
  if (login.status !== 200 || typeof token !== "string") {
    throw new UrlTargetError(
      `cannot check the JWT secret: the seeded user ${fixtureUsers.buyer.email} could not log in with the seed password (POST /auth/login answered ${login.status})`,
    );
  }
  let alg: string | undefined;
  try {
    alg = decodeProtectedHeader(token).alg;
  } catch {
    throw new UrlTargetError(`the token POST /auth/login issued is not a JWT: ${token.slice(0, 60)}`);
  }
  if (alg !== "HS256") throw new UrlTargetError(`the server signs its tokens with ${alg}, not HS256`);
  try {
    await jwtVerify(token, new TextEncoder().encode(jwtSecret), { algorithms: ["HS256"] });
  } catch (error) {
    if (error instanceof joseErrors.JWSSignatureVerificationFailed) {
      throw new UrlTargetError(
        "the JWT secret given (--jwt-secret or JWT_SECRET) is not the server's: the token it issued to a seeded user is not signed with it",
      );
    }
    throw new UrlTargetError(`the token POST /auth/login issued does not verify: ${(error as Error).message}`);
  }
}

async function checkDatabase(url: string, databaseUrl: string) {
  const client = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: TIMEOUT_MS });
  try {
    await client.connect();
  } catch (error) {
    throw new UrlTargetError(
      `cannot connect to the database given (--database-url or DATABASE_URL): ${(error as Error).message}`,
    );
  }
  try {
    // The server's own database: a user the seeded admin creates through the API is there, and gone once deleted
    // through it.
    const token = await loginToken(url, fixtureUsers.admin.email);
    if (!token) {
      throw new UrlTargetError(
        `cannot check the database: the seeded admin ${fixtureUsers.admin.email} could not log in with the seed password`,
      );
    }
    const authorization = { authorization: `Bearer ${token}` };
    const email = `url-mode-check-${randomUUID()}@contract.example.com`;
    const created = await postJson(url, "/users", { email, name: "URL Mode Check" }, authorization);
    const id = (created.body as { id?: unknown } | undefined)?.id;
    if (created.status !== 201 || typeof id !== "string") {
      throw new UrlTargetError(`cannot check the database: POST /users answered ${created.status}, not 201`);
    }
    let rows: unknown[];
    try {
      rows = (await client.query("SELECT id FROM users WHERE email = $1", [email])).rows;
    } catch (error) {
      throw new UrlTargetError(
        `the database given (--database-url or DATABASE_URL) has no users table the suite can read: ${(error as Error).message}`,
      );
    } finally {
      await request(url, `/users/${id}`, { method: "DELETE", headers: authorization });
    }
    if (rows.length !== 1) {
      throw new UrlTargetError(
        "the database given (--database-url or DATABASE_URL) is not the server's: a user created through the API is not in it",
      );
    }
  } finally {
    await client.end().catch(() => {});
  }
}
