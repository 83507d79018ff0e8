// Normalises responses for the differential parity check, per docs/api.md "Parity": generated values (new ids,
// timestamps, txnId, tokens, request ids) become placeholders, consistently over a whole run, so that two
// instances that behave alike produce equal normalised runs.
//
// - A new id (a UUID that is neither a seeded row's id nor written in the sequence itself) becomes `<id:n>`, n
//   counting new ids in the order they first appear (objects are walked in sorted-key order, so that the order
//   of keys in a body does not matter). The same id always gets the same placeholder within a run.
// - A timestamp made while request j was being answered becomes `<time of step j>`: each request's window runs
//   from just before it was sent to just after its answer arrived, and the runner leaves a gap between
//   requests, so the windows do not overlap. Seeded timestamps lie outside every window and stay as they are.
// - A list's `nextCursor` is compared by what it encodes ([sort, key, id]), its key and id normalised as above: a
//   page that ends on a row made during the run has a cursor holding that row's new id and time.
// - `token` values, `/echo`'s `txnId` and generated `x-request-id`s become fixed placeholders; `/health`'s
//   `framework` and `timestamp` too.
// - Problems: `detail` is free text (ignored); `errors` is compared as the sorted set of its paths.
// - Headers compared: the media type of `content-type`, `location`, `allow`, `www-authenticate`, `x-request-id`.
import type { StepRequest } from "./parity-sequence.ts";

export interface NormalisedResponse {
  status: number | "no answer";
  headers: Record<string, string | null>;
  body: unknown;
}

/** One answer as the parity check keeps it: exactly what came back, and when it was sent and answered. */
export interface RawResponse {
  status: number;
  /** Lower-cased header names; repeated headers joined with `, `. */
  headers: Record<string, string>;
  text: string;
  /** Date.now() just before the request was sent and just after the response ended. */
  sentAt: number;
  receivedAt: number;
}

export type Outcome = { response: RawResponse } | { error: string; sentAt: number; receivedAt: number };

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;
const UUID_EXACT = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;
const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const JWT = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;
/** Slack around a request's window, for the database rounding timestamps to milliseconds. */
const WINDOW_SLACK_MS = 2;
/** Bodies that other check groups compare by content; here only their status and media type are compared. */
const COMPARED_ELSEWHERE = new Set(["/metrics", "/openapi.json", "/docs"]);

export class RunNormaliser {
  private readonly newIds = new Map<string, string>();
  private readonly windows: ReadonlyArray<readonly [number, number]>;

  /**
   * @param known lower-cased UUIDs that are not generated: the seed's ids and the ids the sequence itself names
   * @param outcomes the run, in step order (its send/receive times delimit each step's window)
   */
  private readonly known: ReadonlySet<string>;

  constructor(known: ReadonlySet<string>, outcomes: readonly Outcome[]) {
    this.known = known;
    this.windows = outcomes.map((o) => {
      const { sentAt, receivedAt } = "response" in o ? o.response : o;
      return [sentAt - WINDOW_SLACK_MS, receivedAt + WINDOW_SLACK_MS] as const;
    });
  }

  normalise(sent: StepRequest, outcome: Outcome): NormalisedResponse {
    if (!("response" in outcome)) return { status: "no answer", headers: {}, body: outcome.error };
    const res = outcome.response;
    const path = sent.path.split("?")[0] ?? "";
    const mediaType = res.headers["content-type"]?.split(";")[0]?.trim().toLowerCase() ?? null;
    const body = this.body(sent, path, mediaType, res);
    const sentRequestId = sent.headers["x-request-id"];
    const requestId = res.headers["x-request-id"];
    return {
      status: res.status,
      headers: {
        "content-type": mediaType,
        location: res.headers.location === undefined ? null : this.ids(res.headers.location),
        allow: res.headers.allow ?? null,
        "www-authenticate": res.headers["www-authenticate"] ?? null,
        "x-request-id":
          requestId === undefined
            ? null
            : requestId === sentRequestId
              ? "<the request's own>"
              : UUID_EXACT.test(requestId)
                ? "<generated uuid>"
                : requestId,
      },
      body,
    };
  }

