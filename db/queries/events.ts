import { randomUUID } from "node:crypto";
import { and, asc, eq, gt, inArray, isNull, sql } from "drizzle-orm";
import { applyEvent, progress, reduce, STATE_VERSION, type MissionDefinition, type MissionEvent, type MissionState, type NewMissionEvent } from "../../lib/mission";
import { nextAction } from "../../lib/mission/next-action";
import { IllegalTransitionError, isTerminal } from "../../lib/mission/reducer";
import { missionCreated } from "../../lib/mission/transitions";
import { AppError } from "../../lib/errors";
import { driverOf, valuesPlaceholders, type Db, type Executor, type Tx } from "../client";
import { events, failureAudit, gates, missions, proposals, type EventRow } from "../schema";
import { auditChanges, type AuditChange } from "../../lib/mission/audit";
import type { AuditActor } from "../../lib/audit";
import { recordAudit } from "./audit-log";
import { touchesLearning, writeLearning } from "./learning";
import { touchesLibraryProtocol, writeLibraryProtocol } from "./library-protocol";
import { withGatePolicy } from "./gate-policies";
import type { Tape } from "../../lib/trace/format";
import { knownHead, newHead, readMissionState, rememberState, rowToEvent, snapshotDue, snapshotOf, type MissionHead } from "./mission-state";

export { rowToEvent };

export const EVENTS_CHANNEL = "faultline_events";

export class LeaseLostError extends Error {
  constructor(missionId: string, owner: string, holder: string | null) {
    super(`Lease lost: worker ${owner} no longer holds mission ${missionId} (held by ${holder ?? "nobody"}).`);
    this.name = "LeaseLostError";
  }
}

/**
 * Creates a mission: its `mission.created` event and projections, in one transaction. `audit`: the
 * person or agent starting it, recorded in the audit log in the same transaction (not for the seed).
 */
export async function createMission(db: Db, params: { definition: MissionDefinition; actorId: string; id?: string; audit?: AuditActor }): Promise<MissionState> {
  return db.transaction(async (tx) => {
    const id = params.id ?? randomUUID();
    const at = new Date().toISOString();
    const event: MissionEvent = { ...missionCreated(params.definition), missionId: id, seq: 1, actorId: params.actorId, at };
    const state = applyEvent(null, event);
    const head = newHead();
    const snapshot = snapshotOf(state);
    await tx.insert(missions).values({
      id,
      name: state.name,
      definition: state.definition,
      phase: state.phase,
      runState: state.runState,
      lastSeq: 1,
      state: sql`${snapshot.json}::jsonb`,
      snapshotSeq: snapshot.snapshotSeq,
      snapshotBytes: snapshot.snapshotBytes,
      head,
      owner: state.owner,
      createdBy: params.actorId,
      createdAt: at,
      updatedAt: at,
    });
    await insertEvents(tx, [event], at);
    await writeProjections(tx, state, { previous: null, head, snapshot: false });
    rememberState(id, head, state, { createdAt: at, snapshotSeq: snapshot.snapshotSeq, snapshotBytes: snapshot.snapshotBytes });
    await notify(tx, id, 1, true);
    if (params.audit) {
      const steps = state.agentOrder.length;
      await recordAudit(tx, params.audit, {
        action: "mission.start",
        summary: `${params.audit.name} started mission "${state.name}" (${steps} step${steps === 1 ? "" : "s"}).`,
        target: { type: "mission", id },
        missionId: id,
        after: { name: state.name, objective: params.definition.objective, steps, runState: state.runState },
      });
    }
    return state;
  });
}

/** The first event of a write in flight: enough to find it in the log (one seq, its type, its actor, its instant). */
export interface PendingWrite {
  missionId: string;
  seq: number;
  type: string;
  actorId: string;
  at: string;
}

/**
 * Whether a write whose outcome is unknown landed. A connection cut while COMMIT is on its way (a
 * terminated backend, a network that drops the answer) leaves the client with an error although the
 * server may have committed: writing the same progress again would then be refused (the step is no longer
 * running) or, worse, recorded twice. The write's first event at its seq says which it was.
 */
