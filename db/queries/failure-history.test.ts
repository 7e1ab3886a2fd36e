import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { createTestDatabase, type TestDatabase } from "../test-helpers";
import { ensurePartitions } from "../partitions";
import { appendEvents, createMission } from "./events";
import { ensureActor } from "./users";
import { countFailureHistory, exportFailureHistory, failureHistoryStats, historyFacets, listFailureHistory, type HistoryRow } from "./failure-history";
import { COUNT_CAP, WORDS_COUNT_CAP } from "../../lib/query-filters";
import { cappedWordsCount } from "./capped-count";
import { simulate, type MissionDefinition } from "../../lib/mission";
import type { SimulationScript } from "../../lib/mission/simulate";
import type { LibraryHypothesis } from "../../lib/mission/library";
import { definition, nodeStep } from "../../lib/mission/test-fixtures";
import { historyFiltersSchema, parseHistoryFilters, serializeHistoryFilters, type HistoryFilters } from "../../lib/history/filters";

let tdb: TestDatabase;
let nightly: string;
let walked: string;
let bulk: string;

const F = (f: Partial<HistoryFilters> = {}) => historyFiltersSchema.parse(f);

/** A mission run by the simulation of the real engine, replayed event by event through appendEvents (the projection path). */
async function run(def: MissionDefinition, script: Omit<SimulationScript, "missionId">): Promise<string> {
  const m = await createMission(tdb.db, { definition: def, actorId: "user:ann" });
  const { events } = await simulate(def, { ...script, missionId: m.id } as SimulationScript);
  for (const e of events.slice(1)) {
    const { type, payload, reason, impact, evidence } = e;
    await tdb.db.transaction((tx) => appendEvents(tx, { missionId: m.id, actorId: e.actorId.startsWith("user") ? "user:bob" : "worker:w1", events: [{ type, payload, reason, impact, evidence } as never] }));
  }
  return m.id;
}

const hyp = (id: string, rank: number): LibraryHypothesis => ({
  failure_id: id,
  rank,
  match_score: 0.9 - rank / 10,
  title: `Cause ${id}`,
  category: "State",
  risk_level: "Low",
  risk_notes: null,
  diagnostic_probe: "Probe it.",
  resolution_path: "Fix it.",
  probe_action: { tool: "shell", args: { command: "sh", args: ["-c", "true"] }, confirm_when: { exit_code: 0 } },
  resolution_action: { tool: "shell", args: { command: "sh", args: ["-c", "true"] }, expect: { exit_code: 0 } },
} as LibraryHypothesis);

async function all(filters: HistoryFilters, limit = 500): Promise<HistoryRow[]> {
  const out: HistoryRow[] = [];
  for await (const r of exportFailureHistory(tdb.db, filters, { pageSize: limit })) out.push(r);
  return out;
}

