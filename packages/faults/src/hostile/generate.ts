// Requests for every route of the contract's table, valid ones built from its schemas and then, most of the time,
// mutated: wrong types, missing and extra fields, huge strings, NUL, Unicode edge cases, bad JSON, wrong content
// types, prototype keys, oversized and deeply nested bodies, bad query values, bad ids, wrong methods, unknown
// paths, bad headers and tokens, and authorization attacks (a customer's token on an admin's route or another user's
// row, a role or a userId slipped into a body). What each request must get is decided by the oracle, not here.
import { routes } from "@api-ref/contract";
import type { Exchange } from "@api-ref/harness";
import fc from "fast-check";
import type { Draft, GeneratedRequest, Mutation, Pools } from "./draft.ts";
import { authMutation, authorizationMutations } from "./mutations/auth.ts";
import { bodyMutations } from "./mutations/body.ts";
import { queryMutations } from "./mutations/query.ts";
import { requestMutations } from "./mutations/request.ts";
import { overridesFor, validDraft } from "./valid.ts";

export type { GeneratedRequest, Pools } from "./draft.ts";

export function toExchange(d: Draft): Exchange {
  const search = d.rawQuery ?? d.query.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join("&");
  const body = d.body === undefined ? undefined : "raw" in d.body ? d.body.raw : JSON.stringify(d.body.json);
  return {
    method: d.method,
    path: search ? `${d.pathname}?${search}` : d.pathname,
    headers: d.headers,
    ...(body !== undefined ? { body } : {}),
  };
}

/**
 * Requests for every route: about one in four as generated (valid), the rest with one or two mutations that fit
 * the route (body mutations on routes with a body, query mutations on routes with a query, and so on).
 */
export function requestArbitrary(pools: Pools): fc.Arbitrary<GeneratedRequest> {
  const overrides = overridesFor(pools);
  const auth = authMutation(pools);
  // A body mutation works on a JSON body: once a body is raw bytes, later body mutations leave it alone.
  const onJson = ([name, m]: [string, Mutation]): [string, Mutation] => [
    name,
    (d) => (d.body && "raw" in d.body ? fc.constant(d) : m(d)),
  ];
  const perRoute = routes.map((route) => {
    const applicable = [
      ...(route.body ? bodyMutations.map(onJson) : []),
      ...(route.query ? queryMutations : []),
      ...requestMutations.filter(([name]) => name !== "bad path id" || route.params),
      ...(route.access !== "public" ? [auth] : []),
      ...authorizationMutations(pools, route),
    ];
    const mutate = (d: Draft, times: number): fc.Arbitrary<Draft> =>
      times === 0
        ? fc.constant(d)
        : fc
            .constantFrom(...applicable)
            .chain(([, m]) => m(d))
            .chain((next) => mutate(next, times - 1));
    return validDraft(route, pools, overrides).chain((draft) =>
      fc
        .oneof(
          { weight: 1, arbitrary: fc.constant(0) },
          { weight: 2, arbitrary: fc.constant(1) },
          { weight: 1, arbitrary: fc.constant(2) },
        )
        .chain((n) => mutate(draft, n)),
    );
  });
  return fc.oneof(...perRoute).map((d) => ({
    exchange: toExchange(d),
    label: `${d.route.method} ${d.route.path}${d.mutations.length ? `: ${d.mutations.join(", ")}` : " (as generated)"}`,
    mutations: d.mutations,
  }));
}
