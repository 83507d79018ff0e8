// node .ci/images.ts [--run IMPL,IMPL] [--report FILE] [--sizes FILE] [--junit FILE] [-- vitest options]
//
// The container images as users build and run them, on a machine that cannot pull from Docker Hub:
//   1. the stand-ins for the base images (.ci/image-standins.sh) and for postgres (.ci/testcontainers-standin.sh);
//   2. every apps/*/Dockerfile and packages/db/Dockerfile built unchanged from the repository root, each image
//      checked as a user would want it: a non-root user, an exec-form command, a HEALTHCHECK on /health (the apps),
//      and no development dependency inside (vitest, typescript, biome, @scalar/api-reference, ruff, pytest);
//   3. the db-setup image on an empty database: no demo data unless asked; with SEED_DEMO_DATA=true run twice
//      (migrated and seeded, then left alone);
//   4. for each implementation in --run, two at a time (default: express, fastapi and elysia, a row on each base
//      image, and one more row a day in turn, so that every image runs within ten days; every image is built and
//      checked in every run):
//      its image started on a copy of that database, the contract
//      suite by URL against it (`pnpm test:contract --url … --jwt-secret … --database-url …`), the image's own
//      health check seen healthy, then `docker stop` under load: the fault suite's shutdown check
//      (packages/faults/src/shutdown.ts), with the container as its target;
//   5. compose.yaml validated (`docker-compose config`; it refuses without JWT_SECRET or API_DB_PASSWORD) and
//      `docker-compose --profile express up`: a seeded API, connected as the role that only reads and writes rows.
// Writes a vitest-shaped JSON report of its own checks (--report; CI's summary counts it), each contract run's
// report beside it (vitest-image-IMPL.json), and each image's size (--sizes). Exits 1 when anything failed.
// Containers, the network's database and compose's project are removed afterwards; images stay (the layer cache
// makes the next run on the machine fast).
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs, stripVTControlCharacters } from "node:util";
import { runShutdown, type ShutdownTarget } from "../packages/faults/src/shutdown.ts";
import { parseCommandLine } from "../packages/harness/src/command-line.ts";
import { imageOf, implementations } from "../packages/harness/src/implementations.ts";
import { freePort } from "../packages/harness/src/launcher.ts";
import { runCommand } from "../packages/harness/src/run-command.ts";
import { sql } from "../packages/harness/src/sql.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
/**
 * Run in every CI run: a row on each base image (node, python, oven/bun: elysia's run by URL is the one that needs
 * `--server`). One more row joins them each day (below); each run is a whole contract suite, about 90 s.
 */
const EVERY_RUN = ["express", "fastapi", "elysia"];
const POSTGRES_IMAGE = "api-ref/postgres-standin:15";
const PREFIX = "api-ref-ci";
/** What the engine keeps of BuildKit's cache between runs on one machine (a build of every image from nothing leaves 2.8 GB). */
const BUILD_CACHE_KEEP = "6GB";
const POSTGRES_COMMAND = ["postgres", "-c", "shared_preload_libraries=pg_stat_statements"];
/**
 * What a production image must not hold: development tools, Scalar's API reference package (the /docs page is built
 * from it in a build stage) and the repository's tests, as paths in its file system (grep -E patterns).
 */
const DEV_DEPENDENCIES = [
  "node_modules/\\.pnpm/vitest@",
  "node_modules/\\.pnpm/typescript@",
  "node_modules/\\.pnpm/@biomejs\\+",
  "node_modules/\\.pnpm/@scalar\\+api-reference@",
  "site-packages/ruff/",
  "site-packages/pytest/",
  "app/(apps|packages)/[^/]+/tests?/",
];

const log = (message: string) => process.stderr.write(`images: ${message}\n`);

const usage =
  "usage: node .ci/images.ts [--run IMPL,IMPL] [--report FILE] [--sizes FILE] [--junit FILE] [-- vitest options]";
