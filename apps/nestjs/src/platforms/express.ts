// The Express platform: Nest's adapter with the contract's server limits, strict paths and security headers.
import { createServer } from "node:http";
import { httpServerOptions } from "@api-ref/server";
import type { NestApplicationOptions } from "@nestjs/common";
import { ExpressAdapter, type NestExpressApplication } from "@nestjs/platform-express";
import { useSecurityHeadersOnExpress } from "../edges/security-headers.ts";
import { strictExpress } from "../edges/strict-paths.ts";

/**
 * The Express platform's server is `http.createServer(app)` with Node's defaults; this one states the contract's
 * limits (head size, time for the head and for the whole request, keep-alive; @api-ref/server's limits.ts).
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
  adapter: () => new LimitedExpressAdapter(strictExpress()),

  configure<App extends NestExpressApplication>(app: App): App {
    useSecurityHeadersOnExpress(app);
    app.disable("x-powered-by");
    // No ETags (no other framework here computes them), and the `simple` query parser (`?a[b]=1` stays a key).
    app.set("etag", false);
    app.set("query parser", "simple");
    return app;
  },
};
