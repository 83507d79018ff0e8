import { Counter, collectDefaultMetrics, Histogram, Registry } from "prom-client";

/** The route label of requests that matched no route (never the raw path: that would explode cardinality). */
export const UNMATCHED_ROUTE = "unmatched";

/**
 * `http_requests_total` and `http_request_duration_seconds` by method, route template and status, every series
 * labelled with the server's `framework`, which /health reports too.
 */
export function createHttpMetrics(framework: string) {
  const registry = new Registry();
  registry.setDefaultLabels({ framework });
  collectDefaultMetrics({ register: registry });
  const labelNames = ["method", "route", "status"] as const;
  const requests = new Counter({
    name: "http_requests_total",
    help: "HTTP requests served",
    labelNames,
    registers: [registry],
  });
  const duration = new Histogram({
    name: "http_request_duration_seconds",
    help: "HTTP request duration in seconds",
    labelNames,
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  return {
    /** The server's name: the `framework` label of every series and the `framework` of /health. */
    framework,
    contentType: registry.contentType,
    /** Records one finished request. */
    observe(method: string, route: string, status: number, seconds: number) {
      const labels = { method, route, status: String(status) };
      requests.inc(labels);
      duration.observe(labels, seconds);
    },
    render: () => registry.metrics(),
  };
}
export type HttpMetrics = ReturnType<typeof createHttpMetrics>;
