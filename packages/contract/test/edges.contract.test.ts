// The differential battery: unusual but possible requests (support/edge-cases.ts), in the classes where HTTP
// frameworks differ by default, written byte for byte over a raw socket to every implementation under test.
// Each answer must be the decided one (README "Edges of HTTP") and the same as every other implementation's:
// status, media type and problem type — except for requests the HTTP parser itself refuses before any application
// code runs (a 400, 408 or 431 with no problem decided), where only the status is compared. Any 5xx, or no
// answer, fails. The implementations come from the registry (`--impl`), so a new one is checked by adding it there.
// A row's known deviation (its runtime's HTTP parser answers first; harness deviations.ts) must be answered exactly
// as written there, and leaves that row out of the case's comparison.

import { fixtureUsers } from "@api-ref/db/fixtures";
import { deviationOf, exchange, type SocketExchange, type SocketResponse } from "@api-ref/harness";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type EdgeCase, type EdgeContext, edgeCases } from "./support/edge-cases.ts";
import { bearerOf, contract, targets } from "./targets.ts";

interface Answer {
  status: number | "no answer";
  mediaType: string | null;
  problem: string | null;
}

const mediaTypeOf = (r: SocketResponse) => r.headers["content-type"]?.split(";")[0]?.trim().toLowerCase() ?? null;

function problemOf(r: SocketResponse): string | null {
  if (mediaTypeOf(r) !== "application/problem+json" || r.body.length === 0) return null;
  try {
    const type = (JSON.parse(r.body.toString("utf8")) as { type?: unknown }).type;
    return typeof type === "string" ? (type.split("/").pop() ?? type) : "(no type)";
  } catch {
    return "(unparseable problem)";
  }
}

function answersOf(kase: EdgeCase, ex: SocketExchange): Answer[] {
  return kase.expect.map((_, i) => {
    const r = ex.responses[i];
    if (!r) return { status: "no answer", mediaType: null, problem: null };
    return { status: r.status, mediaType: mediaTypeOf(r), problem: problemOf(r) };
  });
}

/** What is compared: the status only for answers the HTTP parser gives (no application code ran), else all. */
function compared(kase: EdgeCase, answers: Answer[]): string {
  return answers
    .map((a, i) => {
      const decided = kase.expect[i];
      if (decided && decided.status >= 400 && !decided.problem && [400, 408, 431].includes(decided.status))
        return `${a.status}`;
      return `${a.status} ${a.mediaType ?? "(no content-type)"}${a.problem ? ` ${a.problem}` : ""}`;
    })
    .join(" | ");
}

const describeAnswers = (answers: Answer[]) =>
  answers.map((a) => `${a.status} ${a.mediaType ?? "-"}${a.problem ? ` ${a.problem}` : ""}`).join(" | ");

// ---- sending every case to every target, once for the file --------------------------------------------------------

const results = new Map<string, Map<string, Answer[]>>();
let error: Error | undefined;

function contextFor(target: (typeof targets)[number]): EdgeContext {
  // A seeded user: every target runs on its own copy of the same seed, so ids are the same everywhere.
  return {
    authority: new URL(target.url).host,
    userId: fixtureUsers.buyer.id,
    jwtSecret: contract.jwtSecret,
    authorization: bearerOf(target, "admin"),
  };
}

beforeAll(async () => {
  try {
    const contexts = new Map(targets.map((t) => [t.name, contextFor(t)] as const));
    for (const kase of edgeCases) {
      const byTarget = new Map<string, Answer[]>();
      await Promise.all(
        targets.map(async (target) => {
          const request = kase.build(contexts.get(target.name) as EdgeContext);
          const ex = await exchange(target.url, request.bytes, {
            responses: request.responses,
            methods: request.methods,
            timeoutMs: 10_000,
          });
          byTarget.set(target.name, answersOf(kase, ex));
        }),
      );
      results.set(`${kase.edge}: ${kase.name}`, byTarget);
    }
  } catch (e) {
    error = e as Error;
  }
}, 300_000);

afterAll(() => {
  results.clear();
});

// ---- one test per case and implementation --------------------------------------------------------------------------

describe.each(targets)("$name", (target) => {
  for (const edge of [...new Set(edgeCases.map((c) => c.edge))]) {
    describe(edge, () => {
      for (const kase of edgeCases.filter((c) => c.edge === edge)) {
        const decided = kase.expect.map((e) => `${e.status}${e.problem ? ` ${e.problem}` : ""}`).join(" | ");
        it(`${kase.name} → ${decided}`, () => {
          if (error) throw error;
          const all = results.get(`${kase.edge}: ${kase.name}`);
          const mine = all?.get(target.name);
          if (!all || !mine) throw new Error("the case was not sent");
          const everyone = [...all].map(([name, a]) => `  ${name}: ${describeAnswers(a)}`).join("\n");
          const deviation = deviationOf(target.name, kase.name);
          if (deviation) {
            expect(
              mine.map((a) => a.status),
              `the known deviation (${deviation.why}) no longer holds:\n${everyone}`,
            ).toEqual(kase.expect.map(() => deviation.answer));
            return;
          }

          const serverErrors = mine.filter((a) => a.status === "no answer" || a.status >= 500);
          expect(serverErrors, `a 5xx or no answer:\n${everyone}`).toEqual([]);

          mine.forEach((answer, i) => {
            const want = kase.expect[i];
            expect(answer.status, `answer ${i + 1}: the decided status\n${everyone}`).toBe(want?.status);
            if (want?.problem)
              expect(answer.problem, `answer ${i + 1}: the problem type\n${everyone}`).toBe(want.problem);
          });

          const disagreeing = [...all].filter(
            ([name, a]) => !deviationOf(name, kase.name) && compared(kase, a) !== compared(kase, mine),
          );
          expect(
            disagreeing.map(([name]) => name),
            `implementations that answer otherwise than ${target.name} (${compared(kase, mine)}):\n${everyone}`,
          ).toEqual([]);
        });
      }
    });
  }
});
