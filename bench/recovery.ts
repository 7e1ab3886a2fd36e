/**
 * Recovery benchmark (issue 3, "Benchmarks"): `node --import tsx bench/recovery.ts` (npm run bench:recovery).
 * Prints figures; it is not a timed test.
 *
 *  1. Takeover after SIGKILL, with the lease settings the product ships (FAULTLINE_LEASE_MS 15000,
 *     FAULTLINE_HEARTBEAT_MS 5000, FAULTLINE_POLL_MS 2000): worker processes are killed in the middle
 *     of a step, several at once (independent missions), and the time from the SIGKILL to the first
 *     event another worker appends to the mission is measured, with lost events and duplicate side
 *     effects counted.
 *  2. Gate decision → worker resuming: the time from the commit of `gate.resolved` to the worker's next
 *     event on the mission (its `agent.started`), over many decisions, with a real worker process.
 *
 * Real processes and a dedicated embedded PostgreSQL on 127.0.0.1 (chaos/harness.ts). Options:
 *   BENCH_KILL_ROUNDS (default 6) × BENCH_KILLS_PER_ROUND (default 4) kills; BENCH_DECISIONS (default 240);
 *   BENCH_THINK_MS (default "20-100": the operator decides 20–100 ms after the gate opens; "0-0" = at once).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { EVENTS_CHANNEL } from "../db/queries/events";
import { listenToChannel } from "../db/listen";
import { percentile } from "./util";
import { eq } from "drizzle-orm";
import { missions } from "../db/schema";
import { definition } from "../lib/mission/test-fixtures";
import type { MissionEvent, MissionState } from "../lib/mission";
import { DedicatedPostgres, Scenario, checkInvariants, decide, effectStep, getEvents, getState, httpStep, leaseOwner, sleep, waitFor, type WorkerProcess } from "../chaos/harness";

const PRODUCT_LEASE = { FAULTLINE_LEASE_MS: "15000", FAULTLINE_HEARTBEAT_MS: "5000", FAULTLINE_POLL_MS: "2000" };
const ROUNDS = Number(process.env.BENCH_KILL_ROUNDS ?? 6);
const PER_ROUND = Number(process.env.BENCH_KILLS_PER_ROUND ?? 4);
const DECISIONS = Number(process.env.BENCH_DECISIONS ?? 240);
/** Then BENCH_BURSTS (default 30) bursts of 4 decisions taken at the same moment. */
const BURSTS = Number(process.env.BENCH_BURSTS ?? 30);
const BURST = 4;
/** How long the "operator" takes to decide once a gate is open: BENCH_THINK_MS="min-max" (default 20-100). */
const [THINK_MIN_MS, THINK_MAX_MS] = (process.env.BENCH_THINK_MS ?? "20-100").split("-").map(Number);

const log = (m: string) => console.log(`[bench] ${m}`);

const fmtS = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const fmtMs = (ms: number) => `${ms.toFixed(1)} ms`;

function table(title: string, rows: Array<[string, string, string, boolean | null]>): void {
  console.log(`\n${title}`);
  const w = [Math.max(...rows.map((r) => r[0].length), 6), Math.max(...rows.map((r) => r[1].length), 5), Math.max(...rows.map((r) => r[2].length), 6)];
  const line = (a: string, b: string, c: string, d: string) => `  ${a.padEnd(w[0])}  ${b.padStart(w[1])}  ${c.padEnd(w[2])}  ${d}`;
  console.log(line("metric", "value", "target", ""));
  console.log(line("-".repeat(w[0]), "-".repeat(w[1]), "-".repeat(w[2]), ""));
  for (const [a, b, c, ok] of rows) console.log(line(a, b, c, ok === null ? "" : ok ? "✓ met" : "✗ MISSED"));
}

// ─────────────────────────────────────────────────────────────────────────── 1. takeover

