// The database packages/python/tests/test_plans.py reads: PostgreSQL by the project's rule, with a database made
// as packages/data-access's plans test makes its own (the catalogue's scale, every statement explained). Prints
// {"url", "seedMs"} as one JSON line, then keeps it until its standard input closes (the test ends, or dies).
// Usage: node packages/python/scripts/plans-database.ts
import { startExplainedDatabase } from "../../data-access/test/plans/database.ts";

const { server, url, seedMs } = await startExplainedDatabase("python_plans", {
  log: (message) => process.stderr.write(`${message}\n`),
});
process.stdout.write(`${JSON.stringify({ url, seedMs })}\n`);
process.stdin.resume();
process.stdin.on("end", async () => {
  await server.stop();
  process.exit(0);
});
