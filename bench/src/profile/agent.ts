// Loaded into a Node server by `pnpm bench --profile` (node --import): the inspector's sampling profiler, started
// and stopped by SIGUSR2 so that only the measured part of a cell is recorded. Each stop writes
// `$BENCH_PROFILE_DIR/<n>.cpuprofile` (n = 0, 1, … in the order of the stops), the format Chrome DevTools reads.
import { writeFileSync } from "node:fs";
import { Session } from "node:inspector/promises";
import { join } from "node:path";

const dir = process.env.BENCH_PROFILE_DIR;
if (dir) {
  const session = new Session();
  session.connect();
  await session.post("Profiler.enable");
  // 250 µs between samples: ~4,000 samples per second of CPU, a few percent of overhead.
  await session.post("Profiler.setSamplingInterval", { interval: 250 });
  let running = false;
  let stops = 0;
  let queue = Promise.resolve();
  process.on("SIGUSR2", () => {
    queue = queue.then(async () => {
      if (!running) {
        running = true;
        await session.post("Profiler.start");
        return;
      }
      running = false;
      const { profile } = await session.post("Profiler.stop");
      writeFileSync(join(dir, `${stops++}.cpuprofile`), JSON.stringify(profile));
    });
  });
}
