// The role the APIs connect as in a deployment: rows only. It reads and writes the tables the API serves and can
// change no schema (no DDL, no migrations table), so a flaw in an app cannot drop or alter a table. Migrations run
// as the database's owner (pnpm db:setup, the db-setup image).
import pg from "pg";

export const APP_ROLE = "api_app";

/** The tables an API reads and writes; `_prisma_migrations` is the owner's alone. */
const APP_TABLES = ["users", "products", "orders", "idempotency_keys"] as const;

/**
 * Creates (or updates the password of) `api_app` and grants it SELECT, INSERT, UPDATE and DELETE on the API's tables
 * of `databaseUrl`'s database, nothing more. Safe to run before every start; run it after the migrations.
 */
export async function ensureAppRole(databaseUrl: string, password: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const literal = client.escapeLiteral(password);
    const exists = await client.query("SELECT 1 FROM pg_roles WHERE rolname = $1", [APP_ROLE]);
    const verb = exists.rowCount ? "ALTER" : "CREATE";
    await client.query(`${verb} ROLE ${APP_ROLE} LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE PASSWORD ${literal}`);
    const { rows } = await client.query<{ db: string }>("SELECT current_database() AS db");
    await client.query(`GRANT CONNECT ON DATABASE ${client.escapeIdentifier(rows[0]?.db ?? "")} TO ${APP_ROLE}`);
    await client.query(`GRANT USAGE ON SCHEMA public TO ${APP_ROLE}`);
    await client.query(`GRANT SELECT, INSERT, UPDATE, DELETE ON ${APP_TABLES.join(", ")} TO ${APP_ROLE}`);
  } finally {
    await client.end();
  }
}
