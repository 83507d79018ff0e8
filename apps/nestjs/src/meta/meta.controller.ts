import { randomUUID } from "node:crypto";
import * as contract from "@api-ref/contract";
import type { DataAccess } from "@api-ref/data-access";
import type { HttpMetrics } from "@api-ref/server";
import { Body, Controller, Get, Header, HttpCode, Inject, Post, Res } from "@nestjs/common";
import { Public } from "../auth/public.decorator.ts";
import type { ResponseHeaders } from "../common/http.ts";
import { DATA_ACCESS } from "../data-access/data-access.module.ts";
import { JsonBody } from "../edges/json-body.interceptor.ts";
import { FRAMEWORK, METRICS } from "../metrics.ts";

/**
 * The routes that are not a resource: hello world, liveness, readiness, echo, metrics and the API's own docs. All
 * public (`/metrics` holds route templates and timings, never a user's data).
 */
@Controller()
@Public()
export class MetaController {
  constructor(
    @Inject(DATA_ACCESS) private readonly dataAccess: DataAccess,
    @Inject(METRICS) private readonly metrics: HttpMetrics,
    @Inject(FRAMEWORK) private readonly framework: string,
  ) {}

  @Get()
  @Header("content-type", "text/plain; charset=utf-8")
  hello() {
    return "Hello World!";
  }

  @Get("health")
  health() {
    return { status: "ok", timestamp: Date.now(), framework: this.framework };
  }

  @Get("ready")
  async ready() {
    await this.dataAccess.ping();
    return { status: "ok" };
  }

  @Post("echo")
  @HttpCode(200)
  @JsonBody()
  echo(@Body({ schema: contract.EchoBody }) body: Record<string, unknown>) {
    return { ...body, txnId: randomUUID() };
  }

  @Get("metrics")
  async renderMetrics(@Res({ passthrough: true }) res: ResponseHeaders) {
    res.header("content-type", this.metrics.contentType);
    return this.metrics.render();
  }

  /** The contract's own OpenAPI 3.1 document: the Zod schemas are the single source, no decorators repeat them. */
  @Get("openapi.json")
  openApi() {
    return contract.openApiDocument;
  }

  @Get("docs")
  @Header("content-type", "text/html; charset=utf-8")
  docs(@Res({ passthrough: true }) res: ResponseHeaders) {
    // The one HTML page: its own policy (its inline scripts by hash) replaces the API's, which each platform sets
    // beside helmet on every response. Made on the first request, not at start-up (it hashes the 4 MB page).
    res.header("content-security-policy", contract.docsContentSecurityPolicy());
    return contract.docsHtml();
  }
}
