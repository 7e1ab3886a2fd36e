import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { test as base, expect, type APIRequestContext, type Browser, type BrowserContext, type Page } from "@playwright/test";
import type { Role } from "../lib/auth/roles";

export { expect };

/**
 * A shell step that stays in flight until the test releases it (a file appears), then prints `output`:
 * a step the test, not the clock, ends — on any machine, however loaded.
 */
export function heldStep(output: string): { step: { tool: "shell"; args: { command: string; args: string[] } }; release(): void } {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "faultline-held-")), "release");
  const code = `const f=${JSON.stringify(file)};const t=setInterval(()=>{if(require('fs').existsSync(f)){clearInterval(t);console.log(${JSON.stringify(output)})}},50)`;
  return { step: { tool: "shell", args: { command: "node", args: ["-e", code] } }, release: () => fs.writeFileSync(file, "go") };
}

/** Signs a browser context in through the auth API (not the form): next-auth's CSRF + credentials callback. */
export async function signIn(context: BrowserContext, role: Role, baseURL = process.env.E2E_BASE_URL!): Promise<void> {
  const csrf = await context.request.get(`${baseURL}/api/auth/csrf`);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const res = await context.request.post(`${baseURL}/api/auth/callback/credentials`, {
    form: { csrfToken, email: `${role}@faultline.local`, password: `faultline-${role}`, json: "true" },
  });
  expect(res.ok(), `sign-in as ${role} failed with ${res.status()}`).toBeTruthy();
  const session = await (await context.request.get(`${baseURL}/api/auth/session`)).json();
  expect(session?.user?.roles).toContain(role);
}

/**
 * Light and dark screenshots of the current page, `<name>-light.png` and `<name>-dark.png` in
 * SCREENSHOT_DIR (or test-results, which the next Playwright run empties), with the theme the console's
 * own script sets; the page is back in light afterwards.
 */
export async function screenshots(page: Page, name: string, opts: { fullPage?: boolean } = {}): Promise<void> {
  const theme = (s: "light" | "dark") =>
    page.evaluate((t) => {
      document.documentElement.dataset.theme = t;
      document.documentElement.style.colorScheme = t;
    }, s);
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await theme(scheme);
    await page.screenshot({ path: path.join(process.env.SCREENSHOT_DIR ?? "test-results", `${name}-${scheme}.png`), fullPage: opts.fullPage ?? true });
  }
  await page.emulateMedia({ colorScheme: "light" });
  await theme("light");
}

/** Starts a mission through the REST API as the signed-in user; returns its id. */
export async function startMission(request: APIRequestContext, definition: unknown): Promise<string> {
  const res = await request.post(`${process.env.E2E_BASE_URL}/api/v1/missions`, { data: definition });
  expect(res.status(), await res.text()).toBe(201);
  const body = (await res.json()) as { mission?: { id: string }; id?: string };
  return body.mission?.id ?? body.id!;
}

/** Waits (through the API) until the mission has an open gate; returns the gate id. */
export async function waitForGate(request: APIRequestContext, missionId: string): Promise<string> {
  let gateId: string | undefined;
  await expect
    .poll(async () => {
      const body = await (await request.get(`${process.env.E2E_BASE_URL}/api/v1/missions/${missionId}`)).json();
      gateId = (body.openGates ?? [])[0]?.id;
      return gateId;
    }, { timeout: 20_000 })
    .toBeTruthy();
  return gateId!;
}

type Fixtures = {
  /** Console errors a test expects (e.g. a network drop it causes on purpose). */
  allowedConsoleErrors: RegExp[];
  consoleErrors: string[];
  operatorPage: Page;
  auditorPage: Page;
  adminPage: Page;
  contributorPage: Page;
  reviewerPage: Page;
};

