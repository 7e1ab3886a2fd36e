/**
 * Timeline benchmark (issue 19): `npm run bench:timeline`. Prints figures; it is not a timed test.
 *
 * 1. A mission of BENCH_TIMELINE_EVENTS events (default 50,000: ten agents of no-op file steps) runs
 *    through the real engine (`advance`) in memory — every event is the engine's own and goes through the
 *    reducer — and is written to a dedicated database in bulk; `rebuildMission` then writes its snapshot
 *    and projections from the stored log (it throws if the log does not reduce).
 * 2. The console is built if needed and a real web process started on that database.
 * 3. Chromium (Playwright, signed in as the operator, 1280×800) opens the mission and measures:
 *    LCP (PerformanceObserver 'largest-contentful-paint'), DOM nodes (getElementsByTagName('*')) after
 *    load and at every step of scrolling through the log, and interaction latency (Event Timing API,
 *    durationThreshold 16: the longest interaction, as INP with fewer than 50 interactions) while
 *    scrolling (expanding rows by click and keyboard between wheel scrolls) and filtering (type and agent
 *    chosen by keyboard); then opening at an event far back (?seq=).
 * Targets: LCP ≤ 2.5 s, fewer than 1,500 DOM nodes, INP ≤ 200 ms. BENCH_KEEP=1 keeps the database.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { chromium, type BrowserContext, type Page } from "playwright";
import { rebuildMission } from "../db/queries/events";
import { ensureActor } from "../db/queries/users";
import { seedDatabase } from "../db/seed/index";
import { events as eventsTable, missions } from "../db/schema";
import { serverEnv, waitForHttp } from "../e2e/global-setup";
import { advance } from "../lib/mission/engine";
import { applyEvent, missionDefinitionSchema, type MissionEvent, type MissionState, type NewMissionEvent } from "../lib/mission";
import * as t from "../lib/mission/transitions";
import { freeLoopbackPort } from "../lib/net";
import { ensureBuild, ROOT } from "../server/build";
import { memoryEngineIO, percentile, withBenchDatabase } from "./util";

const TARGET_EVENTS = Number(process.env.BENCH_TIMELINE_EVENTS ?? 50_000);
const AGENTS = 10;
const log = (m: string) => console.log(`[bench] ${m}`);
const WORKER = "worker:bench-timeline";
const ID = "6b1c2f0e-1d3a-4c5b-9e7f-0000000000ab";

/** Steps per agent for about TARGET_EVENTS events (a step is step.started + tool.succeeded). */
const perAgent = Math.ceil((TARGET_EVENTS - 6 - AGENTS * 2) / 2 / AGENTS);
const step = (a: number, i: number) =>
  i % 3 === 0
    ? { name: `write ${i}`, tool: "file", args: { op: "write", path: `out/${a}-${i % 20}.txt`, content: `agent ${a} line ${i}\n` }, evidence: [{ file_exists: `out/${a}-${i % 20}.txt` }] }
    : { name: `list ${i}`, tool: "file", args: { op: "list", path: "." } };
const definition = missionDefinitionSchema.parse({
  name: "timeline bench",
  objective: "a long log: many small steps of ten agents",
  library: false,
  phases: [{ name: "EXECUTION", timeoutMs: 24 * 3_600_000, agents: Array.from({ length: AGENTS }, (_, a) => ({ name: `agent-${a}`, priority: "critical", timeoutMs: 24 * 3_600_000, steps: Array.from({ length: perAgent }, (_, i) => step(a, i)) })) }],
});

/** The mission run through the real engine in memory: its events (each applied by the reducer) and final state. */
async function runMission(workspace: string): Promise<{ events: MissionEvent[]; state: MissionState }> {
  const events: MissionEvent[] = [];
  let state: MissionState | null = null;
  // Event times a few ms apart, as a real run's.
  let clock = Date.parse("2026-11-01T08:00:00Z");
  const push = (list: Array<NewMissionEvent | ((s: MissionState) => NewMissionEvent | null)>, actorId: string): MissionState => {
    for (const item of list) {
      const e = typeof item === "function" ? item(state!) : item;
      if (!e) continue;
      clock += 7;
      const ev = { ...e, missionId: ID, seq: (state?.seq ?? 0) + 1, actorId: e.actorId ?? actorId, at: new Date(clock).toISOString() } as MissionEvent;
      state = applyEvent(state, ev);
      events.push(ev);
    }
    return state!;
  };
  push([t.missionCreated(definition)], "user:bench");
  const io = memoryEngineIO({ workspace, now: () => clock, append: async (list) => push(list, WORKER) });
  for (;;) {
    const r = await advance(state!, io);
    if (r.outcome !== "progress") break;
  }
  return { events, state: state! };
}

