// The suites' one-query helper lives with the database package; the harness offers it with the rest of its tools.
export { sql } from "@api-ref/db/sql";