interface KillSample {
  missionId: string;
  kind: "shell (non-idempotent)" | "http (idempotent)";
  victim: string;
  rescuer: string;
  takeoverMs: number;
  firstEvent: string;
}

async function takeoverBench(pgs: DedicatedPostgres) {
  const s = await Scenario.create(await pgs.clone());
  const fx = await s.sideEffects();
  const start = (label: string) => s.startWorker({ lease: PRODUCT_LEASE, env: { FAULTLINE_WORKER_CONCURRENCY: "1" }, label });
  const POOL = PER_ROUND * 2;
  log(`takeover: starting ${POOL} workers (concurrency 1 each, product lease settings)`);
  await Promise.all(Array.from({ length: POOL }, (_, i) => start(`worker ${i + 1}`)));
  const samples: KillSample[] = [];
  const missionIds: string[] = [];
  let lostEvents = 0;
  let kills = 0;
  const snapshots = new Map<string, MissionEvent[]>();
  try {
    for (let round = 1; round <= ROUNDS; round++) {
      const created = await Promise.all(
        Array.from({ length: PER_ROUND }, async (_, i) => {
          const shell = (round + i) % 2 === 0;
          const step = shell ? effectStep(fx, { sleepMs: 120_000, name: "long shell step" }) : httpStep(fx, "/slow-once?ms=120000", { name: "long http call" });
          const m = await s.create(definition({ name: `takeover r${round} m${i}`, agents: [{ name: "runner", priority: "critical", steps: [step, effectStep(fx, { name: "after" })] }] }));
          return { id: m.id, kind: shell ? ("shell (non-idempotent)" as const) : ("http (idempotent)" as const) };
        }),
      );
      // Every mission in its long step, each held by a different live worker.
      const holders = await Promise.all(
        created.map(async (m) => {
          await fx.waitForHit(`${m.id}/runner/0/1`, 60_000);
          const owner = await waitFor(`a holder of ${m.id}`, async () => leaseOwner(s.db, m.id), { timeoutMs: 30_000 });
          return s.workers.find((w) => w.id === owner && w.alive)!;
        }),
      );
      // A crash comes at any point of the heartbeat cycle.
      await sleep(Math.random() * Number(PRODUCT_LEASE.FAULTLINE_HEARTBEAT_MS));
      for (const m of created) snapshots.set(m.id, await getEvents(s.db, m.id));
      // Kill them at once (each a worker process with the step process it started).
      const killedAt = await Promise.all(holders.map((w) => w.kill()));
      kills += holders.length;
      // Replacements start while the leases run out (restarted workers may take over too).
      const replacing = Promise.all(holders.map((_, i) => start(`replacement r${round}.${i + 1}`)));
      await Promise.all(
        created.map(async (m, i) => {
          const before = snapshots.get(m.id)!;
          const first = await waitFor(`a takeover of ${m.id}`, async () => (await getEvents(s.db, m.id)).find((e) => e.seq > before.length), { timeoutMs: 60_000, intervalMs: 100 });
          const rescuer = s.workers.find((w) => w.id === first.actorId)?.label ?? first.actorId;
          samples.push({ missionId: m.id, kind: m.kind, victim: holders[i].id, rescuer, takeoverMs: Date.parse(first.at) - killedAt[i], firstEvent: first.type });
          // The operator answers the recovery gate of a shell step with its recommendation, resume.
          if (m.kind.startsWith("shell")) {
            const st = await waitFor(`the recovery gate of ${m.id}`, async () => {
              const x = await getState(s.db, m.id);
              return x.gates.find((g) => g.status === "open" && g.kind === "recovery") ? x : null;
            }, { timeoutMs: 30_000, intervalMs: 100 });
            await decide(s.db, st.gates.find((g) => g.status === "open")!.id, "resume", "bench: resume");
          }
          await waitFor(`${m.id} to end`, async () => ["completed", "failed"].includes((await getState(s.db, m.id)).runState), { timeoutMs: 60_000, intervalMs: 100 });
        }),
      );
      await replacing;
      missionIds.push(...created.map((m) => m.id));
      const r = samples.slice(-PER_ROUND).map((x) => fmtS(x.takeoverMs));
      log(`round ${round}/${ROUNDS}: ${PER_ROUND} kills, takeovers ${r.join(", ")}`);
    }
    // Lost events: every event committed before a kill is still there, unchanged; the log has no gap.
    let duplicateSideEffects = 0;
    let explainedRepeats = 0;
    const violations: string[] = [];
    for (const id of missionIds) {
      const after = await getEvents(s.db, id);
      for (const e of snapshots.get(id)!) {
        const a = after[e.seq - 1];
        if (!a || a.seq !== e.seq || a.type !== e.type || JSON.stringify(a.payload) !== JSON.stringify(e.payload)) lostEvents++;
      }
      const rep = await checkInvariants(s.db, id, { sideEffects: fx });
      duplicateSideEffects += rep.duplicateSideEffects;
      explainedRepeats += rep.explainedRepeats;
      violations.push(...rep.violations.map((v) => `${id.slice(0, 8)}: ${v}`));
    }
    const finals = await Promise.all(missionIds.map((id) => s.db.select({ f: missions.finalStatus }).from(missions).where(eq(missions.id, id))));
    const succeeded = finals.filter((r) => r[0].f === "SUCCESS").length;
    return { samples, kills, lostEvents, duplicateSideEffects, explainedRepeats, violations, succeeded, total: missionIds.length };
  } finally {
    await s.dispose();
  }
}

