// JSON-Schema mode: the classic Fastify pipeline. Every schema is the JSON Schema Zod generates from the contract
// (no hand-written copy): Ajv validates requests, fast-json-stringify serializes responses.
//
// JSON Schema cannot carry everything the contract says. Transforms (trim, lower-case, "2" → 2, "user,product" →
// ["user", "product"]), defaults and refinements (min ≤ max, a non-empty PATCH, no repeated include) are
// dropped when Zod writes JSON Schema. Rather than re-implement them by hand, a request part whose schema has any
// of them is validated by the contract's Zod schema itself; every other part goes to Ajv. Which is which is
// decided once, at start-up, from the Zod schema (see `isExactInJsonSchema`).
import { jsonSchema } from "@api-ref/contract";
import { validatorCompiler as zodValidatorCompiler } from "@fastify/type-provider-zod";
import { Ajv2020 } from "ajv/dist/2020.js";
import fastJson, { type AnySchema } from "fast-json-stringify";
import type { FastifySchemaCompiler, FastifySerializerCompiler } from "fastify";
import { z } from "zod";
import type { SchemaCompilers } from "./compilers.ts";

/** Zod schema types whose meaning JSON Schema drops: they change the value or add rules it cannot state. */
const LOSSY_TYPES = new Set(["pipe", "transform", "default", "prefault", "catch", "custom", "promise", "lazy"]);

interface CheckDef {
  type?: string;
  check?: string;
  pattern?: RegExp;
}

/**
 * True when the JSON Schema Zod writes for `schema` accepts exactly what the Zod schema accepts and leaves the
 * value as Zod would: no transforms, defaults or refinements anywhere, and every format backed by a flag-less
 * regular expression (JSON Schema's `pattern` has no flags). Zod's own generator walks the schema for us.
 */
export function isExactInJsonSchema(schema: z.ZodType): boolean {
  let exact = true;
  z.toJSONSchema(schema, {
    io: "input",
    unrepresentable: "any",
    override({ zodSchema }) {
      const def = zodSchema._zod.def as CheckDef & { checks?: Array<{ _zod: { def: CheckDef } }> };
      if (LOSSY_TYPES.has(def.type ?? "")) exact = false;
      for (const check of [def, ...(def.checks ?? []).map((c) => c._zod.def)]) {
        if (check.check === "overwrite" || check.check === "custom") exact = false;
        if (check.check === "string_format" && check.pattern?.flags !== "") exact = false;
      }
    },
  });
  return exact;
}

function createAjv() {
  return new Ajv2020({
    // The contract's `errors` lists every failing field.
    allErrors: true,
    // "5" is not a number in a body, an unknown field is a 400, and nothing is filled in behind the client's back.
    coerceTypes: false,
    removeAdditional: false,
    useDefaults: false,
    // Zod writes every format as a `pattern` too, and the patterns are the contract's exact rules; Ajv's own
    // format checkers (ajv-formats) differ from Zod's (its e-mail, for one), so `format` stays an annotation.
    validateFormats: false,
    // Patterns compiled as Zod compiles its own regular expressions: without the `u` flag. (Lengths need nothing:
    // Ajv and Zod both count code points.)
    unicodeRegExp: false,
  });
}

/**
 * Validates with Ajv where the JSON Schema says everything, with the contract's Zod schema elsewhere. Fastify
 * calls an Ajv function itself (it recognises one and passes the parent object so that nothing is copied) and
 * turns its `errors` into a validation error, as it does with its built-in compiler.
 */
function validatorCompiler(): FastifySchemaCompiler<z.ZodType> {
  const ajv = createAjv();
  return (route) =>
    isExactInJsonSchema(route.schema) ? ajv.compile(jsonSchema(route.schema, "input")) : zodValidatorCompiler(route);
}

/**
 * fast-json-stringify compiles the response's JSON Schema into a serializer that writes only the declared
 * properties (`additionalProperties: false` from `z.strictObject` drops anything else; `/echo`'s open object
 * keeps its extra keys). Lists hold at most 100 items, far below fast-json-stringify's `largeArraySize`
 * (20,000), so every item goes through the compiled code; its `largeArrayMechanism` would only matter above that.
 */
const serializerCompiler: FastifySerializerCompiler<z.ZodType> = ({ schema }) =>
  fastJson(jsonSchema(schema, "output") as AnySchema);

export const jsonSchemaCompilers = (): SchemaCompilers => ({
  validatorCompiler: validatorCompiler(),
  serializerCompiler,
});
