/**
 * Append benchmark (issue 16): `npm run bench:append`. Prints events/s; it is not a timed test.
 *
 * With 1 and 8 concurrent writers, for BENCH_SECONDS each (default 8):
 *  1. the database's limit: one transaction = insert one row + pg_notify, through the same driver and
 *     pool Faultline uses (drizzle over postgres.js) — what any append path stands on;
 *  2. Faultline's append: `appendEvents` of one proposal (proposal.submitted + proposal.decided, one
 *     transaction: row lock, reducer, events, projections, audit, one NOTIFY), each writer on its own
 *     mission, rotated every BENCH_PER_MISSION appends (the state snapshot grows with the mission).
 *
 * It uses only createDb / db.transaction / appendEvents, so the same file measures an older data layer
 * when copied into a checkout of it (that is how the note's "before" figures were taken).
 * A fresh database on the embedded PostgreSQL (or DATABASE_URL's server), dropped afterwards.
 */
import { performance } from "node:perf_hooks";
import { sql } from "drizzle-orm";
import { appendEvents, createMission } from "../db/queries/events";
import { ensureActor } from "../db/queries/users";
import { argsDigest } from "../lib/authority/digest";
import { decide, DEFAULT_APPROVAL_TTL_MS } from "../lib/authority/authority";
import { DEFAULT_POLICY_RULES } from "../lib/authority/rules";
import { AUTHORITY_ACTOR_ID, type ProposedAction } from "../lib/authority/types";
import { missionDefinitionSchema } from "../lib/mission";
import * as t from "../lib/mission/transitions";
import { percentile, progress, withBenchDatabase } from "./util";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const PER_MISSION = Number(process.env.BENCH_PER_MISSION ?? 50);
const WRITERS = [1, 8];
const AGENT = "agent:bench-append@bench/model";
const log = (m: string) => console.log(`[bench] ${m}`);

const ACTION: ProposedAction = { tool: "shell", args: { command: "rm", args: ["-rf", "/"] } };
const definition = missionDefinitionSchema.parse({
  name: "append bench",
  objective: "measure appends",
  library: false,
  allowedBinaries: ["rm"],
  phases: [{ name: "EXECUTION", agents: [{ name: "bench", priority: "critical", autonomous: { goal: "bench", tools: ["shell"], maxActions: 500, evidence: [{ file_exists: "x" }] } }] }],
});
/** The authority's record for the bench's proposal (rejected by the default policy), computed once. */
const RECORD = decide({
  proposal: { id: "p", actorId: AGENT, agent: "bench", action: ACTION, argsDigest: argsDigest(ACTION.args) },
  level: 1,
  rules: [],
  defaultPolicy: DEFAULT_POLICY_RULES,
  allowedTools: ["shell"],
  allowedBinaries: ["rm"],
  workspace: "/tmp/bench-append",
  history: { rejectedDigests: [] },
  now: Date.now(),
  approvalTtlMs: DEFAULT_APPROVAL_TTL_MS,
});

interface Result {
  writers: number;
  transactions: number;
  events: number;
  seconds: number;
  latencies: number[];
}

/** Runs `once` in `writers` concurrent loops for SECONDS; each call is one transaction of `eventsPer` events. */
async function measure(label: string, writers: number, eventsPer: number, setup: () => Promise<() => Promise<void>>): Promise<Result> {
  const loops = await Promise.all(Array.from({ length: writers }, setup));
  const latencies: number[] = [];
  const started = performance.now();
  const deadline = started + SECONDS * 1000;
  let lastShown = 0;
  await Promise.all(
    loops.map(async (once) => {
      while (performance.now() < deadline) {
        const t0 = performance.now();
        await once();
        latencies.push(performance.now() - t0);
        const elapsed = Math.floor((performance.now() - started) / 1000);
        if (elapsed !== lastShown) progress(`${label}, ${writers} writer(s)`, (lastShown = elapsed), SECONDS);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  progress(`${label}, ${writers} writer(s)`, SECONDS, SECONDS);
  return { writers, transactions: latencies.length, events: latencies.length * eventsPer, seconds, latencies };
}

async function main() {
  await withBenchDatabase("append", { max: 10 }, async (db, url) => {
    await ensureActor(db, { id: "user:bench", kind: "user", displayName: "bench" });
    await ensureActor(db, { id: AGENT, kind: "agent", displayName: "bench agent", meta: { role: "executor" } });
    await ensureActor(db, { id: AUTHORITY_ACTOR_ID, kind: "system", displayName: "authority" });
    await db.execute(sql`create table bench_append (id bigserial primary key, mission text not null, payload jsonb not null, at timestamptz not null default now())`);

    const limit: Result[] = [];
    const faultline: Result[] = [];
    for (const writers of WRITERS) {
      log(`database limit (insert + pg_notify per transaction), ${writers} writer(s), ${SECONDS} s …`);
      limit.push(
        await measure("limit", writers, 1, async () => {
          const mission = crypto.randomUUID();
          let seq = 0;
          return async () => {
            seq++;
            await db.transaction(async (tx) => {
              await tx.execute(sql`insert into bench_append (mission, payload) values (${mission}, ${JSON.stringify({ seq, type: "bench" })}::jsonb)`);
              await tx.execute(sql`select pg_notify('faultline_bench', ${JSON.stringify({ m: mission, s: seq })})`);
            });
          };
        }),
      );
      log(`Faultline appendEvents (proposal.submitted + proposal.decided), ${writers} writer(s), ${SECONDS} s …`);
      faultline.push(
        await measure("appendEvents", writers, 2, async () => {
          const fresh = async () => {
            const m = await createMission(db, { definition, actorId: "user:bench" });
            await db.transaction((tx) => appendEvents(tx, { missionId: m.id, actorId: "user:bench", events: [t.phaseStarted("EXECUTION", "start"), t.agentStarted("bench", 1)] }));
            return m.id;
          };
          let mission = await fresh();
          let used = 0;
          return async () => {
            if (used >= PER_MISSION) ((mission = await fresh()), (used = 0));
            used++;
            const id = crypto.randomUUID();
            await db.transaction((tx) =>
              appendEvents(tx, {
                missionId: mission,
                actorId: "user:bench",
                events: [t.proposalSubmitted({ proposalId: id, actorId: AGENT, agent: "bench", attempt: 1, action: ACTION, argsDigest: argsDigest(ACTION.args), level: 1, callId: null }), t.proposalDecided(id, RECORD)],
              }),
            );
          };
        }),
      );
    }

    const f = (x: number) => Math.round(x).toLocaleString("en").padStart(8);
    const ms = (x: number) => `${x.toFixed(2)} ms`.padStart(10);
    console.log(`\nAppend benchmark (${new Date().toISOString()}, ${SECONDS} s per row, PostgreSQL ${url.toString().replace(/\/\/[^@]*@/, "//")})`);
    console.log(`  writers   limit tx/s   limit p99   Faultline tx/s   events/s   p50          p99          share of limit (tx)`);
    for (let i = 0; i < WRITERS.length; i++) {
      const l = limit[i];
      const a = faultline[i];
      const ltx = l.transactions / l.seconds;
      const atx = a.transactions / a.seconds;
      console.log(`  ${String(l.writers).padStart(7)}   ${f(ltx)}     ${ms(percentile(l.latencies, 99))}   ${f(atx)}         ${f(a.events / a.seconds)}   ${ms(percentile(a.latencies, 50))}   ${ms(percentile(a.latencies, 99))}   ${((100 * atx) / ltx).toFixed(0)}%`);
    }
  });
}

await main();
process.exit(0);
