import {
  BODY_LIMIT_BYTES,
  hasNonJsonBody,
  isJsonContentType,
  parseJsonBody,
  unsupportedMediaType,
} from "@api-ref/server";
import express, { type RequestHandler } from "express4";

// express.raw() reads the body's bytes (and answers 413 past the limit); parseJsonBody then decodes them as strict
// UTF-8 and parses them while refusing prototype-poisoning keys, which express.json() cannot refuse.
const readBytes = express.raw({
  type: (req) => isJsonContentType(req.headers["content-type"]),
  limit: BODY_LIMIT_BYTES,
});

/** For routes that take a JSON body: 415 for other media types, 413 past 1 MiB, 400 for malformed JSON. */
export const jsonBody: RequestHandler = (req, res, next) => {
  if (hasNonJsonBody(req.headers)) return next(unsupportedMediaType());
  readBytes(req, res, (error?: unknown) => {
    if (error) return next(error);
    try {
      // An empty body is no body: validation then reports `body` as required. (Express 4's body-parser sets
      // `req.body` to `{}` when it reads nothing; Express 5's leaves it undefined: only a Buffer is a body here.)
      req.body = Buffer.isBuffer(req.body) && req.body.length > 0 ? parseJsonBody(req.body) : undefined;
    } catch (parseError) {
      return next(parseError);
    }
    next();
  });
};
