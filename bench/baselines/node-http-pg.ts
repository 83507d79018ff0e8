// Baseline for the database scenarios on Node: raw node:http and raw pg, every statement a named prepared statement
// (parsed and planned once per connection), running the SQL each route of the shared data access runs
// (packages/data-access) and answering the same JSON (the routes: pg-routes.ts). Started like an app.
import { serve } from "./common.ts";
import { pgDb } from "./db.ts";
import { pgBaseline } from "./pg-routes.ts";

const db = pgDb();
serve(pgBaseline("node-http-pg", db), () => db.end());