export const test = base.extend<Fixtures>({
  baseURL: async ({}, use) => use(process.env.E2E_BASE_URL),
  page: async ({ page }, use) => use(waitForHydration(page)),
  // Every test fails on a browser console error or an uncaught page error.
  allowedConsoleErrors: [[], { option: true }],
  consoleErrors: [
    async ({ page, allowedConsoleErrors }, use) => {
      const errors: string[] = [];
      page.on("console", (m) => m.type() === "error" && errors.push(`${m.text()} (${m.location().url || page.url()})`));
      page.on("pageerror", (e) => errors.push(e.message));
      await use(errors);
      expect(errors.filter((e) => !allowedConsoleErrors.some((r) => r.test(e))), "browser console errors").toEqual([]);
    },
    { auto: true },
  ],
  operatorPage: async ({ page, context }, use) => {
    await signIn(context, "operator");
    await use(page);
  },
  auditorPage: async ({ browser }, use) => withRole(browser, "auditor", use),
  adminPage: async ({ browser }, use) => withRole(browser, "admin", use),
  contributorPage: async ({ browser }, use) => withRole(browser, "contributor", use),
  reviewerPage: async ({ browser }, use) => withRole(browser, "reviewer", use),
});

/**
 * `goto` and `reload` resolve once React has hydrated the page (the root marks `html[data-hydrated]`): a
 * click or a fill on server-rendered markup before that is lost (a controlled input is reset, a radio
 * does not stay checked), which made specs race on a loaded machine.
 */
export function waitForHydration(page: Page): Page {
  const ready = async <T>(r: T): Promise<T> => {
    const type = (r as { headers?: () => Record<string, string> } | null)?.headers?.()["content-type"] ?? "";
    if (type.includes("text/html")) await page.locator("html[data-hydrated]").waitFor({ state: "attached", timeout: 30_000 });
    return r;
  };
  const goto = page.goto.bind(page);
  const reload = page.reload.bind(page);
  page.goto = async (...args: Parameters<Page["goto"]>) => ready(await goto(...args));
  page.reload = async (...args: Parameters<Page["reload"]>) => ready(await reload(...args));
  return page;
}

/** A second signed-in browser context for another role, with its own console-error guard. */
async function withRole(browser: Browser, role: "auditor" | "admin" | "contributor" | "reviewer", use: (page: Page) => Promise<void>) {
  const context = await browser.newContext({ baseURL: process.env.E2E_BASE_URL });
  await signIn(context, role);
  const page = waitForHydration(await context.newPage());
  const errors: string[] = [];
  page.on("console", (m) => m.type() === "error" && errors.push(`${m.text()} (${m.location().url || page.url()})`));
  await use(page);
  expect(errors, `${role} browser console errors`).toEqual([]);
  await context.close();
}

/** Definitions used by the specs. */
export const defs = {
  gated(name: string, failing: { priority: "critical" | "important"; binary?: string } = { priority: "critical" }) {
    return {
      name,
      objective: "Show a gate in the browser",
      allowedBinaries: ["node"],
      // These specs decide the agent gate itself; with the library on, the refused binary would first be walked
      // through the starter library's hypotheses (library gates: e2e/library-protocol.spec.ts covers those).
      library: false,
      phases: [
        { name: "PLANNING", agents: [{ name: "planner", priority: "critical", steps: [{ tool: "shell", args: { command: "node", args: ["-e", "console.log('planned')"] }, evidence: [{ output_matches: "planned" }] }] }] },
        { name: "EXECUTION", agents: [{ name: "deployer", priority: failing.priority, steps: [{ tool: "shell", args: { command: failing.binary ?? "scp", args: ["dist.tgz", "staging:/srv/"] } }] }] },
      ],
    };
  },
  /** A step that needs 1.5 s but is given 1 s: its diagnosis (timeout) offers "double the time limit and re-run". */
  slowStep(name: string) {
    return {
      name,
      objective: "Compute a slow result",
      allowedBinaries: ["node"],
      phases: [{ name: "EXECUTION", agents: [{ name: "cruncher", priority: "critical", steps: [{ tool: "shell", args: { command: "node", args: ["-e", "setTimeout(() => console.log('done'), 1500)"] }, timeoutMs: 1000 }] }] }],
    };
  },
  httpOnce(name: string, url: string) {
    return {
      name,
      objective: "Fetch data from a flaky service",
      allowedBinaries: ["node"],
      phases: [{ name: "RESEARCH", agents: [{ name: "fetcher", priority: "critical", steps: [{ tool: "http", args: { url }, evidence: [{ http_status: 200 }] }] }] }],
    };
  },
};
