// The installed versions of an app's direct dependencies, recorded with every run.
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { type Implementation, REPO_ROOT } from "@api-ref/harness";

function installedVersion(fromDir: string, dep: string): string | undefined {
  for (let dir = fromDir; ; dir = dirname(dir)) {
    const file = join(dir, "node_modules", dep, "package.json");
    if (existsSync(file)) return (JSON.parse(readFileSync(file, "utf8")) as { version?: string }).version;
    if (dirname(dir) === dir) return undefined;
  }
}

/**
 * The installed version of every direct dependency of an app directory, by name: from package.json and
 * node_modules for Node apps, from the exact pins of requirements.txt for Python apps.
 */
export function dependencyVersions(dir: string): Record<string, string> {
  const manifest = join(dir, "package.json");
  const requirements = join(dir, "requirements.txt");
  if (!existsSync(manifest) && existsSync(requirements)) {
    const pins: Record<string, string> = {};
    for (const line of readFileSync(requirements, "utf8").split("\n")) {
      const match = /^\s*([A-Za-z0-9_.-]+)\s*==\s*([^\s;#]+)/.exec(line);
      if (match?.[1] && match[2]) pins[match[1]] = match[2];
    }
    return pins;
  }
  if (!existsSync(manifest)) return {};
  const pkg = JSON.parse(readFileSync(manifest, "utf8")) as { dependencies?: Record<string, string> };
  const versions: Record<string, string> = {};
  for (const [dep, spec] of Object.entries(pkg.dependencies ?? {})) {
    versions[dep] = spec.startsWith("workspace:") ? "workspace" : (installedVersion(dir, dep) ?? spec);
  }
  return versions;
}

export const implDir = (impl: Implementation) => join(REPO_ROOT, impl.dir);
