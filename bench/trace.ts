/**
 * Trace benchmark (issue 17, FDR-N004): `npm run bench:trace`. Prints figures; it is not a timed test.
 *
 * 1. A mission of BENCH_TRACE_STEPS file steps (default 5,000: two agents, about 10,000 events) runs
 *    through the real engine (`advance`) with the worker's flight recorder (lib/trace/record.ts) and the
 *    real file tool in a temporary workspace; its events and the engine's readings are written to a
 *    fresh database (events, event_io, missions) in bulk — the worker's per-step transactions are what
 *    bench:append measures, not this.
 * 2. Export: `readTraceSource` (PostgreSQL) + `traceLines` (redaction, canonical JSON, sha-256 chain),
 *    written to a file. Target ≤ 2 s for 10,000 events.
 * 3. Verify (parse, schema, chain) and replay through the real engine with the playback IO. Target
 *    ≥ 5,000 events/s for replay.
 */
import { memoryEngineIO, withBenchDatabase } from "./util";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { readTraceSource } from "../db/queries/traces";
import { ensureActor } from "../db/queries/users";
import { eventIo, events as eventsTable, missions } from "../db/schema";
import { advance } from "../lib/mission/engine";
import { missionDefinitionSchema, applyEvent, progress, type MissionEvent, type MissionState, type NewMissionEvent } from "../lib/mission";
import * as t from "../lib/mission/transitions";
import { traceLines } from "../lib/trace/export";
import type { Tape } from "../lib/trace/format";
import { capabilitiesOf, recordingIO } from "../lib/trace/record";
import { replayTrace } from "../lib/trace/replay";
import { splitLines, verifyTrace } from "../lib/trace/verify";

const STEPS = Number(process.env.BENCH_TRACE_STEPS ?? 5000);
const log = (m: string) => console.log(`[bench] ${m}`);
const WORKER = "worker:bench-trace";

const perAgent = Math.ceil(STEPS / 2);
const step = (i: number) => ({ name: `write ${i}`, tool: "file", args: { op: "write", path: `out/${i % 50}.txt`, content: `line ${i}\n` }, evidence: [{ file_exists: `out/${i % 50}.txt` }] });
const definition = missionDefinitionSchema.parse({
  name: "trace bench",
  objective: "many small steps",
  library: false,
  phases: [{ name: "EXECUTION", timeoutMs: 3_600_000, agents: ["a", "b"].map((name) => ({ name, priority: "critical", timeoutMs: 3_600_000, steps: Array.from({ length: perAgent }, (_, i) => step(i)) })) }],
});

