// Small HTTP rules of the contract that are the same in every framework: request ids, which bodies count as
// JSON, how JSON is parsed safely. Each app calls them from its own hooks or middleware.
import { randomUUID } from "node:crypto";
import { type ProblemError, problem, REQUEST_ID_PATTERN } from "@api-ref/contract";
import secureJson from "secure-json-parse";

export const BODY_LIMIT_BYTES = 1024 * 1024;

/** The client's `x-request-id` when it is 1–128 characters of [A-Za-z0-9._-], else a fresh UUID. */
export function requestIdFrom(header: string | string[] | undefined): string {
  return typeof header === "string" && REQUEST_ID_PATTERN.test(header) ? header : randomUUID();
}

/** A request announces a body: chunked, or a `content-length` above 0 (no header and `0` both mean none). */
export function hasBody(headers: { "content-length"?: string; "transfer-encoding"?: string }): boolean {
  return headers["transfer-encoding"] !== undefined || Number(headers["content-length"] ?? 0) > 0;
}

/** A body is announced and it is not JSON (or is content-encoded): the contract's 415, before a byte is read. */
export const hasNonJsonBody = (headers: Parameters<typeof hasBody>[0] & Parameters<typeof isJsonBody>[0]) =>
  hasBody(headers) && !isJsonBody(headers);

/** `application/json` or any `application/*+json`, with at most a UTF-8 charset. */
export function isJsonContentType(header: string | undefined): boolean {
  if (!header) return false;
  const [essence = "", ...params] = header
    .toLowerCase()
    .split(";")
    .map((p) => p.trim());
  if (essence !== "application/json" && !/^application\/[a-z0-9.+-]+\+json$/.test(essence)) return false;
  const charset = params.find((p) => p.startsWith("charset="));
  return !charset || /^charset="?utf-8"?$/.test(charset);
}

/** A body the contract accepts: JSON (as above) and not content-encoded (`identity` at most). */
export function isJsonBody(headers: { "content-type"?: string; "content-encoding"?: string }): boolean {
  const encoding = headers["content-encoding"]?.trim().toLowerCase();
  return isJsonContentType(headers["content-type"]) && (!encoding || encoding === "identity");
}

export const unsupportedMediaType = () => problem("unsupportedMediaType", "Send the body as application/json (UTF-8).");
export const payloadTooLarge = () => problem("payloadTooLarge", `The body is larger than ${BODY_LIMIT_BYTES} bytes.`);
export const malformedJson = () => problem("malformedJson", "The body is not valid JSON.");
/**
 * raw-body's errors (and body-parser's, which reads with raw-body) carry a `type`: the contract's problem for each,
 * for the apps that read bodies with them (Express, Koa); `undefined` for any other error.
 */
export function fromRawBodyError(error: unknown): ProblemError | undefined {
  switch ((error as { type?: unknown } | null)?.type) {
    case "entity.too.large":
      return payloadTooLarge();
    case "charset.unsupported":
    case "encoding.unsupported":
      return unsupportedMediaType();
    case "entity.parse.failed":
    case "request.aborted":
    case "request.size.invalid":
      return malformedJson();
    default:
      return undefined;
  }
}

export const prototypePoisoning = () =>
  problem("validation", "The body carries forbidden keys.", {
    errors: [{ path: "body", message: "must not contain __proto__ or constructor.prototype keys" }],
  });

/** The deepest nesting of arrays and objects a body may have; deeper is a 400 (JSON.stringify would overflow). */
export const MAX_JSON_DEPTH = 1000;

/** True when the JSON text nests arrays/objects deeper than MAX_JSON_DEPTH (brackets inside strings ignored). */
export function jsonTextTooDeep(text: string): boolean {
  // Each level costs at least two characters, so short texts cannot be too deep: most bodies skip the scan.
  if (text.length <= 2 * MAX_JSON_DEPTH) return false;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92 /* \ */) i++;
      else if (c === 34 /* " */) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 91 /* [ */ || c === 123 /* { */) {
      if (++depth > MAX_JSON_DEPTH) return true;
    } else if (c === 93 /* ] */ || c === 125 /* } */) depth--;
  }
  return false;
}

/** The same limit on an already parsed value (for frameworks that parse bodies themselves); iterative. */
export function jsonValueTooDeep(value: unknown): boolean {
  const pending: Array<[unknown, number]> = [[value, 0]];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [node, depth] = next;
    if (node === null || typeof node !== "object") continue;
    if (depth + 1 > MAX_JSON_DEPTH) return true;
    for (const child of Object.values(node))
      if (child !== null && typeof child === "object") pending.push([child, depth + 1]);
  }
  return false;
}

/**
 * JSON.parse that refuses `__proto__` and `constructor.prototype` keys anywhere (400 either way). `text` is the
 * decoded body: a byte-order mark still in it is not JSON (a 400; `parseJsonBody` drops the one a body may have).
 */
export function parseJson(text: string): unknown {
  // secure-json-parse would skip a leading U+FEFF itself: a second one after the decoder dropped the first.
  if (text.charCodeAt(0) === 0xfeff) throw malformedJson();
  if (jsonTextTooDeep(text)) throw problem("malformedJson", `The body nests deeper than ${MAX_JSON_DEPTH} levels.`);
  try {
    return secureJson.parse(text, undefined, { protoAction: "error", constructorAction: "error" });
  } catch (error) {
    if (error instanceof SyntaxError && /forbidden prototype property/.test(error.message)) throw prototypePoisoning();
    throw malformedJson();
  }
}

/** Strict UTF-8: bytes that are not UTF-8 (surrogates included) throw; one leading byte-order mark is dropped. */
const UTF8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });

/**
 * A JSON body from its bytes (README "Edges of HTTP"): UTF-8 only (RFC 8259 §8.1), so invalid UTF-8 is a 400
 * `malformed-json` rather than U+FFFD in the data; one UTF-8 byte-order mark is ignored (RFC 8259 lets parsers
 * ignore it), a second is not JSON. Then `parseJson`.
 */
export function parseJsonBody(bytes: Uint8Array): unknown {
  let text: string;
  try {
    text = UTF8.decode(bytes);
  } catch {
    throw problem("malformedJson", "The body is not valid UTF-8.");
  }
  return parseJson(text);
}
