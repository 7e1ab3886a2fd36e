/**
 * Live-update benchmark (issue 19): `npm run bench:live`. Prints figures; it is not a timed test.
 *
 * Two real web processes (`faultline web`, the production build) on one fresh database; BENCH_LIVE_CLIENTS
 * socket.io clients (default 1,000, half on each web process, websocket transport, signed in as the
 * operator with a session token signed by the processes' shared secret) subscribe to one running mission.
 * The clients live in BENCH_LIVE_CLIENT_PROCS child processes (default 2, bench/live-clients.ts), not in
 * the process that appends: 1,000 browsers each decode their own messages, and one process decoding all of
 * them in turn would add its own queue to the figures (the first runs of this bench did that).
 * This process then appends BENCH_LIVE_APPENDS events (default 200, two per transaction, at about
 * BENCH_LIVE_RATE transactions/s) through `appendEvents` and notes when each transaction committed; every
 * client notes when each event reached it. Printed: commit → client receive p50 / p90 / p99 / max over every
 * (client, event), per web process and in all, against the targets (p50 ≤ 50 ms, p99 ≤ 250 ms), the events
 * missing at any client (must be 0), and where the time goes: commit → the first client of a web process
 * (NOTIFY, the relay's read, the first send) and first → last client of that process (the fan-out to its
 * sockets and the clients' own decoding), with the load average before and after the appends.
 * Clients, web processes and PostgreSQL share this machine's cores: the figures include that contention.
 * BENCH_LIVE_PROFILE=<dir> writes a CPU profile of each web process there (node --cpu-prof, on exit).
 */
