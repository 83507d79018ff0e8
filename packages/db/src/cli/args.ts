import { type ParseArgsOptionsConfig, parseArgs } from "node:util";
import { checkDatabaseUrl } from "../provision.ts";

const HELP = { help: { type: "boolean", short: "h" } } as const;

/** Parses argv strictly; prints the problem and usage, then exits 2, on anything unknown or malformed. */
export function parseCli<const T extends ParseArgsOptionsConfig>(usage: string, options: T) {
  // `--scale -1` would read as two flags; join every string option with its value so a negative number
  // reaches validation and gets a message about the number, not about the syntax.
  const stringOptions = new Set(
    Object.entries(options)
      .filter(([, o]) => o.type === "string")
      .map(([k]) => `--${k}`),
  );
  const args: string[] = [];
  const argv = process.argv.slice(2);
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    const value = argv[i + 1];
    if (stringOptions.has(arg) && value !== undefined) {
      args.push(`${arg}=${value}`);
      i++;
    } else args.push(arg);
  }
  try {
    return parseArgs({ args, options: { ...options, ...HELP }, strict: true, allowPositionals: false } as {
      args: string[];
      options: T & typeof HELP;
      strict: true;
      allowPositionals: false;
    });
  } catch (error) {
    fail(`${(error as Error).message}\n\n${usage}`, 2);
  }
}

export function fail(message: string, code = 1): never {
  process.stderr.write(`error: ${message}\n`);
  process.exit(code);
}

/** DATABASE_URL, checked to answer; a missing, malformed or unreachable one is one line and exit 2. */
export async function requireDatabaseUrl(): Promise<string> {
  const url = process.env.DATABASE_URL;
  if (!url) {
    fail(
      "DATABASE_URL is not set — point it at a PostgreSQL database (see .env.example); tests and the benchmark provision their own and need none",
      2,
    );
  }
  try {
    await checkDatabaseUrl(url);
  } catch (error) {
    fail((error as Error).message, 2);
  }
  return url;
}