beforeAll(async () => {
  tdb = await createTestDatabase();
  await ensureActor(tdb.db, { id: "user:ann", kind: "user", displayName: "Ann Starter" });
  await ensureActor(tdb.db, { id: "user:bob", kind: "user", displayName: "Bob Operator" });
  await ensureActor(tdb.db, { id: "worker:w1", kind: "worker", displayName: "Worker one" });

  // 1. A rate-limited fetch retried by an operator, and an optional lint whose failure lets the mission continue.
  nightly = await run(
    definition({
      name: "payments nightly",
      agents: [
        { name: "fetch", priority: "important", steps: [nodeStep("1")] },
        { name: "lint", priority: "optional", steps: [nodeStep("1")] },
      ],
    }),
    {
      outcome: (agent, _s, attempt) =>
        agent === "fetch" && attempt === 1 ? { kind: "fail", error: { code: "RATE_LIMITED", message: "429 Too Many Requests from api.example", status: 429, retryAfterMs: 1000 } } : agent === "lint" ? { kind: "fail", error: { code: "EXIT_NONZERO", message: "3 broken links", exitCode: 2 } } : { kind: "ok" },
      decide: () => "retry",
    },
  );

  // 2. The library walk: the top hypothesis is rejected, the second confirmed and its resolution fixes the step.
  const calls = { n: 0 };
  const probes = { n: 0 };
  walked = await run(definition({ name: "image build", agents: [{ name: "builder", priority: "critical", steps: [nodeStep("x")] }] }), {
    outcome: () => (calls.n++ === 0 ? { kind: "fail", error: { code: "EXIT_NONZERO", message: "exit 3", exitCode: 3 } } : { kind: "ok" }),
    decide: () => "abort",
    library: async () => ({ libraryVersion: 1, abstained: false, hypotheses: [hyp("FM-SW-0001", 1), hyp("FM-SW-0002", 2)] }),
    libraryAction: (_a, _s, kind) => (kind === "probe" && probes.n++ === 0 ? { kind: "fail", error: { code: "EXIT_NONZERO", message: "exit 1", exitCode: 1 } } : { kind: "ok" }),
  });

  // 3. Bulk history for paging and counts: 250 failures over the last 10 days, same-timestamp ties included.
  const m = await createMission(tdb.db, { definition: definition({ name: "bulk" }), actorId: "user:ann" });
  bulk = m.id;
  await tdb.db.execute(sql`
    insert into failure_audit (mission_id, seq, "timestamp", level, severity, what, why, context, agent, definition, phase, step, attempt, error_type, actor_id, started_by, decided_by, resolution_action, resolution_ms, resolved_at)
    select ${bulk}::uuid, 1000 + i, now() - interval '1 day' - ((i / 2) * interval '1 hour'),
      case when i % 10 = 0 then 'phase' else 'agent' end, case when i % 3 = 0 then 'critical' else 'error' end,
      'Step failed with ' || case when i % 4 = 0 then 'timeout' else 'exit_nonzero' end, case when i % 25 = 0 then 'disk quota exceeded on volume' else 'exit 1' end, '{}'::jsonb,
      'agent' || (i % 5), 'bulk', 'EXECUTION', 0, 1, case when i % 4 = 0 then 'timeout' else 'exit_nonzero' end, 'worker:w1', 'user:ann',
      case when i % 7 = 0 then null else 'user:bob' end, case when i % 7 = 0 then null else 'skip' end, case when i % 7 = 0 then null else i * 1000 end,
      case when i % 7 = 0 then null else now() end
    from generate_series(1, 250) i`);
});
afterAll(() => tdb?.drop());

describe("attribution written by the projection", () => {
  it("a real run's failures say who, when, why and how they were resolved", async () => {
    const { rows } = await listFailureHistory(tdb.db, { filters: F({ mission: nightly, sort: "time", dir: "asc" }) });
    expect(rows.map((r) => [r.agent, r.errorType, r.level, r.severity, r.outcome, r.resolutionAction])).toEqual([
      ["fetch", "rate_limited", "agent", "error", "retried", "retry"],
      ["lint", "exit_nonzero", "agent", "warning", "skipped", "continue"],
    ]);
    const [fetch, lint] = rows;
    expect(fetch).toMatchObject({
      definition: "payments nightly",
      phase: "EXECUTION",
      step: 0,
      attempt: 1,
      actorId: "worker:w1",
      actorName: "Worker one",
      startedBy: "user:ann",
      startedByName: "Ann Starter",
      decidedBy: "user:bob",
      decidedByName: "Bob Operator",
    });
    expect(fetch.gateId).not.toBeNull();
    expect(fetch.rootCause).toBeTruthy();
    expect(fetch.resolutionMs).toBeGreaterThanOrEqual(0);
    expect(lint).toMatchObject({ decidedBy: null, decidedByName: null });
  });

  it("the library walk's confirmed entry is the failure mode (not the rejected top hypothesis), resolved by the library", async () => {
    const { rows } = await listFailureHistory(tdb.db, { filters: F({ mission: walked }) });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ failureMode: "FM-SW-0002", failureModeConfirmed: true, outcome: "library_resolution", resolutionAction: "library_resolution:FM-SW-0002", decidedBy: null });
  });
});

