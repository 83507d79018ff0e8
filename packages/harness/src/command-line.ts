// How the repository's command-line tools read their arguments: a mistake is one line and the usage on stderr with
// exit code 2, --help is the usage on stdout with exit code 0.
import { type Implementation, implementations } from "./implementations.ts";

/**
 * `parseArgs`'s options from two lists, the options that take a value and the flags that do not; `--help` (`-h`)
 * is always one of them.
 */
export function optionsConfig(
  valued: readonly string[],
  flags: readonly string[],
): Record<string, { type: "string" | "boolean"; short?: string; multiple?: false }> {
  return Object.fromEntries([
    ...valued.map((name) => [name, { type: "string" }]),
    ...flags.map((name) => [name, { type: "boolean" }]),
    ["help", { type: "boolean", short: "h" }],
  ]);
}

/**
 * Returns what `parse` makes of the command line. When it throws, prints the error and `usage` and exits 2; when
 * `wantsHelp` says the result asks for help, prints `usage` and exits 0.
 */
export function parseCommandLine<T>(usage: string, parse: () => T, wantsHelp: (parsed: T) => boolean): T {
  let parsed: T;
  try {
    parsed = parse();
  } catch (error) {
    process.stderr.write(`error: ${(error as Error).message}\n\n${usage}\n`);
    process.exit(2);
  }
  if (wantsHelp(parsed)) {
    console.log(usage);
    process.exit(0);
  }
  return parsed;
}

/** What a command's usage says `<implementation>` may be: every registered name, from the one list. */
export function implementationChoices(): string {
  return `<implementation> is one of: ${implementations.map((i) => i.name).join(", ")}`;
}

/**
 * The one implementation a command names (`pnpm dev <name>`, `pnpm start <name>`); a missing or unknown name
 * throws the line its usage error opens with (the usage that follows lists the names).
 */
export function implementationNamed(name: string | undefined): Implementation {
  const impl = implementations.find((i) => i.name === name);
  if (impl) return impl;
  throw new Error(name ? `unknown implementation "${name}"` : "name the implementation to run");
}
