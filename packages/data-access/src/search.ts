// How lists are read, the same for every resource: filters, order, the page's window and the answer.
import { page } from "./dto.ts";
import { translate } from "./errors.ts";

/** Escapes LIKE wildcards so that `q` matches as a literal substring (`50%` finds "50%", not "50" + anything). */
export const escapeLike = (q: string) => q.replace(/[\\%_]/g, (c) => `\\${c}`);

/** A case-insensitive literal substring filter (ILIKE '%q%', served by the trigram indexes). */
export const containsInsensitive = (q: string) => ({ contains: escapeLike(q), mode: "insensitive" as const });

/** The ILIKE pattern of `containsInsensitive` for hand-written SQL: `%q%` with q's wildcards escaped. */
export const likePattern = (q: string) => `%${escapeLike(q)}%`;

/** Newest first, ties broken by id, so that pages never overlap or skip a row. */
export const NEWEST_FIRST = [{ createdAt: "desc" }, { id: "asc" }] as const;

/** Prisma's `skip`/`take` for page `pageNumber` (1-based) of `limit` rows. */
export const pageWindow = (pageNumber: number, limit: number) => ({ skip: (pageNumber - 1) * limit, take: limit });

/**
 * A list's answer, the contract's page: the page's rows and the total they are a page of, both asked at once (two
 * connections); a database failure becomes its problem.
 */
export async function pageOf<Row, T>(
  pageNumber: number,
  limit: number,
  rows: PromiseLike<Row[]>,
  total: PromiseLike<number>,
  toDto: (row: Row) => T,
) {
  const [found, count] = await Promise.all([rows, total]).catch(translate);
  return page(found.map(toDto), count, pageNumber, limit);
}
