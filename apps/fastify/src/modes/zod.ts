// Zod mode: the contract's Zod schemas themselves validate every request part and serialize every response,
// through Fastify's Zod type provider (decode to validate, encode then JSON.stringify to serialize).
import { serializerCompiler, validatorCompiler } from "@fastify/type-provider-zod";
import type { SchemaCompilers } from "./compilers.ts";

export const zodCompilers: SchemaCompilers = { validatorCompiler, serializerCompiler };
