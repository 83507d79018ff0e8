// The Prisma client factory's two bounds: a busy pool makes a request wait (never fail), and a database that
// does not answer fails a request within the connect bound, as an error the apps turn into a 503.
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CONNECT_TIMEOUT_MS, createPrismaClient } from "../src/client.ts";
import type { PostgresServer } from "../src/provision.ts";
import { testServer, uniqueName } from "./helpers.ts";

let server: PostgresServer;
let url: string;

beforeAll(async () => {
  server = await testServer();
  url = await server.createDatabase(uniqueName("client"));
});

afterAll(() => server?.stop());

describe("createPrismaClient", () => {
  it("makes a request wait for a busy pool longer than the connect bound instead of failing it", async () => {
    const prisma = createPrismaClient({ connectionString: url, poolSize: 1 });
    try {
      const holdMs = CONNECT_TIMEOUT_MS + 1_000;
      // The pool's one connection is busy for longer than a connection may take to open.
      const busy = prisma.$queryRawUnsafe(`SELECT 1 FROM pg_sleep(${holdMs / 1000})`);
      await new Promise((resolve) => setTimeout(resolve, 100));
      const queued = await prisma.$queryRawUnsafe<Array<{ one: number }>>("SELECT 1 AS one");
      expect(queued).toEqual([{ one: 1 }]);
      await busy;
    } finally {
      await prisma.$disconnect();
    }
  });

  it("makes an interactive transaction (placing an order) wait for a busy pool too", async () => {
    const prisma = createPrismaClient({ connectionString: url, poolSize: 1 });
    try {
      const busy = prisma.$queryRawUnsafe(`SELECT 1 FROM pg_sleep(${(CONNECT_TIMEOUT_MS + 1_000) / 1000})`);
      await new Promise((resolve) => setTimeout(resolve, 100));
      const inTransaction = await prisma.$transaction(async (tx) =>
        tx.$queryRawUnsafe<Array<{ two: number }>>("SELECT 2 AS two"),
      );
      expect(inTransaction).toEqual([{ two: 2 }]);
      await busy;
    } finally {
      await prisma.$disconnect();
    }
  });

  it("fails a request when a connection cannot be opened within the connect bound", async () => {
    // Accepts TCP connections and never says a word: what a PostgreSQL that hangs looks like.
    const sockets = new Set<net.Socket>();
    const silent = net.createServer((socket) => sockets.add(socket));
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const { port } = silent.address() as net.AddressInfo;
    const prisma = createPrismaClient({ connectionString: `postgres://nobody:secret@127.0.0.1:${port}/none` });
    try {
      const error = await prisma.$queryRawUnsafe("SELECT 1").then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(Error);
      // The connect timeout fired, not the pool's much longer wait (which says "timeout exceeded when trying to
      // connect"): node-postgres's message, which packages/data-access's isDatabaseUnavailable reads as
      // "unreachable" (a 503; tested there).
      expect(String(error)).toBe("Error: timeout expired");
    } finally {
      await prisma.$disconnect();
      for (const socket of sockets) socket.destroy();
      silent.close();
    }
  });
});
