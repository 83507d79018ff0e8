// What the contract answers when no route takes a request, and when a path's percent-encoding cannot be
// decoded. Routers answer these in their own ways (Nest knows only "not found", Express throws a URIError);
// every app maps them here, from the route table, so that all answer alike.
import { type ProblemError, problem } from "./problems.ts";
import { allowHeader, methodsByPath } from "./routes.ts";

/** Each path template of the contract as an exact, case-sensitive matcher on the raw path (`/users/:id`). */
const templates = [...methodsByPath.keys()].map((template) => ({
  template,
  param: /:(\w+)/.exec(template)?.[1],
  pattern: new RegExp(`^${template.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/:\w+/g, "[^/]+")}$`),
}));

/** `scheme://authority` of an absolute-form request target (`GET http://host/users HTTP/1.1`). */
const ABSOLUTE_FORM = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i;

/** The path of a request target exactly as sent (no decoding, no dot-segment removal), origin or absolute form. */
export const rawPathOf = (url: string | undefined) => (url ?? "/").replace(ABSOLUTE_FORM, "").split("?", 1)[0] || "/";
const pathOf = rawPathOf;

/**
 * True when the path as sent is one of the contract's paths (README "Edges of HTTP"): a route's literal segments
 * match only as spelled, so `/%75sers`, `/users/%2e%2e/users`, `/./health` and `*` are no route's, whatever a
 * router makes of them after decoding. Routers that decode or normalise before matching (find-my-way, Hapi's)
 * ask this first and answer 404 when it is false.
 */
export const isContractPath = (url: string | undefined) => {
  const path = rawPathOf(url);
  return templates.some(({ pattern }) => pattern.test(path));
};

/** The contract's 405 for a method a path template does not serve, with that path's `allow`. */
export const methodNotAllowedProblem = (method: string | undefined, template: string): ProblemError =>
  problem("methodNotAllowed", `${method} is not supported on ${template}.`, {
    headers: { allow: allowHeader(template) },
  });

export interface Unmatched {
  problem: ProblemError;
  /** The template of a path the contract serves with other methods (the `route` label of its metrics). */
  template?: string;
}

/** No route took the request: a 405 with `allow` on a path the contract serves, a 404 on any other. */
export function unmatched(method: string | undefined, url: string | undefined): Unmatched {
  const path = pathOf(url);
  const known = templates.find(({ pattern }) => pattern.test(path));
  if (!known) return { problem: problem("notFound", `Nothing lives at ${path}.`) };
  return { template: known.template, problem: methodNotAllowedProblem(method, known.template) };
}

/**
 * A path whose percent-encoding cannot be decoded (`/users/%zz`): the method is checked first (405), then a
 * path parameter that cannot be decoded is a 400 on it, as any other invalid id; any other path is a 404.
 */
export function undecodable(method: string | undefined, url: string | undefined): Unmatched {
  const path = pathOf(url);
  const known = templates.find(({ pattern }) => pattern.test(path));
  if (!known?.param || !(methodsByPath.get(known.template) ?? []).includes(method ?? "")) {
    return unmatched(method, url);
  }
  return {
    template: known.template,
    problem: problem("validation", "The request params is not valid.", {
      errors: [{ path: `params.${known.param}`, message: "is not valid percent-encoding" }],
    }),
  };
}
