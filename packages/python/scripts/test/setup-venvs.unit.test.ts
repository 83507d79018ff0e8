// The root postinstall's choice of interpreter (scripts/setup-venvs.ts): a Python it can make the venvs with, or one
// line saying why not — never a failed install.
import { spawnSync } from "node:child_process";
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { findPython } from "../setup-venvs.ts";

const dir = mkdtempSync(join(tmpdir(), "setup-python-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A stand-in interpreter: prints `version` for the probe and exits with `status`. */
function fakePython(name: string, version: string, status = 0) {
  const path = join(dir, name);
  writeFileSync(path, `#!/bin/sh\necho ${version}\nexit ${status}\n`);
  chmodSync(path, 0o755);
  return path;
}

describe("findPython", () => {
  it("takes PYTHON when it is 3.11 or newer with its venv module", () => {
    const python = fakePython("py312", "3.12");
    expect(findPython({ PATH: process.env.PATH, PYTHON: python })).toEqual({ python });
  });

  it("says why an interpreter does not do: too old, no venv module, not there", () => {
    expect(findPython({ PATH: process.env.PATH, PYTHON: fakePython("py310", "3.10") })).toEqual({
      problem: `${join(dir, "py310")} is 3.10`,
    });
    expect(findPython({ PATH: process.env.PATH, PYTHON: fakePython("novenv", "3.12", 1) })).toEqual({
      problem: `${join(dir, "novenv")} has no venv module (Debian: apt-get install python3-venv)`,
    });
    expect(findPython({ PATH: process.env.PATH, PYTHON: join(dir, "missing") })).toEqual({
      problem: `PYTHON=${join(dir, "missing")} cannot be run`,
    });
    expect(findPython({ PATH: dir })).toEqual({ problem: "no python3 on PATH" });
  });
});

describe("the postinstall script", () => {
  it("exits 0 with one line naming what is left out when no Python will do", () => {
    const script = fileURLToPath(new URL("../setup-venvs.ts", import.meta.url));
    const result = spawnSync(process.execPath, [script], {
      env: { PATH: dir, PYTHON: fakePython("py39", "3.9") },
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
    });
    expect(result.status).toBe(0);
    expect(result.stderr.trim().split("\n")).toEqual([
      expect.stringMatching(
        /^python setup: not done \(.*py39 is 3\.9; it needs Python 3\.11\+ with venv, or PYTHON=…\): the fastapi rows of pnpm test, pnpm test:contract and pnpm bench are skipped and the schema-fuzz fault of pnpm test:faults fails with a setup hint until `pnpm install` runs with one$/,
      ),
    ]);
  });
});