export async function writeLanded(db: Executor, w: PendingWrite): Promise<boolean> {
  const rows = await db
    .select({ seq: events.seq })
    .from(events)
    .where(and(eq(events.missionId, w.missionId), eq(events.seq, w.seq), eq(events.type, w.type), eq(events.actorId, w.actorId), sql`${events.createdAt} = ${w.at}::timestamptz`));
  return rows.length > 0;
}

export interface AppendParams {
  missionId: string;
  actorId: string;
  /** Events, or builders of an event from the state reached by the ones before it (null: none). */
  events: Array<NewMissionEvent | ((state: MissionState) => NewMissionEvent | null)>;
  leaseOwner?: string;
  /** FDR-N004: the engine's readings behind the events of the items from `firstItem` on (stored in event_io). */
  tape?: { tape: Tape; firstItem: number };
  /** Told what this write is about to commit, before it writes (see `writeLanded`). */
  pending?: (write: PendingWrite) => void;
  /**
   * Called before each application of the events' builders to a state: appendAsOwner may apply them twice
   * (on the state it knows, then on the locked row's), and a builder may take readings (ids, the clock) that
   * the flight recorder notes — the runner forgets those of a discarded application.
   */
  beforeApply?: () => void;
}

/** What an append computed before it writes: the events with their seqs, the state they reach, the audit changes, the tape's span. */
interface Applied {
  state: MissionState;
  stored: MissionEvent[];
  audit: AuditChange[];
  taped: { seq: number; count: number };
  at: string;
}

/** An event that needs a read inside a transaction (a gate's policy in force) was built: appendAsOwner's statement cannot carry it. */
class NeedsTransaction extends Error {}

/**
 * Applies the events (and builders) to `base` with the reducer: an illegal transition throws. `tx`: where a
 * gate that opens reads the gate policy in force (none: such an event throws NeedsTransaction).
 */
async function applyEvents(base: MissionState, params: AppendParams, tx: Tx | null): Promise<Applied> {
  params.beforeApply?.();
  let state = base;
  const at = new Date().toISOString();
  const stored: MissionEvent[] = [];
  const audit: AuditChange[] = [];
  const taped = { seq: 0, count: 0 };
  for (const [index, item] of params.events.entries()) {
    const built = typeof item === "function" ? item(state) : item;
    if (!built) continue;
    if (params.tape && index >= params.tape.firstItem && taped.count++ === 0) taped.seq = state.seq + 1;
    // Issue 6: the gate policy in force is snapshotted on the gate when it opens (a later change does not move its goalposts).
    let e = built;
    if (built.type === "gate.opened" && built.payload.policy === undefined) {
      if (!tx) throw new NeedsTransaction();
      e = await withGatePolicy(tx, state, built, at);
    }
    const ev = { ...e, missionId: params.missionId, seq: state.seq + 1, actorId: e.actorId ?? params.actorId, at } as MissionEvent;
    state = applyEvent(state, ev);
    stored.push(ev);
    audit.push(...auditChanges(ev, state));
  }
  return { state, stored, audit, taped, at };
}

/**
 * Appends events to a mission in one transaction: locks the mission row, checks the lease when a
 * worker writes, applies every event with the reducer (an illegal transition throws and nothing is
 * written), inserts the events, rewrites the projections and sends one NOTIFY.
 */
