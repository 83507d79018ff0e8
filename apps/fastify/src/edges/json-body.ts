// JSON bodies only, checked in the contract's order: content type (415), size (413, Fastify's `bodyLimit`),
// syntax (400 malformed-json), then schema validation. Fastify's default parsers are replaced: its JSON parser
// cannot tell prototype-poisoning keys from other errors the way the contract wants, matches neither
// `application/*+json` nor a charset, and its text/plain parser would hand a string to validation.
import { hasNonJsonBody, parseJsonBody, unsupportedMediaType } from "@api-ref/server";
import type { FastifyRequest, onRequestHookHandler, preParsingHookHandler } from "fastify";
import fp from "fastify-plugin";

/** Routes that read a body are those with a body schema; every other route ignores whatever it is sent. */
const readsBody = (request: FastifyRequest) => request.routeOptions.schema?.body !== undefined;

/**
 * 415 before a byte is read (Fastify would otherwise read up to the limit first and answer 413), for other media
 * types and for content-encoded bodies, which the contract never decodes.
 */
const refuseOtherMediaTypes: preParsingHookHandler = (request, _reply, payload, done) => {
  if (hasNonJsonBody(request.headers)) {
    return done(unsupportedMediaType());
  }
  done(null, payload);
};

/**
 * A route that reads no body ignores whatever it is sent (README "Edges of HTTP" in packages/contract), but Fastify
 * judges the `content-type` of every DELETE before any parser runs: one it cannot parse as a single media type
 * (`application/json, text/plain`) would be its 415 here. The header means nothing on such a route: it is dropped.
 */
const ignoreContentType: onRequestHookHandler = (request, _reply, done) => {
  delete request.raw.headers["content-type"];
  done();
};

/** `application/json` and `application/*+json`, whatever their parameters (the charset was checked above). */
const JSON_MEDIA_TYPE = /^application\/(?:[\w!#$%&'*.^`|~-]+\+)?json(?:;|$)/;

export default fp(
  async (fastify) => {
    // Route-level hook, added only to routes that read a body: the others pay nothing for it.
    fastify.addHook("onRoute", (route) => {
      if (route.schema?.body === undefined) {
        const existing = route.onRequest ?? [];
        route.onRequest = [ignoreContentType, ...(Array.isArray(existing) ? existing : [existing])];
        return;
      }
      const existing = route.preParsing ?? [];
      route.preParsing = [refuseOtherMediaTypes, ...(Array.isArray(existing) ? existing : [existing])];
    });

    fastify.removeAllContentTypeParsers();
    fastify.addContentTypeParser(JSON_MEDIA_TYPE, { parseAs: "buffer" }, (request, body, done) => {
      // An empty body is no body (validation then reports `body`); so is one sent to a route that reads none.
      if ((body as Buffer).length === 0 || !readsBody(request)) return done(null, undefined);
      try {
        done(null, parseJsonBody(body as Buffer));
      } catch (error) {
        done(error as Error, undefined);
      }
    });
    // Anything else reaching a parser carries no body this API reads (a route that reads one refused it above).
    fastify.addContentTypeParser("*", (_request, _payload, done) => done(null, undefined));
  },
  { name: "json-body" },
);
