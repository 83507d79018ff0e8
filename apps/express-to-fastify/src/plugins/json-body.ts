// JSON bodies for native routes, checked in the contract's order: content type (415), size (413, Fastify's
// `bodyLimit`), syntax (400 malformed-json), then schema validation: the Fastify counterpart of Express's
// `jsonBody` middleware. It never touches a request an Express router answers: @fastify/express runs Express in
// `onRequest`, before Fastify reads any body, so Express's `jsonBody` still gets the raw, unread stream.
import { isJsonBody, parseJsonBody, unsupportedMediaType } from "@api-ref/core";
import type { FastifyRequest, preParsingHookHandler } from "fastify";
import fp from "fastify-plugin";

const hasBody = (headers: FastifyRequest["headers"]) =>
  headers["transfer-encoding"] !== undefined || Number(headers["content-length"] ?? 0) > 0;

/** Routes that read a body are those with a body schema; every other route ignores whatever it is sent. */
const readsBody = (request: FastifyRequest) => request.routeOptions.schema?.body !== undefined;

/** 415 (not JSON, or content-encoded) before a byte is read: Fastify would otherwise read up to the limit first. */
const refuseOtherMediaTypes: preParsingHookHandler = (request, _reply, payload, done) => {
  if (hasBody(request.headers) && !isJsonBody(request.headers)) {
    return done(unsupportedMediaType());
  }
  done(null, payload);
};

/** `application/json` and `application/*+json`, whatever their parameters (the charset was checked above). */
const JSON_MEDIA_TYPE = /^application\/(?:[\w!#$%&'*.^`|~-]+\+)?json(?:;|$)/;

export default fp(
  async (fastify) => {
    // Route-level hook, added only to routes that read a body: the others pay nothing for it.
    fastify.addHook("onRoute", (route) => {
      if (route.schema?.body === undefined) return;
      const existing = route.preParsing ?? [];
      route.preParsing = [refuseOtherMediaTypes, ...(Array.isArray(existing) ? existing : [existing])];
    });

    // Fastify's JSON parser cannot refuse prototype-poisoning keys with the contract's 400, matches neither
    // `application/*+json` nor a charset, and its text/plain parser would hand validation a string.
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
    // Anything else reaching a parser carries no body a native route reads (one that reads a body refused it above).
    fastify.addContentTypeParser("*", (_request, _payload, done) => done(null, undefined));
  },
  { name: "json-body" },
);
