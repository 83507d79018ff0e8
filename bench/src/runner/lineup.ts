// What a run measures: its servers (the baselines its scenarios need, then the implementations) as results.json
// describes them, its scenarios' descriptions, and who each server is measured beside in duet.
import type { Implementation } from "@api-ref/harness";
import {
  BASELINES,
  type Baseline,
  baselineFor,
  layerBaselineFor,
  runtimeBaselinesOf,
  TWINS,
  targetsOfScenario,
} from "../baselines.ts";
import type { BenchOptions } from "../options/types.ts";
import { layerKey } from "../results/runtime.ts";
import type { ScenarioInfo, TargetInfo } from "../results/schema.ts";
import { type ScenarioName, scenarios } from "../scenarios/catalog.ts";
import { dependencyVersions, implDir } from "../versions.ts";
import type { Server } from "./servers.ts";
import type { LiveTarget } from "./types.ts";

/** --target servers cannot be asked for what the run needs to make their requests: it must be in the environment. */
export function checkRemoteEnvironment(remote: boolean, selected: readonly ScenarioName[]) {
  if (remote && selected.some((s) => scenarios[s].kind === "database") && !process.env.DATABASE_URL) {
    throw new Error(
      "--target with database scenarios needs DATABASE_URL: the database the target servers use (seeded with " +
        "pnpm db:seed), for the ids the scenarios ask for and the stock reset before writes",
    );
  }
  if (remote && selected.some((s) => scenarios[s].caller) && !process.env.JWT_SECRET) {
    throw new Error(
      "--target with scenarios that sign in needs JWT_SECRET: the target servers' own, to sign the bearer tokens " +
        "their requests carry",
    );
  }
}

/** The run's servers: the baselines its scenarios need, then the implementations. */
export function planServers(options: BenchOptions, selected: ScenarioName[], remote: boolean): Server[] {
  const wanted = new Set(selected.flatMap((s) => targetsOfScenario(options, s)));
  const all: Array<{ impl: Implementation; baseline?: Baseline }> = [
    ...[...BASELINES, ...TWINS].filter((b) => wanted.has(b.name)).map((b) => ({ impl: b, baseline: b })),
    ...options.impls.map((impl) => ({ impl })),
  ];
  return all.map(({ impl, baseline }) => {
    const server: Server = { info: serverInfo(impl, baseline, remote), impl };
    if (remote) {
      server.url = options.targets.find((t) => t.name === impl.name)?.url;
      server.databaseUrl = process.env.DATABASE_URL;
    }
    return server;
  });
}

function serverInfo(impl: Implementation, baseline: Baseline | undefined, remote: boolean): TargetInfo {
  return {
    name: impl.name,
    role: baseline ? "baseline" : "implementation",
    framework: impl.framework,
    variant: impl.variant,
    language: impl.language,
    runtime: impl.runtime,
    ...(baseline ? { baselineFor: baseline.baselineFor, layer: baseline.layer } : {}),
    ...(baseline?.twinOf ? { twinOf: baseline.twinOf } : {}),
    ...(remote ? { remote: true } : {}),
    versions: impl.language === "other" ? {} : dependencyVersions(implDir(impl)),
  };
}

export function describeScenarios(options: BenchOptions, selected: ScenarioName[], servers: Server[]): ScenarioInfo[] {
  return selected.map((name) => {
    const kind = scenarios[name].kind;
    const layers: ScenarioInfo["layers"] = {};
    for (const impl of options.impls) {
      const layer = layerBaselineFor(kind, impl);
      if (layer && servers.some((t) => t.info.name === layer.name)) layers[layerKey(impl)] = layer.name;
    }
    return {
      name,
      title: scenarios[name].title,
      kind,
      baseline: baselineFor(kind).name,
      runtimes: runtimeBaselinesOf(options.impls, kind),
      ...(Object.keys(layers).length > 0 ? { layers } : {}),
    };
  });
}

/**
 * duet: who a target is measured beside — an implementation its data-access baseline where the scenario has one
 * for it, else the limit; a data-access baseline and the A/A twin the limit; the limit nobody (it is the other side).
 */
export function duetPartner(options: BenchOptions, scenario: ScenarioName, target: string): string | undefined {
  const kind = scenarios[scenario].kind;
  const limit = baselineFor(kind).name;
  if (target === limit) return undefined;
  const impl = options.impls.find((i) => i.name === target);
  const layer = impl && layerBaselineFor(kind, impl)?.name;
  return layer && targetsOfScenario(options, scenario).includes(layer) ? layer : limit;
}

/** The servers of one scenario that answer (started, or --target), as the scenario runner sees them. */
export function liveServers(
  servers: Server[],
  names: string[],
  memoryLimit: string | undefined,
  partnerOf: ((target: string) => string | undefined) | undefined,
): LiveTarget[] {
  return servers.flatMap((t) => {
    if (!names.includes(t.info.name) || !t.url || !(t.info.remote || t.running || t.parked)) return [];
    const group = t.group;
    const partner = partnerOf?.(t.info.name);
    const live: LiveTarget = {
      name: t.info.name,
      url: t.url,
      ...(t.running ? { process: t.running.process } : {}),
      ...(t.databaseUrl ? { databaseUrl: t.databaseUrl } : {}),
      ...(group && memoryLimit ? { oomKills: () => group.oomKills(), memoryLimit } : {}),
      ...(t.profile ? { profile: t.profile } : {}),
      ...(partnerOf && group ? { group } : {}),
      ...(partner ? { partner } : {}),
    };
    return [live];
  });
}