export async function appendEvents(tx: Tx, params: AppendParams): Promise<{ state: MissionState; events: MissionEvent[] }> {
  const row = await readMissionState(tx, params.missionId, { forUpdate: true });
  if (!row) throw new AppError("not_found", { userMessage: `Mission ${params.missionId} does not exist.` });
  if (params.leaseOwner && row.leaseOwner !== params.leaseOwner) throw new LeaseLostError(params.missionId, params.leaseOwner, row.leaseOwner);
  const { state, stored, audit, taped, at } = await applyEvents(row.state, params, tx);
  if (stored.length === 0) return { state, events: [] };
  params.pending?.({ missionId: params.missionId, seq: stored[0].seq, type: stored[0].type, actorId: stored[0].actorId, at });
  // Written from outside the worker (a person, an external agent's call) and there is work now: any worker may take it at once.
  const wake = !params.leaseOwner && !isTerminal(state) && nextAction(state).kind !== "wait";
  const head = newHead();
  const snapshot = snapshotDue(row, state, isTerminal(state)) ? snapshotOf(state) : null;
  // The writes every append makes go out together: postgres.js pipelines queries sent at once on the
  // transaction's connection (one round trip instead of five), and none of them needs another's result.
  await Promise.all([
    updateMission(tx, state, { head, wake, snapshot }),
    insertEvents(tx, stored, row.createdAt),
    params.tape && taped.count ? driverOf(tx).unsafe(INSERT_EVENT_IO, [params.missionId, taped.seq, taped.count, JSON.stringify(params.tape.tape)]) : null,
    writeAgentsAndGates(tx, state, row.state),
    notify(tx, params.missionId, state.seq, wake || stored.some((e) => WAKES_WORKERS.has(e.type))),
  ]);
  rememberState(params.missionId, head, state, { createdAt: row.createdAt, snapshotSeq: snapshot?.snapshotSeq ?? row.snapshotSeq, snapshotBytes: snapshot?.snapshotBytes ?? row.snapshotBytes });
  // Rarer read models, after the projections they may read (the audit's time to resolution reads the gates).
  await writeProposals(tx, state, stored);
  await writeAudit(tx, params.missionId, audit);
  await writeLearning(tx, stored, state.definition);
  await writeLibraryProtocol(tx, stored);
  return { state, events: stored };
}

/**
 * appendEvents for the worker that holds the mission's lease, in one statement when it can (issue 19).
 * When this process wrote the mission's last append (it knows the head token on the row, with the state
 * and row as of it) and the events change only the mission, its agents, its events and event_io, the whole
 * append is one statement — its own transaction, one round trip: the missions UPDATE, conditioned on that
 * token and the lease, takes the row lock, and the inserts and the NOTIFY happen only if it matched
 * (APPEND_STATEMENT). Otherwise — someone wrote since, the lease moved (nothing was written), the known
 * state refuses the events or builds none, a gate opens, a proposal, failure, learning or library read
 * model changes — the append runs as appendEvents in a transaction: row locked and read, lease checked
 * (a lost lease throws LeaseLostError there), reducer on the committed state.
 */
export async function appendAsOwner(db: Db, params: AppendParams & { leaseOwner: string }): Promise<{ state: MissionState; events: MissionEvent[] }> {
  const known = knownHead(params.missionId);
  const done = known ? await appendInOneStatement(db, params, known) : null;
  return done ?? db.transaction((tx) => appendEvents(tx, params));
}

async function appendInOneStatement(db: Db, params: AppendParams & { leaseOwner: string }, known: NonNullable<ReturnType<typeof knownHead>>): Promise<{ state: MissionState; events: MissionEvent[] } | null> {
  let applied: Applied;
  try {
    applied = await applyEvents(known.state, params, null);
  } catch (e) {
    // The known state may be behind the row (a write of this process that rolled back, a reader's older head):
    // whether the reducer's refusal stands is for the locked read to say.
    if (e instanceof NeedsTransaction || e instanceof IllegalTransitionError) return null;
    throw e;
  }
  const { state, stored, audit, taped, at } = applied;
  // Nothing to write is an answer about the state: only the locked read's state may give it.
  if (stored.length === 0) return null;
  if (audit.length || changedGates(state, known.state).length || proposalIdsOf(stored).size || touchesLearning(stored) || touchesLibraryProtocol(stored)) return null;
  params.pending?.({ missionId: params.missionId, seq: stored[0].seq, type: stored[0].type, actorId: stored[0].actorId, at });
  const head = newHead();
  const snapshot = snapshotDue(known.row, state, isTerminal(state)) ? snapshotOf(state) : null;
  const agentRows = changedAgentRows(state, known.state);
  const io = params.tape && taped.count ? [params.missionId, taped.seq, taped.count, JSON.stringify(params.tape.tape)] : [];
  const values = [
    ...missionColumns(state, { head, wake: false, snapshot }),
    known.head,
    params.leaseOwner,
    ...eventValues(stored, known.row.createdAt),
    ...io,
    ...agentValues(agentRows),
    EVENTS_CHANNEL,
    notification(params.missionId, state.seq, stored.some((e) => WAKES_WORKERS.has(e.type))),
  ];
  const text = appendStatement({ snapshot: snapshot !== null, events: stored.length, io: io.length > 0, agents: agentRows.length });
  const rows = await driverOf(db).unsafe(text, values as never[]);
  // No row: the UPDATE matched nothing (someone wrote since, or the lease moved) and nothing was written.
  if (rows.length === 0) return null;
  rememberState(params.missionId, head, state, { createdAt: known.row.createdAt, snapshotSeq: snapshot?.snapshotSeq ?? known.row.snapshotSeq, snapshotBytes: snapshot?.snapshotBytes ?? known.row.snapshotBytes });
  return { state, events: stored };
}