import { fork, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { encode } from "next-auth/jwt";
import { createDb } from "../db/client";
import { ensureDatabase } from "../db/embedded";
import { appendEvents, createMission } from "../db/queries/events";
import { ensureActor } from "../db/queries/users";
import { users } from "../db/schema";
import { missionDefinitionSchema } from "../lib/mission";
import * as t from "../lib/mission/transitions";
import { ensureBuild, ROOT } from "../server/build";
import { freshDatabase, serverEnv, startWebProcess, stopProcess, type WebProcess } from "../e2e/global-setup";
import { loadAverage, percentile, progress } from "./util";

const CLIENTS = Number(process.env.BENCH_LIVE_CLIENTS ?? 1000);
const APPENDS = Number(process.env.BENCH_LIVE_APPENDS ?? 200);
const RATE = Number(process.env.BENCH_LIVE_RATE ?? 20);
const CLIENT_PROCS = Number(process.env.BENCH_LIVE_CLIENT_PROCS ?? 2);
const PROFILE = process.env.BENCH_LIVE_PROFILE;
/** Milliseconds on the monotonic clock every process of this machine shares (the client processes note arrivals on it). */
const monotonicMs = () => Number(process.hrtime.bigint()) / 1e6;

/** Sends `msg` to a client process and resolves with its next answer of type `answer` (rejects on "failed" or exit). */
function ask(child: ChildProcess, msg: object, answer: string): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const onMessage = (r: Record<string, unknown>) => {
      if (r.type !== answer && r.type !== "failed") return;
      child.off("message", onMessage);
      child.off("exit", onExit);
      if (r.type === "failed") reject(new Error(String(r.message)));
      else resolve(r);
    };
    const onExit = (code: number | null) => reject(new Error(`a client process exited (${code}) before answering ${answer}`));
    child.on("message", onMessage);
    child.once("exit", onExit);
    child.send(msg);
  });
}
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
  const clientProcs: ChildProcess[] = [];
  try {
    await ensureBuild(log);
    const secret = randomBytes(24).toString("hex");
    const env: NodeJS.ProcessEnv = { ...serverEnv({ databaseUrl: run.url, port: 0, dataDir }), NEXTAUTH_SECRET: secret };
    // On the command line: node refuses --cpu-prof in NODE_OPTIONS (the web processes exited with 9 when it was there).
    const nodeArgs = PROFILE ? ["--cpu-prof", `--cpu-prof-dir=${path.resolve(PROFILE)}`] : [];
    if (PROFILE) {
      fs.mkdirSync(PROFILE, { recursive: true });
      log(`web processes write CPU profiles to ${path.resolve(PROFILE)} when they stop`);
    }
    log("starting 2 web processes …");
    webs.push(...(await Promise.all([startWebProcess(env, nodeArgs), startWebProcess(env, nodeArgs)])));

    const db = handle.db;
    const [operator] = await db.select({ id: users.id }).from(users).where(eq(users.email, "operator@faultline.local"));
    await ensureActor(db, { id: "worker:bench-live", kind: "system", displayName: "bench" });
    const m = await createMission(db, { definition, actorId: `user:${operator.id}` });
    // The session cookie the console would carry: a next-auth JWT signed with the web processes' secret.
    const token = await encode({ token: { id: operator.id, authAt: Date.now() }, secret });

    // Client i is on web process i % 2 and in client process i % CLIENT_PROCS. Each client process notes
    // (web, seq, receive time) per client and event; latencies are computed once every commit time is known
    // (a client may see an event before this process has read its COMMIT's answer).
    log(`connecting ${CLIENTS} clients (half on each web process) in ${CLIENT_PROCS} client process(es) …`);
    const procs = await Promise.all(
      Array.from({ length: CLIENT_PROCS }, async (_, p) => {
        const child = fork(path.join(ROOT, "bench", "live-clients.ts"), [], {
          execArgv: ["--import", "tsx", ...(PROFILE ? ["--cpu-prof", `--cpu-prof-dir=${path.resolve(PROFILE)}`] : [])],
          serialization: "advanced",
          stdio: ["ignore", "inherit", "inherit", "ipc"],
        });
        clientProcs.push(child);
        const clients = Array.from({ length: CLIENTS }, (_, i) => i).filter((i) => i % CLIENT_PROCS === p).map((i): [number, number] => [i, i % 2]);
        await ask(child, { type: "start", urls: webs.map((w) => w.url), token, missionId: m.id, clients }, "connected");
        progress("client processes ready", p + 1, CLIENT_PROCS);
        return child;
      }),
    );
    const missingAt = async (seq: number) => (await Promise.all(procs.map((c) => ask(c, { type: "missing", seq }, "missing")))).reduce((a, r) => a + (r.count as number), 0);
    // Every client has joined the room once it got the catch-up of an event appended now.
    const first = await db.transaction((tx) => appendEvents(tx, { missionId: m.id, actorId: "worker:bench-live", events: [t.phaseStarted("EXECUTION", "start"), t.agentStarted("bench", 1)] }));
    const joinedBy = Date.now() + 120_000;
    while ((await missingAt(first.state.seq)) > 0 && Date.now() < joinedBy) await new Promise((r) => setTimeout(r, 100));
    const late = await missingAt(first.state.seq);
    if (late) throw new Error(`${late} client(s) never received the first events`);

    const committed = new Map<number, number>();
    const loadBefore = loadAverage();
    log(`appending ${APPENDS} transactions of 2 events at ~${RATE}/s (${loadBefore}) …`);
    const gap = 1000 / RATE;
    const window0 = monotonicMs();
    const started = performance.now();
    for (let n = 0; n < APPENDS; n++) {
      const r = await db.transaction((tx) => appendEvents(tx, { missionId: m.id, actorId: "worker:bench-live", events: [t.missionPaused("operator", `bench ${n}`), t.missionResumed(`bench ${n}`)] }));
      const at = monotonicMs();
      for (const e of r.events) committed.set(e.seq, at);
      progress("appends", n + 1, APPENDS);
      const next = started + (n + 1) * gap;
      const wait = next - performance.now();
      if (wait > 0) await new Promise((res) => setTimeout(res, wait));
    }
    log(`appends ran from ${window0.toFixed(0)} to ${monotonicMs().toFixed(0)} ms on the monotonic clock (to cut CPU profiles to that window)`);
    const lastSeq = Math.max(...committed.keys());
    const deadline = Date.now() + 30_000;
    while ((await missingAt(lastSeq)) > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    const arrivals: Array<{ web: number; seq: number; at: number }> = [];
    for (const c of procs) {
      const { arrivals: xs } = (await ask(c, { type: "report" }, "report")) as unknown as { arrivals: Float64Array };
      for (let i = 0; i < xs.length; i += 3) arrivals.push({ web: xs[i], seq: xs[i + 1], at: xs[i + 2] });
    }
    const loadAfter = loadAverage();
    const expected = committed.size * CLIENTS;
    const perWeb: number[][] = [[], []];
    // Per web process and event: the first and the last client to receive it.
    const spans = [new Map<number, { first: number; last: number }>(), new Map<number, { first: number; last: number }>()];
    let early = 0;
    for (const a of arrivals) {
      const c = committed.get(a.seq);
      if (c === undefined) continue; // the first events, before the measured appends
      if (a.at < c) early++;
      perWeb[a.web].push(Math.max(0, a.at - c));
      const span = spans[a.web].get(a.seq);
      if (!span) spans[a.web].set(a.seq, { first: a.at, last: a.at });
      else {
        span.first = Math.min(span.first, a.at);
        span.last = Math.max(span.last, a.at);
      }
    }
    const all = [...perWeb[0], ...perWeb[1]];
    const toFirst = spans.flatMap((m) => [...m].map(([seq, s]) => Math.max(0, s.first - committed.get(seq)!)));
    const fanOut = spans.flatMap((m) => [...m.values()].map((s) => s.last - s.first));
    const f = (x: number) => `${x.toFixed(1)} ms`.padStart(10);
    const row = (label: string, xs: number[]) => console.log(`  ${label.padEnd(22)}${f(percentile(xs, 50))}  ${f(percentile(xs, 90))}  ${f(percentile(xs, 99))}  ${f(xs.reduce((a, b) => Math.max(a, b), 0))}  ${String(xs.length).padStart(8)}`);
    console.log(`\nLive-update benchmark (${new Date().toISOString()}, ${os.cpus().length} cores, 2 web processes, ${CLIENTS} clients in ${CLIENT_PROCS} process(es), ${committed.size} events at ~${RATE * 2}/s)`);
    console.log(`  before the appends: ${loadBefore}; after: ${loadAfter}`);
    console.log(`  commit → receive            p50         p90         p99         max   samples`);
    for (const [i, xs] of perWeb.entries()) row(`web ${i + 1}`, xs);
    row("all", all);
    console.log(`  targets: p50 ≤ 50 ms, p99 ≤ 250 ms → ${percentile(all, 50) <= 50 && percentile(all, 99) <= 250 ? "met" : "NOT met"}`);
    console.log(`  where it goes (per web process and event):`);
    row("commit → first client", toFirst);
    row("first → last client", fanOut);
    console.log(`  missing at a client: ${expected - all.length} of ${expected} (received before this process read the COMMIT's answer, counted as 0 ms: ${early})`);
  } finally {
    for (const c of clientProcs) if (c.exitCode === null) c.kill();
    await Promise.all(webs.map((w) => stopProcess(w.child)));
    await handle.close();
    await run.drop().catch(() => {});
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
process.exit(0);
