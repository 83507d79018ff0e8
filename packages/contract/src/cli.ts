// pnpm test:contract [--impl a,b] [--url URL [--jwt-secret S] [--database-url U] [--server NAME]] [--junit FILE]:
// runs the contract suite and prints the parity matrix (and, by URL, the coverage table).
import { spawnSync } from "node:child_process";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import {
  checkUrlTarget,
  isKnownServer,
  parseCommandLine,
  SERVER_DEVIATIONS,
  selectImplementations,
  UrlTargetError,
} from "@api-ref/harness";

const servers = Object.keys(SERVER_DEVIATIONS).join(", ");

const usage = `usage: pnpm test:contract [--impl NAME[,NAME...]] [--junit FILE] [-- vitest options]
       pnpm test:contract --url URL [--jwt-secret SECRET] [--database-url URL] [--server NAME] [--junit FILE]
                          [-- vitest options]
  --impl          run against these implementations only (default: all registered); the suite starts each one
  --url           run against a server already running there instead, started on a freshly seeded database
                  (pnpm db:migrate and pnpm db:seed); checks that need what is not given are skipped and counted
  --jwt-secret    the JWT_SECRET the --url server signs tokens with (default: $JWT_SECRET), for the checks that
                  forge tokens; a secret that begins with "-" goes as --jwt-secret=SECRET
  --database-url  the --url server's database (default: $DATABASE_URL), for the checks that set up or inspect
                  rows directly
  --server NAME   the HTTP server the --url target runs on, when it is one whose known deviations (answers its
                  parser gives before the app runs, packages/harness/src/deviations.ts) the suite lists; those
                  checks then expect that server's answers, as for the rows on it: ${servers}
  --junit FILE    also write the run as a JUnit XML report to FILE (one test case per check, skipped checks with
                  their reason); a relative FILE is taken from the repository root`;

const { values, positionals: rest } = parseCommandLine(
  usage,
  () => {
    const parsed = parseArgs({
      options: {
        impl: { type: "string" },
        url: { type: "string" },
        "jwt-secret": { type: "string" },
        "database-url": { type: "string" },
        server: { type: "string" },
        junit: { type: "string" },
        help: { type: "boolean", short: "h" },
      },
      allowPositionals: true,
      strict: true,
    });
    const values = parsed.values;
    // A row whose runtime has no binary here (Bun, Deno) is skipped, one line each.
    if (!values.url)
      selectImplementations(values.impl, (impl, reason) =>
        process.stderr.write(`contract: skipping ${impl.name}: ${reason}\n`),
      );
    if (values.url && !/^https?:\/\/[^/]+/.test(values.url))
      throw new Error(`--url must be an http(s) URL, got "${values.url}"`);
    if (values.url && values.impl) throw new Error("--url and --impl cannot be combined");
    if (!values.url && (values["jwt-secret"] !== undefined || values["database-url"] !== undefined))
      throw new Error("--jwt-secret and --database-url describe a --url server; with --impl the suite makes its own");
    if (!values.url && values.server !== undefined)
      throw new Error("--server describes a --url server; with --impl each row's deviations are known");
    if (values.server !== undefined && !isKnownServer(values.server))
      throw new Error(`--server must be one of ${servers}, got "${values.server}"`);
    if (values["database-url"] !== undefined && !/^postgres(ql)?:\/\//.test(values["database-url"]))
      throw new Error(`--database-url must be a postgres:// connection string, got "${values["database-url"]}"`);
    if (values.junit !== undefined && values.junit.trim() === "") throw new Error("--junit needs a file name");
    return parsed;
  },
  (parsed) => parsed.values.help === true,
);
const env = { ...process.env };
if (values.impl) env.CONTRACT_IMPLS = values.impl;
if (values.url) {
  const url = values.url.replace(/\/$/, "");
  const jwtSecret = values["jwt-secret"] ?? (process.env.JWT_SECRET || undefined);
  const databaseUrl = values["database-url"] ?? (process.env.DATABASE_URL || undefined);
  process.stderr.write(
    `contract: checking ${url} (JWT secret ${jwtSecret === undefined ? "not given" : "given"}, database ${databaseUrl === undefined ? "not given" : "given"}${values.server ? `, the known deviations of ${values.server}` : ""})\n`,
  );
  try {
    await checkUrlTarget({ url, jwtSecret, databaseUrl });
  } catch (error) {
    if (!(error instanceof UrlTargetError)) throw error;
    process.stderr.write(`error: ${error.message}\n`);
    process.exit(2);
  }
  env.CONTRACT_URL = url;
  // What harness's deviationOf reads for the target named "url"; cleared when not given (not the caller's).
  env.CONTRACT_URL_SERVER = values.server ?? "";
  env.CONTRACT_URL_CHECKED = "1";
  // The suite reads these two in URL mode; an empty value means "not given".
  env.JWT_SECRET = jwtSecret ?? "";
  env.DATABASE_URL = databaseUrl ?? "";
}
// pnpm runs this from packages/contract; a relative --junit is taken from where pnpm ran the root script (INIT_CWD:
// the repository root), not from here.
if (values.junit !== undefined) env.CONTRACT_JUNIT = resolve(process.env.INIT_CWD ?? process.cwd(), values.junit);
// Reporters given after -- replace the config's; the matrix (and the count of checks not made), the JUnit file
// and the coverage table stay.
if (rest.some((a) => a === "--reporter" || a.startsWith("--reporter="))) {
  for (const name of ["matrix-reporter", "junit-reporter", "coverage-reporter"]) {
    if (!rest.some((a) => a.includes(name)))
      rest.push(`--reporter=${fileURLToPath(new URL(`../test/${name}.ts`, import.meta.url))}`);
  }
}
const config = fileURLToPath(new URL("../vitest.config.ts", import.meta.url));
// In the package's directory, as pnpm runs it, whoever runs this file.
const cwd = fileURLToPath(new URL("..", import.meta.url));
const result = spawnSync("vitest", ["run", "--config", config, ...rest], { stdio: "inherit", env, cwd });
if (result.error) process.stderr.write(`error: cannot run vitest (${result.error.message}); run this through pnpm\n`);
process.exit(result.status ?? 1);
