// The load generator runs in its own process (so that its CPU can be measured and pinned apart from the
// server's), started once per run and given one cell at a time; it reports when the measured part starts and ends.
import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import type { ChildMessage, LoadConfig } from "./child.ts";
import type { LoadOutcome } from "./outcome.ts";

const CHILD = fileURLToPath(new URL("./child.ts", import.meta.url));

export interface LoadRun {
  outcome: LoadOutcome;
  /** The load generator's CPU over the measured part, as a fraction of one core (1 = one core saturated). */
  cpuCores: number;
}

export interface LoadHooks {
  /**
   * Called as the warm-up and the measured part begin, and as the measured part ends; with `sync`, "ready" when
   * the warm-up is over and the load generator waits for go().
   */
  onPhase?(phase: "warmup" | "ready" | "measure" | "done"): void;
}

export class LoadGenerator {
  private child: ChildProcess | undefined;
  private output = "";
  private readonly pinCpus: string | undefined;

  /** `pinCpus`: a taskset CPU list for the load generator's process, or undefined to leave it unpinned. */
  constructor(pinCpus: string | undefined) {
    this.pinCpus = pinCpus;
  }

  private start(): ChildProcess {
    const [command, args] = this.pinCpus
      ? ["taskset", ["-c", this.pinCpus, process.execPath, CHILD]]
      : [process.execPath, [CHILD]];
    const child = spawn(command, args, { stdio: ["ignore", "pipe", "pipe", "ipc"] });
    const keep = (chunk: Buffer) => {
      this.output = (this.output + chunk.toString()).slice(-4000);
    };
    child.stdout?.on("data", keep);
    child.stderr?.on("data", keep);
    child.once("exit", () => {
      if (this.child === child) this.child = undefined;
    });
    this.child = child;
    return child;
  }

  /** Runs one cell (warm-up, drain, measured part). One at a time. */
  run(config: LoadConfig, hooks: LoadHooks = {}): Promise<LoadRun> {
    const child = this.child ?? this.start();
    return new Promise<LoadRun>((resolve, reject) => {
      const cleanup = () => {
        child.off("message", onMessage);
        child.off("exit", onExit);
        child.off("error", onExit);
      };
      const onMessage = (message: ChildMessage) => {
        if (message.type === "phase") hooks.onPhase?.(message.phase);
        else if (message.type === "result") {
          cleanup();
          const { userMs, systemMs, wallMs } = message.cpu;
          resolve({ outcome: message.outcome, cpuCores: (userMs + systemMs) / wallMs });
        } else {
          cleanup();
          reject(new Error(`load generator failed: ${message.message}`));
        }
      };
      const onExit = (codeOrError: number | Error | null) => {
        cleanup();
        const why = codeOrError instanceof Error ? codeOrError.message : `exited with ${codeOrError}`;
        reject(new Error(`load generator ${why} before reporting:\n${this.output}`));
      };
      child.on("message", onMessage);
      child.once("exit", onExit);
      child.once("error", onExit);
      child.send(config);
    });
  }

  /** Starts the measured part of a cell run with `sync` (after its "ready"). */
  go() {
    this.child?.send("go");
  }

  close() {
    this.child?.disconnect();
    this.child = undefined;
  }
}
