// A configuration an app cannot start with is one message listing every problem (each app's entry point prints
// it alone and exits 2: packages/contract/test/startup.contract.test.ts starts every implementation that way).
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig, PLACEHOLDER_SECRETS } from "../src/config.ts";

const GOOD = { DATABASE_URL: "postgres://u:p@127.0.0.1:5432/db", JWT_SECRET: "0123456789abcdef0123456789abcdef" };

describe("loadConfig", () => {
  it("reads a good environment", () => {
    expect(loadConfig({ ...GOOD, PORT: "8080" })).toMatchObject({ port: 8080, host: "0.0.0.0", logLevel: "info" });
  });

  it("lists every problem in one ConfigError", () => {
    const error = (() => {
      try {
        loadConfig({ PORT: "http", JWT_SECRET: "short", LOG_LEVEL: "loud" });
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toBe(
      [
        "invalid configuration:",
        '  - PORT must be an integer 0–65535, got "http"',
        "  - DATABASE_URL is required",
        "  - JWT_SECRET must be at least 32 bytes, got 5",
        '  - LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, got "loud"',
      ].join("\n"),
    );
  });

  it.each(["mysql://u@h/db", "localhost:5432/db", "postgres://"])("rejects DATABASE_URL %s", (url) => {
    expect(() => loadConfig({ ...GOOD, DATABASE_URL: url })).toThrow(
      "DATABASE_URL must be a postgres:// or postgresql:// URL",
    );
  });

  it("bounds every statement at 5 s unless DB_STATEMENT_TIMEOUT_MS says otherwise", () => {
    expect(loadConfig(GOOD).statementTimeoutMs).toBe(5000);
    expect(loadConfig({ ...GOOD, DB_STATEMENT_TIMEOUT_MS: "250" }).statementTimeoutMs).toBe(250);
  });

  // The same values and message as FastAPI's settings (packages/python/tests/test_settings.py).
  it.each(["0", "-1", "1.5", "1e3", "five", "600001"])(
    "refuses DB_STATEMENT_TIMEOUT_MS %s, which is no bound",
    (raw) => {
      expect(() => loadConfig({ ...GOOD, DB_STATEMENT_TIMEOUT_MS: raw })).toThrow(
        `invalid configuration: DB_STATEMENT_TIMEOUT_MS must be an integer from 1 to 600000, got "${raw}"`,
      );
    },
  );

  it("takes Prisma's client API unless DATA_ACCESS says sql", () => {
    expect(loadConfig(GOOD).dataAccessMode).toBe("client");
    expect(loadConfig({ ...GOOD, DATA_ACCESS: "" }).dataAccessMode).toBe("client");
    expect(loadConfig({ ...GOOD, DATA_ACCESS: "sql" }).dataAccessMode).toBe("sql");
  });

  it.each(["SQL", "raw", "typedsql"])("rejects DATA_ACCESS=%s", (mode) => {
    expect(() => loadConfig({ ...GOOD, DATA_ACCESS: mode })).toThrow(
      new ConfigError(`invalid configuration: DATA_ACCESS must be one of client, sql, got "${mode}"`),
    );
  });

  it.each<[string, string | undefined, string | undefined]>([
    ["missing", undefined, "JWT_SECRET is required"],
    ["31 bytes", "x".repeat(31), "JWT_SECRET must be at least 32 bytes, got 31"],
    ["16 two-byte characters (32 bytes) is enough", "é".repeat(16), undefined],
    ...PLACEHOLDER_SECRETS.map((secret): [string, string, string] => [
      `the placeholder ${secret}`,
      secret,
      "JWT_SECRET is a placeholder",
    ]),
  ])("JWT_SECRET %s", (_, secret, problem) => {
    const load = () => loadConfig({ ...GOOD, JWT_SECRET: secret });
    if (problem === undefined) expect(load().jwtSecret).toBe(secret);
    else expect(load).toThrow(new RegExp(`^invalid configuration: ${problem}[^\n]*$`));
  });
});
