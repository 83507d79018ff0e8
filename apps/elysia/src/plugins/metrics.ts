import { unmatched } from "@api-ref/contract";
import { type HttpMetrics, UNMATCHED_ROUTE } from "@api-ref/server";
import { Elysia } from "elysia";

/**
 * Counts and times every request by method, route template and status: the clock starts in `onRequest` (before
 * routing) and stops in `onAfterResponse`, whose `route` is the template Elysia matched (`/users/:id`). A request no
 * route took is labelled as the contract's `unmatched()` sees it (a 405's path template, else unmatched).
 */
export const recordMetrics = (metrics: HttpMetrics) => {
  const started = new WeakMap<Request, bigint>();
  return new Elysia({ name: "metrics" })
    .onRequest(({ request }) => {
      started.set(request, process.hrtime.bigint());
    })
    .onAfterResponse({ as: "global" }, ({ request, route, path, set }) => {
      const start = started.get(request);
      if (start === undefined) return;
      const template = route || (unmatched(request.method, path).template ?? UNMATCHED_ROUTE);
      metrics.observe(
        request.method,
        template,
        Number(set.status ?? 200),
        Number(process.hrtime.bigint() - start) / 1e9,
      );
    });
};