  private body(sent: StepRequest, path: string, mediaType: string | null, res: RawResponse): unknown {
    if (sent.method === "HEAD") return null;
    if (res.text === "") return null;
    if (res.status === 200 && COMPARED_ELSEWHERE.has(path)) return "<compared by another check group>";
    const isJson =
      mediaType === "application/json" || mediaType === "application/problem+json" || /\+json$/.test(mediaType ?? "");
    if (!isJson) return this.value(res.text);
    let parsed: unknown;
    try {
      parsed = JSON.parse(res.text);
    } catch {
      return { "<unparseable JSON>": res.text };
    }
    if (!isObject(parsed)) return this.value(parsed);
    let object = parsed;
    if (mediaType === "application/problem+json") object = problem(object);
    if (path === "/health" && res.status === 200) {
      object = {
        ...object,
        ...(typeof object.framework === "string" ? { framework: "<framework>" } : {}),
        ...(Number.isInteger(object.timestamp) ? { timestamp: "<epoch ms>" } : {}),
      };
    }
    if (path === "/echo" && typeof object.txnId === "string" && UUID_V4.test(object.txnId)) {
      object = { ...object, txnId: "<txnId>" };
    }
    return this.value(object);
  }

  /** Walks a JSON value in sorted-key order, replacing generated values. */
  private value(value: unknown, key?: string): unknown {
    if (typeof value === "string") {
      if (key === "token" && JWT.test(value)) return "<token>";
      if (key === "nextCursor") return this.cursor(value);
      return this.timestamp(value) ?? this.ids(value);
    }
    if (Array.isArray(value)) return value.map((v) => this.value(v));
    if (isObject(value)) {
      const out: Record<string, unknown> = {};
      for (const k of Object.keys(value).sort()) out[k] = this.value(value[k], k);
      return out;
    }
    return value;
  }

  /** A cursor as the position it names, with generated values replaced; as it is, if it names none. */
  private cursor(value: string): unknown {
    let position: unknown;
    try {
      position = JSON.parse(Buffer.from(value, "base64url").toString("utf8"));
    } catch {
      return value;
    }
    return Array.isArray(position) ? { "<cursor>": this.value(position) } : value;
  }

  private timestamp(value: string): string | undefined {
    if (!ISO_TIMESTAMP.test(value)) return undefined;
    const t = Date.parse(value);
    const step = this.windows.findIndex(([from, to]) => t >= from && t <= to);
    return step === -1 ? undefined : `<time of step ${step}>`;
  }

  private ids(value: string): string {
    return value.replace(UUID, (id) => {
      const lower = id.toLowerCase();
      if (this.known.has(lower)) return id;
      let placeholder = this.newIds.get(lower);
      if (!placeholder) {
        placeholder = `<id:${this.newIds.size + 1}>`;
        this.newIds.set(lower, placeholder);
      }
      return placeholder;
    });
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** `detail` is free text; `errors` compares as the sorted set of its paths. */
function problem(body: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...body };
  if (typeof out.detail === "string") out.detail = "<detail>";
  if (Array.isArray(out.errors) && out.errors.every((e) => isObject(e) && typeof e.path === "string")) {
    out.errors = [...new Set(out.errors.map((e) => (e as { path: string }).path))].sort();
  }
  return out;
}

/** JSON with sorted keys, for messages. */
export function canonical(value: unknown): string {
  return JSON.stringify(
    value,
    (_, v: unknown) =>
      isObject(v)
        ? Object.fromEntries(
            Object.keys(v)
              .sort()
              .map((k) => [k, v[k]]),
          )
        : (v as unknown),
    2,
  );
}

/** Every UUID written in a text, lower-cased. */
export function uuidsIn(text: string): string[] {
  return [...text.matchAll(UUID)].map((m) => m[0].toLowerCase());
}