// ─────────────────────────────────────────────────────────────────────────── 2. decision → resume

/**
 * What a query is, for the decision breakdown: the worker's query trace (db/trace.ts, enabled with
 * FAULTLINE_QUERY_TRACE) records every query sent with its wall-clock time; these name the ones on the
 * path from a decision to the worker's next event, and the background work that may compete with it.
 */
function kindOf(text: string): string | null {
  if (/^\s*update missions set lease_owner/.test(text)) return "claim";
  if (/^select "state" from "missions" where/.test(text)) return "load";
  if (/^begin/i.test(text)) return "begin";
  if (/"lease_owner", "lease_expires_at" from "missions" .* for update/.test(text)) return "lock";
  if (/->'paused'->>'kind'/.test(text)) return "bg:health-pause scan";
  if (/^select 1$|from workers/.test(text.trim())) return "bg:health check";
  if (/^update "missions" set "lease_expires_at"|^update "workers" set "heartbeat_at"/.test(text)) return "bg:heartbeat";
  return null;
}

interface ProfLine {
  what: string;
  at: number;
  ms: number;
  payload: string;
}

function parseProfile(output: string): ProfLine[] {
  return output
    .split("\n")
    .filter((l) => l.startsWith("PROF "))
    .map((l) => {
      const [, what, at, ms, ...rest] = l.split(" ");
      const payload = rest.join(" ");
      return { what: what === "query" ? (kindOf(payload) ?? "query") : what, at: Number(at), ms: Number(ms), payload };
    });
}

