/** Injection token of the Prometheus metrics (`@api-ref/core`'s `createHttpMetrics()`). */
export const METRICS = Symbol("METRICS");
