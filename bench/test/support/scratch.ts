// A temporary folder for one test file's runs: made before its tests, removed after them.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll } from "vitest";

/** Registers the folder's creation and removal; the function it returns names a path inside it. */
export function scratchDir(prefix: string): (name: string) => string {
  let dir = "";
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), `bench-${prefix}-`));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });
  return (name) => join(dir, name);
}
