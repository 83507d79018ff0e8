// The root `postinstall`: after `pnpm install`, sets up the two Python environments the other rows need, so that
// the quick start is `pnpm install` then `pnpm test` / `pnpm bench`:
// - apps/fastapi/.venv, by apps/fastapi/scripts/setup.sh (the FastAPI implementation and the bench's raw ASGI
//   baseline);
// - packages/faults/.venv, by packages/faults/scripts/setup-schemathesis.sh (the fault suite's schema-fuzz fault),
//   run again only when its pinned requirements change.
// Quiet when both are up to date; prints what it installs when it does. It never fails the install: without a
// suitable Python (3.11+ with its venv module; PYTHON picks the interpreter), or when a setup fails (offline, say),
// it says in one line what that leaves out and how to retry. SKIP_PYTHON_SETUP=1 skips it altogether.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { closeSync, existsSync, openSync, readFileSync, writeFileSync, writeSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const REPO_ROOT = fileURLToPath(new URL("../../..", import.meta.url));

const MIN = [3, 11] as const;
/**
 * The workspace keeps pnpm silent (pnpm-workspace.yaml), and pnpm then swallows a lifecycle script's output: run
 * as the postinstall, what this says goes to the terminal itself when there is one, else to stderr (shown by
 * `pnpm install --loglevel info`).
 */
function say(line: string) {
  const text = `python setup: ${line}\n`;
  if (process.env.npm_lifecycle_event === "postinstall" && !process.stderr.isTTY) {
    try {
      const tty = openSync("/dev/tty", "w");
      writeSync(tty, text);
      closeSync(tty);
      return;
    } catch {
      // no controlling terminal (CI, a container build): stderr it is
    }
  }
  process.stderr.write(text);
}

/** The interpreter to use and its version, or why none is suitable. */
export function findPython(env: NodeJS.ProcessEnv = process.env): { python: string } | { problem: string } {
  const candidates = env.PYTHON ? [env.PYTHON] : ["python3.11", "python3"];
  const problems: string[] = [];
  for (const python of candidates) {
    const probe = spawnSync(python, ["-c", "import sys, venv, ensurepip; print('%d.%d' % sys.version_info[:2])"], {
      encoding: "utf8",
      env,
    });
    if (probe.error) {
      if (env.PYTHON) problems.push(`PYTHON=${python} cannot be run`);
      continue;
    }
    const version = probe.stdout.trim();
    const [major = 0, minor = 0] = version.split(".").map(Number);
    if (probe.status !== 0) problems.push(`${python} has no venv module (Debian: apt-get install python3-venv)`);
    else if (major < MIN[0] || (major === MIN[0] && minor < MIN[1])) problems.push(`${python} is ${version}`);
    else return { python };
  }
  return { problem: problems.join("; ") || "no python3 on PATH" };
}

const sha256 = (file: string) => createHash("sha256").update(readFileSync(file)).digest("hex");

/** Runs a setup script with its output captured; the output is shown when the script fails. */
function runSetup(command: string, args: string[], python: string): { ok: boolean; output: string } {
  const result = spawnSync(command, args, {
    cwd: REPO_ROOT,
    env: { ...process.env, PYTHON: python },
    encoding: "utf8",
  });
  return { ok: result.status === 0, output: `${result.stdout ?? ""}${result.stderr ?? ""}`.trim() };
}

const FASTAPI = "the fastapi rows of pnpm test, pnpm test:contract and pnpm bench are skipped";
const FUZZ = "the schema-fuzz fault of pnpm test:faults fails with a setup hint";

function main() {
  if (process.env.SKIP_PYTHON_SETUP === "1") return;
  const found = findPython();
  if ("problem" in found) {
    say(
      `not done (${found.problem}; it needs Python ${MIN.join(".")}+ with venv, or PYTHON=…): ${FASTAPI} and ${FUZZ} until \`pnpm install\` runs with one`,
    );
    return;
  }
  const failed: string[] = [];

  // setup.sh is idempotent and prints a "setup: …" line for each thing it installs; the rest of its output (the
  // contract export's one line) is routine.
  const fastapi = runSetup("bash", ["apps/fastapi/scripts/setup.sh"], found.python);
  if (!fastapi.ok) {
    failed.push(FASTAPI);
    say(`apps/fastapi/scripts/setup.sh failed:\n${fastapi.output}`);
  } else {
    for (const line of fastapi.output.split("\n").filter((l) => l.startsWith("setup: "))) say(line.slice(7));
  }

  const faults = join(REPO_ROOT, "packages/faults");
  const stamp = join(faults, ".venv/.requirements.sha256");
  const wanted = sha256(join(faults, "requirements-schemathesis.txt"));
  const current = existsSync(stamp) ? readFileSync(stamp, "utf8").trim() : "";
  if (current !== wanted || !existsSync(join(faults, ".venv/bin/schemathesis"))) {
    say("installing Schemathesis into packages/faults/.venv");
    const fuzz = runSetup("sh", ["packages/faults/scripts/setup-schemathesis.sh"], found.python);
    if (fuzz.ok) writeFileSync(stamp, `${wanted}\n`);
    else {
      failed.push(FUZZ);
      say(`packages/faults/scripts/setup-schemathesis.sh failed:\n${fuzz.output}`);
    }
  }

  if (failed.length > 0) say(`${failed.join(" and ")} until \`pnpm install\` (or the script named above) succeeds`);
}

if (import.meta.main) main();
