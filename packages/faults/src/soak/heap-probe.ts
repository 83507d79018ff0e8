// Loaded into a Node implementation's own process by the soak fault, with
// NODE_OPTIONS="--expose-gc --import <this file>" and FAULTS_HEAP_PROBE_PORT set: no change to any app. It serves
// one thing on that port, on 127.0.0.1 and outside the app's HTTP stack: a full garbage collection, then the
// process's memory figures as JSON. The server is unref'd, so it never keeps a process alive.
import http from "node:http";

const port = Number(process.env.FAULTS_HEAP_PROBE_PORT);
const gc = (globalThis as { gc?: () => void }).gc;

if (port > 0 && typeof gc === "function") {
  const server = http.createServer((_req, res) => {
    const started = performance.now();
    gc();
    const gcMs = performance.now() - started;
    const memory = process.memoryUsage();
    res.writeHead(200, { "content-type": "application/json" });
    res.end(
      JSON.stringify({
        pid: process.pid,
        heapUsed: memory.heapUsed,
        heapTotal: memory.heapTotal,
        rss: memory.rss,
        gcMs,
      }),
    );
  });
  // Only the first Node process of the app's tree gets the port; any other one simply has no probe.
  server.on("error", () => {});
  server.listen(port, "127.0.0.1");
  server.unref();
}
