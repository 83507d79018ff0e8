import type { IncomingMessage } from "node:http";
import { type CallHandler, type ExecutionContext, Injectable, type NestInterceptor } from "@nestjs/common";
import { PATH_METADATA } from "@nestjs/common/constants.js";
import { Reflector } from "@nestjs/core";
import type { Observable } from "rxjs";
import { rawRequestOf, setRouteLabel } from "./http.ts";

/**
 * Labels each request with the template of the route that matched it (`/users/:id`, never the raw path), read
 * from the `@Controller()` and `@Get()`… paths Nest keeps as metadata, so the label is the same on both
 * platforms. Global, so it runs before every other interceptor and before validation can fail.
 */
@Injectable()
export class RouteLabelInterceptor implements NestInterceptor {
  private readonly templates = new WeakMap<object, string>();

  constructor(private readonly reflector: Reflector) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const request = context.switchToHttp().getRequest<IncomingMessage | { raw: IncomingMessage }>();
    setRouteLabel(rawRequestOf(request), this.templateOf(context));
    return next.handle();
  }

  private templateOf(context: ExecutionContext): string {
    const handler = context.getHandler();
    let template = this.templates.get(handler);
    if (template === undefined) {
      const paths = [
        this.reflector.get<string | undefined>(PATH_METADATA, context.getClass()),
        this.reflector.get<string | undefined>(PATH_METADATA, handler),
      ];
      template = `/${paths
        .flatMap((p) => (p ?? "").split("/"))
        .filter(Boolean)
        .join("/")}`;
      this.templates.set(handler, template);
    }
    return template;
  }
}
