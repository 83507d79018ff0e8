// Reads the environment, picks the platform (NEST_PLATFORM=express|fastify), listens, and shuts down
// gracefully: on SIGTERM/SIGINT Nest stops taking connections, lets in-flight requests finish, runs the
// `onApplicationShutdown` hooks (the database pool is closed there) and the process exits 0.
import { loadConfigOrExit } from "@api-ref/server";
import { Logger } from "@nestjs/common";
import { platformFromEnv } from "./config.ts";
import { createApp } from "./platform.ts";

const config = loadConfigOrExit();
const platform = platformFromEnv(process.env.NEST_PLATFORM);
const app = await createApp(config, platform);
app.enableShutdownHooks(["SIGTERM", "SIGINT"], { useProcessExit: true });
await app.listen(config.port, config.host);
new Logger("main").log(`nestjs (${platform}) listening on http://${config.host}:${config.port}`);
