/** Injection token of the Prometheus metrics (`@api-ref/server`'s `createHttpMetrics()`). */
export const METRICS = Symbol("METRICS");

/** Injection token of the server's name: the `framework` of /health and the label of every metric. */
export const FRAMEWORK = Symbol("FRAMEWORK");