/*
 * The statements every append sends (issue 19) are fixed texts sent through the driver (`driverOf`), each a
 * named prepared statement: drizzle's query building was a fifth of the worker's time on this path. Rarer
 * writes (gates, proposals, the failure audit, learning) stay with drizzle.
 */
const EVENT_COLUMNS = ["mission_id", "mission_created_at", "seq", "type", "actor_id", "payload", "reason", "impact", "evidence", "created_at"];
const AGENT_COLUMNS = ["mission_id", "name", "phase", "priority", "status", "attempt", "position", "error"];
const INSERT_EVENT_IO = "insert into event_io (mission_id, seq, count, tape) values ($1, $2, $3, $4)";
const NOTIFY = "select pg_notify($1, $2)";
/** The mission's projection columns; the lease cleared when $14, runnable_at when $15. */
const UPDATE_MISSION = `update missions set phase = $2, run_state = $3, progress = $4, open_gates = $5, final_status = $6, last_seq = $7, head = $8, owner = $9, paused = $10, started_at = $11, ended_at = $12, updated_at = $13,
  lease_owner = case when $14::boolean then null else lease_owner end, lease_expires_at = case when $14::boolean then null else lease_expires_at end,
  runnable_at = case when $15::boolean then null else runnable_at end`;
/** With the snapshot ($16–$18); without it, the snapshot's columns are not touched. */
const SET_SNAPSHOT = ", state = $16::jsonb, snapshot_seq = $17, snapshot_bytes = $18";
const UPDATE_MISSION_ONLY = `${UPDATE_MISSION} where id = $1`;
const UPDATE_MISSION_AND_SNAPSHOT = `${UPDATE_MISSION}${SET_SNAPSHOT} where id = $1`;

const EVENT_TYPES = ["uuid", "timestamptz", "int", "text", "text", "jsonb", "text", "text", "jsonb", "timestamptz"];
const AGENT_TYPES = ["uuid", "text", "text", "text", "text", "int", "int", "jsonb"];
/** `($n::t1, $n+1::t2), (…)`: rows of typed parameters (a VALUES list read by INSERT … SELECT needs its types). */
const typedValues = (rows: number, types: string[], first: number) =>
  Array.from({ length: rows }, (_, r) => `(${types.map((t, c) => `$${first + r * types.length + c}::${t}`).join(", ")})`).join(", ");
const AGENTS_CONFLICT = "on conflict (mission_id, name) do update set status = excluded.status, attempt = excluded.attempt, error = excluded.error";
const appendTexts = new Map<string, string>();

/**
 * APPEND_STATEMENT (appendAsOwner): a whole append in one statement, hence one transaction. The missions
 * UPDATE (conditioned on the head token and the lease owner) takes the row lock and is read by every other
 * part: the events, event_io and agents are inserted, and the NOTIFY sent, only if it matched — else the
 * statement returns no row and writes nothing. Parameters: the mission's 15 (18 with the snapshot), the
 * head and the lease owner, 10 per event, 4 for event_io, 8 per agent row, the NOTIFY's channel and payload.
 */
