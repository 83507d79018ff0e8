// A typed client for the API, generated from the OpenAPI document every implementation serves: the types in
// generated/openapi.ts come from openapi-typescript (see the README for the two commands that regenerate them),
// the requests from openapi-fetch. Nothing here is written by hand but this wiring.
import createClient, { type Middleware } from "openapi-fetch";
import type { components, paths } from "./generated/openapi.ts";

export type { components, operations, paths } from "./generated/openapi.ts";
export type Problem = components["schemas"]["Problem"];

export interface ApiClientOptions {
  /** Where the implementation listens, e.g. `http://localhost:3000`. */
  baseUrl: string;
  /**
   * A bearer token (from `POST /auth/login` or `/auth/register`) for the routes that need a caller: every route but
   * the public ones (docs/api.md, "Authorization"). Without one those answer a 401 problem.
   */
  token?: string;
}

export function createApiClient({ baseUrl, token }: ApiClientOptions) {
  const client = createClient<paths>({
    baseUrl,
    // The document declares `include` as `style: form, explode: false`: `include=user,product`, not the repeated
    // `include=user&include=product` (a parameter given twice is a 400).
    querySerializer: { array: { style: "form", explode: false } },
  });
  if (token) client.use(bearer(token));
  return client;
}

/** Sends `authorization: Bearer <token>` with every request. */
export function bearer(token: string): Middleware {
  return {
    onRequest({ request }) {
      request.headers.set("authorization", `Bearer ${token}`);
      return request;
    },
  };
}

export type ApiClient = ReturnType<typeof createApiClient>;
