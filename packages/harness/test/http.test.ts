// The raw client against a small local server: `send` records what came back (or the network error) without
// throwing, and `exchange` puts exactly the given bytes on the wire and parses the answers, pipelined ones too.
import http from "node:http";
import net, { type AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { exchange, freePort, send } from "../src/index.ts";

let url = "";
const server = http.createServer((req, res) => {
  let body = "";
  req.on("data", (chunk) => (body += chunk));
  req.on("end", () => {
    res.setHeader("x-seen", `${req.method} ${req.url} ${req.headers["content-length"] ?? "-"}`);
    if (req.url === "/chunked") {
      res.write("one,");
      res.end("two");
      return;
    }
    res.writeHead(req.url === "/missing" ? 404 : 200, { "content-type": "text/plain" });
    res.end(body || "ok");
  });
});
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

describe("send", () => {
  it("sends the method, path and body as given and records the answer", async () => {
    const outcome = await send(url, { method: "PATCH", path: "/a?b=1", body: "héllo" });
    expect([outcome.status, outcome.text, outcome.headers["x-seen"]]).toEqual([200, "héllo", "PATCH /a?b=1 6"]);
    expect(outcome.endedAt).toBeGreaterThanOrEqual(outcome.sentAt);
  });

  it("resolves with the network error instead of throwing", async () => {
    const outcome = await send(`http://127.0.0.1:${await freePort()}`, { method: "GET", path: "/" });
    expect([outcome.status, outcome.error, outcome.responseStarted]).toEqual([undefined, "ECONNREFUSED", false]);
  });
});

describe("exchange", () => {
  it("parses pipelined answers, chunked bodies included", async () => {
    const host = new URL(url).host;
    const result = await exchange(
      url,
      `GET /missing HTTP/1.1\r\nhost: ${host}\r\n\r\nGET /chunked HTTP/1.1\r\nhost: ${host}\r\nconnection: close\r\n\r\n`,
      { responses: 2 },
    );
    expect(result.responses.map((r) => [r.status, r.body.toString()])).toEqual([
      [404, "ok"],
      [200, "one,two"],
    ]);
  });

  it("writes a request in pieces", async () => {
    const host = new URL(url).host;
    const result = await exchange(url, "", {
      pieces: [`POST /p HTTP/1.1\r\nhost: ${host}\r\ncontent-length: 4\r\n\r\nab`, "cd"],
      pauseMs: [20],
    });
    expect(result.responses[0]?.body.toString()).toBe("abcd");
  });

  it("reports bytes that are not a response, and the close", async () => {
    const garbage = net.createServer((socket) => socket.end("SSH-2.0-not-http\r\n\r\n"));
    await new Promise<void>((resolve) => garbage.listen(0, "127.0.0.1", resolve));
    try {
      const port = (garbage.address() as AddressInfo).port;
      const result = await exchange(`http://127.0.0.1:${port}`, "GET / HTTP/1.1\r\n\r\n", { timeoutMs: 5_000 });
      expect(result.responses).toEqual([]);
      expect(result.garbage).toMatch(/^SSH-2.0/);
    } finally {
      garbage.close();
    }
  });
});
