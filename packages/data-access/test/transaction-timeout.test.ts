// A data-access failure that is not the client's fault is a 503 with retry-after, never a 500: here the one the
// fault suite could not provoke, an interactive transaction that outlives its timeout (Prisma's P2028), made to
// happen for real on a PostgreSQL of its own.
import { randomBytes } from "node:crypto";
import { createPrismaClient, type Prisma, type PrismaClient } from "@api-ref/db";
import { type PostgresServer, provisionPostgres } from "@api-ref/db/provision";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isDatabaseUnavailable, translate } from "../src/errors.ts";

type Tx = Prisma.TransactionClient;

let server: PostgresServer;
let prisma: PrismaClient;

beforeAll(async () => {
  server = await provisionPostgres({ log() {} });
  prisma = createPrismaClient({
    connectionString: await server.createDatabase(`core_transaction_timeout_${randomBytes(3).toString("hex")}`),
    poolSize: 2,
  });
}, 120_000);

afterAll(async () => {
  await prisma?.$disconnect();
  await server?.stop();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("an interactive transaction that outlives its timeout", () => {
  it.each([
    ["a slow query inside it", (tx: Tx) => tx.$queryRaw`SELECT 1 AS one FROM pg_sleep(0.5)`],
    [
      "time spent between its queries",
      async (tx: Tx) => {
        await sleep(500);
        return tx.$queryRaw`SELECT 1 AS one`;
      },
    ],
  ])(
    "fails with %s, which translate turns into the 503 problem with retry-after",
    async (_, body) => {
      const error = await prisma.$transaction(body, { timeout: 100 }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error, String(error)).toMatchObject({ code: "P2028" });
      expect(isDatabaseUnavailable(error)).toBe(true);
      expect(() => translate(error)).toThrow(
        expect.objectContaining({ kind: "unavailable", status: 503, headers: { "retry-after": "1" } }),
      );
    },
    30_000,
  );

  it("leaves the client usable: the next transaction commits", async () => {
    await expect(prisma.$transaction(async (tx) => tx.$queryRaw`SELECT 1 AS one`)).resolves.toEqual([{ one: 1 }]);
  });
});
