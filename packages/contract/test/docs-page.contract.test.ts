// GET /docs in a real (headless) Chromium: the API reference renders every operation of the contract from the
// page and /openapi.json alone. Nothing may be fetched from anywhere but the implementation itself, so the page
// works offline and behind a firewall. Skipped where Chromium is not installed (CI installs Debian's;
// CHROMIUM_PATH points elsewhere).
import { existsSync } from "node:fs";
import { concurrencyLimit } from "@api-ref/db/concurrency";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, it } from "vitest";
import { routes } from "../src/index.ts";
import { targets } from "./targets.ts";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

const hasChromium = existsSync(CHROMIUM);
let browser: Browser | undefined;

beforeAll(async () => {
  if (!hasChromium) return;
  const { chromium } = await import("playwright-core");
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update"],
  });
});
afterAll(async () => {
  await browser?.close();
});

/** Two renders at a time: one is seconds of a core's work, and no page may wait its turn inside the polls' 30 s. */
const inTurn = concurrencyLimit(2);

// The implementations side by side, two pages at a time; a test's time includes its wait for a turn.
describe.each(targets)("$name", { concurrent: true }, (target) => {
  it.skipIf(!hasChromium)(
    `GET /docs renders every operation in headless Chromium (${CHROMIUM}), fetching nothing from elsewhere`,
    // The test's own expect: expect.poll needs to know its test, which the global cannot tell among concurrent ones.
    ({ expect }) =>
      inTurn(async () => {
        if (!browser) throw new Error("Chromium did not start");
        const context = await browser.newContext();
        try {
          const page = await context.newPage();
          const origin = new URL(target.url).origin;
          const elsewhere: string[] = [];
          const fromServer: string[] = [];
          const errors: string[] = [];
          // Offline, as far as the page can tell: any request that leaves the server is refused and recorded.
          await page.route("**/*", (route) => {
            const url = route.request().url();
            if (url.startsWith(`${origin}/`)) {
              fromServer.push(new URL(url).pathname);
              return route.continue();
            }
            if (/^(data|blob):/.test(url)) return route.continue();
            elsewhere.push(url);
            return route.abort();
          });
          page.on("pageerror", (error) => errors.push(error.message));
          page.on("console", (message) => message.type() === "error" && errors.push(message.text()));

          const response = await page.goto(`${target.url}/docs`);
          expect(response?.status()).toBe(200);
          await expect
            .poll(() => page.getByRole("heading", { name: "Users, products and orders" }).count(), { timeout: 30_000 })
            .toBeGreaterThan(0);
          // The sidebar lists every operation, by its summary, under its tag.
          const sidebar = page.locator('a[href^="#tag/"]');
          await expect.poll(() => sidebar.count(), { timeout: 30_000 }).toBeGreaterThanOrEqual(routes.length);
          const entries = await sidebar.allInnerTexts();
          const missing = routes.filter((r) => !entries.some((text) => text.includes(r.summary)));
          expect(missing.map((r) => `${r.method} ${r.path}`)).toEqual([]);
          // And the operations themselves are rendered, not only listed (POST /orders and its idempotency-key header).
          await expect.poll(() => page.getByText("idempotency-key").count(), { timeout: 30_000 }).toBeGreaterThan(0);

          expect(elsewhere).toEqual([]);
          expect(errors).toEqual([]);
          expect(fromServer).toEqual(expect.arrayContaining(["/docs", "/openapi.json"]));
        } finally {
          await context.close();
        }
      }),
    // Its turn (up to fifteen renders of a few seconds ahead of it), then its own polls.
    300_000,
  );
});