describe("filters", () => {
  it("each filter narrows the view to what it names", async () => {
    const ids = async (f: Partial<HistoryFilters>) => (await all(F(f))).map((r) => r.id);
    const bulkRows = await all(F({ mission: bulk }));
    expect(bulkRows).toHaveLength(250);
    expect((await all(F({ type: "rate_limited" }))).map((r) => r.missionId)).toEqual([nightly]);
    expect((await all(F({ type: "rate_limited", from: "1h" }))).map((r) => r.agent)).toEqual(["fetch"]);
    expect(await ids({ mission: bulk, from: "1h" })).toEqual([]);
    expect((await all(F({ definition: "bulk", level: "phase" }))).every((r) => r.level === "phase" && r.definition === "bulk")).toBe(true);
    expect(await ids({ definition: "bulk", level: "phase" })).toHaveLength(25);
    expect(await ids({ mission: bulk, severity: "critical" })).toHaveLength(83);
    expect(await ids({ mission: bulk, status: "unresolved" })).toHaveLength(35);
    expect((await all(F({ status: "unresolved" }))).every((r) => r.resolvedAt === null)).toBe(true);
    expect((await all(F({ decidedBy: "user:bob" }))).map((r) => r.missionId).filter((m) => m !== bulk)).toEqual([nightly]);
    expect((await all(F({ mode: "FM-SW-0002" }))).map((r) => r.missionId)).toEqual([walked]);
    expect((await all(F({ actor: "user:ann", phase: "EXECUTION", mission: walked }))).length).toBe(1);
    expect(await ids({ actor: "user:nobody" })).toEqual([]);
    const fromTo = await all(F({ mission: bulk, from: new Date(Date.now() - 3 * 86_400_000).toISOString(), to: new Date(Date.now() - 2 * 86_400_000).toISOString() }));
    expect(fromTo.length).toBeGreaterThan(40);
    expect(fromTo.every((r) => Date.parse(r.time) >= Date.now() - 3 * 86_400_000 - 60_000)).toBe(true);
  });

  it("full-text search finds words of what, why and the root cause", async () => {
    expect((await all(F({ q: "quota" }))).map((r) => r.why)).toEqual(Array(10).fill("disk quota exceeded on volume"));
    expect((await all(F({ q: "\"too many requests\"" }))).map((r) => r.agent)).toEqual(["fetch"]);
    expect(await all(F({ q: "zebra" }))).toEqual([]);
  });

  it("bad values are field errors, and the canonical query string round-trips", () => {
    const bad = parseHistoryFilters(new URLSearchParams("level=galactic&from=yesterday&mission=42&sort=colour"));
    expect(bad.ok).toBe(false);
    expect(!bad.ok && bad.errors.map((e) => e.path).sort()).toEqual(["from", "level", "mission", "sort"]);
    const good = parseHistoryFilters(new URLSearchParams("type=RATE_LIMITED&from=1h&dir=desc&unknown=x"));
    expect(good.ok && serializeHistoryFilters(good.filters)).toBe("type=rate_limited&from=1h");
    expect(parseHistoryFilters(new URLSearchParams("from=2025-02-01T00:00Z&to=2025-01-01T00:00Z"))).toMatchObject({ ok: false, errors: [{ path: "to", message: "must be after from" }] });
  });
});