function appendStatement(shape: { snapshot: boolean; events: number; io: boolean; agents: number }): string {
  const key = `${shape.snapshot}/${shape.events}/${shape.io}/${shape.agents}`;
  let text = appendTexts.get(key);
  if (text) return text;
  let n = shape.snapshot ? 19 : 16;
  const next = (count: number) => ((n += count), n - count);
  const head = next(2);
  const parts = [`m as (${UPDATE_MISSION}${shape.snapshot ? SET_SNAPSHOT : ""} where id = $1 and head = $${head} and lease_owner = $${head + 1} returning 1)`];
  parts.push(`e as (insert into events (${EVENT_COLUMNS.join(", ")}) select * from (values ${typedValues(shape.events, EVENT_TYPES, next(shape.events * EVENT_TYPES.length))}) v where exists (select from m))`);
  if (shape.io) {
    const i = next(4);
    parts.push(`io as (insert into event_io (mission_id, seq, count, tape) select $${i}::uuid, $${i + 1}::int, $${i + 2}::int, $${i + 3}::jsonb where exists (select from m))`);
  }
  if (shape.agents) parts.push(`a as (insert into agents (${AGENT_COLUMNS.join(", ")}) select * from (values ${typedValues(shape.agents, AGENT_TYPES, next(shape.agents * AGENT_TYPES.length))}) v where exists (select from m) ${AGENTS_CONFLICT})`);
  const notifyAt = next(2);
  text = `with ${parts.join(", ")} select pg_notify($${notifyAt}, $${notifyAt + 1}) from m`;
  if (shape.events <= 8 && shape.agents <= 8) appendTexts.set(key, text);
  return text;
}

/** The text of a statement over `rows` rows (one text, hence one prepared statement, per row count in use). */
function rowsText(cache: Map<number, string>, rows: number, build: (values: string) => string, columns: number): string {
  let text = cache.get(rows);
  if (!text) {
    text = build(valuesPlaceholders(rows, columns));
    if (rows <= 32) cache.set(rows, text);
  }
  return text;
}
const insertEventsTexts = new Map<number, string>();
const upsertAgentsTexts = new Map<number, string>();

/** The events' columns (EVENT_COLUMNS), row after row. */
function eventValues(list: MissionEvent[], missionCreatedAt: string): unknown[] {
  return list.flatMap((e) => [e.missionId, missionCreatedAt, e.seq, e.type, e.actorId, JSON.stringify(e.payload), e.reason, e.impact, e.evidence == null ? null : JSON.stringify(e.evidence), e.at]);
}

/** The events, under their mission's creation time (`missionCreatedAt`: the partition key, migration 0028). */
async function insertEvents(tx: Tx, list: MissionEvent[], missionCreatedAt: string): Promise<void> {
  const text = rowsText(insertEventsTexts, list.length, (values) => `insert into events (${EVENT_COLUMNS.join(", ")}) values ${values}`, EVENT_COLUMNS.length);
  await driverOf(tx).unsafe(text, eventValues(list, missionCreatedAt) as never[]);
}

/** Rebuilds a mission's snapshot and projections from its events (after a state-shape change). */
export async function rebuildMission(tx: Tx, missionId: string): Promise<MissionState> {
  const state = reduce(await listEventsAfter(tx, { missionId, limit: Number.MAX_SAFE_INTEGER }));
  const head = newHead();
  await writeProjections(tx, state, { previous: null, head, snapshot: true });
  rememberState(missionId, head, state);
  return state;
}

/**
 * Rebuilds every snapshot whose shape is older than STATE_VERSION (run at start, after the migrations).
 * A mission whose events the current rules refuse (a log recorded under older, looser rules) keeps its
 * stored snapshot and is marked (`replayRefused`: the STATE_VERSION that refused it), so later starts do
 * not replay it again until the state's shape changes once more. Returns how many were rebuilt and refused.
 */
export async function rebuildStaleSnapshots(db: Db): Promise<{ rebuilt: number; refused: number }> {
  const stale = await db
    .select({ id: missions.id })
    .from(missions)
    .where(sql`coalesce((${missions.state}->>'version')::int, 0) < ${STATE_VERSION} and coalesce((${missions.state}->>'replayRefused')::int, 0) < ${STATE_VERSION}`);
  let rebuilt = 0;
  let refused = 0;
  for (const { id } of stale) {
    try {
      await db.transaction((tx) => rebuildMission(tx, id));
      rebuilt++;
    } catch (e) {
      refused++;
      await db.execute(sql`update missions set state = jsonb_set(state, '{replayRefused}', to_jsonb(${STATE_VERSION}::int)) where id = ${id}`);
      console.error(`[migrate] mission ${id} keeps its stored snapshot: its events no longer replay (${e instanceof Error ? e.message : e}); it will not be tried again until the state's shape changes`);
    }
  }
  return { rebuilt, refused };
}

