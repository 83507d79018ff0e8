// What the framework-only scenarios ask of a baseline: /, /health, /echo and /metrics as the contract says. One
// route table, served by node:http (node-http.ts), Bun.serve (bun-http.ts) and Deno.serve (deno-http.ts).
import { type Baseline, json, Problem, probeRoutes, route, text } from "./http.ts";

export function frameworkBaseline(framework: string): Baseline {
  return {
    framework,
    routes: (metrics) => [
      route("/", { GET: () => text(200, "Hello World!", "text/plain; charset=utf-8") }),
      ...probeRoutes(framework),
      route("/echo", {
        POST: async (req) => json(200, { ...(await req.json()), txnId: crypto.randomUUID() }),
      }),
      route("/metrics", {
        GET: async () => text(200, await metrics.render(), metrics.contentType),
      }),
    ],
    onError: () => new Problem("internal", "An unexpected error occurred."),
  };
}
