// Baseline for the framework-only scenarios on Deno: raw Deno.serve answering what node-http answers (the same
// route table, framework-routes.ts), so that a Deno row's framework cost is measured against Deno's own server.
// Run with `deno run --allow-all baselines/deno-http.ts`.
import { serve } from "./fetch-common.ts";
import { frameworkBaseline } from "./framework-routes.ts";

serve(frameworkBaseline("deno-http"));