/**
 * Projections (missions, agents, gates) always equal reduce(events) as of the same seq. Only what the
 * events changed is written: the agents and gates whose state differs from `previous` (the reducer
 * shares what it does not change), and the snapshot only when given (null `previous`: everything).
 */
async function writeProjections(tx: Tx, s: MissionState, opts: { previous: MissionState | null; head: string; snapshot: boolean; wake?: boolean }): Promise<void> {
  await Promise.all([updateMission(tx, s, { head: opts.head, wake: opts.wake === true, snapshot: opts.snapshot ? snapshotOf(s) : null }), writeAgentsAndGates(tx, s, opts.previous)]);
}

/** The missions row's columns ($1–$15, $16–$18 with the snapshot) for UPDATE_MISSION. */
function missionColumns(s: MissionState, opts: { head: string; wake: boolean; snapshot: ReturnType<typeof snapshotOf> | null }): unknown[] {
  const ends = s.runState === "completed" || s.runState === "failed";
  const values: unknown[] = [s.id, s.phase, s.runState, progress(s), s.gates.filter((g) => g.status === "open").length, s.finalStatus ?? null, s.seq, opts.head, s.owner ?? null, s.paused == null ? null : JSON.stringify(s.paused), s.startedAt ?? null, s.endedAt ?? null, new Date().toISOString(), ends, opts.wake];
  if (opts.snapshot) values.push(opts.snapshot.json, opts.snapshot.snapshotSeq, opts.snapshot.snapshotBytes);
  return values;
}

/** The mission's row: its projection columns, the head token, the snapshot when given. */
function updateMission(tx: Tx, s: MissionState, opts: { head: string; wake: boolean; snapshot: ReturnType<typeof snapshotOf> | null }) {
  return driverOf(tx).unsafe(opts.snapshot ? UPDATE_MISSION_AND_SNAPSHOT : UPDATE_MISSION_ONLY, missionColumns(s, opts) as never[]);
}

/** The agents whose state differs from `prev` (all of them when null), as rows of the agents table. */
function changedAgentRows(s: MissionState, prev: MissionState | null) {
  return s.agentOrder.flatMap((name, position) => {
    const a = s.agents[name];
    if (prev && prev.agents[name] === a) return [];
    return [{ missionId: s.id, name, phase: a.phase, priority: a.priority, status: a.status, attempt: a.attempt, position, error: a.error }];
  });
}

/** The agents' columns (AGENT_COLUMNS), row after row. */
function agentValues(rows: ReturnType<typeof changedAgentRows>): unknown[] {
  return rows.flatMap((r) => [r.missionId, r.name, r.phase, r.priority, r.status, r.attempt, r.position, r.error == null ? null : JSON.stringify(r.error)]);
}

/** The gates whose state differs from `prev` (the reducer shares the gates it does not change). */
function changedGates(s: MissionState, prev: MissionState | null) {
  const unchanged = new Set(prev?.gates ?? []);
  return s.gates.filter((g) => !unchanged.has(g));
}

