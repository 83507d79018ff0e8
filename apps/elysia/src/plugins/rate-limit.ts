import { problem } from "@api-ref/contract";
import { AUTH_RATE_WINDOW_SECONDS } from "@api-ref/server";
import type { SocketAddress } from "bun";
import { Elysia } from "elysia";

/** Bun's `server.requestIP(request)`: the address of the socket a request came on. */
export type RequestIP = (request: Request) => SocketAddress | null | undefined;

export interface RateLimitOptions {
  /** Requests per client address, route and window (`config.authRateLimit`). */
  limit: number;
  /** Bun's `server.requestIP`, given by the server entry; without it, every client is one count. */
  requestIP?: RequestIP | undefined;
}

/** The one count of every client whose address the server did not hand the app (`app.handle()` in tests). */
const ADDRESS_UNKNOWN = "address-unknown";

/** One client's window on one route: how many requests it has made since the window began, and when it ends. */
interface Window {
  count: number;
  endsAt: number;
}

/**
 * `rateLimited: true` on a group of routes (register and login): at most `limit` requests per client address and
 * route in a fixed window of AUTH_RATE_WINDOW_SECONDS, whatever their outcome, in memory (each process counts its
 * own). Not `elysia-rate-limit`: it counts in `beforeHandle`, after Elysia has parsed, transformed and validated the
 * request, so a 415 or a 400 would come before its 429. Here the macro's `transform` is a group's, which runs
 * before the route's own (the `json` body read among them): past the limit nothing about the request is read, and
 * routing (404, 405) has come first.
 */
export const rateLimit = ({ limit, requestIP }: RateLimitOptions) => {
  const windowMs = AUTH_RATE_WINDOW_SECONDS * 1000;
  const windows = new Map<string, Window>();
  let nextSweep = 0;
  return new Elysia({ name: "rate-limit" }).macro({
    rateLimited: {
      transform({ request, route }) {
        const now = Date.now();
        // Windows that have ended are forgotten, at most once a window: the map holds only recent clients.
        if (now >= nextSweep) {
          for (const [key, window] of windows) if (window.endsAt <= now) windows.delete(key);
          nextSweep = now + windowMs;
        }
        // The socket's address, as Bun's server saw it: no forwarding header is trusted. Each route counts apart.
        const key = `${route} ${requestIP?.(request)?.address ?? ADDRESS_UNKNOWN}`;
        let window = windows.get(key);
        if (!window || window.endsAt <= now) {
          window = { count: 0, endsAt: now + windowMs };
          windows.set(key, window);
        }
        window.count += 1;
        if (window.count <= limit) return;
        const retryAfter = Math.max(1, Math.ceil((window.endsAt - now) / 1000));
        const detail = `Too many requests to ${route} from this address; retry in ${retryAfter} s.`;
        throw problem("tooManyRequests", detail, { headers: { "retry-after": String(retryAfter) } });
      },
    },
  });
};