const { values, positionals: vitestArgs } = parseCommandLine(
  usage,
  () =>
    parseArgs({
      options: {
        run: { type: "string" },
        report: { type: "string" },
        sizes: { type: "string" },
        junit: { type: "string" },
        help: { type: "boolean", short: "h" },
      },
      allowPositionals: true,
      strict: true,
    }),
  (parsed) => parsed.values.help === true,
);
const imageRows = implementations.filter((i) => imageOf(i) !== undefined);
/** The schedule: the rows outside EVERY_RUN in the list's order, one a day (UTC), so each runs every N days. */
const rotation = imageRows.filter((i) => !EVERY_RUN.includes(i.name)).map((i) => i.name);
const today = rotation[Math.floor(Date.now() / 86_400_000) % rotation.length];
const runList = values.run ? values.run.split(",").map((s) => s.trim()) : [...EVERY_RUN, ...(today ? [today] : [])];
const unknown = runList.filter((name) => !imageRows.some((i) => i.name === name));
if (unknown.length > 0) {
  process.stderr.write(
    `error: no image runs ${unknown.join(", ")}; rows with an image: ${imageRows.map((i) => i.name).join(", ")}\n${usage}\n`,
  );
  process.exit(2);
}
if (!values.run)
  log(`running ${EVERY_RUN.join(", ")} and today's row of the rotation, ${today} (${rotation.join(" → ")})`);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs a command from the repository root; resolves with its exit code and the end of its output (the harness's
 * runCommand), or with its output shown as it comes (`show`; a string is put before each line, for commands that
 * run side by side).
 */
async function run(
  command: string,
  args: string[],
  options: { env?: NodeJS.ProcessEnv; show?: boolean | string } = {},
) {
  const env = options.env ?? process.env;
  if (!options.show) {
    const result = await runCommand(command, args, { cwd: ROOT, env, keepChars: 20_000 });
    return { code: result.code ?? 127, out: result.error?.message ?? result.output };
  }
  return new Promise<{ code: number; out: string }>((resolve) => {
    // Shown as it comes; the end of its error output is also kept, for the failure's message (the summary at the end
    // of CI's log names each failed check with it).
    const prefix = typeof options.show === "string" ? `[${options.show}] ` : "";
    const child = spawn(command, args, { cwd: ROOT, env, stdio: ["ignore", prefix ? "pipe" : "inherit", "pipe"] });
    let errors = "";
    const show = (from: NodeJS.ReadableStream | null, to: NodeJS.WriteStream, keep = false) => {
      let partial = "";
      from?.on("data", (chunk: Buffer) => {
        if (keep) errors = (errors + chunk.toString()).slice(-4_000);
        if (!prefix) return void to.write(chunk);
        const lines = (partial + chunk.toString()).split("\n");
        partial = lines.pop() ?? "";
        for (const line of lines) to.write(`${prefix}${line}\n`);
      });
      from?.on("end", () => partial && to.write(`${prefix}${partial}\n`));
    };
    show(child.stdout, process.stdout);
    show(child.stderr, process.stderr, true);
    child.once("error", (error) => resolve({ code: 127, out: error.message }));
    child.once("close", (code, signal) => resolve({ code: code ?? (signal ? 128 : 1), out: errors }));
  });
}
async function docker(...args: string[]) {
  const result = await run("docker", args);
  if (result.code !== 0) throw new Error(`docker ${args.join(" ")} failed (${result.code}): ${result.out.trim()}`);
  return result.out.trim();
}

// --- the report ----------------------------------------------------------------------------------------------
interface Check {
  title: string;
  group: string;
  status: "passed" | "failed" | "skipped";
  failureMessages: string[];
  duration: number;
}
const checks: Check[] = [];
/** Runs one check; a thrown error fails it with its message. Returns whether it passed. */
async function check(group: string, title: string, body: () => Promise<void>): Promise<boolean> {
  const started = performance.now();
  try {
    await body();
    checks.push({ group, title, status: "passed", failureMessages: [], duration: performance.now() - started });
    log(`✓ ${group} › ${title}`);
    return true;
  } catch (error) {
    const message = (error as Error).message;
    checks.push({ group, title, status: "failed", failureMessages: [message], duration: performance.now() - started });
    log(`✗ ${group} › ${title}\n    ${message.replaceAll("\n", "\n    ")}`);
    return false;
  }
}
function skip(group: string, title: string, reason: string) {
  checks.push({ group, title: `${title} (skipped: ${reason})`, status: "skipped", failureMessages: [], duration: 0 });
  log(`- ${group} › ${title}: skipped, ${reason}`);
}
function writeReport() {
  if (!values.report) return;
  const count = (status: Check["status"]) => checks.filter((c) => c.status === status).length;
  const report = {
    numPassedTests: count("passed"),
    numFailedTests: count("failed"),
    numPendingTests: count("skipped"),
    numTodoTests: 0,
    testResults: [
      {
        name: ".ci/images.ts",
        status: count("failed") > 0 ? "failed" : "passed",
        assertionResults: checks.map((c) => ({
          ancestorTitles: [c.group],
          title: c.title,
          fullName: `${c.group} ${c.title}`,
          status: c.status === "skipped" ? "pending" : c.status,
          failureMessages: c.failureMessages,
          duration: Math.round(c.duration),
        })),
      },
    ],
  };
  mkdirSync(dirname(values.report), { recursive: true });
  writeFileSync(values.report, `${JSON.stringify(report, null, 2)}\n`);
}

