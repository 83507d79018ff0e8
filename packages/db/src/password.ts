import { randomBytes, scrypt as scryptCallback, timingSafeEqual } from "node:crypto";
import { availableParallelism } from "node:os";
import { promisify } from "node:util";
import { concurrencyLimit } from "./concurrency.ts";

// The format every implementation reads and writes (docs/api.md): scrypt$N$r$p$<salt b64>$<hash b64>.
const scryptOnPool = promisify(scryptCallback) as (
  password: string,
  salt: Buffer,
  keylen: number,
  options: { N: number; r: number; p: number; maxmem: number },
) => Promise<Buffer>;

/**
 * Hashes at once, at most, leaving two of the threads they run on free: the same pool runs the SCRAM handshake of
 * new database connections (and DNS lookups), which behind a burst of logins waited past the connect timeout (503).
 * That pool is libuv's on Node (UV_THREADPOOL_SIZE, 4 by default) and Bun's work pool, a thread per core, on Bun.
 */
const HASH_THREADS = process.versions.bun ? availableParallelism() : Number(process.env.UV_THREADPOOL_SIZE) || 4;
const HASHES_AT_ONCE = Math.max(1, HASH_THREADS - 2);
const inHashTurn = concurrencyLimit(HASHES_AT_ONCE);

const scrypt = (...args: Parameters<typeof scryptOnPool>): Promise<Buffer> => inHashTurn(() => scryptOnPool(...args));

/**
 * OWASP's Password Storage Cheat Sheet sets scrypt's minimum at N=2^17, r=8, p=1 (128 MiB a hash) and lists
 * N=2^14, r=8, p=5 as of equal strength: the same work in 16 MiB a hash rather than 128. Hashes stored with other
 * parameters still verify and are upgraded at the next login.
 */
export const SCRYPT_PARAMS = { N: 16384, r: 8, p: 5, keyLength: 64, saltLength: 16 } as const;
const MAX_MEM = 64 * 1024 * 1024;

export async function hashPassword(password: string, salt: Buffer = randomBytes(SCRYPT_PARAMS.saltLength)) {
  const { N, r, p, keyLength } = SCRYPT_PARAMS;
  const hash = await scrypt(password, salt, keyLength, { N, r, p, maxmem: MAX_MEM });
  return `scrypt$${N}$${r}$${p}$${salt.toString("base64")}$${hash.toString("base64")}`;
}

// A well-formed hash of no one's password: verifying against it costs what a real check costs, so that a
// login with an unknown email takes as long as one with a wrong password.
const DUMMY_HASH = `scrypt$${SCRYPT_PARAMS.N}$${SCRYPT_PARAMS.r}$${SCRYPT_PARAMS.p}$${Buffer.alloc(16).toString("base64")}$${Buffer.alloc(64).toString("base64")}`;

/** A stored hash made with other parameters than today's (or of another shape): hash it anew at the next login. */
export function needsRehash(stored: string): boolean {
  const { N, r, p, keyLength } = SCRYPT_PARAMS;
  const [scheme, n, rr, pp, , hashB64] = stored.split("$");
  const current = scheme === "scrypt" && Number(n) === N && Number(rr) === r && Number(pp) === p;
  return !current || Buffer.from(hashB64 ?? "", "base64").length !== keyLength;
}

/**
 * Checks a password against a stored hash. A missing hash, or one not of the scrypt shape, still spends one
 * scrypt (on the dummy hash) and fails; a scrypt-shaped hash whose parameters do not parse fails at once.
 */
export async function verifyPassword(password: string, stored: string | null | undefined): Promise<boolean> {
  const parts = (stored ?? DUMMY_HASH).split("$");
  const valid = parts.length === 6 && parts[0] === "scrypt";
  const [, n, r, p, saltB64, hashB64] = valid ? parts : DUMMY_HASH.split("$");
  const expected = Buffer.from(hashB64 ?? "", "base64");
  const N = Number(n);
  const params = { N, r: Number(r), p: Number(p), maxmem: MAX_MEM };
  if (!Number.isInteger(N) || N < 2 || expected.length === 0) return false;
  const actual = await scrypt(password, Buffer.from(saltB64 ?? "", "base64"), expected.length, params);
  return valid && stored != null && timingSafeEqual(actual, expected);
}