/** Runs the mission through the real engine with the recorder; returns its events and tapes. */
async function runMission(id: string, workspace: string): Promise<{ events: MissionEvent[]; tapes: Array<{ seq: number; count: number; tape: Tape }>; state: MissionState }> {
  const events: MissionEvent[] = [];
  const tapes: Array<{ seq: number; count: number; tape: Tape }> = [];
  let state: MissionState | null = null;
  const push = (list: Array<NewMissionEvent | ((s: MissionState) => NewMissionEvent | null)>, actorId: string, tape: Tape | null): MissionState => {
    const first = (state?.seq ?? 0) + 1;
    const at = new Date().toISOString();
    for (const item of list) {
      const e = typeof item === "function" ? item(state!) : item;
      if (!e) continue;
      const ev = { ...e, missionId: id, seq: (state?.seq ?? 0) + 1, actorId: e.actorId ?? actorId, at } as MissionEvent;
      state = applyEvent(state, ev);
      events.push(ev);
    }
    if (tape && state!.seq >= first) tapes.push({ seq: first, count: state!.seq - first + 1, tape: JSON.parse(JSON.stringify(tape)) });
    return state!;
  };
  push([t.missionCreated(definition)], "user:bench", null);
  const inner = memoryEngineIO({ workspace, now: () => Date.now(), append: async (list) => push(list, WORKER, null) });
  const rec = recordingIO(inner, { config: { diagnosis: inner.diagnosis!, approvalTtlMs: null, capabilities: capabilitiesOf(inner), providers: [], allowedBinaries: [], recoveryBinaries: [] }, append: async (list, tape) => push(list, WORKER, tape) });
  for (;;) {
    rec.begin(state!.seq);
    const r = await advance(state!, rec.io);
    rec.end();
    if (r.outcome !== "progress") break;
  }
  return { events, tapes, state: state! };
}

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "fl-bench-trace-"));
  await withBenchDatabase("trace", { max: 4 }, async (db) => {
    await ensureActor(db, { id: "user:bench", kind: "user", displayName: "bench" });
    await ensureActor(db, { id: WORKER, kind: "system", displayName: "bench worker" });
    const id = "6b1c2f0e-1d3a-4c5b-9e7f-000000000001";
    let t0 = performance.now();
    fs.mkdirSync(path.join(dir, "ws", "out"), { recursive: true });
    const run = await runMission(id, path.join(dir, "ws"));
    log(`mission run through the engine with the recorder: ${run.events.length} events, ${run.tapes.length} engine writes, ${Math.round(performance.now() - t0)} ms (${run.state.finalStatus})`);
    t0 = performance.now();
    const s = run.state;
    await db.insert(missions).values({ id, name: s.name, definition: s.definition, phase: s.phase, runState: s.runState, lastSeq: s.seq, state: s, progress: progress(s), finalStatus: s.finalStatus, createdBy: "user:bench", createdAt: s.createdAt, updatedAt: s.createdAt });
    for (let i = 0; i < run.events.length; i += 1000)
      await db.insert(eventsTable).values(run.events.slice(i, i + 1000).map((e) => ({ missionId: e.missionId, missionCreatedAt: s.createdAt, seq: e.seq, type: e.type, actorId: e.actorId, payload: e.payload, reason: e.reason, impact: e.impact, evidence: e.evidence, createdAt: e.at })));
    for (let i = 0; i < run.tapes.length; i += 1000) await db.insert(eventIo).values(run.tapes.slice(i, i + 1000).map((x) => ({ missionId: id, ...x })));
    log(`stored in PostgreSQL: ${Math.round(performance.now() - t0)} ms`);

    const file = path.join(dir, "trace.jsonl");
    const exports: number[] = [];
    let lines = 0;
    for (let i = 0; i < 3; i++) {
      t0 = performance.now();
      const src = (await readTraceSource(db, id))!;
      const out = [...traceLines(src)];
      fs.writeFileSync(file, `${out.join("\n")}\n`);
      exports.push(performance.now() - t0);
      lines = out.length;
    }
    const size = fs.statSync(file).size;
    t0 = performance.now();
    const v = verifyTrace(splitLines(fs.readFileSync(file, "utf8")));
    const verifyMs = performance.now() - t0;
    if (!v.ok) throw new Error(`the bench's trace does not verify: line ${v.line}: ${v.why}`);
    const replays: number[] = [];
    let divergences = 0;
    for (let i = 0; i < 3; i++) {
      t0 = performance.now();
      const r = await replayTrace(v.trace);
      replays.push(performance.now() - t0);
      divergences = r.divergences.length;
      if (divergences && i === 0) log(`first divergence: ${JSON.stringify(r.firstDivergence).slice(0, 1500)}`);
    }
    const best = (xs: number[]) => Math.min(...xs);
    const n = run.events.length;
    console.log("");
    console.log(`  trace of ${n} events: ${lines} lines, ${(size / 1e6).toFixed(1)} MB`);
    console.log(`  export (read + redact + chain + write), best of 3   ${(best(exports) / 1000).toFixed(2)} s   (target ≤ 2 s)   runs: ${exports.map((x) => Math.round(x)).join(", ")} ms`);
    console.log(`  verify (parse + schema + chain)                     ${(verifyMs / 1000).toFixed(2)} s   ${Math.round(n / (verifyMs / 1000))} events/s`);
    console.log(`  replay through the engine, best of 3                ${(best(replays) / 1000).toFixed(2)} s   ${Math.round(n / (best(replays) / 1000))} events/s   (target ≥ 5,000)   divergences: ${divergences}`);
  }).finally(() => {
    fs.rmSync(dir, { recursive: true, force: true });
  });
}

await main();
