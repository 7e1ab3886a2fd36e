/**
 * Live-update benchmark (issue 19): `npm run bench:live`. Prints figures; it is not a timed test.
 *
 * Two real web processes (`faultline web`, the production build) on one fresh database; BENCH_LIVE_CLIENTS
 * socket.io clients (default 1,000, half on each web process, websocket transport, signed in as the
 * operator with a session token signed by the processes' shared secret) subscribe to one running mission.
 * This process then appends BENCH_LIVE_APPENDS events (default 200, two per transaction, at about
 * BENCH_LIVE_RATE transactions/s) through `appendEvents` and notes when each transaction committed; every
 * client notes when each event reached it. Printed: commit → client receive p50 / p99 / max over every
 * (client, event), per web process and in all, against the targets (p50 ≤ 50 ms, p99 ≤ 250 ms), and the
 * events missing at any client (must be 0).
 * Clients, web processes and PostgreSQL share this machine's cores: the figures include that contention.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { encode } from "next-auth/jwt";
import { io as connect, type Socket } from "socket.io-client";
import { createDb } from "../db/client";
import { ensureDatabase } from "../db/embedded";
import { appendEvents, createMission } from "../db/queries/events";
import { ensureActor } from "../db/queries/users";
import { users } from "../db/schema";
import { missionDefinitionSchema } from "../lib/mission";
import * as t from "../lib/mission/transitions";
import type { ClientToServerEvents, ServerToClientEvents } from "../lib/realtime/protocol";
import { ensureBuild, ROOT } from "../server/build";
import { freshDatabase, serverEnv, startWebProcess, stopProcess, type WebProcess } from "../e2e/global-setup";
import { percentile, progress } from "./util";

const CLIENTS = Number(process.env.BENCH_LIVE_CLIENTS ?? 1000);
const APPENDS = Number(process.env.BENCH_LIVE_APPENDS ?? 200);
const RATE = Number(process.env.BENCH_LIVE_RATE ?? 20);
const log = (m: string) => console.log(`[bench] ${m}`);

const definition = missionDefinitionSchema.parse({
  name: "live bench",
  objective: "events for many watchers",
  library: false,
  phases: [{ name: "EXECUTION", agents: [{ name: "bench", priority: "critical", steps: [{ tool: "file", args: { op: "list", path: "." } }] }] }],
});

async function main() {
  const server = await ensureDatabase({ dataDir: path.join(ROOT, ".data-test"), databaseUrl: process.env.DATABASE_URL });
  const run = await freshDatabase(server.url, "faultline_bench_live");
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "fl-bench-live-"));
  const handle = createDb(run.url, { max: 4 });
  const webs: WebProcess[] = [];
  const sockets: Array<Socket<ServerToClientEvents, ClientToServerEvents>> = [];
  try {
    await ensureBuild(log);
    const secret = randomBytes(24).toString("hex");
    const env = { ...serverEnv({ databaseUrl: run.url, port: 0, dataDir }), NEXTAUTH_SECRET: secret };
    log("starting 2 web processes …");
    webs.push(...(await Promise.all([startWebProcess(env), startWebProcess(env)])));

    const db = handle.db;
    const [operator] = await db.select({ id: users.id }).from(users).where(eq(users.email, "operator@faultline.local"));
    await ensureActor(db, { id: "worker:bench-live", kind: "system", displayName: "bench" });
    const m = await createMission(db, { definition, actorId: `user:${operator.id}` });
    // The session cookie the console would carry: a next-auth JWT signed with the web processes' secret.
    const token = await encode({ token: { id: operator.id, authAt: Date.now() }, secret });

    // (web, seq, receive time) per client and event; latencies are computed once every commit time is known
    // (a client may see an event before this process has read its COMMIT's answer).
    const arrivals: Array<{ web: number; seq: number; at: number }> = [];
    const committed = new Map<number, number>();
    const seen = new Array<Set<number>>(CLIENTS);
    log(`connecting ${CLIENTS} clients (half on each web process) …`);
    let ready = 0;
    await Promise.all(
      Array.from({ length: CLIENTS }, (_, i) => {
        const web = i % 2;
        const s: Socket<ServerToClientEvents, ClientToServerEvents> = connect(webs[web].url, { path: "/socket.io", transports: ["websocket"], extraHeaders: { cookie: `next-auth.session-token=${token}` }, reconnection: false, timeout: 60_000 });
        sockets.push(s);
        seen[i] = new Set();
        s.on("mission:events", (msg) => {
          const at = performance.now();
          for (const e of msg.events) {
            if (seen[i].has(e.seq)) continue;
            seen[i].add(e.seq);
            arrivals.push({ web, seq: e.seq, at });
          }
        });
        return new Promise<void>((resolve, reject) => {
          s.once("connect_error", (e) => reject(new Error(`client ${i} could not connect to web ${web + 1}: ${e.message}`)));
          s.once("connect", () => {
            s.emit("subscribe:mission", { missionId: m.id, lastSeq: 1 });
            progress("clients connected", ++ready, CLIENTS);
            resolve();
          });
        });
      }),
    );
    // Every client has joined the room once it got the catch-up of an event appended now.
    const first = await db.transaction((tx) => appendEvents(tx, { missionId: m.id, actorId: "worker:bench-live", events: [t.phaseStarted("EXECUTION", "start"), t.agentStarted("bench", 1)] }));
    const joinedBy = Date.now() + 120_000;
    while (seen.some((s) => !s.has(first.state.seq)) && Date.now() < joinedBy) await new Promise((r) => setTimeout(r, 100));
    const late = seen.filter((s) => !s.has(first.state.seq)).length;
    if (late) throw new Error(`${late} client(s) never received the first events`);

    log(`appending ${APPENDS} transactions of 2 events at ~${RATE}/s …`);
    const gap = 1000 / RATE;
    const started = performance.now();
    for (let n = 0; n < APPENDS; n++) {
      const r = await db.transaction((tx) => appendEvents(tx, { missionId: m.id, actorId: "worker:bench-live", events: [t.missionPaused("operator", `bench ${n}`), t.missionResumed(`bench ${n}`)] }));
      const at = performance.now();
      for (const e of r.events) committed.set(e.seq, at);
      progress("appends", n + 1, APPENDS);
      const next = started + (n + 1) * gap;
      const wait = next - performance.now();
      if (wait > 0) await new Promise((res) => setTimeout(res, wait));
    }
    const lastSeq = Math.max(...committed.keys());
    const deadline = Date.now() + 30_000;
    while (seen.some((s) => !s.has(lastSeq)) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    const expected = committed.size * CLIENTS;
    const perWeb: number[][] = [[], []];
    let early = 0;
    for (const a of arrivals) {
      const c = committed.get(a.seq);
      if (c === undefined) continue; // the first events, before the measured appends
      if (a.at < c) early++;
      perWeb[a.web].push(Math.max(0, a.at - c));
    }
    const all = [...perWeb[0], ...perWeb[1]];
    const f = (x: number) => `${x.toFixed(1)} ms`.padStart(10);
    console.log(`\nLive-update benchmark (${new Date().toISOString()}, ${os.cpus().length} cores, 2 web processes, ${CLIENTS} clients, ${committed.size} events)`);
    console.log(`                 p50         p99         max    samples`);
    for (const [i, xs] of perWeb.entries()) console.log(`  web ${i + 1}      ${f(percentile(xs, 50))}  ${f(percentile(xs, 99))}  ${f(xs.reduce((a, b) => Math.max(a, b), 0))}  ${xs.length}`);
    console.log(`  all        ${f(percentile(all, 50))}  ${f(percentile(all, 99))}  ${f(all.reduce((a, b) => Math.max(a, b), 0))}  ${all.length}   (targets: p50 ≤ 50 ms, p99 ≤ 250 ms)`);
    console.log(`  missing at a client: ${expected - all.length} of ${expected} (received before this process read the COMMIT's answer, counted as 0 ms: ${early})`);
  } finally {
    for (const s of sockets) s.close();
    await Promise.all(webs.map((w) => stopProcess(w.child)));
    await handle.close();
    await run.drop().catch(() => {});
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
process.exit(0);
