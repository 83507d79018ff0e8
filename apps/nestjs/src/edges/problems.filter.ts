import type { IncomingMessage, ServerResponse } from "node:http";
import { PROBLEM_CONTENT_TYPE, ProblemError, problem, type Unmatched, undecodable, unmatched } from "@api-ref/contract";
import { isDatabaseUnavailable } from "@api-ref/data-access";
import { requestIdFrom, unsupportedMediaType } from "@api-ref/server";
import {
  type ArgumentsHost,
  BadRequestException,
  Catch,
  type ExceptionFilter,
  HttpException,
  Logger,
  NotFoundException,
} from "@nestjs/common";
import { HttpAdapterHost } from "@nestjs/core";
import { matchedRouteOf, type PlatformRoute, rawRequestOf, routeLabelOf, setRouteLabel } from "../common/http.ts";

/** The `content-type` of every error, on both platforms alike. */
export const PROBLEM_CONTENT_TYPE_UTF8 = `${PROBLEM_CONTENT_TYPE}; charset=utf-8`;

/**
 * The one exception filter, bound globally: every error leaves as the contract's `application/problem+json`,
 * and Nest's own error bodies (`{ statusCode, message }`) never reach a client.
 *
 * - `ProblemError`s — from validation, body reading and the shared data access — are sent as they are.
 * - Nest's router answers an unknown route with a `NotFoundException`: a 405 with `allow` when the contract
 *   serves the path with other methods, a 404 otherwise (Nest itself has no 405). On Fastify, any error on a
 *   request no route matched gets that answer too.
 * - Express's router cannot decode a path like `/users/%zz` (Nest hands its `URIError` over as the cause of a
 *   `BadRequestException`): a 400 on the parameter, after the method check.
 * - Fastify refuses a `content-type` it cannot parse as one media type (`application/json, text/plain`) with its
 *   own 415 error before any interceptor runs (the adapter hands it over as the cause of an `HttpException`):
 *   the contract's 415.
 * - An unreachable database is a 503; anything else is a 500 without details, logged.
 *
 * A guard's refusal (401, 403) comes before the route-label interceptor has run: the filter labels such a request
 * with the route its platform matched, so that its metrics name the route like every other answer's.
 */
const fastifyCode = (error: unknown) =>
  typeof error === "object" && error !== null && "code" in error ? error.code : undefined;

@Catch()
export class ProblemsFilter implements ExceptionFilter {
  private readonly logger = new Logger("ProblemsFilter");

  constructor(private readonly adapterHost: HttpAdapterHost) {}

  catch(exception: unknown, host: ArgumentsHost) {
    const { httpAdapter } = this.adapterHost;
    const http = host.switchToHttp();
    const platformRequest = http.getRequest<
      (IncomingMessage | { raw: IncomingMessage; is404?: boolean }) & PlatformRoute
    >();
    const request = rawRequestOf(platformRequest);
    const response = http.getResponse<unknown>();
    // On Fastify, a request no route matched can still fail in Fastify itself before Nest's not-found handler
    // runs (a QUERY without a content type is a 400 there): the contract checks the path first, so it is the
    // path's 404 or 405 whatever Fastify found.
    const unmatchedOnFastify = "is404" in platformRequest && platformRequest.is404 === true;
    const error = unmatchedOnFastify
      ? this.labelled(request, unmatched(request.method, request.url))
      : this.toProblem(exception, request);
    if (routeLabelOf(request) === undefined) {
      const route = matchedRouteOf(platformRequest);
      if (route) setRouteLabel(request, route);
    }
    // Errors raised before any middleware ran (an undecodable path) have no request id yet.
    const raw = (response as { raw?: ServerResponse }).raw ?? (response as ServerResponse);
    if (!raw.hasHeader("x-request-id")) raw.setHeader("x-request-id", requestIdFrom(request.headers["x-request-id"]));
    for (const [name, value] of Object.entries(error.headers)) httpAdapter.setHeader(response, name, value);
    httpAdapter.setHeader(response, "content-type", PROBLEM_CONTENT_TYPE_UTF8);
    httpAdapter.reply(response, error.toJSON(), error.status);
  }

  private toProblem(exception: unknown, request: IncomingMessage): ProblemError {
    if (exception instanceof ProblemError) return exception;
    if (exception instanceof NotFoundException) return this.labelled(request, unmatched(request.method, request.url));
    if (exception instanceof BadRequestException && exception.cause instanceof URIError) {
      return this.labelled(request, undecodable(request.method, request.url));
    }
    if (exception instanceof HttpException && fastifyCode(exception.cause) === "FST_ERR_CTP_INVALID_MEDIA_TYPE") {
      return unsupportedMediaType();
    }
    if (isDatabaseUnavailable(exception)) {
      this.logger.warn(`database unavailable: ${(exception as Error).message}`);
      return problem("unavailable", "The database cannot be reached; try again shortly.");
    }
    this.logger.error(exception instanceof Error ? (exception.stack ?? exception.message) : String(exception));
    return problem("internal", "An unexpected error occurred.");
  }

  private labelled(request: IncomingMessage, { problem, template }: Unmatched): ProblemError {
    if (template) setRouteLabel(request, template);
    return problem;
  }
}
