// PostgreSQL stopped under load and started again, for every implementation: quick 503s while it is down,
// /health alive and /ready not, no exit, every route back within the bound, and the stock ledger exact.

import { sql } from "@api-ref/harness";
import { describe, it } from "vitest";
import { BASELINE_SQL, runOutage } from "../src/outage.ts";
import { implementationsFor, note, runFault, settings, suite } from "./context.ts";

describe.each(implementationsFor("db-outage"))("$name", (impl) => {
  it("db-outage: 503 problems within the bound while PostgreSQL is down, every route back within 5 s, stock exact", async (context) => {
    const controlUrl = suite.controlUrl;
    if (controlUrl === null) {
      note(context, impl, "db-outage", `provider ${suite.provider} cannot stop its server`);
      context.skip(`the ${suite.provider} provider cannot stop and start its server (use PG_PROVIDER=embedded)`);
      return;
    }
    await runFault(
      context,
      impl,
      "db-outage",
      (app) => runOutage(app, { controlUrl, jwtSecret: suite.jwtSecret, ...settings.outage }),
      {
        prepare: (databaseUrl) => sql(databaseUrl, BASELINE_SQL).then(() => {}),
      },
    );
  });
});
