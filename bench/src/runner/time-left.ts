// The progress line's time-left estimate, in one place: what the cells so far really took on this machine once
// there are a few to go by, and the planned length of a cell before that.
import type { CellCounter } from "./types.ts";

/** Cells measured before their mean duration replaces the planned one. */
const CELLS_TO_GO_BY = 3;

export function secondsPerCell(counter: CellCounter, plannedSeconds: number): number {
  return counter.measured && counter.measured >= CELLS_TO_GO_BY
    ? (counter.seconds ?? 0) / counter.measured
    : plannedSeconds;
}

/** Seconds left in the run: the cells not finished yet (`running`: the current one, not finished, included). */
export function secondsLeft(counter: CellCounter, plannedSeconds: number, running: boolean): number {
  return (counter.total - counter.cell + (running ? 1 : 0)) * secondsPerCell(counter, plannedSeconds);
}

/** Counts a finished cell and the seconds it took. */
export function recordCellTime(counter: CellCounter, wallS: number | undefined) {
  counter.measured = (counter.measured ?? 0) + 1;
  counter.seconds = (counter.seconds ?? 0) + (wallS ?? 0);
}
