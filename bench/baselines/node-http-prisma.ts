// Baseline that splits a database figure on Node in two: raw node:http serving the database scenarios through
// packages/data-access exactly as the apps call it, no framework (the routes: prisma-routes.ts). Started like an app:
//   implementation ÷ node-http-prisma = what the framework costs,
//   node-http-prisma ÷ node-http-pg   = what the data access (Prisma and its driver adapter) costs.
import { serve } from "./common.ts";
import { prismaBaseline } from "./prisma-routes.ts";

const { baseline, close } = prismaBaseline("node-http-prisma");
serve(baseline, close);
