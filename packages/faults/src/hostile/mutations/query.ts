// Mutations of a query string: bad values, unknown and repeated parameters, malformed percent-encoding.
import fc from "fast-check";
import type { Mutation } from "../draft.ts";
import { UNICODE_EDGES } from "./body.ts";

const BAD_QUERY_VALUES = [
  "",
  "abc",
  "0",
  "-1",
  "1.5",
  "1e1",
  "0x2",
  " 1",
  "+2",
  "1000001",
  "101",
  "99999999999",
  "true",
  "\u0000",
  "🙂",
];

export const queryMutations: Array<[string, Mutation]> = [
  [
    "bad query value",
    (d) =>
      fc
        .tuple(
          fc.constantFrom("page", "limit", "q", "sort", "inStock", "status", "include", "userId", "minPriceCents"),
          fc.constantFrom(...BAD_QUERY_VALUES),
        )
        .map(([k, v]) => ({
          ...d,
          query: [...d.query.filter(([qk]) => qk !== k), [k, v]],
          mutations: [...d.mutations, `query.${k}=${JSON.stringify(v)}`],
        })),
  ],
  [
    "repeated query parameter",
    (d) =>
      fc.constantFrom("page", "limit", "q", "include", "status").map((k) => ({
        ...d,
        query: [...d.query, [k, "1"], [k, "2"]],
        mutations: [...d.mutations, `query.${k} twice`],
      })),
  ],
  [
    "unknown query parameter",
    (d) =>
      fc.constantFrom("foo", "__proto__", "constructor", "sort[$ne]", "a.b", "PAGE").map((k) => ({
        ...d,
        query: [...d.query, [k, "1"]],
        mutations: [...d.mutations, `query.${k} (unknown)`],
      })),
  ],
  [
    "long or unicode search",
    (d) =>
      fc
        .oneof(
          fc.integer({ min: 90, max: 5000 }).map((n) => "q".repeat(n)),
          fc.constantFrom(...UNICODE_EDGES.filter((e) => !/[\uD800-\uDFFF]/.test(e) || e.length > 1)),
        )
        .map((q) => ({
          ...d,
          query: [...d.query.filter(([k]) => k !== "q"), ["q", q]],
          mutations: [...d.mutations, `query.q: ${q.length > 20 ? `${q.length} characters` : JSON.stringify(q)}`],
        })),
  ],
  [
    "malformed percent-encoding",
    (d) =>
      fc.constantFrom("page=%zz", "q=%E0%A4", "q=%", "limit=%2", "q=a%00b").map((raw) => ({
        ...d,
        rawQuery: raw,
        mutations: [...d.mutations, `query: ${raw}`],
      })),
  ],
];
