// What a Node app's server reads and applies, whatever its framework: the configuration, the contract's HTTP rules
// and limits, the metrics. Starting and stopping a process are the subpaths `./serve` and `./serve-fetch`.
export * from "./config.ts";
export * from "./http.ts";
export * from "./limits.ts";
export * from "./metrics.ts";
