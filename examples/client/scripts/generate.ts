// Writes src/generated/openapi.ts, openapi-typescript's types for the API, from the repository's OpenAPI document
// (docs/openapi.json: `pnpm docs:check` keeps it equal to what every implementation serves) or, when OPENAPI_URL
// is set, from a running server's. Run on install, before `typecheck`, as the tests' global setup and by
// `pnpm --filter @api-ref/example-client generate`; the file is not tracked by git.
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import openapiTS, { astToString, COMMENT_HEADER, type OpenAPI3 } from "openapi-typescript";

const DOCUMENT = new URL("../../../docs/openapi.json", import.meta.url);
const OUTPUT = new URL("../src/generated/openapi.ts", import.meta.url);

const source = process.env.OPENAPI_URL;

/** Generates the types; also vitest's global setup here, so that a checkout installed before this file existed tests. */
export default async function generate(): Promise<void> {
  let document: OpenAPI3;
  try {
    document = source
      ? ((await (await fetch(source)).json()) as OpenAPI3)
      : (JSON.parse(await readFile(DOCUMENT, "utf8")) as OpenAPI3);
  } catch (error) {
    throw new Error(
      `could not read the OpenAPI document from ${source ?? "docs/openapi.json"}: ${(error as Error).message}`,
    );
  }
  await mkdir(new URL(".", OUTPUT), { recursive: true });
  await writeFile(OUTPUT, `${COMMENT_HEADER}${astToString(await openapiTS(document, { silent: true }))}`);
}

// Run as a script (`node scripts/generate.ts`), not imported as the tests' global setup.
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  try {
    await generate();
    console.log(`wrote examples/client/src/generated/openapi.ts from ${source ?? "docs/openapi.json"}`);
  } catch (error) {
    console.error((error as Error).message);
    process.exit(1);
  }
}
