// The runtime-neutral parts of serving a fetch app on Bun or Deno: the HTTP rules Node's server applies before the
// app and those servers leave to it.
import { describe, expect, it } from "vitest";
import { headBytes, withHeadLimit, withNodeHttpRules } from "../src/serve-fetch.ts";

const ok = () => new Response("served");

describe("headBytes", () => {
  it("counts the request line and each header field as sent, CRLFs included", () => {
    const request = new Request("http://example.test/users?limit=5", { headers: { "x-a": "bc" } });
    const sent = "GET /users?limit=5 HTTP/1.1\r\nx-a: bc\r\n";
    expect(headBytes(request)).toBe(sent.length);
  });
});

describe("withHeadLimit", () => {
  const limited = withHeadLimit(ok, 200);
  it("answers 431 and closes the connection past the limit", async () => {
    const res = await limited(new Request("http://example.test/health", { headers: { "x-filler": "a".repeat(200) } }));
    expect(res.status).toBe(431);
    expect(res.headers.get("connection")).toBe("close");
  });
  it("serves a head within it", async () => {
    expect(await (await limited(new Request("http://example.test/health"))).text()).toBe("served");
  });
});

describe("withNodeHttpRules", () => {
  it("answers 400 to a method that is no registered token, and serves a registered one the API lacks", async () => {
    const rules = withNodeHttpRules(ok);
    expect((await rules(new Request("http://example.test/", { method: "FOO" }))).status).toBe(400);
    expect((await rules(new Request("http://example.test/", { method: "PROPFIND" }))).status).toBe(200);
  });

  it("answers 417 to an expectation other than 100-continue (in any case), and serves 100-continue", async () => {
    const rules = withNodeHttpRules(ok);
    const expecting = (value: string) => new Request("http://example.test/", { headers: { expect: value } });
    expect((await rules(expecting("something"))).status).toBe(417);
    expect((await rules(expecting("100-Continue"))).status).toBe(200);
  });

  it("answers 408 when a request with a body is not answered within the request timeout", async () => {
    const never = () => new Promise<Response>(() => undefined);
    const rules = withNodeHttpRules(never, 50);
    const res = await rules(new Request("http://example.test/echo", { method: "POST", body: "{}" }));
    expect(res.status).toBe(408);
    expect(res.headers.get("connection")).toBe("close");
  });

  it("answers with the app's own response when it comes within the request timeout", async () => {
    const rules = withNodeHttpRules(() => Promise.resolve(new Response("echoed", { status: 200 })), 1_000);
    const res = await rules(new Request("http://example.test/echo", { method: "POST", body: "{}" }));
    expect(await res.text()).toBe("echoed");
  });
});
