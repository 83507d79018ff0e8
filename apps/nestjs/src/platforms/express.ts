// The Express platform: Nest's adapter with the contract's server limits and the settings apps/express has.
import { createServer } from "node:http";
import { API_CONTENT_SECURITY_POLICY } from "@api-ref/contract";
import { httpServerOptions } from "@api-ref/core";
import type { NestApplicationOptions } from "@nestjs/common";
import { ExpressAdapter, type NestExpressApplication } from "@nestjs/platform-express";
import express from "express";
import helmet from "helmet";
import { HELMET_OPTIONS } from "../common/security-headers.ts";

/**
 * The Express platform's server is `http.createServer(app)` with Node's defaults; this one states the contract's
 * limits (head size, time for the head and for the whole request, keep-alive; @api-ref/core's limits.ts).
 */
class LimitedExpressAdapter extends ExpressAdapter {
  override initHttpServer(options: NestApplicationOptions) {
    super.initHttpServer(options);
    this.httpServer = createServer(httpServerOptions, this.getInstance());
  }
}

/**
 * Nest's Express platform as the contract wants it: `adapter()` for `NestFactory.create()` (or a testing module's
 * `createNestApplication()`), then `configure(app)` on the application it made.
 */
export const expressPlatform = {
  adapter() {
    // Strict paths, as the contract says: `/Users` and `/users/` are other paths (404). Express reads these two
    // settings when it creates its router, which the adapter does at once: they go on an instance made first.
    const server = express();
    server.set("case sensitive routing", true);
    server.set("strict routing", true);
    return new LimitedExpressAdapter(server);
  },

  configure<App extends NestExpressApplication>(app: App): App {
    // The security headers on every response, errors, 404s and 405s included (Nest's "Security → Helmet"): used
    // before Nest registers its middleware and routes (at init), so they run first. The /docs handler replaces the
    // content-security policy with its page's.
    app.use(helmet(HELMET_OPTIONS));
    app.use((_req: express.Request, res: express.Response, next: express.NextFunction) => {
      res.setHeader("content-security-policy", API_CONTENT_SECURITY_POLICY);
      next();
    });
    app.disable("x-powered-by");
    // No ETags (no other framework here computes them), and the `simple` query parser (`?a[b]=1` stays a key).
    app.set("etag", false);
    app.set("query parser", "simple");
    return app;
  },
};
