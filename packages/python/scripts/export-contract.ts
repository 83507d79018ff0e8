// Writes what Python needs from the Node contract, so that api_contract (and through it FastAPI and the raw-asgi
// baseline) serves the contract's own OpenAPI document and problem catalogue instead of re-declaring them (run by
// apps/fastapi/scripts/setup.sh, by the tests' conftest.py and as the registry's build step of fastapi):
//   build/contract.json            the OpenAPI document, the problems, each path's methods,
//                                  each operation's path and query parameters as strings on the wire (the
//                                  document describes them by meaning: an integer, a boolean, an array), and the
//                                  security headers with both content-security policies (the API's, /docs')
//   build/docs.html                the /docs page (4 MB: kept out of contract.json, which the app reads at start)
//   build/validation-vectors.json  tests/validation-corpus.json run through the Zod schemas (what pytest checks
//                                  the Pydantic models against)
//   build/cursor-vectors.json      tests/cursor-corpus.json through the contract's cursor codec: the cursors Node
//                                  writes and the positions it reads (what pytest checks api_contract.cursor against)
// Usage: node packages/python/scripts/export-contract.ts [--out DIR]   (default: packages/python/build)
import { Buffer } from "node:buffer";
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import {
  API_CONTENT_SECURITY_POLICY,
  type CursorPosition,
  type CursorSort,
  decodeCursor,
  docsContentSecurityPolicy,
  docsHtml,
  encodeCursor,
  fieldErrors,
  methodsByPath,
  openApiDocument,
  PROBLEMS,
  type RequestPart,
  routes,
  SECURITY_HEADERS,
  SORT_KEYS,
  wireSchema,
} from "../../contract/src/index.ts";
import * as schemas from "../../contract/src/schemas.ts";

const packageDir = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const { values } = parseArgs({ options: { out: { type: "string" } } });
const outDir = resolve(values.out ?? join(packageDir, "build"));
mkdirSync(outDir, { recursive: true });

/** Whole or not at all: a running app or test may be reading the previous version. */
function writeWhole(name: string, text: string) {
  const path = join(outDir, name);
  writeFileSync(`${path}.${process.pid}.tmp`, text);
  renameSync(`${path}.${process.pid}.tmp`, path);
}
const writeJson = (name: string, value: unknown) => writeWhole(name, `${JSON.stringify(value, null, 2)}\n`);

const contract = {
  openapi: openApiDocument,
  problems: PROBLEMS,
  methodsByPath: Object.fromEntries(methodsByPath),
  wireParameters: Object.fromEntries(
    routes.map((route) => [
      route.operationId,
      {
        ...(route.params ? { path: wireSchema(route.params) } : {}),
        ...(route.query ? { query: wireSchema(route.query) } : {}),
      },
    ]),
  ),
  // The values themselves, the docs page's hashes included: Python serves them byte for byte, computing nothing.
  securityHeaders: {
    headers: SECURITY_HEADERS,
    apiContentSecurityPolicy: API_CONTENT_SECURITY_POLICY,
    docsContentSecurityPolicy: docsContentSecurityPolicy(),
  },
};
writeJson("contract.json", contract);
writeWhole("docs.html", docsHtml());

/** The part of a Zod schema this script uses (zod itself is not a dependency of this package). */
interface Schema {
  safeParse(
    value: unknown,
  ): { success: true; data: unknown } | { success: false; error: Parameters<typeof fieldErrors>[0] };
}

interface Case {
  schema: string;
  part: RequestPart;
  /** Absent when the case is "no value at all" (a request without a body). */
  input?: unknown;
}
const corpus = JSON.parse(readFileSync(join(packageDir, "tests", "validation-corpus.json"), "utf8")) as Case[];
const vectors = corpus.map((c) => {
  const schema = (schemas as Record<string, unknown>)[c.schema] as Schema | undefined;
  if (!schema?.safeParse) throw new Error(`validation-corpus.json: no schema named ${c.schema}`);
  const result = schema.safeParse(c.input);
  return result.success
    ? { ...c, ok: true, output: result.data }
    : { ...c, ok: false, paths: fieldErrors(result.error, c.part).map((e) => e.path) };
});
writeJson("validation-vectors.json", vectors);

/** A cursor to decode: JSON text (sent as its UTF-8 bytes), raw bytes in hex (not UTF-8, say), or the wire form. */
interface CursorCase {
  sort: CursorSort;
  json?: string;
  hex?: string;
  cursor?: string;
}
const cursorCorpus = JSON.parse(readFileSync(join(packageDir, "tests", "cursor-corpus.json"), "utf8")) as {
  positions: (CursorPosition & { sort: CursorSort })[];
  decode: CursorCase[];
};
const wireForm = (c: CursorCase) =>
  c.cursor ??
  (c.hex === undefined ? Buffer.from(c.json ?? "", "utf8") : Buffer.from(c.hex, "hex")).toString("base64url");
const encoded = cursorCorpus.positions.map(({ sort, key, id }) => ({
  sort,
  key,
  id,
  cursor: encodeCursor(sort, { key, id }),
}));
// Every cursor written is also read in every sort: its own gives the position back, any other refuses it.
const toDecode = [
  ...cursorCorpus.decode.map((c) => ({ sort: c.sort, cursor: wireForm(c) })),
  ...encoded.flatMap(({ cursor }) => (Object.keys(SORT_KEYS) as CursorSort[]).map((sort) => ({ sort, cursor }))),
];
const decoded = toDecode.map(({ sort, cursor }) => ({ sort, cursor, position: decodeCursor(cursor, sort) ?? null }));
writeJson("cursor-vectors.json", { encoded, decoded });
process.stdout.write(
  `wrote ${join(outDir, "contract.json")}, docs.html, validation-vectors.json (${vectors.length} cases) and cursor-vectors.json (${encoded.length} written, ${decoded.length} read)\n`,
);
