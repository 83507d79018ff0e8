// Reading a target's row of results.json: what runs it, and under which key its data-access baseline is listed.
import { inSqlMode, SQL_SUFFIX } from "../sql-mode.ts";

/** What runs a target: its recorded runtime, else (older runs) Node or Python; `other` for a --target server. */
export const runtimeOf = (target: { language: string; runtime?: string }) =>
  target.runtime ?? (target.language === "python" || target.language === "other" ? target.language : "node");

/**
 * The key of ScenarioInfo.layers a target's data-access baseline is found under: its language, `@runtime` for a
 * runtime other than the language's own (Node, Python), `[sql]` in sql mode (rows named `NAME[sql]`).
 */
export const layerKey = (target: { name: string; language: string; runtime?: string }) => {
  const runtime = runtimeOf(target);
  const on = runtime === "node" || runtime === "python" ? "" : `@${runtime}`;
  return `${target.language}${on}${inSqlMode(target.name) ? SQL_SUFFIX : ""}`;
};