// --- 1. stand-ins --------------------------------------------------------------------------------------------
const standins =
  (await run("bash", [".ci/image-standins.sh"], { show: true })).code === 0 &&
  (
    await run("bash", [".ci/testcontainers-standin.sh"], {
      env: { ...process.env, STANDIN_IMAGE: POSTGRES_IMAGE },
      show: true,
    })
  ).code === 0;
if (!standins) {
  await check("stand-ins", "the base-image and postgres stand-ins are built", async () => {
    throw new Error("a stand-in script failed (its output is above)");
  });
  writeReport();
  process.exit(1);
}

// --- 2. every image ------------------------------------------------------------------------------------------
interface Image {
  name: string;
  dockerfile: string;
  tag: string;
  /** A server (HEALTHCHECK expected), or a one-shot (db-setup). */
  server: boolean;
  built?: boolean;
  bytes?: number;
  seconds?: number;
}
const images: Image[] = [
  ...readdirSync(join(ROOT, "apps"))
    .filter((app) => existsSync(join(ROOT, "apps", app, "Dockerfile")))
    .map((app) => ({ name: app, dockerfile: `apps/${app}/Dockerfile`, tag: `api-ref/${app}`, server: true })),
  { name: "db-setup", dockerfile: "packages/db/Dockerfile", tag: "api-ref/db-setup", server: false },
];
const missing = readdirSync(join(ROOT, "apps")).filter((app) => !existsSync(join(ROOT, "apps", app, "Dockerfile")));
await check("images", "every app has a Dockerfile", async () => {
  if (missing.length > 0) throw new Error(`no Dockerfile in apps/${missing.join(", apps/")}`);
});

/**
 * BuildKit, as users' Docker builds by default: through the buildx plugin when the client has it, else through
 * a client that drives the engine's built-in BuildKit itself (Debian's docker.io, 20.10, in /usr/bin; the newer
 * client this kind of machine has in /usr/local/bin needs buildx for it). The legacy builder otherwise: the
 * Dockerfiles use nothing BuildKit alone understands.
 */
const builder = await (async () => {
  if ((await run("docker", ["buildx", "version"])).code === 0) return { command: "docker", buildkit: true };
  const debian = "/usr/bin/docker";
  const version = existsSync(debian) ? (await run(debian, ["version", "-f", "{{.Client.Version}}"])).out.trim() : "";
  if (/^20\./.test(version)) return { command: debian, buildkit: true };
  return { command: "docker", buildkit: false };
})();
log(`building with ${builder.buildkit ? "BuildKit" : "the legacy builder"} (${builder.command})`);

/** The images that this run's builds took a tag from: removed at the end (the next build makes them again). */
const replaced: string[] = [];
/**
 * The file listings (a docker export of each image through tar, seconds each) run beside the next builds, two at a
 * time: lanes of promises, each image's listing queued on one of them.
 */
