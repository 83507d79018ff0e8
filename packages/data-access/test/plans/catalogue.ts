// catalogue.json as cases: every list of the contract multiplied out (each dimension's values with each other's and
// with every way of paging), every lookup, and the seeded rows their {names} stand for.
import { type CursorSort, encodeCursor, SORT_KEYS } from "@api-ref/contract/cursor";
import { sql } from "@api-ref/db/sql";
import catalogue from "./catalogue.json" with { type: "json" };

export const SCALE = catalogue.scale;
/** Rows a statement may read of a growing table, or sort, without an allowance. */
export const ROWS_BOUND = catalogue.rowsBound;
export const LOOKUPS = catalogue.lookups;

export type Caller = "admin" | "customer" | "anyone";

export interface ListCase {
  route: string;
  caller: Caller;
  /** The query string, {names} and {cursor} as written in the catalogue. */
  query: string;
}

/** The values of every dimension, one from each, as one query string (empty fragments left out). */
function combinations(dimensions: string[][]): string[] {
  return dimensions.reduce<string[]>(
    (queries, values) => queries.flatMap((query) => values.map((value) => [query, value].filter(Boolean).join("&"))),
    [""],
  );
}

export const LIST_CASES: ListCase[] = catalogue.lists.flatMap(({ route, caller, dimensions }) =>
  combinations([...dimensions, catalogue.paging]).map((query) => ({ route, caller: caller as Caller, query })),
);

/** A list whose page starts after a cursor in the middle of a run of rows sharing its key ({tied}: catalogue.ties). */
export interface TieCase extends ListCase {
  /** The statement that finds the run's middle row: its id and its sort keys as the contract writes them. */
  middle: string;
}

export const TIE_CASES: TieCase[] = catalogue.ties.lists.flatMap(({ route, caller, middle, dimensions }) =>
  combinations([...dimensions, ["cursor={tied}"]]).map((query) => ({ route, caller: caller as Caller, query, middle })),
);

/** The statements that make the runs in the seeded data (database.ts). */
export const TIE_RUNS = catalogue.ties.make;

/** A tie case's query with its {tied} cursor: after the run's middle row, by the query's sort (newest first if none). */
export async function tiedQuery(databaseUrl: string, { query, middle }: TieCase): Promise<string> {
  const [row] = await sql<Record<string, string | number>>(databaseUrl, middle);
  if (!row) throw new Error(`no run of tied rows: ${middle}`);
  const sort = (new URLSearchParams(query).get("sort") ?? "-createdAt") as CursorSort;
  const key = row[SORT_KEYS[sort].field] as string | number;
  return query.replace("{tied}", encodeURIComponent(encodeCursor(sort, { key, id: String(row.id) })));
}

/** The seeded rows the catalogue names: the busiest customer, their e-mail and latest order, the most ordered product. */
export interface Names {
  user: string;
  email: string;
  product: string;
  order: string;
}

export async function readNames(databaseUrl: string): Promise<Names> {
  const [names] = await sql<Names & Record<string, string>>(databaseUrl, catalogue.names);
  if (!names) throw new Error("the catalogue's names query found no rows: is the database seeded?");
  return names;
}

/** `text` with each {name} replaced by its value. */
export const named = (text: string, values: Record<string, string>) =>
  text.replace(/\{(\w+)\}/g, (whole, name: string) => values[name] ?? whole);

/** How a case is named: its route and query as the catalogue writes them ({names} and {cursor} unfilled). */
export const caseName = ({ route, query, caller }: ListCase) =>
  `${route}${query ? `?${query}` : ""}${caller === "customer" ? ", as the customer" : ""}`;
