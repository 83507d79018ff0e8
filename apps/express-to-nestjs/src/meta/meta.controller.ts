import { randomUUID } from "node:crypto";
import { docsHtml, EchoBody, openApiDocument } from "@api-ref/contract";
import type { DataAccess, HttpMetrics } from "@api-ref/core";
import type { ResponseHeaders } from "@api-ref/nestjs/common/http";
import { JsonBody } from "@api-ref/nestjs/common/json-body.interceptor";
import { DATABASE } from "@api-ref/nestjs/database/database.module";
import { METRICS } from "@api-ref/nestjs/metrics";
import { Body, Controller, Get, Header, HttpCode, Inject, Post, Res } from "@nestjs/common";

export const FRAMEWORK = "express-to-nestjs";

/**
 * The operational routes move with the server, in the first step: /health names the server that answers, and
 * /metrics renders the one registry both worlds record into. apps/nestjs's MetaController, with this app's name
 * (its own says `nestjs`).
 */
@Controller()
export class MetaController {
  constructor(
    @Inject(DATABASE) private readonly database: DataAccess,
    @Inject(METRICS) private readonly metrics: HttpMetrics,
  ) {}

  @Get()
  @Header("content-type", "text/plain; charset=utf-8")
  hello() {
    return "Hello World!";
  }

  @Get("health")
  health() {
    return { status: "ok", timestamp: Date.now(), framework: FRAMEWORK };
  }

  @Get("ready")
  async ready() {
    await this.database.ping();
    return { status: "ok" };
  }

  @Post("echo")
  @HttpCode(200)
  @JsonBody()
  echo(@Body({ schema: EchoBody }) body: Record<string, unknown>) {
    return { ...body, txnId: randomUUID() };
  }

  @Get("metrics")
  async renderMetrics(@Res({ passthrough: true }) res: ResponseHeaders) {
    res.header("content-type", this.metrics.contentType);
    return this.metrics.render();
  }

  @Get("openapi.json")
  openApi() {
    return openApiDocument;
  }

  @Get("docs")
  @Header("content-type", "text/html; charset=utf-8")
  docs(): string {
    return docsHtml();
  }
}
