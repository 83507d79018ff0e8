// Mutations of a JSON body: wrong types, missing and extra fields, huge strings, NUL, Unicode edge cases, bad
// JSON, wrong content types, prototype keys, oversized and deeply nested bodies.
import fc from "fast-check";
import { type Draft, jsonBody, type Mutation, numberFields, serialize, stringFields, withBody } from "../draft.ts";
/** Strings that have broken parsers, databases and length checks before. */
export const UNICODE_EDGES = [
  "\u202Egnp.exe", // right-to-left override
  "\u200B", // zero-width space
  "\uFEFF", // byte-order mark as a character
  "e\u0301", // combining acute accent
  "🙂",
  "👩‍👩‍👧‍👦", // a family: one grapheme, seven code points
  "𝔘𝔫𝔦𝔠𝔬𝔡𝔢", // astral letters
  "\u2028\u2029", // line and paragraph separators
  "Ａ１", // fullwidth
  "İ", // lower-cases to two code points
  "\uD800", // a lone high surrogate
  "\uDFFF", // a lone low surrogate
  "\u00A0 ", // no-break space around nothing
  "\u0085", // next line (C1)
  "'; DROP TABLE users; --",
  "%00",
  "\\u0000",
  "<script>alert(1)</script>",
  "../../etc/passwd",
];

const WRONG_TYPES: unknown[] = [null, true, 0, -1, 1.5, "", "5", [], [1], {}, { a: 1 }];
const SERVER_FIELDS = ["id", "createdAt", "updatedAt", "totalCents", "unitPriceCents", "passwordHash", "status"];

/**
 * A mutation of one field of a JSON object body, among those `fieldsOf` picks: `mutate` gets the draft, its body and an
 * arbitrary of those field names. The draft stays as it is when the body has no such field.
 */
const onField =
  (
    fieldsOf: (o: Record<string, unknown>) => string[],
    mutate: (d: Draft, o: Record<string, unknown>, field: fc.Arbitrary<string>) => fc.Arbitrary<Draft>,
  ): Mutation =>
  (d) => {
    const o = jsonBody(d);
    const keys = o ? fieldsOf(o) : [];
    return o === undefined || keys.length === 0 ? fc.constant(d) : mutate(d, o, fc.constantFrom(...keys));
  };

