// A request before it is put on the wire, the parts mutations work on, and the helpers every family of mutation
// shares.
import type { Role, RouteSpec } from "@api-ref/contract";
import type { Exchange } from "@api-ref/harness";
import type fc from "fast-check";
/** A signed-in caller: who they are, and the token they send. */
export interface Caller {
  id: string;
  role: Role;
  token: string;
}

/** Rows of the fault's database that valid requests refer to, and the callers that send them. */
export interface Pools {
  /** Users other than the callers (so no generated request can delete or demote a caller). */
  userIds: string[];
  productIds: string[];
  /** Orders of other users than the callers: a customer reaches none of them. */
  orderIds: string[];
  emails: string[];
  /** A customer registered before the run (its id and e-mail in no pool): owns no order a request can name. */
  customer: Caller;
  /** The seed's admin (fixtureUsers.admin), with a token signed with the run's secret. */
  admin: Caller;
  /** The JWT secret (to mint expired, unsigned and foreign tokens). */
  jwtSecret: string;
}

export const bearer = (caller: Caller) => `Bearer ${caller.token}`;

/** A request before it is put on the wire: the parts mutations work on. */
export interface Draft {
  route: RouteSpec;
  method: string;
  /** The path with `:id` filled in, already encoded. */
  pathname: string;
  query: Array<[string, string]>;
  /** A query string sent exactly as is, instead of `query` (for malformed encodings). */
  rawQuery?: string;
  headers: Record<string, string>;
  /** A JSON value, or raw bytes sent as they are. */
  body?: { json: unknown } | { raw: string | Buffer };
  /** What was done to it (empty for a request generated as valid). */
  mutations: string[];
}

export interface GeneratedRequest {
  exchange: Exchange;
  label: string;
  mutations: string[];
}

export const JSON_TYPE = "application/json";

export type Mutation = (draft: Draft) => fc.Arbitrary<Draft>;

export const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === "object" && !Array.isArray(v);
export const jsonBody = (d: Draft) => (d.body && "json" in d.body && isObject(d.body.json) ? d.body.json : undefined);
export const withBody = (d: Draft, body: Draft["body"], mutation: string, headers?: Record<string, string>): Draft => ({
  ...d,
  body,
  headers: { ...d.headers, ...headers },
  mutations: [...d.mutations, mutation],
});
export const stringFields = (o: Record<string, unknown>) => Object.keys(o).filter((k) => typeof o[k] === "string");
export const numberFields = (o: Record<string, unknown>) => Object.keys(o).filter((k) => typeof o[k] === "number");
export const serialize = (value: unknown, raw: Record<string, string> = {}) => {
  let text = JSON.stringify(value);
  for (const [marker, replacement] of Object.entries(raw)) text = text.replace(`"${marker}"`, replacement);
  return text;
};