async function signIn(context: BrowserContext, baseURL: string): Promise<void> {
  const { csrfToken } = (await (await context.request.get(`${baseURL}/api/auth/csrf`)).json()) as { csrfToken: string };
  const res = await context.request.post(`${baseURL}/api/auth/callback/credentials`, { form: { csrfToken, email: "operator@faultline.local", password: "faultline-operator", json: "true" } });
  if (!res.ok()) throw new Error(`sign-in as operator failed with ${res.status()}`);
}

/** Collects LCP and Event Timing entries from the start of each navigation. */
const OBSERVE = () => {
  const w = window as unknown as { __lcp: number; __events: Array<{ name: string; duration: number; id: number; start: number }> };
  w.__lcp = 0;
  w.__events = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      w.__lcp = e.startTime;
      const el = (e as PerformanceEntry & { element?: Element | null }).element;
      (w as unknown as { __lcpElement: string }).__lcpElement = el ? `${el.tagName.toLowerCase()}${el.getAttribute("data-testid") ? `[data-testid=${el.getAttribute("data-testid")}]` : ""} "${(el.textContent ?? "").slice(0, 40)}"` : "?";
    }
  }).observe({ type: "largest-contentful-paint", buffered: true });
  new PerformanceObserver((list) => {
    for (const e of list.getEntries() as Array<PerformanceEventTiming & { interactionId?: number }>) if (e.interactionId) w.__events.push({ name: e.name, duration: e.duration, id: e.interactionId, start: e.startTime });
  }).observe({ type: "event", durationThreshold: 16, buffered: true } as PerformanceObserverInit);
};

const domNodes = (page: Page) => page.evaluate(() => document.getElementsByTagName("*").length);
const lcp = (page: Page) => page.evaluate(() => (window as unknown as { __lcp: number }).__lcp);
/** The document's size (HTML with the server components' payload), TTFB and the LCP element. */
const navigation = (page: Page) =>
  page.evaluate(() => {
    const n = performance.getEntries().find((e) => (e.entryType as string) === "navigation") as PerformanceNavigationTiming;
    return { htmlBytes: n.decodedBodySize, ttfb: n.responseStart, responseEnd: n.responseEnd, lcpElement: (window as unknown as { __lcpElement?: string }).__lcpElement ?? "?" };
  });
