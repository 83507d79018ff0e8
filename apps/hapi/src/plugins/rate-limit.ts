import { problem } from "@api-ref/contract";
import { AUTH_RATE_WINDOW_SECONDS } from "@api-ref/server";
import type { Plugin } from "@hapi/hapi";

declare module "@hapi/hapi" {
  interface PluginSpecificConfiguration {
    /** `true` on a route the auth rate limit counts: `options: { plugins: { "auth-rate-limit": true } }`. */
    "auth-rate-limit"?: boolean;
  }
}

/** One client's window on one route: how many requests it has made since the window began, and when it ends. */
interface Window {
  count: number;
  endsAt: number;
}

/**
 * The rate limit of the routes that say `plugins: { "auth-rate-limit": true }` (register, login): at most `limit`
 * requests per client address and route in a fixed window of AUTH_RATE_WINDOW_SECONDS, whatever their outcome. Hapi
 * has no maintained official rate-limit plugin, so this small one is written here: in memory, each process counting
 * its own. Its `onPreAuth` extension runs after routing (404 and 405 first) and before the payload step, so past the
 * limit nothing about the request is read: a 429 comes before 415, 413, malformed JSON and validation.
 */
export const rateLimitPlugin: Plugin<{ limit: number }> = {
  name: "auth-rate-limit",
  register(server, { limit }) {
    const windowMs = AUTH_RATE_WINDOW_SECONDS * 1000;
    const windows = new Map<string, Window>();
    let nextSweep = 0;

    server.ext("onPreAuth", (request, h) => {
      if (!request.route.settings.plugins?.["auth-rate-limit"]) return h.continue;
      const now = Date.now();
      // Windows that have ended are forgotten, at most once a window: the map holds only the clients of the last two.
      if (now >= nextSweep) {
        for (const [key, window] of windows) if (window.endsAt <= now) windows.delete(key);
        nextSweep = now + windowMs;
      }
      // The socket's address (Hapi's `remoteAddress`): no forwarding header is trusted. Each route counts apart.
      const key = `${request.route.path} ${request.info.remoteAddress}`;
      let window = windows.get(key);
      if (!window || window.endsAt <= now) {
        window = { count: 0, endsAt: now + windowMs };
        windows.set(key, window);
      }
      window.count += 1;
      if (window.count <= limit) return h.continue;
      const retryAfter = Math.max(1, Math.ceil((window.endsAt - now) / 1000));
      const detail = `Too many requests to ${request.path} from this address; retry in ${retryAfter} s.`;
      throw problem("tooManyRequests", detail, { headers: { "retry-after": String(retryAfter) } });
    });
  },
};
