// Provisions one PostgreSQL server (DATABASE_URL → Testcontainers → embedded) and a seeded template for the
// whole run; each test file makes its own databases on it and the server is stopped afterwards.
import type { TestProject } from "vitest/node";
import { prepareTemplate, provisionPostgres } from "../src/provision.ts";

declare module "vitest" {
  export interface ProvidedContext {
    pgAdminUrl: string;
    pgProvider: string;
    pgTemplate: string;
  }
}

export default async function setup(project: TestProject) {
  const server = await provisionPostgres();
  try {
    const template = await prepareTemplate(server, { name: "db_test_template" });
    project.provide("pgAdminUrl", server.adminUrl);
    project.provide("pgProvider", server.provider);
    project.provide("pgTemplate", template.name);
  } catch (error) {
    await server.stop();
    throw error;
  }
  return () => server.stop();
}
