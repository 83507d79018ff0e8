// Which deviations a contract check expects of a target: a registered row's own, or, for a URL run's target, those
// of the server `--server` named.
import { afterEach, describe, expect, it, vi } from "vitest";
import { deviationOf, implementations } from "../src/index.ts";

const named = (name: string) => {
  const impl = implementations.find((i) => i.name === name);
  if (!impl) throw new Error(`no row ${name}`);
  return impl;
};

describe("deviationOf", () => {
  afterEach(() => vi.unstubAllEnvs());

  it("gives a registered row its runtime's deviations, and a row on Node none", () => {
    expect(deviationOf("elysia", "dot segment /./health")?.answer).toBe(200);
    expect(deviationOf("hono-deno", "keep-alive timeout")?.answer).toBe("not enforced");
    expect(deviationOf("express", "dot segment /./health")).toBeUndefined();
  });

  it("gives the target of a URL run the deviations of the server --server named, and none without it", () => {
    expect(deviationOf("url", "OPTIONS *")).toBeUndefined();
    vi.stubEnv("CONTRACT_URL_SERVER", "bun-serve");
    expect(deviationOf("url", "OPTIONS *")).toEqual(deviationOf("elysia", "OPTIONS *"));
    expect(deviationOf("url", "keep-alive timeout")).toBeUndefined();
    vi.stubEnv("CONTRACT_URL_SERVER", "deno-serve");
    expect(deviationOf("url", "keep-alive timeout")?.answer).toBe("not enforced");
    vi.stubEnv("CONTRACT_URL_SERVER", "toString");
    expect(deviationOf("url", "OPTIONS *")).toBeUndefined();
  });
});

describe("a row's server", () => {
  it("is named on every row whose runtime's own server deviates, so that a URL run of its image can say it", () => {
    expect(named("elysia").server).toBe("bun-serve");
    expect(named("hono-deno").server).toBe("deno-serve");
    expect(named("express-bun").server).toBe("bun-node-http");
    expect(named("express").server).toBeUndefined();
  });
});