/** Interactions (Event Timing, ≥ 16 ms) since the mark: the longest per interaction. */
async function interactions(page: Page, since: number): Promise<Array<{ name: string; ms: number }>> {
  const list = await page.evaluate(() => (window as unknown as { __events: Array<{ name: string; duration: number; id: number; start: number }> }).__events);
  const byId = new Map<number, { name: string; ms: number }>();
  for (const e of list) if (e.start >= since && (byId.get(e.id)?.ms ?? -1) < e.duration) byId.set(e.id, { name: e.name, ms: e.duration });
  return [...byId.values()];
}
const now = (page: Page) => page.evaluate(() => performance.now());
const settle = (page: Page) => page.evaluate(() => new Promise<void>((r) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(r, 50)))));

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "fl-bench-timeline-"));
  await withBenchDatabase("timeline", { max: 4, keep: process.env.BENCH_KEEP === "1" }, async (db, url) => {
    await seedDatabase(db, { demoUsers: true, missions: false });
    await ensureActor(db, { id: "user:bench", kind: "user", displayName: "bench" });
    await ensureActor(db, { id: WORKER, kind: "system", displayName: "bench worker" });
    let t0 = performance.now();
    fs.mkdirSync(path.join(dir, "ws", "out"), { recursive: true });
    const run = await runMission(path.join(dir, "ws"));
    log(`mission run through the engine in memory: ${run.events.length} events, ${Math.round(performance.now() - t0)} ms (${run.state.finalStatus})`);
    t0 = performance.now();
    const s = run.state;
    await db.insert(missions).values({ id: ID, name: s.name, definition: s.definition, phase: s.phase, runState: s.runState, lastSeq: s.seq, state: s, createdBy: "user:bench", createdAt: s.createdAt, updatedAt: s.createdAt });
    for (let i = 0; i < run.events.length; i += 1000)
      await db.insert(eventsTable).values(run.events.slice(i, i + 1000).map((e) => ({ missionId: e.missionId, missionCreatedAt: s.createdAt, seq: e.seq, type: e.type, actorId: e.actorId, payload: e.payload, reason: e.reason, impact: e.impact, evidence: e.evidence, createdAt: e.at })));
    // Snapshot and projections from the stored log, as a migration's rebuild writes them.
    const rebuilt = await db.transaction((tx) => rebuildMission(tx, ID));
    if (rebuilt.seq !== s.seq || rebuilt.finalStatus !== s.finalStatus) throw new Error(`the stored log reduces to seq ${rebuilt.seq} ${rebuilt.finalStatus}, not ${s.seq} ${s.finalStatus}`);
    log(`stored in PostgreSQL (bulk insert + snapshot): ${Math.round(performance.now() - t0)} ms`);

    await ensureBuild(log);
    const port = await freeLoopbackPort();
    const baseURL = `http://127.0.0.1:${port}`;
    const dataDir = path.join(ROOT, ".data-test");
    const logPath = path.join(dir, "web.log");
    const out = fs.openSync(logPath, "w");
    const web = spawn(process.execPath, [path.join(ROOT, "bin", "faultline.mjs"), "web"], { cwd: ROOT, env: { ...serverEnv({ databaseUrl: url, port, dataDir }), FAULTLINE_PROCESS: "web" }, stdio: ["ignore", out, out] });
    const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking", "--no-first-run"] });
    try {
      await waitForHttp(`${baseURL}/login`, web, 120_000);
      const context = await browser.newContext({ baseURL, viewport: { width: 1280, height: 800 } });
      await signIn(context, baseURL);
      await context.addInitScript(OBSERVE);
      const page = await context.newPage();
      // A first visit warms the server (compiled routes, caches); the figures are from the second.
      await page.goto(`/missions/${ID}`, { waitUntil: "load" });
      await page.getByTestId("timeline-viewport").waitFor();

      await page.goto(`/missions/${ID}`, { waitUntil: "load" });
      const viewport = page.getByTestId("timeline-viewport");
      await viewport.waitFor();
      await page.waitForTimeout(1500);
      const heading = (await page.getByRole("heading", { name: /Timeline/ }).textContent())?.trim();
      const figures = { nav: await navigation(page), lcp: await lcp(page), domAfterLoad: await domNodes(page), status: await page.getByTestId("timeline-loaded").textContent() };

      // Scrolling: wheel up through the log (older pages load as it goes), a row opened by click and by keyboard now and then.
      const mark = await now(page);
      const box = (await viewport.boundingBox())!;
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
      const domScrolling: number[] = [];
      const scrollFrames: number[] = [];
      for (let i = 0; i < 60; i++) {
        const before = await now(page);
        await page.mouse.wheel(0, -1200);
        await settle(page);
        scrollFrames.push((await now(page)) - before);
        domScrolling.push(await domNodes(page));
        if (i % 10 === 5) {
          const row = page.getByTestId("timeline-event").nth(3);
          await row.locator("summary").click();
          await settle(page);
          domScrolling.push(await domNodes(page));
          await row.locator("summary").press("Enter");
          await settle(page);
        }
      }
      await page.waitForTimeout(500);
      const statusAfterScroll = await page.getByTestId("timeline-loaded").textContent();
      const scrolling = await interactions(page, mark);

      // Filtering: type tool.succeeded, then all types of agent-3 — chosen by keyboard on the selects.
      const mark2 = await now(page);
      const domFiltering: number[] = [];
      const type = page.getByTestId("timeline-filter-type");
      await type.focus();
      const typeIndex = await type.evaluate((el: HTMLSelectElement) => [...el.options].findIndex((o) => o.value === "tool.succeeded"));
      for (let i = 0; i < typeIndex; i++) await page.keyboard.press("ArrowDown");
      await page.getByTestId("timeline-loaded").filter({ hasText: "matching" }).waitFor();
      await page.waitForTimeout(800);
      const failedStatus = await page.getByTestId("timeline-loaded").textContent();
      domFiltering.push(await domNodes(page));
      for (let i = 0; i < typeIndex; i++) await page.keyboard.press("ArrowUp");
      const agent = page.getByTestId("timeline-filter-agent");
      await agent.focus();
      for (let i = 0; i < 4; i++) await page.keyboard.press("ArrowDown");
      await page.waitForTimeout(1000);
      const agentStatus = await page.getByTestId("timeline-loaded").textContent();
      domFiltering.push(await domNodes(page));
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
      for (let i = 0; i < 20; i++) {
        await page.mouse.wheel(0, -1500);
        await settle(page);
        domFiltering.push(await domNodes(page));
      }
      const filtering = await interactions(page, mark2);

      // Opened at one event far back (the failure history's link).
      const far = 1234;
      await page.goto(`/missions/${ID}?seq=${far}`, { waitUntil: "load" });
      await page.locator(`[data-testid="timeline-event"][data-seq="${far}"]`).waitFor({ state: "visible" });
      await page.waitForTimeout(1000);
      const highlight = { lcp: await lcp(page), dom: await domNodes(page), current: await page.locator('[aria-current="true"]').getAttribute("data-seq") };
      await context.close();

      const ms = (x: number) => `${Math.round(x)} ms`;
      const inp = (xs: Array<{ ms: number }>) => Math.max(0, ...xs.map((x) => x.ms));
      const ok = (good: boolean) => (good ? "ok" : "MISSED");
      const maxDom = Math.max(figures.domAfterLoad, ...domScrolling, ...domFiltering, highlight.dom);
      console.log("");
      console.log(`  mission of ${run.events.length.toLocaleString("en-US")} events, Chromium 1280×800, production build, ${os.cpus().length} cores`);
      console.log(`  heading: "${heading}"; after load: "${figures.status}"`);
      console.log(`  LCP (open the mission)                    ${ms(figures.lcp)}   target ≤ 2,500 ms   ${ok(figures.lcp <= 2500)}   (TTFB ${ms(figures.nav.ttfb)}, document ${(figures.nav.htmlBytes / 1e6).toFixed(2)} MB done at ${ms(figures.nav.responseEnd)}; LCP element ${figures.nav.lcpElement})`);
      console.log(`  mission state ${(JSON.stringify(s).length / 1e6).toFixed(2)} MB as JSON (definition ${(JSON.stringify(s.definition).length / 1e6).toFixed(2)} MB), ${run.events.length.toLocaleString("en-US")} events ${(JSON.stringify(run.events).length / 1e6).toFixed(1)} MB`);
      console.log(`  LCP (open at #${far}, ?seq=)               ${ms(highlight.lcp)}   highlighted #${highlight.current}`);
      console.log(`  DOM nodes after load                      ${figures.domAfterLoad}   target < 1,500   ${ok(figures.domAfterLoad < 1500)}`);
      console.log(`  DOM nodes while scrolling  max / median   ${Math.max(...domScrolling)} / ${percentile(domScrolling, 50)}   (${domScrolling.length} samples)   after: "${statusAfterScroll}"`);
      console.log(`  DOM nodes while filtering  max            ${Math.max(...domFiltering)}   ("${failedStatus}"; "${agentStatus}")`);
      console.log(`  DOM nodes at any sample    max            ${maxDom}   target < 1,500   ${ok(maxDom < 1500)}`);
      console.log(`  wheel scroll → settled frame p50 / p95    ${ms(percentile(scrollFrames, 50))} / ${ms(percentile(scrollFrames, 95))}`);
      console.log(`  INP while scrolling (${scrolling.length} interactions ≥ 16 ms)   ${ms(inp(scrolling))}   target ≤ 200 ms   ${ok(inp(scrolling) <= 200)}`);
      console.log(`  INP while filtering (${filtering.length} interactions ≥ 16 ms)   ${ms(inp(filtering))}   target ≤ 200 ms   ${ok(inp(filtering) <= 200)}`);
      const worst = [...scrolling, ...filtering].sort((a, b) => b.ms - a.ms).slice(0, 5);
      if (worst.length) console.log(`  slowest interactions: ${worst.map((w) => `${w.name} ${ms(w.ms)}`).join(", ")}`);
    } catch (e) {
      log(`web log: ${logPath}\n${fs.readFileSync(logPath, "utf8").slice(-3000)}`);
      throw e;
    } finally {
      await browser.close();
      web.kill("SIGTERM");
      await new Promise((r) => (web.exitCode !== null ? r(null) : web.once("exit", r)));
    }
  }).finally(() => fs.rmSync(dir, { recursive: true, force: true }));
}

await main();
