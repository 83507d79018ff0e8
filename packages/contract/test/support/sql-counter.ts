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

const TOTAL = `
  SELECT coalesce(sum(calls), 0)::text AS calls
  FROM pg_stat_statements
  WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())
    AND query NOT ILIKE '%pg_stat_statements%'
    AND query ~* $1`;

export class StatementCounter {
  private readonly client: pg.Client;
  private constructor(client: pg.Client) {
    this.client = client;
  }

  /** A counter on the database, or why there cannot be one (extension missing or not preloaded). */
  static async open(databaseUrl: string): Promise<StatementCounter | { unavailable: string }> {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      await client.query("CREATE EXTENSION IF NOT EXISTS pg_stat_statements");
      await client.query(`${TOTAL} /* pg_stat_statements probe */`, [WORK_STATEMENT]);
      return new StatementCounter(client);
    } catch (error) {
      await client.end().catch(() => {});
      return { unavailable: `pg_stat_statements is not available: ${(error as Error).message}` };
    }
  }

  async total(): Promise<number> {
    const { rows } = await this.client.query<{ calls: string }>(TOTAL, [WORK_STATEMENT]);
    return Number(rows[0]?.calls ?? 0);
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
