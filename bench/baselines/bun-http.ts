// Baseline for the framework-only scenarios on Bun: raw Bun.serve answering what node-http answers (the same
// route table, framework-routes.ts), so that a Bun row's framework cost is measured against Bun's own server.
// Run with `bun baselines/bun-http.ts`.
import { serve } from "./fetch-common.ts";
import { frameworkBaseline } from "./framework-routes.ts";

serve(frameworkBaseline("bun-http"));
