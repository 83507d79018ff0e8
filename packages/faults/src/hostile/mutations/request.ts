// Mutations of the request line and headers: bad path ids, wrong methods, unknown paths, bad headers.
import { methodsByPath } from "@api-ref/contract";
import { MISSING_ID } from "@api-ref/db/fixtures";
import fc from "fast-check";
import type { Mutation } from "../draft.ts";

// Not "." or "..", nor an encoded "/": whether a framework normalises those before routing is left open.
const BAD_IDS = [
  "not-a-uuid",
  "123",
  "00000000-0000-4000-8000-00000000000",
  "00000000000040008000000000000001",
  `${MISSING_ID}x`,
  "%00",
  "%F0%9F%99%82",
  "%zz",
  "%E0%A4",
  "null",
  "undefined",
  "-1",
  "%20",
];
/** Random path segments: letters, digits and a few safe marks, so that no router has anything to decode. */
const safeSegment = fc.stringMatching(/^[A-Za-z0-9_~-]{1,30}$/);

export const requestMutations: Array<[string, Mutation]> = [
  [
    "bad path id",
    (d) =>
      d.route.params
        ? fc.oneof(fc.constantFrom(...BAD_IDS), safeSegment).map((id) => ({
            ...d,
            pathname: d.route.path.replace(":id", id),
            mutations: [...d.mutations, `params.id: ${id}`],
          }))
        : fc.constant(d),
  ],
  [
    "wrong method",
    (d) => {
      // Only methods the path does not serve: a body on a GET is something the contract says nothing about.
      const served = methodsByPath.get(d.route.path) ?? [];
      // QUERY is the draft RFC's safe method with a body: routers that know it are the ones that mishandle it.
      const unserved = ["PUT", "PATCH", "DELETE", "POST", "GET", "OPTIONS", "QUERY", "PROPFIND"].filter(
        (m) => !served.includes(m),
      );
      return fc
        .constantFrom(...unserved)
        .map((method) => ({ ...d, method, mutations: [...d.mutations, `method ${method}`] }));
    },
  ],
  [
    "unknown path",
    (d) =>
      fc
        .oneof(
          fc.constantFrom(
            `${d.pathname}/`,
            d.pathname.toUpperCase(),
            `/api${d.pathname}`,
            `${d.pathname}/extra`,
            "/nowhere",
          ),
          safeSegment.map((segment) => `/${segment}`),
        )
        .map((pathname) => ({ ...d, pathname, mutations: [...d.mutations, `path ${pathname}`] })),
  ],
  [
    "bad idempotency key",
    (d) =>
      d.route.idempotencyKey
        ? fc.constantFrom("", " ", "k".repeat(256), "with space", "caf\u00e9", "tab\there").map((key) => ({
            ...d,
            headers: { ...d.headers, "idempotency-key": key },
            mutations: [
              ...d.mutations,
              `idempotency-key: ${JSON.stringify(key.length > 20 ? `${key.length} characters` : key)}`,
            ],
          }))
        : fc.constant(d),
  ],
  [
    "random x-request-id",
    (d) =>
      fc
        .oneof(
          fc.stringMatching(/^[A-Za-z0-9._-]{1,128}$/),
          fc.string({ maxLength: 200, unit: "binary-ascii" }).filter((s) => /^[\t\x20-\x7e]*$/.test(s)),
        )
        .map((id) => ({
          ...d,
          headers: { ...d.headers, "x-request-id": id },
          mutations: [...d.mutations, `x-request-id: ${JSON.stringify(id.slice(0, 30))}`],
        })),
  ],
];