/** The agents and gates whose state differs from `previous` (all of them when null). */
async function writeAgentsAndGates(tx: Tx, s: MissionState, prev: MissionState | null): Promise<void> {
  const writes: Array<PromiseLike<unknown>> = [];
  const agentRows = changedAgentRows(s, prev);
  if (agentRows.length) {
    const text = rowsText(upsertAgentsTexts, agentRows.length, (values) => `insert into agents (${AGENT_COLUMNS.join(", ")}) values ${values} ${AGENTS_CONFLICT}`, AGENT_COLUMNS.length);
    writes.push(driverOf(tx).unsafe(text, agentValues(agentRows) as never[]));
  }
  const gateRows = changedGates(s, prev);
  if (gateRows.length) {
    writes.push(tx
      .insert(gates)
      .values(gateRows.map((g) => ({ id: g.id, missionId: s.id, kind: g.kind, agent: g.agent, phase: g.phase, step: g.step, diagnosis: g.diagnosis, recoveryPlan: g.recoveryPlan, recoveryNote: g.recoveryNote, status: g.status, options: g.options, error: g.error, openedAt: g.openedAt, openedSeq: g.openedSeq, decision: g.decision, decidedBy: g.decidedBy, note: g.note, decidedAt: g.decidedAt, openMs: g.openMs, policy: g.policy ?? null, deadlineAt: g.deadlineAt ?? null, approvals: g.approvals ?? [] })))
      .onConflictDoUpdate({
        target: [gates.missionId, gates.id],
        set: { status: sql`excluded.status`, decision: sql`excluded.decision`, decidedBy: sql`excluded.decided_by`, note: sql`excluded.note`, decidedAt: sql`excluded.decided_at`, openMs: sql`excluded.open_ms`, policy: sql`excluded.policy`, deadlineAt: sql`excluded.deadline_at`, approvals: sql`excluded.approvals` },
      }));
  }
  await Promise.all(writes);
}

/** The failure audit trail, written in the same transaction as the events that change it. */
async function writeAudit(tx: Tx, missionId: string, changes: AuditChange[]): Promise<void> {
  for (const c of changes) {
    if (c.kind === "add") {
      const { agent, ...entry } = c.entry;
      const r = entry.resolution;
      await tx.insert(failureAudit).values({
        ...entry,
        agent,
        startedBy: sql`(select ${missions.createdBy} from ${missions} where ${missions.id} = ${missionId})`,
        resolvedAt: r?.resolvedAt ?? null,
        ...(r ? { decidedBy: r.resolvedBy, resolutionAction: r.action, resolutionMs: 0 } : {}),
      });
    } else if (c.kind === "attribute") {
      const f = c.failure;
      const target = sql`(select ${failureAudit.id} from ${failureAudit} where ${failureAudit.missionId} = ${missionId} and ${failureAudit.agent} = ${f.agent} and ${failureAudit.step} = ${f.step} and ${failureAudit.attempt} = ${f.attempt} and ${failureAudit.seq} < ${f.beforeSeq} order by ${failureAudit.seq} desc limit 1)`;
      await tx
        .update(failureAudit)
        .set("rootCause" in c.set ? { rootCause: c.set.rootCause } : { failureMode: c.set.failureMode, failureModeConfirmed: c.set.confirmed })
        // A confirmed entry is not replaced by a later walk's top-ranked hypothesis.
        .where(and(eq(failureAudit.missionId, missionId), eq(failureAudit.id, target), "failureMode" in c.set && !c.set.confirmed ? eq(failureAudit.failureModeConfirmed, false) : undefined));
    } else if (c.kind === "link") {
      await tx
        .update(failureAudit)
        .set({ gateId: c.gateId })
        .where(and(eq(failureAudit.missionId, missionId), isNull(failureAudit.gateId), isNull(failureAudit.resolvedAt), inArray(failureAudit.level, c.levels), c.agent ? eq(failureAudit.agent, c.agent) : undefined));
    } else {
      const where =
        "all" in c.by
          ? undefined
          : "gateId" in c.by
          ? eq(failureAudit.gateId, c.by.gateId)
          : "agent" in c.by
            ? and(eq(failureAudit.agent, c.by.agent), isNull(failureAudit.gateId))
            : and(inArray(failureAudit.level, c.by.levels), isNull(failureAudit.gateId));
      await tx
        .update(failureAudit)
        .set({
          resolution: c.resolution,
          resolvedAt: c.resolution.resolvedAt,
          decidedBy: c.resolution.resolvedBy,
          resolutionAction: c.resolution.action,
          // Gate opened → resolved when a gate decided it (the gates projection is written first), else failure → resolved.
          resolutionMs: sql`greatest(0, round(extract(epoch from (${c.resolution.resolvedAt}::timestamptz - coalesce((select ${gates.openedAt} from ${gates} where ${gates.id} = ${failureAudit.gateId} and ${gates.status} = 'resolved'), ${failureAudit.timestamp}))) * 1000))::bigint`,
        })
        .where(and(eq(failureAudit.missionId, missionId), isNull(failureAudit.resolvedAt), where));
    }
  }
}

