// Hostile input at volume, for every implementation: generated valid and mutated requests on every route get
// exactly what the contract says (never a 5xx), and the data invariants hold afterwards.
import { describe, it } from "vitest";
import { runHostile } from "../src/hostile/run.ts";
import { cellNote } from "../src/report/progress.ts";
import { implementationsFor, runFault, settings, suite } from "./context.ts";

// Two implementations at a time (the config's maxConcurrency): each app has its own database, and a few hundred requests
// at 4–8 connections leave most of a 2-core machine waiting on start-up and the invariant checks.
describe.each(implementationsFor("hostile-input"))("$name", { concurrent: true }, (impl) => {
  it("hostile-input: generated valid and mutated requests get the contract's answers, never a 5xx; invariants hold", (context) =>
    runFault(context, impl, "hostile-input", (app) =>
      runHostile(app, {
        ...settings.hostile,
        seed: settings.seed,
        jwtSecret: suite.jwtSecret,
        onProgress: (answered, total) => cellNote(impl.name, "hostile-input", `${answered}/${total} requests answered`),
      }),
    ));
});
