import { type CreateUserBody, type ListUsersQuery, problem, type UpdateUserBody } from "@api-ref/contract";
import type { Prisma, PrismaClient } from "@api-ref/db";
import { toUser } from "./dto.ts";
import { isForeignKeyViolation, isRecordNotFound, isUniqueViolation, translate } from "./errors.ts";
import type { Principal } from "./principal.ts";
import { answerList, containsInsensitive, findWindow, listWindow, NEWEST_FIRST } from "./search.ts";

const OMIT_HASH = { passwordHash: true } as const;

export const userNotFound = (id: string) => problem("notFound", `No user has the id ${id}.`);
export const emailTaken = () =>
  problem("conflict", "A user with this e-mail address already exists.", {
    errors: [{ path: "body.email", message: "is already registered" }],
  });

/**
 * The users a principal may reach, as a condition of the query itself: every user for an admin, only themself for a
 * customer, so that another customer's id finds nothing (a 404, as for an id that does not exist).
 */
export const reachableUsers = (principal: Principal): Prisma.UserWhereInput =>
  principal.role === "admin" ? {} : { id: principal.id };

export function usersRepository(prisma: PrismaClient) {
  return {
    async list(query: ListUsersQuery) {
      const window = listWindow(query, NEWEST_FIRST);
      const where = query.q
        ? { OR: [{ name: containsInsensitive(query.q) }, { email: containsInsensitive(query.q) }] }
        : {};
      return answerList(
        window,
        findWindow(window, where, (read) => prisma.user.findMany({ ...read, omit: OMIT_HASH })),
        window.total ? prisma.user.count({ where }) : undefined,
        toUser,
      );
    },

    async get(id: string, principal: Principal) {
      const row = await prisma.user
        .findFirst({ where: { id, AND: [reachableUsers(principal)] }, omit: OMIT_HASH })
        .catch(translate);
      if (!row) throw userNotFound(id);
      return toUser(row);
    },

    async create(body: CreateUserBody) {
      try {
        return toUser(await prisma.user.create({ data: body, omit: OMIT_HASH }));
      } catch (error) {
        if (isUniqueViolation(error)) throw emailTaken();
        translate(error);
      }
    },

    async update(id: string, body: UpdateUserBody, principal: Principal) {
      try {
        const where = { id, AND: [reachableUsers(principal)] };
        return toUser(await prisma.user.update({ where, data: body, omit: OMIT_HASH }));
      } catch (error) {
        if (isRecordNotFound(error)) throw userNotFound(id);
        if (isUniqueViolation(error)) throw emailTaken();
        translate(error);
      }
    },

    async remove(id: string, principal: Principal) {
      try {
        await prisma.user.delete({ where: { id, AND: [reachableUsers(principal)] }, select: { id: true } });
      } catch (error) {
        if (isRecordNotFound(error)) throw userNotFound(id);
        if (isForeignKeyViolation(error)) throw problem("conflict", "The user has orders and cannot be deleted.");
        translate(error);
      }
    },
  };
}
export type UsersRepository = ReturnType<typeof usersRepository>;
