// Known deviations: contract checks that a row answers otherwise because its runtime's HTTP server decides before
// any application code runs, and offers no setting to decide otherwise (each was tried; README "On Bun and Deno"
// in packages/server says what). The contract suite checks that such a row answers exactly what is written here (so
// a runtime that starts to comply shows up), and leaves it out of that check's comparison between rows.

export interface Deviation {
  /**
   * The check: an edge case's name (packages/contract/test/support/edge-cases.ts), or one of the limits "head
   * timeout", "request timeout", "keep-alive timeout" (packages/contract/test/limits.contract.test.ts).
   */
  check: string;
  /** What the row answers instead: a status, no answer (the connection closed), or for a limit, not enforced. */
  answer: number | "no answer" | "not enforced";
  /** Why, in one line. */
  why: string;
}

const ASTERISK = "Bun's HTTP parser refuses a target that is not a path (400) before the app sees the request";

/** Bun's own server (Bun.serve), under an app's `fetch`. */
export const BUN_SERVE_DEVIATIONS: readonly Deviation[] = [
  { check: "unknown HTTP version (HTTP/1.2)", answer: 505, why: "Bun's HTTP parser answers 505, Node's 400" },
  ...["encoded dot segment /users/%2e%2e/users", "dot segment /users/../health", "dot segment /./health"].map(
    (check): Deviation => ({
      check,
      answer: 200,
      why: "Bun.serve resolves dot segments into request.url and keeps no raw target, so the app routes the result",
    }),
  ),
  { check: "asterisk-form target on GET", answer: 400, why: ASTERISK },
  { check: "OPTIONS *", answer: 400, why: ASTERISK },
  ...["an unregistered method token (FOO)", "lower-case method (get)"].map(
    (check): Deviation => ({
      check,
      answer: "no answer",
      why: "Bun's HTTP parser closes the connection on a method it does not know, without an answer",
    }),
  ),
];

/** Bun's node:http (an Express app run by Bun). */
export const BUN_NODE_HTTP_DEVIATIONS: readonly Deviation[] = [
  { check: "asterisk-form target on GET", answer: 400, why: ASTERISK },
  { check: "OPTIONS *", answer: 400, why: ASTERISK },
];

/** Deno's own server (Deno.serve, hyper), under an app's `fetch`. */
export const DENO_SERVE_DEVIATIONS: readonly Deviation[] = [
  {
    check: "chunked body with a chunk size that is not hex",
    answer: "no answer",
    why: "Deno's HTTP parser closes the connection without an answer",
  },
  {
    check: "HTTP/1.1 without host",
    answer: 200,
    why: "Deno's parser accepts it and the app cannot tell HTTP/1.1 from HTTP/1.0 (where no host is allowed)",
  },
  {
    check: "two host headers (the first is used)",
    answer: 400,
    why: "Deno's HTTP parser refuses a repeated host header",
  },
  {
    check: "asterisk-form target on GET",
    answer: 400,
    why: "Deno's HTTP parser refuses a GET whose target is not a path before the app sees it",
  },
  {
    check: "many small headers over 16 KiB",
    answer: 400,
    why: "Deno's HTTP parser refuses more than 100 header fields (400) before the 16 KiB check can answer 431",
  },
  {
    check: "head timeout",
    answer: "not enforced",
    why: "Deno.serve has no setting for how long the head may take, and the app sees no request before it is whole",
  },
  {
    check: "request timeout",
    answer: "not enforced",
    why: "Deno.serve sends the app's 408 but keeps the connection while the body is still arriving (a failed response does not close it either)",
  },
  {
    check: "keep-alive timeout",
    answer: "not enforced",
    why: "Deno.serve has no idle timeout for a keep-alive connection, and no way for the app to close one",
  },
];

/**
 * The servers whose known deviations a URL run can be told of (`pnpm test:contract --url … --server NAME`): a server
 * started elsewhere on one of them (an image of elysia, another stack on Bun.serve) is then held to those answers for
 * those checks, as the registered rows on that server are.
 */
export const SERVER_DEVIATIONS = {
  "bun-serve": BUN_SERVE_DEVIATIONS,
  "bun-node-http": BUN_NODE_HTTP_DEVIATIONS,
  "deno-serve": DENO_SERVE_DEVIATIONS,
} as const satisfies Record<string, readonly Deviation[]>;

export type KnownServer = keyof typeof SERVER_DEVIATIONS;

export const isKnownServer = (name: string): name is KnownServer => Object.hasOwn(SERVER_DEVIATIONS, name);