async function decisionBench(pgs: DedicatedPostgres) {
  const s = await Scenario.create(await pgs.clone());
  const fx = await s.sideEffects();
  fx.failing = true; // every attempt fails (503) and opens a gate again: one decision per attempt
  const profileFile = path.join(s.dataDir, "profile.log");
  const worker: WorkerProcess = await s.startWorker({ lease: PRODUCT_LEASE, label: "decision worker", env: { FAULTLINE_QUERY_TRACE: profileFile } });
  log(`decision → resume: one worker (${worker.id}), product settings; ${DECISIONS} "retry" decisions`);

  // The bench LISTENs too: when a mission's gate opens, and when the worker's next event is committed.
  const waiters = new Map<string, { seq: number; resolve: (t: number) => void }>();
  const lastNotified = new Map<string, number>();
  const onPayload = (payload: string) => {
    const t = performance.timeOrigin + performance.now();
    const p = JSON.parse(payload || "{}") as { m: string; s: number };
    lastNotified.set(p.m, Math.max(lastNotified.get(p.m) ?? 0, p.s));
    const w = waiters.get(p.m);
    if (w && p.s >= w.seq) {
      waiters.delete(p.m);
      w.resolve(t);
    }
  };
  const listener = listenToChannel(s.tdb.url, EVENTS_CHANNEL, { applicationName: "bench-listen", onPayload });
  await listener.ready;
  /** When a commit of `missionId` reaching `seq` is notified (at once if it already was). */
  const notifiedAt = (missionId: string, seq: number) =>
    new Promise<number>((resolve) => ((lastNotified.get(missionId) ?? 0) >= seq ? resolve(NaN) : waiters.set(missionId, { seq, resolve })));

  const MISSIONS = Math.max(1, Math.ceil(DECISIONS / 12)); // ~12 decisions per mission: state stays mission-sized
  const ids: string[] = [];
  for (let i = 0; i < MISSIONS; i++) ids.push((await s.create(definition({ name: `decisions ${i}`, agents: [{ name: "caller", priority: "critical", steps: [httpStep(fx, "/storm", { name: "call api" })] }] }))).id);

  const windows: Array<{ missionId: string; resolvedSeq: number; tCommit: number; burst: boolean }> = [];
  const resumeMs: number[] = []; // gate.resolved committed → the worker's next event (its created_at)
  const committedMs: number[] = []; // gate.resolved committed → the worker's next event committed (NOTIFY seen here)
  // After a "retry" the worker appends agent.started, step.started, then tool.failed + agent.failed + gate.opened
  // in one transaction: the gate is open again at the decision's seq + 5. Waiting on NOTIFY, not polling,
  // keeps the bench from competing with the worker for the two cores.
  const gateSeq = new Map<string, number>();
  const gateOpen = async (id: string): Promise<MissionState> => {
    const seq = gateSeq.get(id);
    if (seq !== undefined) await Promise.race([notifiedAt(id, seq), sleep(10_000)]);
    return waitFor(`a gate in ${id}`, async () => {
      const st = await getState(s.db, id);
      return st.gates.some((g) => g.status === "open") ? st : null;
    }, { timeoutMs: 30_000, intervalMs: 20 });
  };
  /** Decides "retry" on the mission's open gate; returns ms from the commit to the worker's next event. */
  const decideAndMeasure = async (id: string, st: MissionState, burst = false): Promise<{ resume: number; committed: number }> => {
    const gate = st.gates.find((g) => g.status === "open")!;
    const next = notifiedAt(id, st.seq + 2); // gate.resolved is seq+1, the worker's agent.started seq+2
    const decided = await decide(s.db, gate.id, "retry", null);
    const tCommit = performance.timeOrigin + performance.now();
    const tNotified = await Promise.race([next, sleep(10_000).then(() => NaN)]);
    gateSeq.set(id, decided.seq + 5);
    const ev = (await getEvents(s.db, id)).find((e) => e.seq === decided.seq + 1);
    if (!ev || ev.type !== "agent.started") throw new Error(`expected agent.started after the decision in ${id}, got ${ev?.type}`);
    windows.push({ missionId: id, resolvedSeq: decided.seq, tCommit, burst });
    return { resume: Date.parse(ev.at) - tCommit, committed: tNotified - tCommit };
  };
  const burstMs: number[] = [];
  try {
    for (let d = 0; d < DECISIONS; d++) {
      const id = ids[d % MISSIONS];
      const st = await gateOpen(id);
      // An operator takes a moment to decide; it lands anywhere in the worker's loop.
      await sleep(THINK_MIN_MS + Math.random() * (THINK_MAX_MS - THINK_MIN_MS));
      const r = await decideAndMeasure(id, st);
      resumeMs.push(r.resume);
      committedMs.push(r.committed);
      if ((d + 1) % 60 === 0) log(`${d + 1}/${DECISIONS} decisions: p50 ${fmtMs(percentile(resumeMs, 50))}, p99 ${fmtMs(percentile(resumeMs, 99))}`);
    }
    // Bursts: several operators decide at the same moment (the worker runs up to 4 missions at once).
    for (let b = 0; b < BURSTS; b++) {
      const group = ids.slice((b * BURST) % MISSIONS, ((b * BURST) % MISSIONS) + BURST);
      const states = await Promise.all(group.map((id) => gateOpen(id)));
      await sleep(THINK_MIN_MS + Math.random() * (THINK_MAX_MS - THINK_MIN_MS));
      const rs = await Promise.all(group.map((id, i) => decideAndMeasure(id, states[i], true)));
      burstMs.push(...rs.map((r) => r.resume));
    }
    log(`${BURSTS} bursts of ${BURST} simultaneous decisions: p50 ${fmtMs(percentile(burstMs, 50))}, p99 ${fmtMs(percentile(burstMs, 99))}, max ${fmtMs(Math.max(...burstMs))}`);
    const violations: string[] = [];
    for (const id of ids) violations.push(...(await checkInvariants(s.db, id, { sideEffects: fx })).violations.map((v) => `${id.slice(0, 8)}: ${v}`));
    // Where the time goes, from the worker's own timestamps (same wall clock, sub-ms).
    await sleep(1200); // the last profile lines reach the file
    const prof = parseProfile(fs.readFileSync(profileFile, "utf8"));
    const newConnections: number[] = [];
    const gcInWindow: Array<{ total: number; gcMs: number; n: number; bg: string[] }> = [];
    // The trace has send times (postgres.js reports a query when it is sent): each part runs from one
    // send to the next, so it includes the previous query's round trip.
    const parts: Record<string, number[]> = { "NOTIFY received by the worker": [], "→ claim query sent (wake-up)": [], "claim sent → state load sent": [], "load sent → BEGIN sent (engine)": [], "BEGIN sent → row lock sent": [] };
    for (const w of windows.filter((x) => !x.burst)) {
      const n = prof.find((p) => p.what === "notify" && p.payload.includes(w.missionId) && p.payload.includes(`"s":${w.resolvedSeq}`));
      if (!n) continue;
      const claim = prof.find((p) => p.what === "claim" && p.at >= n.at);
      const load = claim && prof.find((p) => p.what === "load" && p.at >= claim.at);
      const begin = load && prof.find((p) => p.what === "begin" && p.at >= load.at);
      const lock = begin && prof.find((p) => p.what === "lock" && p.at >= begin.at);
      if (!claim || !load || !begin || !lock) continue;
      const connects = prof.filter((p) => p.what === "connect" && p.at >= n.at && p.at <= lock.at);
      if (connects.length) newConnections.push(connects.length);
      const gcs = prof.filter((p) => p.what === "gc" && p.at + p.ms >= w.tCommit && p.at <= lock.at);
      const bg = [...new Set(prof.filter((p) => p.what.startsWith("bg:") && p.at >= w.tCommit - 5 && p.at <= lock.at).map((p) => p.what.slice(3)))];
      gcInWindow.push({ total: lock.at - w.tCommit, gcMs: gcs.reduce((a, g) => a + g.ms, 0), n: gcs.length, bg });
      parts["NOTIFY received by the worker"].push(n.at - w.tCommit);
      parts["→ claim query sent (wake-up)"].push(claim.at - n.at);
      parts["claim sent → state load sent"].push(load.at - claim.at);
      parts["load sent → BEGIN sent (engine)"].push(begin.at - load.at);
      parts["BEGIN sent → row lock sent"].push(lock.at - begin.at);
    }
    return { resumeMs, committedMs, burstMs, violations, missions: MISSIONS, parts, newConnections, gcInWindow, allConnects: prof.filter((p) => p.what === "connect").length };
  } finally {
    await listener.close();
    await s.dispose();
  }
}

