// compose.yaml against the one list of implementations: a service for every row that runs from an image, built from
// that row's Dockerfile, with the row's variant; a profile per service that brings up PostgreSQL and the db-setup
// one-shot with it. (CI validates the file with docker-compose and brings up one profile: .ci/images.ts.)
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { imageOf, implementations, REPO_ROOT } from "../src/implementations.ts";

interface Service {
  image?: string;
  build?: { context: string; dockerfile: string };
  environment?: Record<string, string>;
  profiles?: string[];
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test: string[] };
  stop_grace_period?: string;
}
const compose = parse(readFileSync(`${REPO_ROOT}compose.yaml`, "utf8"), { merge: true }) as {
  services: Record<string, Service>;
};
const rows = implementations.filter((impl) => imageOf(impl) !== undefined);
const apiServices = Object.keys(compose.services).filter((name) => !["postgres", "db-setup"].includes(name));

describe("compose.yaml", () => {
  it("has a service for exactly the rows that run from an image", () => {
    expect(rows.length).toBeGreaterThan(0);
    expect(apiServices.sort()).toEqual(rows.map((impl) => impl.name).sort());
  });

  it.each(rows.map((impl) => [impl.name, impl] as const))(
    "%s: its image, Dockerfile, variant and profile",
    (name, impl) => {
      const service = compose.services[name];
      expect(service?.image).toBe(imageOf(impl));
      expect(service?.build).toEqual({ context: ".", dockerfile: `${impl.dir}/Dockerfile` });
      expect(service?.profiles).toEqual([name]);
      expect(service?.environment).toMatchObject({
        ...impl.start.env,
        DATABASE_URL: expect.stringMatching(/@postgres:5432\//),
      });
      expect(service?.depends_on).toEqual({ "db-setup": { condition: "service_completed_successfully" } });
      expect(service?.healthcheck?.test.join(" ")).toContain("/ready");
      expect(service?.stop_grace_period).toBe("15s");
    },
  );

  it("brings up PostgreSQL and the db-setup one-shot with every profile", () => {
    for (const shared of ["postgres", "db-setup"]) {
      expect(compose.services[shared]?.profiles?.sort()).toEqual(apiServices.sort());
    }
    expect(compose.services["db-setup"]?.build?.dockerfile).toBe("packages/db/Dockerfile");
  });
});
