import type { ElysiaConfig } from "elysia";

/**
 * The options of the app's `new Elysia()`: `strictPath`, so `/users/` is another path than `/users` (404), as the
 * contract says; a path that matches no route is the problem handler's 404 or 405 (`problems.ts`, the contract's
 * `unmatched()`). Elysia finds where the path starts in `request.url` from the 12th character on, as if every host
 * had at least four: a request with `Host: a` would be routed on a wrong path; from the 8th (after `http://`), any
 * host works.
 */
export const STRICT_PATHS = {
  strictPath: true,
  handler: { standardHostname: false },
} as const satisfies ElysiaConfig<"">;