const listingLanes = [Promise.resolve(), Promise.resolve()];
for (const [index, image] of images.entries()) {
  const group = `image ${image.tag}`;
  image.built = await check(group, `builds from ${image.dockerfile} unchanged`, async () => {
    const started = performance.now();
    const previous = (await run("docker", ["image", "inspect", "-f", "{{.Id}}", image.tag])).out.trim();
    const result = await run(builder.command, ["build", "-q", "-f", image.dockerfile, "-t", image.tag, "."], {
      env: { ...process.env, DOCKER_BUILDKIT: builder.buildkit ? "1" : "0" },
    });
    if (result.code !== 0)
      throw new Error(`docker build failed:\n${result.out.trim().split("\n").slice(-20).join("\n")}`);
    image.seconds = (performance.now() - started) / 1000;
    image.bytes = Number(await docker("image", "inspect", "-f", "{{.Size}}", image.tag));
    if (/^sha256:/.test(previous) && previous !== (await docker("image", "inspect", "-f", "{{.Id}}", image.tag)))
      replaced.push(previous);
  });
  if (!image.built) continue;
  await check(
    group,
    `runs as a non-root user, an exec-form command${image.server ? ", a health check on /health" : ""}`,
    async () => {
      const config = JSON.parse(await docker("image", "inspect", "-f", "{{json .Config}}", image.tag)) as {
        User: string;
        Cmd: string[] | null;
        Entrypoint: string[] | null;
        Healthcheck?: { Test: string[] };
      };
      const problems: string[] = [];
      if (!config.User || ["root", "0", "0:0"].includes(config.User))
        problems.push(`USER is "${config.User || "root"}"`);
      const command = [...(config.Entrypoint ?? []), ...(config.Cmd ?? [])];
      if (command.length === 0) problems.push("no CMD");
      if (/^(\/usr)?(\/bin\/)?(ba|da)?sh$/.test(command[0] ?? "") && command[1] === "-c")
        problems.push(`shell-form command (${command.join(" ")}): SIGTERM would reach the shell, not the app`);
      if (image.server && !config.Healthcheck?.Test?.join(" ").includes("/health"))
        problems.push(`no HEALTHCHECK on /health (${config.Healthcheck?.Test?.join(" ") ?? "none"})`);
      if (problems.length > 0) throw new Error(problems.join("; "));
    },
  );
  const lane = index % listingLanes.length;
  listingLanes[lane] = (listingLanes[lane] ?? Promise.resolve()).then(async () => {
    await check(
      group,
      "holds no development dependency (vitest, typescript, biome, @scalar/api-reference, ruff, pytest) and no test",
      async () => {
        const container = await docker("create", image.tag);
        try {
          // Only the matches leave the pipe (an image lists tens of thousands of files); grep finding none is no failure.
          const pattern = DEV_DEPENDENCIES.join("|");
          const listing = await run("bash", [
            "-o",
            "pipefail",
            "-c",
            `docker export ${container} | tar -t | { grep -oE '${pattern}' || true; }`,
          ]);
          if (listing.code !== 0) throw new Error(`could not list the image's files: ${listing.out.slice(-500)}`);
          const found = new Set(listing.out.split("\n").filter(Boolean));
          if (found.size > 0) throw new Error(`found ${[...found].join(", ")}`);
        } finally {
          await docker("rm", "-f", container);
        }
      },
    );
  });
}
await Promise.all(listingLanes);

const sizes = images.flatMap(({ tag, bytes, seconds }) =>
  bytes === undefined || seconds === undefined
    ? []
    : [`  ${tag.padEnd(28)} ${(bytes / 1e6).toFixed(0).padStart(5)} MB  (built in ${seconds.toFixed(0)} s)`],
);
const sizesText = `image sizes (uncompressed, on the stand-in base images):\n${sizes.join("\n")}\n`;
process.stdout.write(`\n${sizesText}\n`);
if (values.sizes) writeFileSync(values.sizes, sizesText);