describe("paging, sorting, counts", () => {
  it("keyset pages of 7 cover every row once, in order, for both sorts and directions", async () => {
    for (const [sort, dir] of [["time", "desc"], ["time", "asc"], ["resolution", "desc"], ["resolution", "asc"]] as const) {
      const f = F({ mission: bulk, sort, dir });
      const seen: HistoryRow[] = [];
      let cursor: string | null = null;
      do {
        const page: Awaited<ReturnType<typeof listFailureHistory>> = await listFailureHistory(tdb.db, { filters: f, cursor, limit: 7 });
        expect(page.rows.length).toBeLessThanOrEqual(7);
        seen.push(...page.rows);
        cursor = page.nextCursor;
      } while (cursor);
      expect(seen).toHaveLength(250);
      expect(new Set(seen.map((r) => r.id)).size).toBe(250);
      const keys = seen.map((r) => (sort === "time" ? Date.parse(r.time) : (r.resolutionMs ?? Infinity)));
      const sorted = [...keys].sort((a, b) => (dir === "asc" ? a - b : b - a));
      expect(keys).toEqual(sorted);
    }
  });

  it("full-text pages (common and rare words) page without gaps or duplicates, as the full result", async () => {
    for (const q of ["exit", "timeout", "quota"]) {
      const expected = (await all(F({ mission: bulk, q }), 2000)).map((r) => r.id);
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const page: Awaited<ReturnType<typeof listFailureHistory>> = await listFailureHistory(tdb.db, { filters: F({ mission: bulk, q }), cursor, limit: 9 });
        seen.push(...page.rows.map((r) => r.id));
        cursor = page.nextCursor;
      } while (cursor);
      expect(seen).toEqual(expected);
      expect(seen.length).toBeGreaterThan(q === "quota" ? 5 : 50);
    }
  });

  it("sorting by time to resolution puts unresolved failures last in ascending order", async () => {
    const { rows } = await listFailureHistory(tdb.db, { filters: F({ mission: bulk, sort: "resolution", dir: "asc" }), limit: 500 });
    expect(rows[0].resolutionMs).toBe(1000);
    expect(rows.slice(-35).every((r) => r.resolutionMs === null)).toBe(true);
  });

  it("a cursor from another sort is a 400-style error, not a wrong page", async () => {
    const { nextCursor } = await listFailureHistory(tdb.db, { filters: F({ mission: bulk }), limit: 5 });
    await expect(listFailureHistory(tdb.db, { filters: F({ mission: bulk, sort: "resolution" }), cursor: nextCursor })).rejects.toThrow(/cursor is not valid/);
  });

  it("counts are exact up to the cap, then capped", async () => {
    expect(await countFailureHistory(tdb.db, F({ mission: bulk, status: "unresolved" }))).toEqual({ count: 35, capped: false });
    const m = await createMission(tdb.db, { definition: definition({ name: "huge" }), actorId: "user:ann" });
    await tdb.db.execute(sql`insert into failure_audit (mission_id, seq, "timestamp", level, severity, what, context, definition, error_type) select ${m.id}::uuid, i, now() - interval '20 days', 'agent', 'error', 'x', '{}', 'huge', 'timeout' from generate_series(1, ${COUNT_CAP + 5}) i`);
    expect(await countFailureHistory(tdb.db, F({ definition: "huge" }))).toEqual({ count: COUNT_CAP, capped: true });
    expect(await countFailureHistory(tdb.db, F({ definition: "huge", mission: bulk }))).toEqual({ count: 0, capped: false });
  });

  it("a full-text count is exact up to 1,000 over the newest rows and the months below them, then capped; past its time it says at least what it found", async () => {
    const m = await createMission(tdb.db, { definition: definition({ name: "words" }), actorId: "user:ann" });
    // 12,000 failures every 5 minutes back (41 days: two or three months): 'kraken' in every 20th (600: 500 of them among
    // the newest 10,000 rows a count reads first, 100 below), 'squid' in every 5th (2,400).
    await tdb.db.execute(sql`insert into failure_audit (mission_id, seq, "timestamp", level, severity, what, context, definition, error_type)
      select ${m.id}::uuid, i, now() - i * interval '5 minutes', 'agent', 'error', case when i % 20 = 0 then 'a kraken surfaced' when i % 5 = 0 then 'a squid inked' else 'calm sea' end || case when i % 20 = 0 then ', squid too' else '' end, '{}', 'words', 'timeout'
      from generate_series(1, 12000) i`);
    expect(await countFailureHistory(tdb.db, F({ mission: m.id, q: "kraken" }))).toEqual({ count: 600, capped: false });
    expect(await countFailureHistory(tdb.db, F({ mission: m.id, q: "kraken surfaced" }))).toEqual({ count: 600, capped: false });
    expect(await countFailureHistory(tdb.db, F({ mission: m.id, q: "squid" }))).toEqual({ count: WORDS_COUNT_CAP, capped: true });
    expect(await countFailureHistory(tdb.db, F({ mission: m.id, q: "octopus" }))).toEqual({ count: 0, capped: false });
    // With a time span too.
    expect(await countFailureHistory(tdb.db, F({ mission: m.id, q: "kraken", from: new Date(Date.now() - 1000 * 5 * 60_000 - 60_000).toISOString() }))).toEqual({ count: 50, capped: false });

    // The rows below the newest 10,000 take 10 ms each to check (2,000 of them: 20 s): the count stops at its time and
    // says at least what it found first (the newest month's matches among those 10,000: how many depends on the date),
    // and a caller's transaction goes on with its own statement_timeout.
    const slow = { table: "failure_audit" as const, from: sql`"failure_audit" f`, view: sql`f."mission_id" = ${m.id}::uuid`, time: sql`f."timestamp"`, id: sql`f."id"`, idType: "uuid" as const };
    const words = sql`(f."seq" <= 10000 or pg_sleep(0.01) is not null) and f."search" @@ websearch_to_tsquery('english', 'kraken')`;
    await tdb.db.transaction(async (tx) => {
      const cut = await cappedWordsCount(tx, { ...slow, words }, { ms: 300, exactBelow: 0 });
      expect(cut.capped).toBe(true);
      expect(cut.count).toBeGreaterThan(0);
      expect(cut.count).toBeLessThan(600);
      expect((await tx.execute(sql`show statement_timeout`))[0]).toEqual({ statement_timeout: "0" });
      // The same reads (first the newest rows, then the text index below them) in time: exact. A table under a million
      // rows is counted in one query (exactBelow: 0 makes this small one take the large table's way).
      expect(await cappedWordsCount(tx, { ...slow, words: sql`f."search" @@ websearch_to_tsquery('english', 'kraken')` }, { ms: 60_000, exactBelow: 0 })).toEqual({ count: 600, capped: false });
      expect(await cappedWordsCount(tx, { ...slow, words: sql`f."search" @@ websearch_to_tsquery('english', 'squid')` }, { ms: 60_000, exactBelow: 0 })).toEqual({ count: WORDS_COUNT_CAP, capped: true });
      expect((await tx.execute(sql`show statement_timeout`))[0]).toEqual({ statement_timeout: "0" });
    });
  });

  it("pages sorted by time, read month by month in either direction, give the rows of one ordered read (strays, ties, words and spans included)", async () => {
    await ensurePartitions(tdb.db, { from: new Date(Date.now() - 200 * 86_400_000).toISOString(), tables: ["failure_audit"] });
    const m = await createMission(tdb.db, { definition: definition({ name: "months" }), actorId: "user:ann" });
    // 400 failures every 9 hours back over 150 days (five or six months), pairs at the same instant, strays far ahead and far back.
    await tdb.db.execute(sql`insert into failure_audit (mission_id, seq, "timestamp", level, severity, what, why, context, definition, error_type)
      select ${m.id}::uuid, i, now() - ((i / 2) * interval '18 hours'), 'agent', case when i % 3 = 0 then 'critical' else 'error' end,
             'Step failed', case when i % 5 = 0 then 'disk quota exceeded' else 'exit 1' end, '{}'::jsonb, 'months', 'exit_nonzero'
      from generate_series(1, 400) i
      union all select ${m.id}::uuid, 401, '2040-01-01T00:00:00Z'::timestamptz, 'agent', 'error', 'Step failed', 'quota from the future', '{}'::jsonb, 'months', 'exit_nonzero'
      union all select ${m.id}::uuid, 402, '1999-01-01T00:00:00Z'::timestamptz, 'agent', 'error', 'Step failed', 'quota of 1999', '{}'::jsonb, 'months', 'exit_nonzero'`);
    const ordered = async (where: ReturnType<typeof sql>, dir: "asc" | "desc") =>
      (await tdb.db.execute(sql`select id from failure_audit f where f.mission_id = ${m.id}::uuid and ${where} order by "timestamp" ${sql.raw(dir)}, id ${sql.raw(dir)}`)).map((r) => (r as { id: string }).id);
    const paged = async (filters: HistoryFilters, limit: number) => {
      const ids: string[] = [];
      let cursor: string | null = null;
      do {
        const page: Awaited<ReturnType<typeof listFailureHistory>> = await listFailureHistory(tdb.db, { filters, cursor, limit });
        ids.push(...page.rows.map((r) => r.id));
        cursor = page.nextCursor;
      } while (cursor);
      return ids;
    };
    const from = new Date(Date.now() - 100 * 86_400_000).toISOString();
    const to = new Date(Date.now() - 20 * 86_400_000).toISOString();
    for (const dir of ["desc", "asc"] as const) {
      const every = await ordered(sql`true`, dir);
      expect(every).toHaveLength(402);
      for (const limit of [1, 7, 100]) expect(await paged(F({ mission: m.id, dir }), limit), `${dir}, pages of ${limit}`).toEqual(every);
      expect(await paged(F({ mission: m.id, dir, q: "quota" }), 9), `${dir}, words`).toEqual(await ordered(sql`f.search @@ websearch_to_tsquery('english', 'quota')`, dir));
      expect(await paged(F({ mission: m.id, dir, severity: "critical", from, to }), 11), `${dir}, span`).toEqual(await ordered(sql`severity = 'critical' and "timestamp" >= ${from}::timestamptz and "timestamp" <= ${to}::timestamptz`, dir));
    }
    expect(await countFailureHistory(tdb.db, F({ mission: m.id, severity: "critical", from, to }))).toEqual({ count: (await ordered(sql`severity = 'critical' and "timestamp" >= ${from}::timestamptz and "timestamp" <= ${to}::timestamptz`, "desc")).length, capped: false });
  });
});

