// What each schema mode gives Fastify: its validator and serializer compilers for the routes' Zod schemas.
import type { FastifySchemaCompiler, FastifySerializerCompiler } from "fastify";
import type { z } from "zod";

export interface SchemaCompilers {
  validatorCompiler: FastifySchemaCompiler<z.ZodType>;
  serializerCompiler: FastifySerializerCompiler<z.ZodType>;
}
