// Baseline that splits a database figure on Bun in two: raw Bun.serve serving the database scenarios through
// packages/data-access exactly as the apps call it, no framework (the same routes as node-http-prisma:
// prisma-routes.ts).
//   implementation on Bun ÷ bun-http-prisma = what the framework costs on Bun,
//   bun-http-prisma ÷ bun-http-pg           = what the data access (Prisma and its driver adapter) costs on Bun.
// Run with `bun baselines/bun-http-prisma.ts`.
import { serve } from "./fetch-common.ts";
import { prismaBaseline } from "./prisma-routes.ts";

const { baseline, close } = prismaBaseline("bun-http-prisma");
serve(baseline, close);