/** Events after which a mission may have become claimable by a worker. */
const WAKES_WORKERS = new Set<string>(["mission.created", "gate.resolved", "mission.resumed", "mission.aborted"]);

export interface EventsNotification {
  /** mission id */
  m: string;
  /** last seq committed */
  s: number;
  /** 1 when workers should try to claim */
  w?: 1;
}

/** One small NOTIFY per transaction: a wake-up hint; readers catch up from the table by seq. */
async function notify(tx: Tx, missionId: string, seq: number, wake: boolean): Promise<void> {
  await driverOf(tx).unsafe(NOTIFY, [EVENTS_CHANNEL, notification(missionId, seq, wake)]);
}

function notification(missionId: string, seq: number, wake: boolean): string {
  const payload: EventsNotification = { m: missionId, s: seq, ...(wake ? { w: 1 as const } : {}) };
  return JSON.stringify(payload);
}

/** A mission's events after `afterSeq`, in seq order (at most `limit`, default 10,000). */
export async function listEventsAfter(db: Executor, params: { missionId: string; afterSeq?: number; limit?: number }): Promise<MissionEvent[]> {
  const rows = await eventsAfterQuery(db, params);
  return rows.map(rowToEvent);
}

/** listEventsAfter's statement (tests read its plan). */
export function eventsAfterQuery(db: Executor, params: { missionId: string; afterSeq?: number; limit?: number }) {
  return db
    .select()
    .from(events)
    .where(
      and(
        eq(events.missionId, params.missionId),
        // The partition key (migration 0028), read from the mission's row: PostgreSQL then opens the one month that
        // holds the mission's events (run-time pruning) instead of probing every monthly partition.
        sql`${events.missionCreatedAt} = (select ${missions.createdAt} from ${missions} where ${missions.id} = ${params.missionId})`,
        gt(events.seq, params.afterSeq ?? 0),
      ),
    )
    .orderBy(asc(events.seq))
    .limit(params.limit ?? 10_000);
}

/** The proposals these events touch. */
function proposalIdsOf(stored: MissionEvent[]): Set<string> {
  const ids = new Set<string>();
  for (const e of stored) {
    if (e.type === "proposal.submitted" || e.type === "proposal.decided" || e.type === "proposal.expired") ids.add(e.payload.proposalId);
    else if (e.type === "step.started" && e.payload.proposalId) ids.add(e.payload.proposalId);
    else if (e.type === "gate.opened" && e.payload.proposalId) ids.add(e.payload.proposalId);
  }
  return ids;
}

/** The proposals read model: the proposals these events touched, upserted from the state (same transaction). */
async function writeProposals(tx: Tx, s: MissionState, stored: MissionEvent[]): Promise<void> {
  const ids = proposalIdsOf(stored);
  if (ids.size === 0) return;
  const rows = s.proposals
    .filter((p) => ids.has(p.id))
    .map((p) => ({
      id: p.id,
      missionId: s.id,
      agent: p.agent,
      attempt: p.attempt,
      actorId: p.actorId,
      tool: p.action.tool,
      action: p.action,
      argsDigest: p.argsDigest,
      level: p.level,
      callId: p.callId,
      status: p.status,
      decision: p.decision,
      decidedBy: p.decision?.decidedBy ?? null,
      failureReason: p.decision?.failureReason ?? null,
      pendingReason: p.decision?.pendingReason ?? null,
      gateId: p.gateId,
      step: p.step,
      submittedSeq: p.submittedSeq,
      submittedAt: p.submittedAt,
      decidedAt: p.decision && p.decision.decision !== "pending" ? p.decision.decidedAt : null,
    }));
  await tx
    .insert(proposals)
    .values(rows)
    .onConflictDoUpdate({
      target: [proposals.missionId, proposals.id],
      set: { status: sql`excluded.status`, decision: sql`excluded.decision`, decidedBy: sql`excluded.decided_by`, failureReason: sql`excluded.failure_reason`, pendingReason: sql`excluded.pending_reason`, gateId: sql`excluded.gate_id`, step: sql`excluded.step`, decidedAt: sql`excluded.decided_at` },
    });
}
