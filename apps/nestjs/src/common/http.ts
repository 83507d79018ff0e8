// The few things about requests and responses that differ between Nest's Express and Fastify platforms, in one
// place, so that controllers, interceptors and filters stay platform-agnostic.
import type { IncomingMessage } from "node:http";
import { createParamDecorator, type ExecutionContext } from "@nestjs/common";

/**
 * What a handler needs of the response: Express's `Response` and Fastify's `FastifyReply` both have
 * `header(name, value)`. Taken with `@Res({ passthrough: true })`, so Nest still sends the return value.
 */
export interface ResponseHeaders {
  header(name: string, value: string): unknown;
}

/** Express's request is Node's `IncomingMessage`; Fastify's wraps it as `request.raw`. */
export function rawRequestOf(request: IncomingMessage | { raw: IncomingMessage }): IncomingMessage {
  return "raw" in request ? request.raw : request;
}

/** The request headers as a parameter that a schema can validate (Nest's own `@Headers()` takes no schema). */
export const RequestHeaders = createParamDecorator(
  (_data: unknown, context: ExecutionContext) => context.switchToHttp().getRequest<IncomingMessage>().headers,
);

/** What Express's `req` and Fastify's `FastifyRequest` say about the route they matched. */
export interface PlatformRoute {
  route?: { path?: unknown };
  routeOptions?: { url?: string };
}

/**
 * The template of the route the platform matched (Express's `req.route.path`, Fastify's `request.routeOptions.url`;
 * Nest registers its routes under the same template on both), or nothing when no route matched.
 */
export function matchedRouteOf(request: PlatformRoute): string | undefined {
  const path = request.route?.path ?? request.routeOptions?.url;
  return typeof path === "string" ? path : undefined;
}

const routeLabels = new WeakMap<IncomingMessage, string>();

/** Records which route template served a request (the `route` label of its metrics). */
export const setRouteLabel = (request: IncomingMessage, route: string) => routeLabels.set(request, route);
export const routeLabelOf = (request: IncomingMessage) => routeLabels.get(request);
