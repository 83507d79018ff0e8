// How a Node implementation runs in the shared data access's sql mode (DATA_ACCESS=sql), and how such a row is named.
import type { Implementation } from "@api-ref/harness";

/** How a Node implementation in the shared data access's sql mode is named: `NAME[sql]`. */
export const SQL_SUFFIX = "[sql]";
export const inSqlMode = (name: string) => name.endsWith(SQL_SUFFIX);

/**
 * An implementation in the shared data access's `sql` mode (DATA_ACCESS=sql: the hot routes through Prisma's raw-SQL
 * path), measured as a row of its own named `NAME[sql]`. Its data-access baseline is node-http-prisma[sql].
 */
export function withSqlDataAccess<T extends Implementation>(impl: T): T {
  return {
    ...impl,
    name: `${impl.name}${SQL_SUFFIX}`,
    variant: `${impl.variant}, DATA_ACCESS=sql`,
    start: { ...impl.start, env: { ...impl.start.env, DATA_ACCESS: "sql" } },
  };
}

/** `--impl` names: a registered implementation, or one in sql mode (`NAME[sql]`, Node implementations only). */
export function implementationNamed(registry: readonly Implementation[], name: string): Implementation | undefined {
  const base = registry.find((i) => i.name === (inSqlMode(name) ? name.slice(0, -SQL_SUFFIX.length) : name));
  if (!base || !inSqlMode(name)) return base;
  return base.language === "typescript" ? withSqlDataAccess(base) : undefined;
}
