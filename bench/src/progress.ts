// The progress line: which implementation, scenario and repeat is running, and about how long is left. On a
// terminal it redraws one line; elsewhere (CI logs) it prints a line per cell.
import { formatDuration } from "@api-ref/harness";

export interface ProgressState {
  cell: number;
  cells: number;
  target: string;
  scenario: string;
  connections: number;
  repeat: number;
  repeats: number;
  /** A --rate step's offered rate (such a cell is one step of a sweep, not a repeat). */
  offeredRate?: number;
  phase: string;
  /** Estimated seconds left for the whole run. */
  secondsLeft: number;
}

export function progressLine(p: ProgressState): string {
  return (
    `[${p.cell}/${p.cells}] ${p.scenario} @${p.connections} · ${p.target} · ` +
    (p.offeredRate === undefined ? `repeat ${p.repeat}/${p.repeats}` : `offered ${p.offeredRate} req/s`) +
    ` · ${p.phase} · ~${formatDuration(p.secondsLeft)} left`
  );
}

export class Progress {
  private readonly stream: NodeJS.WriteStream;
  private readonly tty: boolean;
  private last = "";

  constructor(stream: NodeJS.WriteStream = process.stderr) {
    this.stream = stream;
    this.tty = Boolean(stream.isTTY);
  }

  update(state: ProgressState, final = false) {
    const line = progressLine(state);
    if (this.tty) {
      const width = this.stream.columns || 120;
      this.stream.write(`\r\x1b[2K${line.slice(0, width - 1)}`);
      this.last = line;
    } else if (final) {
      this.stream.write(`${line}\n`);
    }
  }

  /** Prints a message on its own line without garbling the progress line. */
  log(message: string) {
    if (this.tty && this.last) this.stream.write("\r\x1b[2K");
    this.stream.write(`${message}\n`);
    if (this.tty && this.last) this.stream.write(this.last.slice(0, (this.stream.columns || 120) - 1));
  }

  done() {
    if (this.tty && this.last) this.stream.write("\r\x1b[2K");
    this.last = "";
  }
}
