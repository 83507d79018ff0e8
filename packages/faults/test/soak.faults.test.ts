// A bounded crud-mix soak for every implementation: every answer exact, the process alive, and memory growth
// from the first to the last quarter reported (heap after GC for Node, RSS for all).
import { freePort } from "@api-ref/harness";
import { describe, it } from "vitest";
import { heapProbeEnv } from "../src/soak/memory.ts";
import { runSoak } from "../src/soak/run.ts";
import { implementationsFor, runFault, settings, suite } from "./context.ts";

describe.each(implementationsFor("soak"))("$name", (impl) => {
  it("soak: a bounded crud-mix run answers every request exactly; heap and RSS growth reported", async (context) => {
    // Implementations on Node get the heap probe (a Node preload); Bun, Deno and FastAPI are measured by RSS alone.
    const probePort = impl.runtime === "node" ? await freePort() : null;
    await runFault(
      context,
      impl,
      "soak",
      (app) => runSoak(app, { ...settings.soak, seed: settings.seed, probePort, jwtSecret: suite.jwtSecret }),
      {
        env: probePort === null ? {} : heapProbeEnv(probePort),
      },
    );
  });
});
