// Baseline for the database scenarios on Bun: raw Bun.serve and the cheapest PostgreSQL path measured on Bun, its
// built-in SQL client (db.ts's bunSqlDb; pg with named prepared statements, pgDb, was the other candidate — the
// comparison is in bench/docs/method.md), answering what node-http-pg answers (the same routes, pg-routes.ts).
// Run with `bun baselines/bun-http-pg.ts`.
import { bunSqlDb } from "./db.ts";
import { serve } from "./fetch-common.ts";
import { pgBaseline } from "./pg-routes.ts";

const db = bunSqlDb();
serve(pgBaseline("bun-http-pg", db), () => db.end());
