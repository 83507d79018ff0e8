// pnpm test:contract [--impl a,b] [--url http://host:port] — runs the contract suite and prints the parity matrix.
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { selectImplementations } from "./implementations.ts";

const usage = `usage: pnpm test:contract [--impl NAME[,NAME...]] [--url URL] [-- vitest options]
  --impl   run against these implementations only (default: all registered)
  --url    run against an already-running server (started on a fresh copy of the seed data) instead`;

let values: { impl?: string; url?: string; help?: boolean };
let rest: string[];
try {
  const parsed = parseArgs({
    options: { impl: { type: "string" }, url: { type: "string" }, help: { type: "boolean", short: "h" } },
    allowPositionals: true,
    strict: true,
  });
  values = parsed.values;
  rest = parsed.positionals;
  if (values.impl) selectImplementations(values.impl);
  if (values.url && !/^https?:\/\/[^/]+/.test(values.url))
    throw new Error(`--url must be an http(s) URL, got "${values.url}"`);
  if (values.url && values.impl) throw new Error("--url and --impl cannot be combined");
} catch (error) {
  process.stderr.write(`error: ${(error as Error).message}\n\n${usage}\n`);
  process.exit(2);
}
if (values.help) {
  console.log(usage);
  process.exit(0);
}
const env = { ...process.env };
if (values.impl) env.CONTRACT_IMPLS = values.impl;
if (values.url) env.CONTRACT_URL = values.url;
const config = fileURLToPath(new URL("../vitest.config.ts", import.meta.url));
const result = spawnSync("vitest", ["run", "--config", config, ...rest], { stdio: "inherit", env });
process.exit(result.status ?? 1);
