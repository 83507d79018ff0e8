// Counts the SQL statements an implementation runs on its database, with pg_stat_statements: the sum of
// `calls` over the database's entries, read before and after a request. Statements of the counting connection
// itself all mention pg_stat_statements and are left out, so nothing but the implementation is counted — as
// long as nothing else uses that database meanwhile (the suite runs its files one after another).
//
// Only statements that do work are counted (SELECT, INSERT, UPDATE, DELETE, MERGE, WITH …, VALUES, TABLE), not
// utility statements such as BEGIN and COMMIT, because pg_stat_statements cannot count those reliably: it
// resets the queryId of the plan it is handed to zero, and a utility statement sent as a named prepared
// statement (what the shared Prisma client does, to reuse plans) keeps that one cached plan, so every execution
// after the first on a connection goes unrecorded.
import pg from "pg";

/** A statement that does work, possibly behind leading comments or parentheses. */
const WORK_STATEMENT = String.raw`^\s*(/\*([^*]|\*+[^*/])*\*+/\s*|--[^\n]*\n\s*)*\(*\s*(select|insert|update|delete|merge|with|values|table)\M`;

/**
 * The calls of each of the database's entries, without their texts: with them, pg_stat_statements reads its whole
 * file of query texts on every call, and a check reads the total twice per request on sixteen databases at once.
 */
const CALLS = `
  SELECT queryid::text AS queryid, calls::text AS calls
  FROM pg_stat_statements(false)
  WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())`;

/** Whether each of the database's statements counts, by its text: read again only when a new statement appears. */
const COUNTED = `
  SELECT queryid::text AS queryid, bool_or(query ~* $1 AND query NOT ILIKE '%pg_stat_statements%') AS counted
  FROM pg_stat_statements(true)
  WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())
  GROUP BY queryid`;

export class StatementCounter {
  private readonly client: pg.Client;
  /** Each statement seen so far (its queryid) and whether it is one that does work. */
  private readonly counted = new Map<string, boolean>();
  private constructor(client: pg.Client) {
    this.client = client;
  }

  /** A counter on the database, or why there cannot be one (extension missing or not preloaded). */
  static async open(databaseUrl: string): Promise<StatementCounter | { unavailable: string }> {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      await client.query("CREATE EXTENSION IF NOT EXISTS pg_stat_statements");
      const counter = new StatementCounter(client);
      await counter.total();
      return counter;
    } catch (error) {
      await client.end().catch(() => {});
      return { unavailable: `pg_stat_statements is not available: ${(error as Error).message}` };
    }
  }

  /** The calls of the database's statements that do work, summed. */
  async total(): Promise<number> {
    const { rows } = await this.client.query<{ queryid: string; calls: string }>(CALLS);
    if (rows.some((row) => !this.counted.has(row.queryid))) await this.classify();
    return rows.reduce((sum, row) => sum + (this.counted.get(row.queryid) ? Number(row.calls) : 0), 0);
  }

  private async classify() {
    const { rows } = await this.client.query<{ queryid: string; counted: boolean }>(COUNTED, [WORK_STATEMENT]);
    for (const row of rows) this.counted.set(row.queryid, row.counted);
  }

  /**
   * The total once it has stopped moving: read, wait a little, read again, until two reads agree. Statements
   * are recorded when they finish, which may be a moment after the HTTP response left.
   */
  async settledTotal(pauseMs = 15, maxReads = 20): Promise<number> {
    let last = await this.total();
    for (let i = 0; i < maxReads; i++) {
      await new Promise((r) => setTimeout(r, pauseMs));
      const now = await this.total();
      if (now === last) return now;
      last = now;
    }
    return last;
  }

  close() {
    return this.client.end();
  }
}