// --- 3–5. running them -----------------------------------------------------------------------------------------
const started: string[] = [];
const pgPassword = randomBytes(12).toString("hex");
const pgName = `${PREFIX}-postgres`;
const composeProject = `${PREFIX}-compose`;
try {
  await run("docker", ["rm", "-f", "-v", pgName]);
  await docker(
    "run",
    "-d",
    "--name",
    pgName,
    "-p",
    "127.0.0.1::5432",
    "-e",
    `POSTGRES_PASSWORD=${pgPassword}`,
    POSTGRES_IMAGE,
    // As compose.yaml's postgres: the contract's statement-count checks read pg_stat_statements.
    ...POSTGRES_COMMAND,
  );
  started.push(pgName);
  const pgPort = (await docker("port", pgName, "5432/tcp")).split("\n")[0]?.split(":").at(-1);
  const urlOf = (database: string) => `postgres://postgres:${pgPassword}@127.0.0.1:${pgPort}/${database}`;
  const adminUrl = urlOf("postgres");
  for (let waited = 0; ; waited += 250) {
    if (
      await sql(adminUrl, "SELECT 1").then(
        () => true,
        () => false,
      )
    )
      break;
    if (waited > 60_000) throw new Error("the postgres stand-in did not answer within 60 s");
    await sleep(250);
  }

  const dbSetup = images.find((i) => i.name === "db-setup");
  const seeded = "image_seed";
  const setupWorks =
    dbSetup?.built === true &&
    (await check("image api-ref/db-setup", "migrates and loads no demo data unless asked", async () => {
      await sql(adminUrl, `CREATE DATABASE ${seeded}`);
      const result = await run("docker", [
        "run",
        "--rm",
        "--network",
        "host",
        "-e",
        `DATABASE_URL=${urlOf(seeded)}`,
        dbSetup.tag,
      ]);
      if (result.code !== 0) throw new Error(`the run exited ${result.code}:\n${result.out.trim()}`);
      const [row] = await sql<{ users: string }>(urlOf(seeded), "SELECT count(*) AS users FROM users");
      if (row?.users !== "0") throw new Error(`it wrote ${row?.users} users without SEED_DEMO_DATA=true`);
    })) &&
    (await check(
      "image api-ref/db-setup",
      "with SEED_DEMO_DATA=true seeds an empty database, then leaves it alone",
      async () => {
        for (const round of ["first", "second"]) {
          const result = await run("docker", [
            "run",
            "--rm",
            "--network",
            "host",
            "-e",
            `DATABASE_URL=${urlOf(seeded)}`,
            "-e",
            "SEED_DEMO_DATA=true",
            dbSetup.tag,
          ]);
          if (result.code !== 0) throw new Error(`${round} run exited ${result.code}:\n${result.out.trim()}`);
          const [row] = await sql<{ users: string; products: string; orders: string }>(
            urlOf(seeded),
            "SELECT (SELECT count(*) FROM users) AS users, (SELECT count(*) FROM products) AS products, (SELECT count(*) FROM orders) AS orders",
          );
          if (row?.users !== "1000" || row.products !== "5000" || row.orders !== "10000")
            throw new Error(
              `after the ${round} run: ${JSON.stringify(row)}, expected 1000 users, 5000 products, 10000 orders`,
            );
        }
      },
    ));

  // The rows side by side, two at a time: most of a row's time is its contract run's waiting (the limits file's
  // slow clients, a minute; their outputs are told apart by the row's name at the start of each line).
  const runFromImage = async (impl: (typeof imageRows)[number]) => {
    const image = images.find((i) => i.tag === imageOf(impl));
    const group = `container ${impl.name}`;
    if (!image?.built || !setupWorks) {
      skip(
        group,
        "contract suite by URL, health check, docker stop under load",
        image?.built ? "no seeded database" : "its image did not build",
      );
      return;
    }
    const database = `image_${impl.name.replace(/\W/g, "_")}`;
    await sql(adminUrl, `CREATE DATABASE ${database} TEMPLATE ${seeded}`);
    const databaseUrl = urlOf(database);
    const jwtSecret = randomBytes(32).toString("base64url");
    const port = await freePort();
    const name = `${PREFIX}-${impl.name}`;
    const url = `http://127.0.0.1:${port}`;
    await run("docker", ["rm", "-f", name]);
    // The host's network: the app listens on loopback, where the suite and the load reach it directly (no
    // userland proxy in between that would accept connections the app never saw).
    const variant = Object.entries(impl.start.env ?? {}).flatMap(([k, v]) => ["-e", `${k}=${v}`]);
    await docker(
      "run",
      "-d",
      "--name",
      name,
      "--network",
      "host",
      "-e",
      `PORT=${port}`,
      "-e",
      "HOST=127.0.0.1",
      "-e",
      `DATABASE_URL=${databaseUrl}`,
      "-e",
      `JWT_SECRET=${jwtSecret}`,
      "-e",
      "LOG_LEVEL=warn",
      // The suite registers and logs in far more than an address may in a minute (docs/conformance.md).
      "-e",
      "AUTH_RATE_LIMIT=1000000000",
      "-e",
      "SHUTDOWN_GRACE_MS=10000",
      ...variant,
      image.tag,
    );
    started.push(name);
    const ready = await check(group, `starts from ${image.tag} and answers /ready`, async () => {
      for (let waited = 0; ; waited += 250) {
        const status = await fetch(`${url}/ready`).then(
          (r) => r.status,
          () => 0,
        );
        if (status === 200) return;
        const running = await docker("inspect", "-f", "{{.State.Running}}", name);
        if (running !== "true" || waited > 60_000)
          throw new Error(
            `not ready (${running === "true" ? "60 s" : "exited"}):\n${(await run("docker", ["logs", "--tail", "20", name])).out}`,
          );
        await sleep(250);
      }
    });
    if (!ready) return;

    await check(group, "passes the contract suite by URL", async () => {
      // --option=value: a random secret can begin with "-", which parseArgs would take for an option.
      const args = ["test:contract", `--url=${url}`, `--jwt-secret=${jwtSecret}`, `--database-url=${databaseUrl}`];
      if (values.junit && impl.name === "fastapi") args.push(`--junit=${values.junit}`);
      // A row on Bun's or Deno's own server answers some edges before its app runs, as its registered deviations say.
      if (impl.server) args.push("--server", impl.server);
      const report = values.report ? join(dirname(values.report), `vitest-image-${impl.name}.json`) : undefined;
      args.push("--", ...vitestArgs, ...(report ? ["--reporter=json", `--outputFile.json=${report}`] : []));
      const { JWT_SECRET: _s, DATABASE_URL: _d, ...env } = process.env;
      const result = await run("pnpm", args, { env, show: impl.name });
      if (result.code !== 0) {
        const lastErrors = stripVTControlCharacters(result.out)
          .split("\n")
          .filter((line) => line.trim() && !/^\s*[·✓×-]+\s*$/.test(line))
          .slice(-6);
        throw new Error(
          [`pnpm test:contract --url exited ${result.code}; the end of its error output:`, ...lastErrors].join("\n"),
        );
      }
    });

    await check(group, "its image's HEALTHCHECK reports healthy", async () => {
      for (let waited = 0; ; waited += 500) {
        const health = await docker("inspect", "-f", "{{.State.Health.Status}}", name);
        if (health === "healthy") return;
        if (health === "unhealthy" || waited > 40_000) throw new Error(`health status: ${health}`);
        await sleep(500);
      }
    });

    await check(
      group,
      "docker stop under load: nothing accepted is lost, pool closed, exit 0 within the grace period",
      async () => {
        const waiter = spawn("docker", ["wait", name], { stdio: ["ignore", "pipe", "ignore"] });
        let alive = true;
        const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>((resolve) => {
          let out = "";
          waiter.stdout.on("data", (chunk: Buffer) => {
            out += chunk.toString();
          });
          waiter.once("exit", () => {
            alive = false;
            resolve({ code: Number.parseInt(out.trim(), 10), signal: null, at: performance.now() });
          });
        });
        const target: ShutdownTarget = {
          url,
          databaseName: database,
          databaseUrl,
          alive: () => alive,
          exited,
          // `docker stop` is SIGTERM, then SIGKILL past its timeout (compose's stop_grace_period: 15 s).
          signal: (signal) => {
            spawn("docker", signal === "SIGTERM" ? ["stop", "-t", "15", name] : ["kill", name], { stdio: "ignore" });
          },
        };
        const { violations, figures } = await runShutdown(target, {
          adminUrl,
          connections: 16,
          loadMs: 500,
          graceMs: 10_000,
        });
        log(
          `  ${figures.requests} requests, ${figures.inFlightAtSignal} in flight at the signal, exit ${figures.exitCode} after ${figures.exitMs} ms`,
        );
        if (violations.length > 0) throw new Error(violations.join("\n"));
      },
    );
  };
  // Two rows at a time, one a core: with four, every suite's 20 racing registrations (20 scrypt hashes each) starved
  // the containers (and on Bun the hashes also starved the handshakes of new connections: packages/db's password.ts).
  const queue = imageRows.filter((i) => runList.includes(i.name));
  const worker = async () => {
    for (let impl = queue.shift(); impl; impl = queue.shift()) await runFromImage(impl);
  };
  await Promise.all([worker(), worker()]);

  // --- compose -------------------------------------------------------------------------------------------
  const composeEnv = {
    ...process.env,
    POSTGRES_IMAGE,
    POSTGRES_PORT: String(await freePort()),
    API_PORT: String(await freePort()),
    JWT_SECRET: randomBytes(24).toString("hex"),
    API_DB_PASSWORD: randomBytes(16).toString("hex"),
    SEED_DEMO_DATA: "true",
  };
  await check("compose.yaml", "is valid (docker-compose config)", async () => {
    const result = await run("docker-compose", ["config", "-q"], { env: composeEnv });
    if (result.code !== 0) throw new Error(result.out.trim());
  });
  for (const required of ["JWT_SECRET", "API_DB_PASSWORD"]) {
    await check("compose.yaml", `refuses to start without ${required}, naming it`, async () => {
      const env: NodeJS.ProcessEnv = { ...composeEnv };
      delete env[required];
      const result = await run("docker-compose", ["--profile", "express", "config", "-q"], { env });
      if (result.code === 0 || !result.out.includes(required))
        throw new Error(`exit ${result.code}, expected a refusal naming ${required}:\n${result.out.trim()}`);
    });
  }
  const expressImage = images.find((i) => i.name === "express");
  if (expressImage?.built && dbSetup?.built) {
    await check("compose.yaml", "`docker-compose --profile express up` serves the seeded API", async () => {
      const compose = (...args: string[]) =>
        run("docker-compose", ["-p", composeProject, "--profile", "express", ...args], { env: composeEnv });
      const up = await compose("up", "-d");
      if (up.code !== 0) throw new Error(`up failed:\n${up.out.trim()}`);
      const url = `http://127.0.0.1:${composeEnv.API_PORT}/products?limit=1&total=true`;
      for (let waited = 0; ; waited += 500) {
        const body = await fetch(url).then(
          (r) => (r.ok ? (r.json() as Promise<{ total: number }>) : undefined),
          () => undefined,
        );
        if (body?.total === 5000) return;
        if (waited > 120_000)
          throw new Error(
            `GET ${url} did not give the seeded products within 120 s:\n${(await compose("logs", "--tail", "20")).out}`,
          );
        await sleep(500);
      }
    });
  } else {
    skip(
      "compose.yaml",
      "`docker-compose --profile express up` serves the seeded API",
      "the express or db-setup image did not build",
    );
  }
} catch (error) {
  await check("images", "the run completed", async () => {
    throw error;
  });
} finally {
  await run("docker-compose", ["-p", composeProject, "--profile", "express", "down", "-v", "--remove-orphans"], {
    env: { ...process.env, POSTGRES_IMAGE },
  });
  for (const name of started) await run("docker", ["rm", "-f", "-v", name]);
}

