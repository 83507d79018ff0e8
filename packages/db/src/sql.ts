// One query on a database, with a connection of its own: how the contract suite checks what the API did, how the
// fault suite prepares and drops its databases, and how this package's tests look at what a migration made.
import pg from "pg";

/** Runs one statement (or several) on `databaseUrl` and returns the rows. */
export async function sql<T extends pg.QueryResultRow = pg.QueryResultRow>(
  databaseUrl: string,
  text: string,
  params: unknown[] = [],
): Promise<T[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return (await client.query<T>(text, params)).rows;
  } finally {
    await client.end();
  }
}