// ─────────────────────────────────────────────────────────────────────────── main

async function main() {
  const started = Date.now();
  console.log(`Faultline recovery benchmark — ${os.cpus().length} CPU(s) (${os.cpus()[0]?.model ?? "?"}), Node ${process.version}, ${Math.round(os.totalmem() / 2 ** 30)} GiB`);
  console.log(`Lease settings (the product's defaults, as shipped): FAULTLINE_LEASE_MS=${PRODUCT_LEASE.FAULTLINE_LEASE_MS}  FAULTLINE_HEARTBEAT_MS=${PRODUCT_LEASE.FAULTLINE_HEARTBEAT_MS}  FAULTLINE_POLL_MS=${PRODUCT_LEASE.FAULTLINE_POLL_MS}`);
  log("starting a dedicated embedded PostgreSQL …");
  const pgs = await DedicatedPostgres.start();
  try {
    const t = await takeoverBench(pgs);
    const d = await decisionBench(pgs);
    const take = t.samples.map((x) => x.takeoverMs);
    const byKind = (k: KillSample["kind"]) => t.samples.filter((x) => x.kind === k).map((x) => x.takeoverMs);
    const restarted = t.samples.filter((x) => /replacement/.test(x.rescuer)).length;
    table(`1. Takeover after SIGKILL — ${t.kills} worker processes killed mid-step (${ROUNDS} rounds of ${PER_ROUND} concurrent kills, independent missions)`, [
      ["takeover p50 (SIGKILL → first event by another worker)", fmtS(percentile(take, 50)), "", null],
      ["takeover max", fmtS(Math.max(...take)), "≤ 30 s", Math.max(...take) <= 30_000],
      ["  shell step (→ recovery gate): p50 / max", `${fmtS(percentile(byKind("shell (non-idempotent)"), 50))} / ${fmtS(Math.max(...byKind("shell (non-idempotent)")))}`, "", null],
      ["  http step (→ idempotent re-run): p50 / max", `${fmtS(percentile(byKind("http (idempotent)"), 50))} / ${fmtS(Math.max(...byKind("http (idempotent)")))}`, "", null],
      ["lost events", String(t.lostEvents), "0", t.lostEvents === 0],
      ["duplicate side effects", String(t.duplicateSideEffects), "0", t.duplicateSideEffects === 0],
      ["repeats explained by a re-run (idempotent, or operator resume)", String(t.explainedRepeats), "", null],
      ["invariant violations (seq, projection, audit, gates)", String(t.violations.length), "0", t.violations.length === 0],
      ["missions ending SUCCESS", `${t.succeeded}/${t.total}`, "", null],
    ]);
    const first = new Map<string, number>();
    for (const x of t.samples) first.set(x.firstEvent, (first.get(x.firstEvent) ?? 0) + 1);
    console.log(`  first event after a takeover: ${[...first].map(([k, n]) => `${k} ×${n}`).join(", ")}; taken over by a surviving worker ${t.samples.length - restarted}×, by a restarted one ${restarted}×`);
    console.log(`  expected: the lease left at the kill (${Number(PRODUCT_LEASE.FAULTLINE_LEASE_MS) - Number(PRODUCT_LEASE.FAULTLINE_HEARTBEAT_MS)}–${PRODUCT_LEASE.FAULTLINE_LEASE_MS} ms after the last heartbeat) + up to one poll (${PRODUCT_LEASE.FAULTLINE_POLL_MS} ms)`);

    table(`2. Gate decision → worker resuming — ${d.resumeMs.length} "retry" decisions over ${d.missions} missions, one worker process`, [
      ["p50 (gate.resolved committed → worker's next event)", fmtMs(percentile(d.resumeMs, 50)), "≤ 10 ms", percentile(d.resumeMs, 50) <= 10],
      ["p99", fmtMs(percentile(d.resumeMs, 99)), "≤ 50 ms", percentile(d.resumeMs, 99) <= 50],
      ["max", fmtMs(Math.max(...d.resumeMs)), "", null],
      ["p50 / p99 until that event is committed", `${fmtMs(percentile(d.committedMs, 50))} / ${fmtMs(percentile(d.committedMs, 99))}`, "", null],
      ["decisions slower than half a poll interval (lost wake-up)", String(d.resumeMs.filter((x) => x >= Number(PRODUCT_LEASE.FAULTLINE_POLL_MS) / 2).length), "0", d.resumeMs.every((x) => x < Number(PRODUCT_LEASE.FAULTLINE_POLL_MS) / 2)],
      ["invariant violations", String(d.violations.length), "0", d.violations.length === 0],
    ]);
    if (d.burstMs.length) {
      table(`2b. Bursts — ${BURSTS} × ${BURST} "retry" decisions committed at the same moment (same worker)`, [
        ["p50", fmtMs(percentile(d.burstMs, 50)), "", null],
        ["p99", fmtMs(percentile(d.burstMs, 99)), "", null],
        ["max", fmtMs(Math.max(...d.burstMs)), "", null],
        ["decisions slower than half a poll interval (lost wake-up)", String(d.burstMs.filter((x) => x >= Number(PRODUCT_LEASE.FAULTLINE_POLL_MS) / 2).length), "0", d.burstMs.every((x) => x < Number(PRODUCT_LEASE.FAULTLINE_POLL_MS) / 2)],
      ]);
    }
    console.log(`  the worker's next event is its agent.started; its created_at is taken when the worker begins that write (ms resolution)`);
    const n = d.parts["claim query"].length;
    console.log(`\n  where the time goes in the ${d.resumeMs.length} one-at-a-time decisions (worker-side timestamps, ${n} matched):`);
    console.log(`    ${"step".padEnd(34)} ${"p50".padStart(8)} ${"p99".padStart(8)} ${"max".padStart(8)}`);
    const slow = [...d.gcInWindow].sort((a, b) => b.total - a.total).slice(0, Math.max(3, Math.ceil(d.gcInWindow.length / 50)));
    console.log(`    slowest ${slow.length} resumes (decision commit → row lock done), with what else the worker was doing:`);
    for (const x of slow) console.log(`      ${fmtMs(x.total).padStart(9)}  GC ${fmtMs(x.gcMs)} (${x.n} pause${x.n === 1 ? "" : "s"})${x.bg.length ? `; concurrent: ${x.bg.join(", ")}` : ""}`);
    const withBg = d.gcInWindow.filter((x) => x.bg.length);
    console.log(`    resumes overlapping the worker's heartbeat or health check: ${withBg.length} of ${d.gcInWindow.length}; their p50 ${withBg.length ? fmtMs(percentile(withBg.map((x) => x.total), 50)) : "-"} vs ${fmtMs(percentile(d.gcInWindow.filter((x) => !x.bg.length).map((x) => x.total), 50))} for the others`);
    console.log(`    GC pauses inside a resume: ${d.gcInWindow.filter((x) => x.n > 0).length} of ${d.gcInWindow.length} resumes`);
    console.log(`    resumes during which the worker opened a new database connection: ${d.newConnections.length}; connections opened in the whole run: ${d.allConnects}`);
    for (const [k, v] of Object.entries(d.parts)) if (v.length) console.log(`    ${k.padEnd(34)} ${fmtMs(percentile(v, 50)).padStart(8)} ${fmtMs(percentile(v, 99)).padStart(8)} ${fmtMs(Math.max(...v)).padStart(8)}`);
    for (const v of [...t.violations, ...d.violations].slice(0, 20)) console.log(`  violation: ${v}`);
    console.log(`\nTotal ${fmtS(Date.now() - started)}.`);
  } finally {
    await pgs.dispose();
  }
}

main().then(
  () => process.exit(0),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);