// A machine that runs this again keeps the engine's cache (the next run builds only what changed), bounded: the
// images this run's builds replaced go, and in CI (whose engine is its own) BuildKit's cache is trimmed to
// BUILD_CACHE_KEEP. Without this each run on the same machine added gigabytes until its disk was full. Another
// project's images and cache on a machine where this is run by hand are left alone.
if (replaced.length > 0) {
  const removed = await run("docker", ["image", "rm", ...replaced]);
  log(
    removed.code === 0
      ? `removed ${replaced.length} replaced images`
      : `could not remove every replaced image: ${removed.out.trim().slice(-300)}`,
  );
}
if (process.env.CI === "true") {
  const pruned = await run(builder.command, ["builder", "prune", "-f", "--keep-storage", BUILD_CACHE_KEEP]);
  const reclaimed = pruned.out.match(/Total reclaimed space: (.+)/)?.[1] ?? "nothing";
  log(
    pruned.code === 0
      ? `build cache trimmed to ${BUILD_CACHE_KEEP}: ${reclaimed} reclaimed`
      : `could not trim the build cache: ${pruned.out.trim().slice(-300)}`,
  );
}

writeReport();
const failed = checks.filter((c) => c.status === "failed").length;
log(`${checks.length - failed} of ${checks.length} checks passed`);
process.exit(failed > 0 ? 1 : 0);
