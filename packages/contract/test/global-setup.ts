// Starts every selected implementation on its own database, cloned from one seeded template, exactly as in
// production (its own process; PORT, DATABASE_URL, JWT_SECRET from the environment). CONTRACT_IMPLS selects
// implementations (comma list); CONTRACT_URL targets one already-running server instead (URL mode, see
// src/url-mode.ts), with its JWT_SECRET and DATABASE_URL when they are given.
import { randomBytes } from "node:crypto";
import { prepareTemplate, provisionPostgres } from "@api-ref/db";
import { fixtureUsers } from "@api-ref/db/fixtures";
import {
  build,
  checkUrlTarget,
  launch,
  loginToken,
  type RunningImplementation,
  selectImplementations,
} from "@api-ref/harness";
import type { TestProject } from "vitest/node";

export interface Target {
  /** Implementation name (`url` for an external server). */
  name: string;
  url: string;
  /** The target's database: its own when the suite started it; for an external server, DATABASE_URL or null. */
  databaseUrl: string | null;
}

declare module "vitest" {
  export interface ProvidedContext {
    contract: {
      targets: Target[];
      /** The secret every target signs tokens with; "" when unknown (URL mode without JWT_SECRET). */
      jwtSecret: string;
      /**
       * Without the secret, the tokens the target issued to the seeded users at login before the run (the suite
       * signs in as them); null when the suite can sign its own.
       */
      logins: Record<keyof typeof fixtureUsers, string | null> | null;
      /** Server admin URL and template name, for checks that start fresh instances (null in URL mode). */
      adminUrl: string | null;
      template: string | null;
    };
  }
}

export default async function setup(project: TestProject) {
  const externalUrl = process.env.CONTRACT_URL;
  if (externalUrl) {
    const url = externalUrl.replace(/\/$/, "");
    const jwtSecret = process.env.JWT_SECRET || undefined;
    const databaseUrl = process.env.DATABASE_URL || undefined;
    // pnpm test:contract has checked them already; a run of vitest itself is checked here.
    if (!process.env.CONTRACT_URL_CHECKED) await checkUrlTarget({ url, jwtSecret, databaseUrl });
    // One login per seeded user for the whole run: its tokens last an hour, and login is slow on purpose.
    const logins = jwtSecret
      ? null
      : {
          admin: await loginToken(url, fixtureUsers.admin.email),
          buyer: await loginToken(url, fixtureUsers.buyer.email),
          noOrders: await loginToken(url, fixtureUsers.noOrders.email),
        };
    project.provide("contract", {
      targets: [{ name: "url", url, databaseUrl: databaseUrl ?? null }],
      jwtSecret: jwtSecret ?? "",
      logins,
      adminUrl: null,
      template: null,
    });
    return;
  }
  const impls = selectImplementations(process.env.CONTRACT_IMPLS);
  const jwtSecret = randomBytes(32).toString("base64url");
  const server = await provisionPostgres();
  const running: RunningImplementation[] = [];
  const teardown = async () => {
    await Promise.allSettled(running.map((r) => r.stop()));
    await server.stop();
  };
  try {
    // One build per app directory: two variants of one app (fastify-zod, fastify-json-schema) share a build.
    const builds = [...new Map(impls.filter((i) => i.build).map((i) => [i.dir, i])).values()];
    const [template] = await Promise.all([
      prepareTemplate(server, { name: "contract_template" }),
      ...builds.map(async (impl) => {
        const built = await build(impl);
        if (!built.ok) throw new Error(built.error);
      }),
    ]);
    const targets: Target[] = [];
    for (const impl of impls) {
      const databaseUrl = await server.createDatabase(`contract_${impl.name.replace(/\W/g, "_")}`, {
        template: template.name,
      });
      const app = await launch(impl, { databaseUrl, jwtSecret });
      running.push(app);
      process.stderr.write(`contract: ${impl.name} ready at ${app.url} in ${Math.round(app.startupMs)} ms\n`);
      targets.push({ name: impl.name, url: app.url, databaseUrl });
    }
    project.provide("contract", {
      targets,
      jwtSecret,
      logins: null,
      adminUrl: server.adminUrl,
      template: template.name,
    });
  } catch (error) {
    await teardown();
    throw error;
  }
  return teardown;
}
