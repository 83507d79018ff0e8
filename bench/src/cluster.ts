// `--workers N` for the Node servers: node:cluster forks N copies of the unchanged app (so its code stays as its
// framework writes it), sharing its port; signals go to every worker, and one that dies is not replaced (a failure).
// usage (cwd: the app's directory): WEB_CONCURRENCY=N node bench/src/cluster.ts <entry> [args...]
import cluster from "node:cluster";

const [entry, ...args] = process.argv.slice(2);
const workers = Number(process.env.WEB_CONCURRENCY ?? 1);
if (!entry || !Number.isInteger(workers) || workers < 1) {
  process.stderr.write("usage: WEB_CONCURRENCY=N node cluster.ts <entry> [args...]\n");
  process.exit(2);
}

cluster.setupPrimary({ exec: entry, args });
let stopping = false;
let exitCode = 0;
for (let i = 0; i < workers; i++) cluster.fork();
cluster.on("exit", (worker, code, signal) => {
  if (code) exitCode ||= code;
  if (!stopping) {
    process.stderr.write(`cluster: worker ${worker.process.pid} exited (${code ?? signal}); stopping the others\n`);
    exitCode ||= 1;
    stop("SIGTERM");
  }
  if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(exitCode);
});

function stop(signal: NodeJS.Signals) {
  stopping = true;
  for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill(signal);
}
process.once("SIGTERM", () => stop("SIGTERM"));
process.once("SIGINT", () => stop("SIGINT"));
