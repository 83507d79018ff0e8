// Users' hot reads through Prisma's raw-SQL path (DATA_ACCESS=sql): the same answers as users.ts, the rest of the
// repository (writes, errors) is users.ts's own.
import type { ListUsersQuery } from "@api-ref/contract";
import { Prisma, type PrismaClient } from "@api-ref/db";
import { countOf, USER_COLUMNS, whereAll, windowSql } from "./columns.sql.ts";
import { toUser, type UserRow } from "./dto.ts";
import { translate } from "./errors.ts";
import type { Principal } from "./principal.ts";
import { answerList, likePattern, listWindow, NEWEST_FIRST } from "./search.ts";
import { userNotFound } from "./users.ts";

export function usersSqlQueries(prisma: PrismaClient) {
  return {
    async list(query: ListUsersQuery) {
      const window = listWindow(query, NEWEST_FIRST);
      const pattern = query.q ? likePattern(query.q) : undefined;
      const filters = pattern ? [Prisma.sql`(name ILIKE ${pattern} OR email ILIKE ${pattern})`] : [];
      return answerList(
        window,
        prisma.$queryRaw<UserRow[]>(windowSql(Prisma.sql`SELECT ${USER_COLUMNS} FROM users`, filters, window)),
        window.total
          ? prisma.$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM users ${whereAll(filters)}`.then(countOf)
          : undefined,
        toUser,
      );
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
