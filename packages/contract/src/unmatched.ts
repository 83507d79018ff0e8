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

const pathOf = (url: string | undefined) => (url ?? "/").split("?", 1)[0] || "/";

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
  return {
    template: known.template,
    problem: problem("methodNotAllowed", `${method} is not supported on ${known.template}.`, {
      headers: { allow: allowHeader(known.template) },
    }),
  };
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
