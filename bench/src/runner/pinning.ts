// Which cores the run's processes use: the server on one, the load generator on another, PostgreSQL on the rest
// (sequential pairing); duet pins each side of a pair itself (runner/duet.ts).
import type { Implementation } from "@api-ref/harness";
import { allowedCpus, pinProcess, processTree } from "../proc.ts";
import type { Results } from "../results/schema.ts";

export interface Pinning {
  server?: string;
  loadGenerator?: string;
  postgres?: string;
  record: Results["pinning"];
}

const TWO_CPUS_NOTE =
  "server and load generator each pinned to one, PostgreSQL free to use either; " +
  "database scenarios measure server + PostgreSQL sharing the machine";

/** Server on one core, load generator on another, PostgreSQL on the rest when there is a rest. */
export function planPinning(enabled: boolean): Pinning {
  const { cpus, taskset } = allowedCpus();
  if (!enabled || !taskset || cpus.length < 2) {
    const why = !enabled ? "--no-pin" : !taskset ? "taskset is not available" : "only one CPU is available";
    return {
      record: {
        taskset,
        server: "not pinned",
        loadGenerator: "not pinned",
        postgres: "not pinned",
        harness: "not pinned",
        note: `no pinning (${why}): server, load generator and PostgreSQL share every core`,
      },
    };
  }
  const [server, loadGenerator, ...rest] = cpus.map(String) as [string, string, ...string[]];
  const postgres = rest.length > 0 ? rest.join(",") : undefined;
  return {
    server,
    loadGenerator,
    postgres,
    record: {
      taskset,
      server: `cpu ${server}`,
      loadGenerator: `cpu ${loadGenerator}`,
      postgres: postgres ? `cpu ${postgres}` : "not pinned (shares both cores)",
      harness: `cpu ${loadGenerator}`,
      note: postgres
        ? "server, load generator and PostgreSQL each on their own cores"
        : `only ${cpus.length} CPUs: ${TWO_CPUS_NOTE}`,
    },
  };
}

/** The run's pinning: planPinning's, except that duet pins each side of a pair itself, under equal quotas. */
export function runPinning(options: { pin: boolean }, remote: boolean, duet: boolean): Pinning {
  const pinning = planPinning(options.pin && !remote && !duet);
  if (duet && options.pin) {
    pinning.record.server = "each side of a pair on a core of its own, alternating";
    pinning.record.note =
      "duet: each side's server and PostgreSQL backends on a core of their own for the pair, under the same CPU quota; " +
      "load generators not pinned";
  }
  return pinning;
}

/** PostgreSQL on its cores (when it is a local process) and the harness on the load generator's. */
export function applyPinning(pinning: Pinning, postmaster: number | undefined): string {
  let postgres = pinning.record.postgres;
  const cpus = pinning.postgres;
  if (cpus && !(postmaster && processTree(postmaster).every((pid) => pinProcess(pid, cpus)))) {
    postgres = "not pinned (not a local process)";
  }
  // The harness itself (progress, /proc sampling) stays off the server's core.
  if (pinning.loadGenerator) pinProcess(process.pid, pinning.loadGenerator);
  return postgres;
}

/** The same implementation, started through `taskset -c <cpus>` so that it and every thread it makes stay there. */
export function pinned(impl: Implementation, cpus: string | undefined): Implementation {
  if (!cpus) return impl;
  return {
    ...impl,
    start: { ...impl.start, command: "taskset", args: ["-c", cpus, impl.start.command, ...impl.start.args] },
  };
}
