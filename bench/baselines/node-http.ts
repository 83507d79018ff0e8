// Baseline for the framework-only scenarios on Node: raw node:http serving /, /health, /echo and /metrics as the
// contract says, with the per-request duties every app has (x-request-id, metrics). Started like an app.
import { serve } from "./common.ts";
import { frameworkBaseline } from "./framework-routes.ts";

serve(frameworkBaseline("node-http"));