export const bodyMutations: Array<[string, Mutation]> = [
  [
    "drop a field",
    onField(Object.keys, (d, o, field) =>
      field.map((k) => {
        const { [k]: _, ...rest } = o;
        return withBody(d, { json: rest }, `body.${k}: dropped`);
      }),
    ),
  ],
  [
    "extra field",
    (d) =>
      fc
        .tuple(
          fc.oneof(fc.constantFrom(...SERVER_FIELDS), fc.string({ minLength: 1, maxLength: 10 })),
          fc.jsonValue({ maxDepth: 2 }),
        )
        .map(([k, v]) => withBody(d, { json: { ...(jsonBody(d) ?? {}), [k]: v } }, `body.${k}: added`)),
  ],
  [
    "wrong type",
    onField(Object.keys, (d, o, field) =>
      fc
        .tuple(field, fc.constantFrom(...WRONG_TYPES))
        .map(([k, v]) => withBody(d, { json: { ...o, [k]: v } }, `body.${k}: ${JSON.stringify(v)}`)),
    ),
  ],
  [
    "huge string",
    onField(stringFields, (d, o, field) =>
      fc
        .tuple(field, fc.integer({ min: 101, max: 400_000 }), fc.constantFrom("x", "é", "🙂"))
        .map(([k, n, c]) => withBody(d, { json: { ...o, [k]: c.repeat(n) } }, `body.${k}: ${n} × ${c}`)),
    ),
  ],
  [
    "NUL",
    onField(stringFields, (d, o, field) =>
      field.map((k) => withBody(d, { json: { ...o, [k]: `${String(o[k]).slice(0, 5)}\u0000x` } }, `body.${k}: NUL`)),
    ),
  ],
  [
    "unicode edge",
    onField(stringFields, (d, o, field) =>
      fc
        .tuple(field, fc.constantFrom(...UNICODE_EDGES), fc.constantFrom("replace", "append", "repeat"))
        .map(([k, edge, how]) => {
          const old = String(o[k]);
          const value = how === "replace" ? edge : how === "append" ? `${old}${edge}` : edge.repeat(60);
          return withBody(d, { json: { ...o, [k]: value } }, `body.${k}: ${how} ${JSON.stringify(edge)}`);
        }),
    ),
  ],
  [
    "number edge",
    onField(numberFields, (d, o, field) =>
      fc
        .tuple(
          field,
          fc.constantFrom("1.0", "1e0", "1e2", "-0", "1e400", "-1", "1.5", "2147483648", "9007199254740993", "0x10"),
        )
        .map(([k, raw]) =>
          withBody(d, { raw: serialize({ ...o, [k]: "__RAW__" }, { __RAW__: raw }) }, `body.${k}: ${raw}`),
        ),
    ),
  ],
  [
    "bad JSON",
    (d) =>
      fc
        .tuple(
          fc.constantFrom(
            "truncate",
            "trailing comma",
            "single quotes",
            "comment",
            "NaN",
            "unquoted key",
            "garbage after",
          ),
          fc.nat(),
        )
        .map(([how, n]) => {
          const text = serialize(jsonBody(d) ?? {});
          const broken =
            how === "truncate"
              ? text.slice(0, Math.max(1, n % text.length))
              : how === "trailing comma"
                ? text.replace(/}$/, ",}")
                : how === "single quotes"
                  ? text.replace(/"/g, "'")
                  : how === "comment"
                    ? `/* x */${text}`
                    : how === "NaN"
                      ? text.replace(/}$/, `${text.length > 2 ? "," : ""}"n":NaN}`)
                      : how === "unquoted key"
                        ? text.replace(/^\{"([^"]+)"/, "{$1")
                        : `${text}x`;
          return withBody(d, { raw: broken }, `body: ${how}`);
        }),
  ],
  [
    "not an object",
    (d) =>
      fc
        .constantFrom("[]", '[{"a":1}]', '"text"', "null", "42", "true", "")
        .map((text) => withBody(d, { raw: text }, `body: ${text === "" ? "empty" : text}`)),
  ],
  [
    "content type",
    (d) =>
      fc
        .constantFrom(
          "text/plain",
          "application/x-www-form-urlencoded",
          "application/xml",
          "multipart/form-data; boundary=x",
          "application/json; charset=latin1",
          "application/json; charset=utf-16",
          "text/json",
          "application/jsonx",
          "application/merge-patch+json",
          "application/json; charset=utf-8",
        )
        .map((type) =>
          withBody(d, { raw: serialize(jsonBody(d) ?? {}) }, `content-type: ${type}`, { "content-type": type }),
        ),
  ],
  [
    "content encoding",
    (d) =>
      fc.constantFrom("gzip", "br", "deflate", "identity", "x-unknown").map((encoding) =>
        withBody(d, { raw: serialize(jsonBody(d) ?? {}) }, `content-encoding: ${encoding}`, {
          "content-encoding": encoding,
        }),
      ),
  ],
  [
    "prototype keys",
    (d) =>
      fc
        .constantFrom(
          '"__proto__":{"isAdmin":true}',
          '"constructor":{"prototype":{"polluted":1}}',
          '"x":{"y":[{"__proto__":{"z":1}}]}',
        )
        .map((member) => {
          const text = serialize(jsonBody(d) ?? {});
          return withBody(
            d,
            { raw: text === "{}" ? `{${member}}` : text.replace(/^\{/, `{${member},`) },
            `body: ${member}`,
          );
        }),
  ],
  [
    "oversized",
    (d) =>
      fc.integer({ min: 1, max: 5000 }).map((extra) => {
        const text = serialize({ ...(jsonBody(d) ?? {}), filler: "" });
        const pad = 1024 * 1024 - text.length + extra;
        return withBody(
          d,
          { raw: text.replace('"filler":""', `"filler":"${"x".repeat(pad)}"`) },
          `body: 1 MiB + ${extra} bytes`,
        );
      }),
  ],
  [
    "deep nesting",
    (d) =>
      fc
        .integer({ min: 100, max: 200_000 })
        .map((depth) =>
          withBody(d, { raw: `{"deep":${"[".repeat(depth)}${"]".repeat(depth)}}` }, `body: nested ${depth} deep`),
        ),
  ],
  ["byte-order mark", (d) => fc.constant(withBody(d, { raw: `\uFEFF${serialize(jsonBody(d) ?? {})}` }, "body: BOM"))],
  [
    "invalid UTF-8",
    onField(stringFields, (d, o, field) =>
      field.map((k) => {
        const text = serialize({ ...o, [k]: "__BYTES__" });
        const [before = "", after = ""] = text.split('"__BYTES__"');
        const raw = Buffer.concat([
          Buffer.from(`${before}"a`),
          Buffer.from([0xff, 0xfe, 0xc3]),
          Buffer.from(`b"${after}`),
        ]);
        return withBody(d, { raw }, `body.${k}: invalid UTF-8`);
      }),
    ),
  ],
];
