import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { APIRequestContext, BrowserContext, Page } from "@playwright/test";
import { freeLoopbackPort } from "../lib/net";
import { expect, heldStep, test } from "./fixtures";
import { MissionPage } from "./pages/mission-page";
import { serverEnv } from "./global-setup";

/**
 * Chaos scenario e (FAILURE_MODEL level 4, client failure), in a real Chromium. An operator who owns a
 * running mission closes their browser: after the grace period the mission pauses ("Operator
 * disconnected, mission paused"). An observer closing theirs changes nothing.
 *
 * The spec runs its own web process with FAULTLINE_OPERATOR_DISCONNECT_MS=1500, on the run's database and
 * with the run's worker (e2e/global-setup.ts). Not the shared web process: with a 1.5 s grace there, a
 * page navigation that took longer than that on a loaded machine, or the gap between two tests, paused
 * the missions of other specs (seen: gates.spec and control.spec failing on "Operator disconnected").
 */

type ApiEvent = { seq: number; type: string; actorId: string; payload: Record<string, unknown> };
const GRACE_MS = 1500;
const ROOT = path.resolve(import.meta.dirname, "..");

let web: ChildProcess | null = null;
let baseURL = "";
let logPath = "";

test.beforeAll(async () => {
  test.setTimeout(120_000);
  const port = await freeLoopbackPort();
  baseURL = `http://127.0.0.1:${port}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "fl-e2e-chaos-"));
  logPath = path.join(ROOT, ".data-e2e", `chaos-client-web-${Date.now()}.log`);
  const log = fs.openSync(logPath, "w");
  web = spawn(process.execPath, [path.join(ROOT, "bin", "faultline.mjs"), "web"], {
    cwd: ROOT,
    env: { ...serverEnv({ databaseUrl: process.env.E2E_DATABASE_URL!, port, dataDir }), FAULTLINE_PROCESS: "web", FAULTLINE_OPERATOR_DISCONNECT_MS: String(GRACE_MS) },
    stdio: ["ignore", log, log],
  });
  await expect
    .poll(
      async () => {
        if (web?.exitCode !== null) throw new Error(`the chaos web process exited (${web?.exitCode}); see ${logPath}`);
        return fetch(`${baseURL}/login`).then((r) => r.status < 500, () => false);
      },
      { timeout: 90_000, intervals: [250] },
    )
    .toBe(true);
});

test.afterAll(async () => {
  if (!web || web.exitCode !== null) return;
  const exited = new Promise((r) => web!.once("exit", r));
  web.kill("SIGTERM");
  await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
  if (web.exitCode === null) web.kill("SIGKILL");
});

/** Signs a context in (next-auth's CSRF + credentials callback) against this spec's web process. */
async function signedIn(browser: { newContext: (o: { baseURL: string }) => Promise<BrowserContext> }, role: "operator" | "auditor"): Promise<BrowserContext> {
  const context = await browser.newContext({ baseURL });
  const { csrfToken } = (await (await context.request.get("/api/auth/csrf")).json()) as { csrfToken: string };
  const res = await context.request.post("/api/auth/callback/credentials", { form: { csrfToken, email: `${role}@faultline.local`, password: `faultline-${role}`, json: "true" } });
  expect(res.ok(), `sign-in as ${role} failed with ${res.status()}`).toBeTruthy();
  expect((await (await context.request.get("/api/auth/session")).json())?.user?.roles).toContain(role);
  return context;
}

async function events(api: APIRequestContext, id: string): Promise<ApiEvent[]> {
  const res = await api.get(`/api/v1/missions/${id}/events`);
  expect(res.status()).toBe(200);
  return ((await res.json()) as { events: ApiEvent[] }).events;
}

async function connected(page: Page): Promise<Page> {
  await expect(page.getByTestId("connection-status")).toHaveAttribute("data-status", "connected", { timeout: 20_000 });
  return page;
}

async function openLive(context: BrowserContext, id: string): Promise<Page> {
  const page = await context.newPage();
  await new MissionPage(page).open(id);
  return connected(page);
}

test("e. client disconnect: the owning operator closing the browser pauses the mission after the grace period; an observer closing theirs changes nothing; back, the operator sees the full state and resumes", async ({ browser }) => {
  test.setTimeout(120_000);
  // Reads through the API from a context that never opens a page (no socket: no presence of its own).
  const reader = await signedIn(browser, "auditor");
  const first = heldStep("first done");

  // The operator is connected (the missions list, live), starts the mission (so they own it) and follows it.
  const operator = await signedIn(browser, "operator");
  const list = await operator.newPage();
  await list.goto("/missions");
  await connected(list);
  const res = await operator.request.post("/api/v1/missions", {
    data: {
      name: `client disconnect ${Date.now()}`,
      objective: "keep running only while its operator is connected",
      allowedBinaries: ["node"],
      phases: [
        {
          name: "EXECUTION",
          agents: [
            {
              name: "long-runner",
              priority: "critical",
              steps: [
                // Runs until the test releases it (a file appears): in flight for as long as the scenario needs, on any machine.
                first.step,
                { tool: "shell", args: { command: "node", args: ["-e", "console.log('second done')"] } },
              ],
            },
          ],
        },
      ],
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  const id = ((await res.json()) as { mission: { id: string } }).mission.id;
  await openLive(operator, id);
  await expect.poll(async () => (await events(reader.request, id)).some((e) => e.type === "step.started"), { timeout: 20_000 }).toBe(true);

  // An auditor (observer) watches live, then closes the browser: no impact, even after the grace period.
  const auditor = await signedIn(browser, "auditor");
  await openLive(auditor, id);
  await auditor.close();
  await new Promise((r) => setTimeout(r, GRACE_MS + 1500));
  const afterObserver = await events(reader.request, id);
  expect(afterObserver.map((e) => e.type)).not.toContain("mission.paused");
  expect(afterObserver.at(-1)?.type).toBe("step.started"); // the first step is still running

  // The operator closes the browser while the step runs: after the grace period the mission pauses.
  const closedAt = Date.now();
  await operator.close();
  let paused: ApiEvent | undefined;
  await expect
    .poll(async () => {
      paused = (await events(reader.request, id)).find((e) => e.type === "mission.paused");
      return paused !== undefined;
    }, { timeout: GRACE_MS + 10_000, intervals: [100] })
    .toBe(true);
  const pausedAfterMs = Date.now() - closedAt;
  expect(pausedAfterMs).toBeGreaterThanOrEqual(GRACE_MS - 100);
  expect(paused!.actorId).toBe("system:web");
  expect(paused!.payload.kind).toBe("client");
  expect(String(paused!.payload.message)).toMatch(/^Operator disconnected, mission paused/);

  // The step in flight records its result (its checkpoint); the next one does not start while paused.
  first.release();
  await expect.poll(async () => (await events(reader.request, id)).filter((e) => e.type === "tool.succeeded").length, { timeout: 30_000 }).toBe(1);
  await new Promise((r) => setTimeout(r, 1000));
  const held = await events(reader.request, id);
  expect(held.filter((e) => e.type === "step.started")).toHaveLength(1);

  // The operator comes back: the page shows the full state (every event, the pause and why) and can resume.
  const back = await signedIn(browser, "operator");
  const page = await openLive(back, id);
  const mission = new MissionPage(page);
  await expect(page.getByTestId("pause-banner")).toHaveAttribute("data-kind", "client");
  await expect(page.getByTestId("pause-banner")).toContainText("Operator disconnected, mission paused");
  await expect.poll(() => mission.timelineSeqs()).toEqual(held.map((e) => e.seq));
  await page.getByTestId("resume-mission").click();
  await expect(mission.finalStatus()).toHaveAttribute("data-value", "SUCCESS", { timeout: 20_000 });

  const all = await events(reader.request, id);
  expect(all.map((e) => e.seq)).toEqual(all.map((_, i) => i + 1));
  expect(all.filter((e) => e.type === "mission.paused")).toHaveLength(1);
  expect(all.find((e) => e.type === "mission.resumed")?.actorId).toMatch(/^user:/);
  expect(await mission.timelineSeqs()).toEqual(all.map((e) => e.seq));
  console.log(`[chaos e] paused ${pausedAfterMs} ms after the operator closed the browser (grace ${GRACE_MS} ms)`);
  await back.close();
  await reader.close();
});
