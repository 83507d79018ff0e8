import { defineConfig } from "prisma/config";

// DATABASE_URL is needed only by commands that talk to a database (migrate, introspection);
// `prisma generate` works without it.
export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
  datasource: { url: process.env.DATABASE_URL ?? "" },
});
