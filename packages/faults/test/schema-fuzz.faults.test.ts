// Schemathesis against every implementation's own /openapi.json: no server error, and every status code, content
// type and response body conforms to the document.
import { describe, it } from "vitest";
import { runSchemathesis } from "../src/schemathesis.ts";
import { implementationsFor, runFault, settings, suite } from "./context.ts";

// Two implementations at a time (the config's maxConcurrency): a fuzzer checks answers, it does not load the machine.
describe.each(implementationsFor("schema-fuzz"))("$name", { concurrent: true }, (impl) => {
  it("schema-fuzz: Schemathesis finds no server error and no status, content-type or schema nonconformance", (context) =>
    runFault(context, impl, "schema-fuzz", (app) =>
      runSchemathesis(app, { ...settings.schemathesis, seed: settings.seed, jwtSecret: suite.jwtSecret }),
    ));
});
