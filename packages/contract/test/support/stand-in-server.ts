// A small stand-in for a freshly seeded implementation, for the contract package's own unit tests: it answers
// what URL mode checks before a run (/health, the low-stock fixture's stock, a seeded user's login (any of them) signed with
// a known secret, POST /users) and 404 to everything else, so a run against it has checks that pass, fail and
// are skipped.
import { randomUUID } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { fixtureProducts, fixtureUsers, SEED_PASSWORD } from "@api-ref/db/fixtures";
import { forgeToken } from "@api-ref/harness";

export const STAND_IN_SECRET = "the-stand-in-server-secret-of-32-bytes";

export interface StandIn {
  url: string;
  /** The low-stock fixture's stock as the stand-in reports it (a fresh seed's by default). */
  stock: number;
  close(): Promise<void>;
}

export async function startStandIn(): Promise<StandIn> {
  const state: { stock: number } = { stock: fixtureProducts.lowStock.stock };
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => (body += chunk));
    req.on("end", () => {
      const json = (status: number, value: unknown) => {
        res.writeHead(status, { "content-type": "application/json" });
        res.end(JSON.stringify(value));
      };
      if (req.url === "/health") return json(200, { status: "ok" });
      if (req.url === `/products/${fixtureProducts.lowStock.id}`) return json(200, { stock: state.stock });
      if (req.url === "/auth/login" && req.method === "POST") {
        const { email, password } = JSON.parse(body);
        const user = Object.values(fixtureUsers).find((u) => u.email === email);
        if (user && password === SEED_PASSWORD) {
          const token = forgeToken(STAND_IN_SECRET, user.id);
          return json(200, { token, tokenType: "Bearer", expiresIn: 3600 });
        }
        return json(401, {});
      }
      if (req.url === "/users" && req.method === "POST") return json(201, { id: randomUUID() });
      json(404, {});
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const standIn: StandIn = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    get stock() {
      return state.stock;
    },
    set stock(value: number) {
      state.stock = value;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return standIn;
}

// `node test/support/stand-in-server.ts` serves one until stopped (for trying the CLI by hand).
if (import.meta.main) {
  const standIn = await startStandIn();
  process.stdout.write(`stand-in listening on ${standIn.url} (JWT secret ${STAND_IN_SECRET})\n`);
}
