// The runtimes an implementation runs on, and where their binaries are. Node is the one running this code; Bun and
// Deno come from npm as root devDependencies (`bun` and `deno`, pinned in the catalog), each with its binary in a
// per-platform optional dependency (`@oven/bun-<platform>`, `@deno/<platform>`): a platform with no such package
// has no binary, and the rows on that runtime are skipped with the reason `runtimeBinary` gives (README "Runtimes").
import { existsSync, realpathSync, statSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export type Runtime = "node" | "bun" | "deno" | "python";

/** Where a runtime's binary is, or why there is none on this platform. */
export type RuntimeBinary = { command: string; missing?: undefined } | { command?: undefined; missing: string };

const ROOT_PACKAGE = fileURLToPath(new URL("../../../package.json", import.meta.url));

/**
 * The directory of an npm package installed for `from` (a package.json path), or undefined: the node_modules folders
 * from `from`'s real directory up, as Node resolves a package — but not NODE_PATH, which pnpm's script shims set to
 * its whole store (where a package installed for another project, or another platform's binary, may sit).
 */
function packageDir(name: string, from: string): string | undefined {
  let dir: string;
  try {
    dir = dirname(realpathSync(from));
  } catch {
    return undefined;
  }
  for (;;) {
    if (basename(dir) !== "node_modules") {
      const candidate = join(dir, "node_modules", name);
      if (existsSync(join(candidate, "package.json"))) return candidate;
    }
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

/** A file that is an executable binary, not the few-hundred-byte script an npm package ships before its postinstall. */
function isBinary(path: string): boolean {
  return existsSync(path) && statSync(path).size > 1024 * 1024;
}

/** The npm package holding a runtime's binary for this platform (the names Bun and Deno publish under). */
export function platformPackage(runtime: "bun" | "deno", platform = process.platform, arch = process.arch): string {
  if (runtime === "bun") {
    const os = platform === "win32" ? "windows" : platform;
    return `@oven/bun-${os}-${arch === "arm64" ? "aarch64" : arch}`;
  }
  return `@deno/${platform}-${arch}${platform === "linux" ? "-glibc" : ""}`;
}

/**
 * The binary of `bun` or `deno` as installed by `pnpm install`: the one their postinstall put in the wrapper package
 * (bun's `bin/bun.exe`, deno's `deno`), else the platform package's own. `missing` says why there is none.
 */
export function runtimeBinary(runtime: "bun" | "deno", fromPackageJson = ROOT_PACKAGE): RuntimeBinary {
  const wrapper = packageDir(runtime, fromPackageJson);
  if (!wrapper) return { missing: `${runtime} is not installed (run pnpm install)` };
  const exe = process.platform === "win32" ? ".exe" : "";
  const installed = join(wrapper, runtime === "bun" ? "bin/bun.exe" : `deno${exe}`);
  if (isBinary(installed)) return { command: installed };
  const name = platformPackage(runtime);
  const platformDir = packageDir(name, join(wrapper, "package.json"));
  const own = platformDir && join(platformDir, runtime === "bun" ? `bin/bun${exe}` : `deno${exe}`);
  if (own && isBinary(own)) return { command: own };
  return { missing: `${runtime} has no binary for ${process.platform}-${process.arch} (${name} is not installed)` };
}
