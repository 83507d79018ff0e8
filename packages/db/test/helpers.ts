import { randomBytes } from "node:crypto";
import { inject } from "vitest";
import { provisionPostgres } from "../src/provision.ts";

/** A handle on the run's server (from global-setup); databases it creates are dropped by stop(). */
export function testServer() {
  return provisionPostgres({ env: { PG_PROVIDER: "env", DATABASE_URL: inject("pgAdminUrl") }, log: () => {} });
}

export const uniqueName = (prefix: string) => `${prefix}_${randomBytes(5).toString("hex")}`;
