// The coverage table's logic (support/coverage.ts): requests matched to the document's operations, documented
// statuses marked exercised or not, the rest reported rather than dropped.
import { describe, expect, it } from "vitest";
import { openApiDocument } from "../src/index.ts";
import { coverageOf, formatCoverage, type Observation, pathOf } from "./support/coverage.ts";

const doc = {
  paths: {
    "/users": { get: { responses: { "200": {}, "400": {} } }, post: { responses: { "201": {}, "409": {} } } },
    "/users/{id}": { get: { responses: { "200": {}, "404": {} } }, parameters: [] },
    "/users/me": { get: { responses: { "200": {} } } },
  },
};

const seen = (method: string, target: string, status: number, count = 1): Observation => ({
  method,
  target,
  status,
  count,
});

describe("coverageOf", () => {
  it("matches requests to their operation by method and path template, ignoring the query", () => {
    const coverage = coverageOf(doc, [
      seen("GET", "/users?limit=2", 200, 3),
      seen("GET", "/users/5e1b2c3d", 404),
      seen("GET", "/users/5e1b2c3d?x=1", 404, 2),
      seen("get", "/users/me", 200),
    ]);
    expect(coverage.operations).toEqual([
      {
        operation: "GET /users",
        statuses: [
          { status: 200, requests: 3 },
          { status: 400, requests: 0 },
        ],
        undocumented: [],
      },
      {
        operation: "POST /users",
        statuses: [
          { status: 201, requests: 0 },
          { status: 409, requests: 0 },
        ],
        undocumented: [],
      },
      {
        operation: "GET /users/{id}",
        statuses: [
          { status: 200, requests: 0 },
          { status: 404, requests: 3 },
        ],
        undocumented: [],
      },
      { operation: "GET /users/me", statuses: [{ status: 200, requests: 1 }], undocumented: [] },
    ]);
    expect(coverage).toMatchObject({ exercised: 3, documented: 7, elsewhere: [] });
  });

  it("keeps statuses the document does not list, and requests to no operation, apart", () => {
    const coverage = coverageOf(doc, [
      seen("POST", "/users", 500),
      seen("DELETE", "/users", 405),
      seen("GET", "/nope", 404, 4),
      seen("GET", "/users/a/b", 404),
    ]);
    expect(coverage.operations[1]).toEqual({
      operation: "POST /users",
      statuses: [
        { status: 201, requests: 0 },
        { status: 409, requests: 0 },
      ],
      undocumented: [{ status: 500, requests: 1 }],
    });
    expect(coverage.elsewhere).toEqual([
      { status: 404, requests: 5 },
      { status: 405, requests: 1 },
    ]);
    expect(coverage.exercised).toBe(0);
  });

  it("covers every operation and documented status of the contract's own document", () => {
    const coverage = coverageOf(openApiDocument, []);
    const operations = Object.values(openApiDocument.paths).flatMap((item) => Object.keys(item));
    expect(coverage.operations).toHaveLength(operations.length);
    expect(coverage.operations.find((o) => o.operation === "POST /orders")?.statuses.map((s) => s.status)).toEqual([
      201, 400, 401, 409, 413, 415, 422, 503,
    ]);
  });

  it("reads the path of absolute-form and asterisk targets", () => {
    expect(pathOf("http://example.com/users?x=1")).toBe("/users");
    expect(pathOf("/users#top")).toBe("/users");
    expect(pathOf("*")).toBe("*");
  });
});

describe("formatCoverage", () => {
  it("prints the totals, one row per operation, and what went elsewhere", () => {
    const text = formatCoverage(
      coverageOf(doc, [seen("GET", "/users", 200, 12), seen("POST", "/users", 500), seen("GET", "/x", 404)]),
    );
    const lines = text.split("\n");
    expect(lines[0]).toBe(
      "Coverage: 1 of 7 documented (operation, status) pairs exercised (14%), counted from the suite's own requests",
    );
    expect(lines[1]).toMatch(
      /^\| operation +\| exercised \(requests\) \| not exercised \| undocumented statuses seen \|$/,
    );
    expect(lines[3]).toMatch(/^\| GET \/users +\| 200 \(12\) +\| 400 +\| — +\|$/);
    expect(lines[4]).toMatch(/^\| POST \/users +\| — +\| 201, 409 +\| 500 \(1\) +\|$/);
    expect(lines.at(-1)).toBe("Requests to no documented operation (unknown paths and methods), by status: 404 (1)");
  });
});
