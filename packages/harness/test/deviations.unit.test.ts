// Which deviations a contract check expects of a target: a registered row's own, or, for a URL run's target, those
// of the server `--server` named.
import { afterEach, describe, expect, it, vi } from "vitest";
import { deviationOf, implementations, SERVER_DEVIATIONS, serverOf } from "../src/index.ts";

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

describe("serverOf", () => {
  it("names the server of every row with deviations, so that a URL run of its image can say it", () => {
    expect(serverOf(named("elysia"))).toBe("bun-serve");
    expect(serverOf(named("hono-deno"))).toBe("deno-serve");
    expect(serverOf(named("express"))).toBeUndefined();
    for (const impl of implementations.filter((i) => i.deviations)) {
      const server = serverOf(impl);
      expect(server, impl.name).toBeDefined();
      expect(SERVER_DEVIATIONS[server as keyof typeof SERVER_DEVIATIONS]).toBe(impl.deviations);
    }
  });
});
