// One HTTP request with nothing added or parsed behind the caller's back: the exact method, path, headers and
// body bytes go out, and the status, headers and body text come back. The parity check needs that control
// (malformed JSON, OPTIONS, duplicate query parameters, no content-type), and records when each request was
// sent and answered so that timestamps in responses can be attributed to the request that made them.
import http from "node:http";

export interface RawRequest {
  method: string;
  /** Path and query, e.g. `/users?limit=5`, sent as they are. */
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

export interface RawResponse {
  status: number;
  /** Lower-cased header names; repeated headers joined with `, `. */
  headers: Record<string, string>;
  text: string;
  /** Date.now() just before the request was written and just after the response ended. */
  sentAt: number;
  receivedAt: number;
}

export function rawRequest(
  baseUrl: string,
  request: RawRequest,
  options: { agent?: http.Agent | false; timeoutMs?: number } = {},
): Promise<RawResponse> {
  const url = new URL(baseUrl);
  const body = request.body === undefined ? undefined : Buffer.from(request.body, "utf8");
  const headers: Record<string, string> = { ...request.headers };
  if (body !== undefined) headers["content-length"] = String(body.length);
  return new Promise((resolve, reject) => {
    const sentAt = Date.now();
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        method: request.method,
        path: request.path,
        headers,
        agent: options.agent ?? false,
        timeout: options.timeoutMs ?? 15_000,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("error", reject);
        res.on("end", () => {
          const out: Record<string, string> = {};
          for (const [name, value] of Object.entries(res.headers)) {
            if (value !== undefined) out[name.toLowerCase()] = Array.isArray(value) ? value.join(", ") : value;
          }
          resolve({
            status: res.statusCode ?? 0,
            headers: out,
            text: Buffer.concat(chunks).toString("utf8"),
            sentAt,
            receivedAt: Date.now(),
          });
        });
      },
    );
    req.on("timeout", () =>
      req.destroy(new Error(`no answer to ${request.method} ${request.path} within the timeout`)),
    );
    req.on("error", reject);
    req.end(body);
  });
}
