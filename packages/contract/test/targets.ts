// What every contract test file imports: the targets to run against, and small helpers over real HTTP.
import pg from "pg";
import supertest from "supertest";
import { inject } from "vitest";

export const contract = inject("contract");
export const targets = contract.targets;

/** A supertest agent bound to one target's base URL. */
export const http = (target: { url: string }) => supertest(target.url);

/** Runs one query on a target's own database (tests use it to check what the API did). */
export async function sql<T extends pg.QueryResultRow = pg.QueryResultRow>(
  databaseUrl: string,
  text: string,
  params: unknown[] = [],
) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return (await client.query<T>(text, params)).rows;
  } finally {
    await client.end();
  }
}
