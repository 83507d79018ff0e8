// Admins are made here, never through the API: `pnpm db:create-admin`, and `pnpm db:setup` (the db-setup image)
// when ADMIN_EMAIL is set. The password comes from the environment (ADMIN_PASSWORD), never from argv, which any
// user of the machine can read in the process list.
import { hashPassword } from "./password.ts";
import { sql } from "./sql.ts";

/** The contract's password bounds (a registered user's), so that the admin can log in through the API. */
const PASSWORD_LENGTH = { min: 8, max: 128 } as const;

export interface AdminAccount {
  email: string;
  name: string;
  password: string;
}

/** Why these values cannot make an admin, or nothing when they can. */
export function adminAccountProblem({ email, name, password }: Partial<AdminAccount>): string | undefined {
  if (!email || !/^[^\s@]+@[^\s@]+$/.test(email)) return "ADMIN_EMAIL (or --email) must be an e-mail address";
  if (!name?.trim() || name.trim().length > 100) return "the admin's name must be 1–100 characters";
  if (!password || password.length < PASSWORD_LENGTH.min || password.length > PASSWORD_LENGTH.max)
    return `ADMIN_PASSWORD must be ${PASSWORD_LENGTH.min}–${PASSWORD_LENGTH.max} characters`;
  return undefined;
}

/**
 * Makes the account an admin: a new user with this password, or an existing user (by e-mail) given the admin role
 * with their own password left as it is, so that running it before every start changes nothing the second time.
 */
export async function ensureAdmin(
  databaseUrl: string,
  account: AdminAccount,
): Promise<"created" | "promoted" | "kept"> {
  const email = account.email.toLowerCase();
  const [existing] = await sql<{ role: string }>(databaseUrl, "SELECT role::text FROM users WHERE email = $1", [email]);
  if (existing?.role === "admin") return "kept";
  if (existing) {
    await sql(databaseUrl, "UPDATE users SET role = 'admin', updated_at = now() WHERE email = $1", [email]);
    return "promoted";
  }
  const passwordHash = await hashPassword(account.password);
  await sql(databaseUrl, "INSERT INTO users (email, name, role, password_hash) VALUES ($1, $2, 'admin', $3)", [
    email,
    account.name.trim(),
    passwordHash,
  ]);
  return "created";
}
