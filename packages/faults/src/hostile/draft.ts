// A request before it is put on the wire, the parts mutations work on, and the helpers every family of mutation
// shares.
import type { RouteSpec } from "@api-ref/contract";
import type { Exchange } from "@api-ref/harness";
import type fc from "fast-check";
/** Rows of the fault's database that valid requests refer to. */
export interface Pools {
  userIds: string[];
  productIds: string[];
  orderIds: string[];
  emails: string[];
  /** A bearer token of a user that exists (registered before the run). */
  token: string;
  /** Its user id, and the JWT secret (to mint expired and foreign tokens). */
  tokenUserId: string;
  jwtSecret: string;
}

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
