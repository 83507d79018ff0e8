import { methodsByPath } from "@api-ref/contract";
import { UNMATCHED_ROUTE } from "@api-ref/server";

/**
 * Hapi writes path parameters as `{id}`; the contract (the `allow` table, the metrics `route` label) as `:id`.
 * Anything that is not one of the contract's paths (Hapi's own 404 route is `/{p*}`) is `unmatched`.
 */
export function routeTemplate(hapiPath: string): string {
  const template = hapiPath.replace(/\{(\w+)\}/g, ":$1");
  return methodsByPath.has(template) ? template : UNMATCHED_ROUTE;
}
