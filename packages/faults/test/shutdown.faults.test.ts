// SIGTERM under load, for every implementation: nothing accepted is lost, fresh connections are refused, the
// pool is closed by the process itself, and it exits 0 within its grace period.
import { describe, it } from "vitest";
import { processTarget, runShutdown } from "../src/shutdown.ts";
import { implementationsFor, runFault, settings, suite } from "./context.ts";

const { graceMs } = settings.shutdown;

describe.each(implementationsFor("shutdown"))("$name", (impl) => {
  it("shutdown: SIGTERM under load loses no accepted request, refuses new connections, closes its pool, exits 0", (context) =>
    runFault(
      context,
      impl,
      "shutdown",
      (app) => runShutdown(processTarget(app), { adminUrl: suite.adminUrl, ...settings.shutdown }),
      {
        env: { SHUTDOWN_GRACE_MS: String(graceMs) },
      },
    ));
});
