// The measuring loop's rule for failed cells (runner/repeats.ts): a target whose cell failed is not measured again in
// that scenario, since its row is failed whatever later cells give, and the cells it will not run come off the
// progress counter (a timed-out deep page at scale 100 takes minutes per cell).
import { describe, expect, it } from "vitest";
import { dropFailed } from "../src/runner/repeats.ts";
import { fakeCell } from "./support/cells.ts";

const timedOut = "no response completed in 3 s";

function context(total: number) {
  const lines: string[] = [];
  return {
    lines,
    ctx: { counter: { cell: 0, total }, options: { repeats: 5 }, io: { log: (l: string) => lines.push(l) } },
  };
}

describe("dropFailed", () => {
  it("drops a target at its first failed cell, once, and takes its remaining planned cells off the counter", () => {
    const { lines, ctx } = context(15);
    const dropped = new Set<string>();
    const round1 = [fakeCell("hello", "a", 1, 100), fakeCell("hello", "b", 1, 0, { failure: timedOut })];
    dropFailed(round1, dropped, 1, "hello", ctx);
    expect([...dropped]).toEqual(["b"]);
    // b had repeats 2–5 still planned.
    expect(ctx.counter.total).toBe(11);
    expect(lines).toEqual([`hello: b failed a cell (${timedOut}): not measured again, its row is failed`]);

    // A later failure of another target in the last planned round drops it with nothing left to take off.
    dropFailed(
      [fakeCell("hello", "a", 5, 0, { failure: "12 unexpected non-2xx responses (12× 503)" })],
      dropped,
      5,
      "hello",
      ctx,
    );
    expect([...dropped].sort()).toEqual(["a", "b"]);
    expect(ctx.counter.total).toBe(11);
    expect(lines).toHaveLength(2);
  });

  it("leaves targets whose cells succeeded, and does not count a dropped target twice", () => {
    const { lines, ctx } = context(10);
    const dropped = new Set(["b"]);
    dropFailed(
      [fakeCell("hello", "a", 2, 100), fakeCell("hello", "b", 2, 0, { failure: timedOut })],
      dropped,
      2,
      "hello",
      ctx,
    );
    expect([...dropped]).toEqual(["b"]);
    expect(ctx.counter.total).toBe(10);
    expect(lines).toEqual([]);
  });
});
