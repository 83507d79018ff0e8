// Every plan PostgreSQL executes, as the data access sends the statement. PostgreSQL's auto_explain explains each
// statement when it runs (its real text, its real parameters, the plan the server chose, the rows each node read)
// and, at log level NOTICE, sends the plan to the client that ran it. Captured SQL replayed with EXPLAIN would need
// each parameter's type, which a capture loses, and could not show the rows read; auto_explain needs no capture, and
// works the same for any driver.
// The Node data access keeps its pg pool inside Prisma, out of reach of a notice listener, so the plans are read
// off the wire: a TCP tap between the data access and PostgreSQL that forwards every byte and parses the server's
// NoticeResponse messages. Python's asyncpg hands notices to a listener (packages/python/tests/test_plans.py).
import net from "node:net";
import { sql } from "@api-ref/db/sql";

/**
 * auto_explain for every session of one database: each statement's plan, as JSON with the rows each node really
 * returned (ANALYZE, without per-node timing, which would only slow the run), sent to the client as a NOTICE.
 * Every execution is planned for its own parameters: a prepared statement's generic plan would otherwise depend on
 * the statements run before it on the same connection (see the data access's README, "Plans").
 */
export async function explainEveryStatement(databaseUrl: string) {
  const database = new URL(databaseUrl).pathname.slice(1);
  const settings = {
    plan_cache_mode: "force_custom_plan",
    session_preload_libraries: "auto_explain",
    "auto_explain.log_min_duration": "0",
    "auto_explain.log_format": "json",
    "auto_explain.log_level": "notice",
    "auto_explain.log_analyze": "on",
    "auto_explain.log_timing": "off",
  };
  const statements = Object.entries(settings).map(
    ([name, value]) => `ALTER DATABASE "${database}" SET ${name} = '${value}'`,
  );
  await sql(databaseUrl, statements.join("; ")).catch((error: { code?: string }) => {
    if (error.code !== "42501") throw error;
    throw new Error("the plans tests load auto_explain for their database, which takes a superuser in DATABASE_URL");
  });
}

/** One statement as auto_explain reports it. */
export interface ExplainedStatement {
  "Query Text": string;
  "Query Parameters"?: string;
  Plan: PlanNode;
}

/** The fields of an EXPLAIN (FORMAT JSON, ANALYZE) node the verdict reads. */
export interface PlanNode {
  "Node Type": string;
  "Relation Name"?: string;
  "Index Name"?: string;
  "Sort Key"?: string[];
  "Actual Rows"?: number;
  "Actual Loops"?: number;
  "Rows Removed by Filter"?: number;
  "Rows Removed by Index Recheck"?: number;
  Plans?: PlanNode[];
}

/** The statement auto_explain put in a notice's message (`duration: … ms  plan:\n{…}`), or none. */
export function explainedIn(message: string): ExplainedStatement | undefined {
  const start = message.indexOf("{");
  if (!message.startsWith("duration:") || start < 0) return undefined;
  return JSON.parse(message.slice(start)) as ExplainedStatement;
}

export interface PlanTap {
  /** The database's URL through the tap. */
  url: string;
  /** Every statement explained since the last call, in the order they ran; the list starts empty again. */
  take(): ExplainedStatement[];
  close(): Promise<void>;
}

/**
 * A tap in front of the server of `databaseUrl`. The URL it gives has no SSL options: the tap reads the stream, so
 * it must be plain (a local test server's is).
 */
export async function startPlanTap(databaseUrl: string): Promise<PlanTap> {
  const target = new URL(databaseUrl);
  let explained: ExplainedStatement[] = [];
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port || 5432), target.hostname);
    const readNotices = noticeReader((message) => {
      const statement = explainedIn(message);
      if (statement) explained.push(statement);
    });
    // Parsed before it is forwarded: by the time the client has a statement's answer, its plan is recorded.
    upstream.on("data", (chunk: Buffer) => {
      readNotices(chunk);
      client.write(chunk);
    });
    client.pipe(upstream);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on("error", () => {});
      socket.on("close", () => {
        sockets.delete(socket);
        client.destroy();
        upstream.destroy();
      });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const tapped = new URL(databaseUrl);
  tapped.host = `127.0.0.1:${(server.address() as net.AddressInfo).port}`;
  for (const key of [...tapped.searchParams.keys()]) if (key.startsWith("ssl")) tapped.searchParams.delete(key);
  return {
    url: tapped.toString(),
    take() {
      const taken = explained;
      explained = [];
      return taken;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/**
 * A parser of the server's half of the protocol: after start-up every message is a type byte and a 32-bit length
 * (which counts itself); a NoticeResponse ('N') is fields of a code byte and a NUL-ended string, 'M' the message.
 */
function noticeReader(onNotice: (message: string) => void) {
  let pending: Buffer = Buffer.alloc(0);
  return (chunk: Buffer) => {
    pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
    let at = 0;
    while (pending.length - at >= 5) {
      const length = pending.readInt32BE(at + 1);
      if (pending.length - at < 1 + length) break;
      if (pending[at] === 0x4e) {
        const message = noticeField(pending.subarray(at + 5, at + 1 + length), 0x4d);
        if (message !== undefined) onNotice(message);
      }
      at += 1 + length;
    }
    pending = pending.subarray(at);
  };
}

function noticeField(body: Buffer, code: number): string | undefined {
  let at = 0;
  while (at < body.length && body[at] !== 0) {
    const end = body.indexOf(0, at + 1);
    if (body[at] === code) return body.toString("utf8", at + 1, end);
    at = end + 1;
  }
  return undefined;
}
