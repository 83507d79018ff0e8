import type { IncomingMessage } from "node:http";
import {
  BODY_LIMIT_BYTES,
  hasNonJsonBody,
  isJsonContentType,
  malformedJson,
  parseJsonBody,
  payloadTooLarge,
  unsupportedMediaType,
} from "@api-ref/server";
import {
  type CallHandler,
  type ExecutionContext,
  Injectable,
  type NestInterceptor,
  UseInterceptors,
} from "@nestjs/common";
import type { NestFastifyApplication } from "@nestjs/platform-fastify";
import getRawBody from "raw-body";
import type { Observable } from "rxjs";
import { rawRequestOf } from "../common/http.ts";

/** 415 for other media types, 413 past 1 MiB, 400 for malformed JSON and prototype-poisoning keys. */
async function readJsonBody(req: IncomingMessage): Promise<unknown> {
  const contentType = req.headers["content-type"];
  if (hasNonJsonBody(req.headers)) throw unsupportedMediaType();
  if (!isJsonContentType(contentType)) return undefined;
  let bytes: Buffer;
  try {
    // raw-body refuses a declared length over the limit before reading, and counts bytes while it reads.
    bytes = await getRawBody(req, { length: req.headers["content-length"] ?? null, limit: BODY_LIMIT_BYTES });
  } catch (error) {
    throw (error as { type?: string }).type === "entity.too.large" ? payloadTooLarge() : malformedJson();
  }
  // An empty body is no body: validation then reports `body` as required.
  return bytes.length > 0 ? parseJsonBody(bytes) : undefined;
}

/**
 * Reads the JSON body of the routes that take one, after routing — so a wrong method is a 405 whatever the
 * body — and before any pipe, so that the contract's order holds: 415, 413, malformed JSON, then validation
 * of params, query and body. Both platforms leave the body unread for it (`bodyParser: false`, and on Fastify `leaveBodiesUnreadOnFastify`).
 */
@Injectable()
export class JsonBodyInterceptor implements NestInterceptor {
  async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    const request = context
      .switchToHttp()
      .getRequest<(IncomingMessage | { raw: IncomingMessage }) & { body?: unknown }>();
    request.body = await readJsonBody(rawRequestOf(request));
    return next.handle();
  }
}

/** Marks a handler that takes a JSON body. */
export const JsonBody = () => UseInterceptors(JsonBodyInterceptor);

/**
 * Fastify parses a body before the handler on every route (DELETE included) and would answer 415 itself; every
 * content type is passed through unread instead, for the interceptor.
 */
export function leaveBodiesUnreadOnFastify(app: NestFastifyApplication) {
  const fastify = app.getHttpAdapter().getInstance();
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser("*", (_request, _payload, done) => done(null, undefined));
  // A DELETE reads no body and ignores whatever it is sent (README "Edges of HTTP" in packages/contract), but
  // Fastify judges its `content-type` before any parser runs (`application/json, text/plain` would be its 415):
  // the header means nothing there and is dropped.
  fastify.addHook("onRequest", (request, _reply, done) => {
    if (request.method === "DELETE") delete request.raw.headers["content-type"];
    done();
  });
}
