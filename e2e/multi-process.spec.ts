import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { and, eq, inArray, sql } from "drizzle-orm";
import { checkInvariants, SideEffectServer, spawnWorker, effectStep, type WorkerProcess } from "../chaos/harness";
import { createDb, withDatabaseName, type DbHandle } from "../db/client";
import { events, gates, missions, operatorPresence, users } from "../db/schema";
import { expect, signIn, test } from "./fixtures";
import { freshDatabase, serverEnv, startWebProcess, stopProcess, type WebProcess } from "./global-setup";

/**
 * Issue 19, many processes on one PostgreSQL: 2 web and 3 worker processes of their own on a fresh
 * database. 50 missions with a side effect before and after a high-risk step; their approval gates are
 * decided through both web processes in turn; a worker is SIGKILLed mid-run (its missions go on on the
 * others after the lease; an interrupted non-idempotent step is resumed by the operator). The operator
 * keeps a tab on each web process and closes one: the other still holds a socket, so nothing pauses.
 * Checked: every mission SUCCESS, its log whole and its projections equal to reduce(events), no side
 * effect twice that nobody asked for, no `client` pause.
 */
const MISSIONS = 50;

test("2 web and 3 worker processes on one database: 50 missions, gates decided through both web processes, a worker killed mid-run — no event lost, no side effect twice, no false disconnection pause", async ({ browser }) => {
  test.setTimeout(300_000);
  const run = await freshDatabase(withDatabaseName(process.env.E2E_DATABASE_URL!, "postgres"), "faultline_e2e_mp");
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "fl-multi-"));
  const fx = await SideEffectServer.start();
  const handle: DbHandle = createDb(run.url, { max: 4 });
  const db = handle.db;
  const webs: WebProcess[] = [];
  const workers: WorkerProcess[] = [];
  try {
    // One secret for every web process: a session begun on one is valid on the other (as behind a load balancer).
    const env = { ...serverEnv({ databaseUrl: run.url, port: 0, dataDir }), NEXTAUTH_SECRET: randomBytes(24).toString("hex"), FAULTLINE_OPERATOR_DISCONNECT_MS: "1500" };
    webs.push(...(await Promise.all([startWebProcess(env), startWebProcess(env)])));
    for (const i of [1, 2, 3]) workers.push(await spawnWorker({ databaseUrl: run.url, dataDir: path.join(dataDir, `w${i}`), label: `worker ${i}` }));

    // The operator, with a tab on each web process (cookies are per host: one sign-in serves both ports).
    const context = await browser.newContext();
    await signIn(context, "operator", webs[0].url);
    const [operator] = await db.select({ id: users.id }).from(users).where(eq(users.email, "operator@faultline.local"));
    const definition = (n: number) => ({
      name: `multi-process ${n}`,
      objective: "a side effect, an approval, a side effect",
      allowedBinaries: ["node"],
      phases: [{ name: "EXECUTION", agents: [{ name: "ship", priority: "critical", steps: [effectStep(fx, { sleepMs: 400, name: "prepare" }), { ...effectStep(fx, { name: "release" }), highRisk: true }, effectStep(fx, { name: "announce" })] }] }],
    });
    const ids: string[] = [];
    for (let n = 0; n < MISSIONS; n++) {
      const res = await context.request.post(`${webs[n % 2].url}/api/v1/missions`, { data: definition(n) });
      expect(res.status(), await res.text()).toBe(201);
      const body = (await res.json()) as { mission?: { id: string }; id?: string };
      ids.push(body.mission?.id ?? body.id!);
    }
    const tabs = await Promise.all(webs.map(async (w) => {
      const page = await context.newPage();
      await page.goto(`${w.url}/missions/${ids[0]}`);
      return page;
    }));
    await expect.poll(async () => (await db.select().from(operatorPresence).where(and(eq(operatorPresence.userId, operator.id), sql`${operatorPresence.sockets} > 0`))).length, { timeout: 30_000 }).toBe(2);

    // A worker dies mid-run, once a dozen steps have started.
    await expect.poll(async () => (await db.select({ n: sql<number>`count(*)::int` }).from(events).where(and(inArray(events.missionId, ids), eq(events.type, "step.started"))))[0].n, { timeout: 60_000 }).toBeGreaterThanOrEqual(12);
    await workers[0].kill();

    // The operator closes the tab on web 2: web 2 pauses nothing, web 1 still holds their socket.
    await tabs[1].close();
    await expect.poll(() => webs[1].output.join(""), { timeout: 30_000 }).toMatch(/has no connection here but one on another web process; nothing paused/);

    // Decide every gate as it opens, through web 1 and web 2 in turn, until every mission has ended.
    let decided = 0;
    const through = [0, 0];
    await expect
      .poll(
        async () => {
          const open = await db.select({ id: gates.id, kind: gates.kind }).from(gates).where(and(inArray(gates.missionId, ids), eq(gates.status, "open")));
          for (const g of open) {
            const w = decided++ % 2;
            const decision = g.kind === "approval" ? "approve" : g.kind === "recovery" ? "resume" : "retry";
            const res = await context.request.post(`${webs[w].url}/api/v1/gates/${g.id}/decision`, { data: { decision, note: `multi-process test via web ${w + 1}` } });
            if (res.status() === 409) continue; // decided meanwhile
            expect(res.status(), await res.text()).toBe(200);
            through[w]++;
          }
          const rows = await db.select({ finalStatus: missions.finalStatus }).from(missions).where(inArray(missions.id, ids));
          return rows.filter((r) => r.finalStatus !== null).length;
        },
        { timeout: 200_000, intervals: [250] },
      )
      .toBe(MISSIONS);
    expect(through[0]).toBeGreaterThanOrEqual(MISSIONS / 2 - 1);
    expect(through[1]).toBeGreaterThanOrEqual(MISSIONS / 2 - 1);

    const finals = await db.select({ id: missions.id, finalStatus: missions.finalStatus }).from(missions).where(inArray(missions.id, ids));
    expect(finals.filter((m) => m.finalStatus !== "SUCCESS")).toEqual([]);
    let duplicates = 0;
    for (const id of ids) {
      const report = await checkInvariants(db, id, { sideEffects: fx });
      expect(report.violations, `mission ${id}`).toEqual([]);
      duplicates += report.duplicateSideEffects;
      expect(report.events.filter((e) => e.type === "mission.paused" && (e.payload as { kind?: string }).kind === "client"), `mission ${id}: a false disconnection pause`).toEqual([]);
    }
    expect(duplicates).toBe(0);
    // The killed worker's missions were taken over: at least one mission has events from two workers.
    const writers = await db.execute<{ mission_id: string; n: number }>(sql`select mission_id, count(distinct actor_id)::int as n from events where mission_id in (${sql.join(ids.map((i) => sql`${i}::uuid`), sql`, `)}) and actor_id like 'worker:%' group by mission_id`);
    expect(writers.filter((r) => r.n > 1).length).toBeGreaterThan(0);
    await context.close();
  } finally {
    await Promise.all(workers.map((w) => w.stop(5000)));
    await Promise.all(webs.map((w) => stopProcess(w.child)));
    await handle.close();
    await fx.close();
    await run.drop().catch(() => {});
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});
