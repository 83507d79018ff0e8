// pnpm bench — the benchmark harness. Until implementations are registered (packages/contract), it checks its
// options and says that there is nothing to measure yet; see the README's roadmap.
import { parseArgs } from "node:util";

const usage = `usage: pnpm bench [--smoke] [--impl NAME,...] [--scenario NAME,...] [--connections N] [--duration S] [--repeats N]`;

try {
  const { values } = parseArgs({
    options: {
      smoke: { type: "boolean" },
      impl: { type: "string" },
      scenario: { type: "string" },
      connections: { type: "string" },
      duration: { type: "string" },
      repeats: { type: "string" },
      help: { type: "boolean", short: "h" },
    },
    strict: true,
  });
  if (values.help) {
    console.log(usage);
    process.exit(0);
  }
} catch (error) {
  process.stderr.write(`error: ${(error as Error).message}\n\n${usage}\n`);
  process.exit(2);
}
console.log("bench: no implementations are registered yet; nothing to measure.");
