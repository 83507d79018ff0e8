// Users' hot reads through Prisma's raw-SQL path (DATA_ACCESS=sql): the same answers as users.ts, the rest of the
// repository (writes, errors) is users.ts's own.
import type { ListUsersQuery } from "@api-ref/contract";
import { Prisma, type PrismaClient } from "@api-ref/db";
import { countOf, USER_COLUMNS, whereAll } from "./columns.sql.ts";
import { page, toUser, type UserRow } from "./dto.ts";
import { translate } from "./errors.ts";
import type { Principal } from "./principal.ts";
import { likePattern } from "./search.ts";
import { userNotFound } from "./users.ts";

export function usersSqlQueries(prisma: PrismaClient) {
  return {
    async list({ page: pageNumber, limit, q }: ListUsersQuery) {
      const pattern = q ? likePattern(q) : undefined;
      const where = whereAll(pattern ? [Prisma.sql`(name ILIKE ${pattern} OR email ILIKE ${pattern})`] : []);
      try {
        const [rows, count] = await Promise.all([
          prisma.$queryRaw<UserRow[]>`SELECT ${USER_COLUMNS} FROM users ${where}
            ORDER BY created_at DESC, id ASC LIMIT ${limit} OFFSET ${(pageNumber - 1) * limit}`,
          prisma.$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM users ${where}`,
        ]);
        return page(rows.map(toUser), countOf(count), pageNumber, limit);
      } catch (error) {
        translate(error);
      }
    },

    async get(id: string, principal: Principal) {
      // A customer reaches only themself: the condition is part of the statement (users.ts's reachableUsers).
      const own = principal.role === "admin" ? Prisma.empty : Prisma.sql`AND id = ${principal.id}::uuid`;
      const [row] = await prisma.$queryRaw<
        UserRow[]
      >`SELECT ${USER_COLUMNS} FROM users WHERE id = ${id}::uuid ${own}`.catch(translate);
      if (!row) throw userNotFound(id);
      return toUser(row);
    },
  };
}
