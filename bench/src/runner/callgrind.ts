// --count instructions: a server runs under valgrind's callgrind with instrumentation off while it starts and warms
// up; the harness then turns it on, zeroes the counters before each round of requests and dumps them after it. The
// guest instructions a round executed, divided by its requests, are the user-space work a request costs: a count no
// other tenant of the machine can move (the kernel, cache stalls and PostgreSQL's own work are not in it).
import { execFile, execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import type { Implementation } from "@api-ref/harness";

const run = promisify(execFile);

/** How to get valgrind where it is missing: the bench leaves the instruction figure out without it. */
export const VALGRIND_HINT = "valgrind is not installed (Debian/Ubuntu: apt-get install valgrind)";

/** --count instructions on a machine without valgrind: refused in one line (exit 2), never run without the figure. */
export class CallgrindUnavailable extends Error {}

/** Why instructions cannot be counted here, or undefined when valgrind and callgrind_control are on PATH. */
export function callgrindMissing(): string | undefined {
  for (const tool of ["valgrind", "callgrind_control"]) {
    try {
      execFileSync(tool, ["--version"], { stdio: "ignore" });
    } catch {
      return VALGRIND_HINT;
    }
  }
  return undefined;
}

/**
 * callgrind's options. Nothing is counted until the harness says so (start-up and warm-up run uninstrumented, ~5×
 * faster); V8's, JSC's and Deno's JIT write code into memory they later run, which valgrind must re-translate
 * (all-non-file: every such page is checked, code from files is not).
 */
const CALLGRIND_ARGS = ["--tool=callgrind", "--instr-atstart=no", "--smc-check=all-non-file", "--quiet"];

/** The server's start command under callgrind, its dumps in `dir` (one file per dump, named by pid and number). */
export function underCallgrind(impl: Implementation, dir: string): Implementation {
  const out = `--callgrind-out-file=${join(dir, "callgrind.out.%p")}`;
  return {
    ...impl,
    start: {
      ...impl.start,
      command: "valgrind",
      args: [...CALLGRIND_ARGS, out, impl.start.command, ...impl.start.args],
    },
  };
}

/** A directory for one run's dumps, removed by the returned function. */
export function dumpDirectory(): { dir: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), "bench-callgrind-"));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** The total of a callgrind dump: its `totals:` line (the `summary:` line of older dumps), the first event (Ir). */
export function dumpTotal(text: string): number {
  const line = /^(?:totals|summary):\s+(\d+)/m.exec(text);
  if (!line) throw new Error("a callgrind dump without a totals line");
  return Number(line[1]);
}

/**
 * The counters of one process running under callgrind, driven by callgrind_control (valgrind's gdbserver). `host` is
 * the server's HOST: valgrind names the pipes callgrind_control talks through by $HOST, and the launcher sets the
 * server's to the address it binds to.
 */
export class InstructionCounter {
  private dumps = 0;
  private readonly pid: number;
  private readonly dir: string;
  private readonly env: NodeJS.ProcessEnv;

  constructor(pid: number, dir: string, host: string) {
    this.pid = pid;
    this.dir = dir;
    this.env = { ...process.env, HOST: host };
  }

  private control(flag: string, value?: string) {
    const args = [flag, ...(value ? [value] : []), String(this.pid)];
    return run("callgrind_control", args, { timeout: 60_000, env: this.env });
  }

  /** Instrumentation on (after the warm-up): from now on guest instructions are counted. */
  async instrument() {
    await this.control("-i", "on");
  }

  /** The counters to zero, before a round. */
  async zero() {
    await this.control("-z");
  }

  /**
   * The instructions counted since the last zero: callgrind writes a dump (and zeroes). callgrind_control returns once
   * the command is delivered, not once the file is written: the file is read when its totals line (its last) is there.
   */
  async dump(): Promise<number> {
    await this.control("-d");
    this.dumps += 1;
    const file = join(this.dir, `callgrind.out.${this.pid}.${this.dumps}`);
    const deadline = Date.now() + DUMP_WAIT_MS;
    for (;;) {
      const text = existsSync(file) ? readFileSync(file, "utf8") : "";
      if (/^(?:totals|summary):/m.test(text)) return dumpTotal(text);
      if (Date.now() > deadline) {
        const there = readdirSync(this.dir).join(", ") || "nothing";
        throw new Error(`callgrind wrote no complete ${file} within ${DUMP_WAIT_MS / 1000} s (there: ${there})`);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

const DUMP_WAIT_MS = 30_000;
