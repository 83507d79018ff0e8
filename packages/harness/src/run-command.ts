// One command run to its end with the tail of its output kept: how the harness builds an implementation and how
// the fault suite runs Schemathesis.
import { spawn } from "node:child_process";

export interface CommandResult {
  /** The exit code; null when the command could not run or was killed. */
  code: number | null;
  /** The end of what it wrote on stdout and stderr, interleaved (at most `keepChars` characters). */
  output: string;
  /** Why it could not run (spawn's error), when it could not. */
  error?: Error;
}

/**
 * Runs `command` with `args` in `cwd`, stdin closed, and resolves when it exits (or could not start); never
 * rejects. With `timeoutMs`, the command is killed (SIGKILL) when it runs longer.
 */
export function runCommand(
  command: string,
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; keepChars: number; timeoutMs?: number },
): Promise<CommandResult> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    const keep = (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-options.keepChars);
    };
    child.stdout.on("data", keep);
    child.stderr.on("data", keep);
    // A killed command's own children can keep its pipes open: its end is then its kill, a moment later.
    const killAtTimeout = () => {
      child.kill("SIGKILL");
      setTimeout(() => resolve({ code: null, output }), 2_000).unref();
    };
    const timer = options.timeoutMs === undefined ? undefined : setTimeout(killAtTimeout, options.timeoutMs);
    child.on("error", (error) => {
      clearTimeout(timer);
      resolve({ code: null, output, error });
    });
    // "close", not "exit": the pipes can still hold the last of its output when the process has exited.
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}
