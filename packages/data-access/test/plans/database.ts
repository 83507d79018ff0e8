// The database the plans tests read, the same for Node (test/plans.test.ts) and Python (packages/python's
// scripts/plans-database.ts starts it for tests/test_plans.py): migrated, seeded at the catalogue's scale, with the
// catalogue's runs of tied rows beside the seed, and explaining every statement it runs.
import { randomBytes } from "node:crypto";
import { applyMigrations, seedDatabase } from "@api-ref/db";
import { type PostgresServer, type ProvisionOptions, provisionPostgres } from "@api-ref/db/provision";
import { sql } from "@api-ref/db/sql";
import { SCALE, TIE_RUNS } from "./catalogue.ts";
import { explainEveryStatement } from "./tap.ts";

export interface ExplainedDatabase {
  server: PostgresServer;
  url: string;
  /** How long the seed took, in ms: what the scale costs each run. */
  seedMs: number;
}

/** PostgreSQL by the project's rule (packages/db's provisionPostgres), with one such database named `prefix_…`. */
export async function startExplainedDatabase(prefix: string, options?: ProvisionOptions): Promise<ExplainedDatabase> {
  const server = await provisionPostgres(options);
  try {
    const url = await server.createDatabase(`${prefix}_${randomBytes(3).toString("hex")}`);
    await applyMigrations(url);
    const started = performance.now();
    await seedDatabase(url, { scale: SCALE });
    const seedMs = Math.round(performance.now() - started);
    for (const statement of TIE_RUNS) await sql(url, statement);
    await explainEveryStatement(url);
    return { server, url, seedMs };
  } catch (error) {
    await server.stop();
    throw error;
  }
}
