// pnpm db:create-admin --email E [--name N] — makes E an admin of DATABASE_URL (a new user with ADMIN_PASSWORD, or
// an existing one promoted). The only way besides the seed to get an admin: the API never grants the role.
import { adminAccountProblem, ensureAdmin } from "../admin.ts";
import { fail, parseCli, requireDatabaseUrl } from "./args.ts";

const usage = `usage: ADMIN_PASSWORD=… pnpm db:create-admin --email E [--name N]   (reads DATABASE_URL)
  --email E   the admin's e-mail address (an existing user with it is promoted, their password kept)
  --name N    their name for a new user (default "Admin")
  ADMIN_PASSWORD (environment, never an argument): a new admin's password, 8–128 characters`;
const { values } = parseCli(usage, { email: { type: "string" }, name: { type: "string" } });
if (values.help) {
  console.log(usage);
  process.exit(0);
}
const account = { email: values.email ?? "", name: values.name ?? "Admin", password: process.env.ADMIN_PASSWORD ?? "" };
const problem = adminAccountProblem(account);
if (problem) fail(`${problem}\n\n${usage}`, 2);
const url = await requireDatabaseUrl();
try {
  const outcome = await ensureAdmin(url, account);
  console.log(`${account.email.toLowerCase()}: ${outcome === "kept" ? "already an admin" : `admin ${outcome}`}`);
} catch (error) {
  fail((error as Error).message);
}
