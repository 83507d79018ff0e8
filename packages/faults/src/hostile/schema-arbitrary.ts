// fast-check arbitraries from the contract's JSON Schemas (the ones its OpenAPI document is built from): valid
// values for every property a route takes, so that generation follows the contract instead of a copy of it.
// Fields whose valid values depend on the data (ids that exist, e-mails) come from `overrides`.
import fc from "fast-check";

export type JsonSchema = {
  type?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  propertyNames?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  allOf?: JsonSchema[];
  pattern?: string;
  format?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  default?: unknown;
};

export type Overrides = Record<string, fc.Arbitrary<unknown>>;

/** The NUL-refusal pattern every text field carries: it constrains, it does not describe the value. */
const NO_NUL_PATTERN = "^[^\\u0000]*$";

/** Text for free-form fields: mostly printable ASCII, some of all of Unicode (well-formed). */
const textUnit = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(..."abcdefghijklmnopqrstuvwxyz ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.,'!") },
  { weight: 1, arbitrary: fc.string({ unit: "grapheme", minLength: 1, maxLength: 1 }) },
);

function stringArbitrary(schema: JsonSchema): fc.Arbitrary<string> {
  const patterns = [schema.pattern, ...(schema.allOf ?? []).map((s) => s.pattern)].filter(
    (p): p is string => typeof p === "string",
  );
  const regexes = patterns.map((p) => new RegExp(p, "u"));
  const minLength = schema.minLength ?? 0;
  const maxLength = schema.maxLength ?? 200;
  const fits = (s: string) => s.length >= minLength && s.length <= maxLength && regexes.every((r) => r.test(s));
  if (schema.format === "uuid") return fc.uuid();
  const describing = patterns.find((p) => p !== NO_NUL_PATTERN);
  const base = describing
    ? fc.stringMatching(new RegExp(describing))
    : fc.string({ unit: textUnit, minLength, maxLength: Math.min(maxLength, minLength + 60) });
  return base.filter(fits);
}

/** A valid value for `schema`; `path` names the field (`body.email`) for `overrides`. */
export function arbitraryOf(schema: JsonSchema, path: string, overrides: Overrides): fc.Arbitrary<unknown> {
  const override = overrides[path];
  if (override) return override;
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  if (schema.anyOf) return fc.oneof(...schema.anyOf.map((s) => arbitraryOf(s, path, overrides)));
  switch (schema.type) {
    case "object":
      return objectArbitrary(schema, path, overrides);
    case "string":
      return stringArbitrary(schema);
    case "integer":
      return fc.integer({ min: schema.minimum ?? -(2 ** 31), max: schema.maximum ?? 2 ** 31 - 1 });
    case "number":
      return fc.double({ min: schema.minimum ?? -1e9, max: schema.maximum ?? 1e9, noNaN: true });
    case "boolean":
      return fc.boolean();
    case "null":
      return fc.constant(null);
    default:
      return fc.jsonValue({ maxDepth: 3 });
  }
}

function objectArbitrary(schema: JsonSchema, path: string, overrides: Overrides): fc.Arbitrary<unknown> {
  const properties = schema.properties ?? {};
  const names = Object.keys(properties);
  if (names.length === 0) {
    // A free-form object (POST /echo): any JSON object.
    return fc.dictionary(fc.string({ unit: textUnit, maxLength: 12 }), fc.jsonValue({ maxDepth: 3 }), {
      maxKeys: 8,
    });
  }
  const model = Object.fromEntries(
    names.map((name) => [name, arbitraryOf(properties[name] as JsonSchema, `${path}.${name}`, overrides)]),
  );
  return fc.record(model, { requiredKeys: schema.required ?? [] });
}
