import { describe, expect, it } from "vitest";
import { formatDuration } from "../src/progress.ts";

describe("formatDuration", () => {
  it.each([
    [0, "0s"],
    [42.4, "42s"],
    [59.6, "1m00s"],
    [185, "3m05s"],
    [3_599, "59m59s"],
    [3_720, "1h02m"],
    [Number.NaN, "?"],
    [Number.POSITIVE_INFINITY, "?"],
    [-1, "?"],
  ])("%s seconds read %s", (seconds, expected) => {
    expect(formatDuration(seconds)).toBe(expected);
  });
});
