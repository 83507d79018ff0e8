// The problem catalogue: status, type and title of every kind of problem the contract answers with. A module of
// its own, with no imports, so that code that must not load Zod (the no-framework baselines) can take it as
// `@api-ref/contract/problem-kinds`; `problems.ts` builds the problem bodies and schemas on it.
export const PROBLEMS = {
  validation: { status: 400, type: "/problems/validation-error", title: "Validation failed" },
  malformedJson: { status: 400, type: "/problems/malformed-json", title: "Malformed JSON" },
  unauthorized: { status: 401, type: "/problems/unauthorized", title: "Unauthorized" },
  forbidden: { status: 403, type: "/problems/forbidden", title: "Forbidden" },
  notFound: { status: 404, type: "/problems/not-found", title: "Not found" },
  methodNotAllowed: { status: 405, type: "/problems/method-not-allowed", title: "Method not allowed" },
  conflict: { status: 409, type: "/problems/conflict", title: "Conflict" },
  payloadTooLarge: { status: 413, type: "/problems/payload-too-large", title: "Payload too large" },
  unsupportedMediaType: { status: 415, type: "/problems/unsupported-media-type", title: "Unsupported media type" },
  unprocessable: { status: 422, type: "/problems/unprocessable", title: "Unprocessable request" },
  tooManyRequests: { status: 429, type: "/problems/too-many-requests", title: "Too many requests" },
  internal: { status: 500, type: "/problems/internal", title: "Internal server error" },
  unavailable: { status: 503, type: "/problems/unavailable", title: "Service unavailable" },
} as const;

export type ProblemKind = keyof typeof PROBLEMS;