describe("facets and charts", () => {
  it("facets list the values present, with actor names and library titles", async () => {
    const f = await historyFacets(tdb.db);
    expect(f.definitions.map((d) => d.value)).toEqual(expect.arrayContaining(["bulk", "image build", "payments nightly"]));
    expect(f.errorTypes.map((d) => d.value)).toEqual(expect.arrayContaining(["exit_nonzero", "rate_limited", "timeout"]));
    expect(f.deciders).toContainEqual({ value: "user:bob", label: "Bob Operator" });
    expect(f.actors).toEqual(expect.arrayContaining([{ value: "user:ann", label: "Ann Starter" }, { value: "worker:w1", label: "Worker one" }]));
    expect(f.failureModes.map((m) => m.value)).toContain("FM-SW-0002");
    // The state machine's phases, in their order.
    expect(f.phases.map((p) => p.value)).toEqual(["CONTEXT_ENRICHMENT", "PLANNING", "RESEARCH", "DESIGN", "EXECUTION", "REVIEW"]);
  });

  it("chart data: failures over time by type, resolution time by level, top failure modes, outcomes", async () => {
    const s = await failureHistoryStats(tdb.db, F({ mission: bulk }));
    expect(s.bucket).toBe("day");
    expect(s.overTime.types).toEqual(["exit_nonzero", "timeout"]);
    expect(s.overTime.counts.flat().reduce((a, b) => a + b, 0)).toBe(250);
    const agent = s.resolutionByLevel.find((r) => r.level === "agent")!;
    expect(agent.count).toBe(193);
    expect(agent.medianMs).toBeGreaterThan(100_000);
    expect(agent.p90Ms).toBeGreaterThan(agent.medianMs);
    expect(s.outcomes).toEqual([
      { outcome: "skipped", count: 215 },
      { outcome: "unresolved", count: 35 },
    ]);
    const hourly = await failureHistoryStats(tdb.db, F({ mission: nightly, from: "24h" }));
    expect(hourly.bucket).toBe("hour");
    expect(hourly.outcomes.map((o) => o.outcome).sort()).toEqual(["retried", "skipped"]);
    const modes = await failureHistoryStats(tdb.db, F({ mission: walked }));
    expect(modes.topFailureModes).toEqual([{ failureMode: "FM-SW-0002", title: null, count: 1 }]);
    expect(s.sample).toBeNull();
  });

  it("a large view's charts are estimated from a sample of the history's pages, scaled up and marked so; a small view's read every row", async () => {
    const m = await createMission(tdb.db, { definition: definition({ name: "sampled" }), actorId: "user:ann" });
    // 40,000 failures over 20 days, every other one of the view (20,000: 5,000 unresolved, 15,000 skipped).
    await tdb.db.execute(sql`insert into failure_audit (mission_id, seq, "timestamp", level, severity, what, context, definition, error_type, resolution_action, resolution_ms, resolved_at)
      select ${m.id}::uuid, i, now() - i * interval '43 seconds', 'agent', 'error', 'x', '{}', case when i % 2 = 0 then 'sampled' else 'not sampled' end, 'timeout',
        case when i % 8 = 0 then null else 'skip' end, case when i % 8 = 0 then null else 1000 + i end, case when i % 8 = 0 then null else now() end
      from generate_series(1, 40000) i`);
    await tdb.db.execute(sql`analyze failure_audit`);
    // Charts read about 3,000 rows of the history when it holds more than 30,000 (in the product: 50,000 of 500,000).
    const s = await failureHistoryStats(tdb.db, F({ definition: "sampled" }), Date.now(), 3_000);
    expect(s.sample).not.toBeNull();
    expect(s.sample!.percent).toBeGreaterThan(0);
    expect(s.sample!.percent).toBeLessThan(7.6);
    expect(s.sample!.rows).toBeGreaterThan(300);
    const total = s.outcomes.reduce((t, o) => t + o.count, 0);
    expect(total).toBeGreaterThan(20_000 * 0.8);
    expect(total).toBeLessThan(20_000 * 1.2);
    const unresolved = s.outcomes.find((o) => o.outcome === "unresolved")!.count;
    expect(unresolved / total).toBeGreaterThan(0.2);
    expect(unresolved / total).toBeLessThan(0.3);
    // Each scaled count is rounded on its own: the charts agree to within a rounding per bar.
    expect(Math.abs(s.overTime.counts.flat().reduce((a, b) => a + b, 0) - total)).toBeLessThanOrEqual(s.overTime.counts.flat().length);
    // The same pages on every reload: the charts do not jump.
    expect(await failureHistoryStats(tdb.db, F({ definition: "sampled" }), Date.now(), 3_000)).toEqual(s);
    // With full text too (the planner misjudges its selectivity: the words count says whether the view is small).
    const text = await failureHistoryStats(tdb.db, F({ definition: "sampled", q: "x" }), Date.now(), 3_000);
    expect(text.sample).not.toBeNull();
    expect(text.outcomes.reduce((t, o) => t + o.count, 0) / 20_000).toBeGreaterThan(0.8);
    expect(text.outcomes.reduce((t, o) => t + o.count, 0) / 20_000).toBeLessThan(1.2);
    expect((await failureHistoryStats(tdb.db, F({ definition: "sampled", q: "octopus" }), Date.now(), 3_000)).sample).toBeNull();
    // A view of fewer than 10,000 rows is read whole, exact.
    const [{ t1 }] = (await tdb.db.execute(sql`select extract(epoch from max("timestamp")) * 1000 as t1 from failure_audit where mission_id = ${m.id}::uuid`)) as unknown as Array<{ t1: number }>;
    const small = await failureHistoryStats(tdb.db, F({ definition: "sampled", from: new Date(Number(t1) - 1999 * 43_000 - 21_500).toISOString() }), Date.now(), 3_000);
    expect(small.sample).toBeNull();
    expect(small.outcomes.reduce((t, o) => t + o.count, 0)).toBe(1000);
  });
});
