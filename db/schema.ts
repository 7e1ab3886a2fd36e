import { sql } from "drizzle-orm";
import { bigint, bigserial, boolean, customType, foreignKey, index, integer, jsonb, pgTable, primaryKey, real, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import type { AgentError, DiagnosisSummary, GateOption, MissionState } from "../lib/mission/types";
import type { RecoveryPlan } from "../lib/mission/recovery";
import type { GateApproval, GatePolicySnapshot } from "../lib/mission/gate-policy";
import type { UserFacingError } from "../lib/errors";
import type { MissionDefinition } from "../lib/mission/definition";
import type { DecisionRecord, ProposedAction } from "../lib/authority/types";
import type { Rule } from "../lib/authority/rules";
import type { Tape } from "../lib/trace/format";

/** People who sign in. Roles: admin, operator, reviewer, contributor, auditor (several allowed). */
export const users = pgTable("users", {
  id: uuid("id").primaryKey().defaultRandom(),
  email: text("email").notNull().unique(),
  name: text("name").notNull(),
  passwordHash: text("password_hash").notNull(),
  roles: text("roles").array().notNull().default(sql`'{}'::text[]`),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  /** A deactivated user cannot sign in, and their sessions and API tokens stop working at once. */
  active: boolean("active").notNull().default(true),
  /** Named teams (e.g. "night-shift"), used by gate policies. */
  groups: text("groups").array().notNull().default(sql`'{}'::text[]`),
  lastActiveAt: timestamp("last_active_at", { withTimezone: true, mode: "string" }),
  deactivatedAt: timestamp("deactivated_at", { withTimezone: true, mode: "string" }),
  /** Sessions issued before this time are invalid (set by a password reset or a deactivation). */
  sessionsValidAfter: timestamp("sessions_valid_after", { withTimezone: true, mode: "string" }),
  mustChangePassword: boolean("must_change_password").notNull().default(false),
  /** The console's theme for this person: follow the system, or always light or dark. */
  theme: text("theme", { enum: ["system", "light", "dark"] }).notNull().default("system"),
});
export type User = typeof users.$inferSelect;

/** One-time links: an invitation to set a first password, or a password reset. Only a hash of the token is stored. */
export const userInvites = pgTable(
  "user_invites",
  {
    tokenHash: text("token_hash").primaryKey(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id),
    purpose: text("purpose", { enum: ["invite", "reset"] }).notNull(),
    createdBy: text("created_by").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "string" }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true, mode: "string" }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true, mode: "string" }),
  },
  (t) => [index("user_invites_user").on(t.userId)],
);

/** API tokens for agents and scripts (`Authorization: Bearer …`): only a hash is stored; a token acts with its user's roles. */
export const apiTokens = pgTable(
  "api_tokens",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id),
    name: text("name").notNull(),
    /** The first characters of the token, shown so people can tell tokens apart. */
    prefix: text("prefix").notNull(),
    tokenHash: text("token_hash").notNull().unique(),
    createdBy: text("created_by").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "string" }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true, mode: "string" }),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true, mode: "string" }),
    revokedAt: timestamp("revoked_at", { withTimezone: true, mode: "string" }),
    revokedBy: text("revoked_by"),
  },
  (t) => [index("api_tokens_user").on(t.userId)],
);
export type ApiTokenRow = typeof apiTokens.$inferSelect;

/**
 * The audit log: every action by a person or an agent (who, what, when, from where, before/after).
 * Append-only: a trigger rejects UPDATE, DELETE and TRUNCATE (migration 0010). Range-partitioned by month on
 * `at` (migration 0028), hence the key (id, at).
 */
export const auditLog = pgTable(
  "audit_log",
  {
    id: bigserial("id", { mode: "number" }).notNull(),
    at: timestamp("at", { withTimezone: true, mode: "string" }).notNull().default(sql`clock_timestamp()`),
    actorId: text("actor_id").notNull(),
    /** The actor's display name at the time (names change; the log must not). */
    actorName: text("actor_name").notNull(),
    /** What was done, e.g. `gate.decide`, `mission.pause`, `auth.sign_in` (lib/audit AUDIT_ACTIONS). */
    action: text("action").notNull(),
    /** `ok`, or `refused` for an attempt that was not allowed (e.g. a failed sign-in). */
    outcome: text("outcome", { enum: ["ok", "refused"] }).notNull().default("ok"),
    targetType: text("target_type"),
    targetId: text("target_id"),
    missionId: uuid("mission_id"),
    summary: text("summary").notNull(),
    /** Where from: web (console), api (REST), cli, worker, system. */
    via: text("via", { enum: ["web", "api", "cli", "worker", "system"] }).notNull(),
    ip: text("ip"),
    userAgent: text("user_agent"),
    before: jsonb("before"),
    after: jsonb("after"),
  },
  (t) => [
    primaryKey({ name: "audit_log_pkey", columns: [t.id, t.at] }),
    index("audit_log_at").on(t.at.desc(), t.id.desc()),
    index("audit_log_actor").on(t.actorId, t.at.desc()),
    index("audit_log_action").on(t.action, t.at.desc()),
    index("audit_log_target").on(t.targetType, t.targetId, t.at.desc()),
    index("audit_log_mission").on(t.missionId, t.at.desc()),
  ],
);
export type AuditLogRow = typeof auditLog.$inferSelect;

/**
 * Every (actor, name at the time) pair the audit log holds, kept by an insert trigger on audit_log (migration
 * 0029): part of a name is looked up among these few pairs, then the log is read by actor id.
 */
export const auditLogActors = pgTable(
  "audit_log_actors",
  {
    actorId: text("actor_id").notNull(),
    actorName: text("actor_name").notNull(),
  },
  (t) => [primaryKey({ name: "audit_log_actors_pkey", columns: [t.actorId, t.actorName] }), index("audit_log_actors_name_trgm").using("gin", t.actorName.op("gin_trgm_ops"))],
);

/**
 * Gate policies (issue 6): per mission definition (its name, or `*`) and gate kind (or `*`): who may
 * decide (roles, groups; empty = everyone with gate.decide), how many distinct approvals, whether
 * the mission's starter may decide, and a timeout with the outcome the worker applies as the system.
 */
export const gatePolicies = pgTable(
  "gate_policies",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    definition: text("definition").notNull(),
    gateKind: text("gate_kind").notNull(),
    roles: text("roles").array().notNull().default(sql`'{}'::text[]`),
    groups: text("groups").array().notNull().default(sql`'{}'::text[]`),
    approvalsRequired: integer("approvals_required").notNull().default(1),
    starterMayDecide: boolean("starter_may_decide").notNull().default(true),
    timeoutMs: bigint("timeout_ms", { mode: "number" }),
    timeoutOutcome: text("timeout_outcome"),
    note: text("note").notNull().default(""),
    createdBy: text("created_by").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "string" }).notNull().defaultNow(),
    updatedBy: text("updated_by").notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true, mode: "string" }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("gate_policies_scope").on(t.definition, t.gateKind)],
);
export type GatePolicyRow = typeof gatePolicies.$inferSelect;

/** Saved views of the failure history or the audit log: a name and the URL query string. `owner_id` null = built in. */
export const savedQueries = pgTable(
  "saved_queries",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    scope: text("scope", { enum: ["failures", "audit"] }).notNull(),
    name: text("name").notNull(),
    query: text("query").notNull(),
    ownerId: uuid("owner_id").references(() => users.id),
    shared: boolean("shared").notNull().default(false),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "string" }).notNull().defaultNow(),
  },
  (t) => [index("saved_queries_owner").on(t.scope, t.ownerId)],
);
export type SavedQueryRow = typeof savedQueries.$inferSelect;

/**
 * The one actor registry (seed 002 FDR-N002): everyone who writes events, proposes or decides. Kind is
 * human (console users `user:<id>`, the CLI `cli:<os user>`), agent (model-driven agents `agent:…`, LLMs
 * `llm:…`) or system (workers, the authority, the diagnosis, health, gate policies). `meta` holds, for
 * agents, provider, model and role; for every actor its origin (user, cli, worker, system, agent).
 */
export const actors = pgTable("actors", {
  id: text("id").primaryKey(),
  kind: text("kind", { enum: ["human", "agent", "system"] }).notNull(),
  displayName: text("display_name").notNull(),
  userId: uuid("user_id").references(() => users.id),
  meta: jsonb("meta").$type<Record<string, unknown>>().notNull().default(sql`'{}'::jsonb`),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});
export type Actor = typeof actors.$inferSelect;

/**
 * The append-only event log: the truth. A trigger rejects UPDATE and DELETE (see migration). Range-partitioned
 * by month on the mission's creation time (migration 0028, docs/deploy.md "Time partitions"): every event of a
 * mission sits in one partition, and the foreign key (mission_id, mission_created_at) → missions (id,
 * created_at) admits only the mission's own time, so the key keeps (mission_id, seq) unique.
 */
export const events = pgTable(
  "events",
  {
    position: bigserial("position", { mode: "number" }),
    missionId: uuid("mission_id").notNull(),
    /** The mission's `created_at`, copied on insert: the partition key. */
    missionCreatedAt: timestamp("mission_created_at", { withTimezone: true, mode: "string" }).notNull(),
    seq: integer("seq").notNull(),
    type: text("type").notNull(),
    actorId: text("actor_id")
      .notNull()
      .references(() => actors.id),
    payload: jsonb("payload").notNull(),
    reason: text("reason").notNull(),
    impact: text("impact").notNull(),
    evidence: jsonb("evidence"),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "string" }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: "events_pkey", columns: [t.missionId, t.missionCreatedAt, t.seq] }),
    foreignKey({ name: "events_mission_fk", columns: [t.missionId, t.missionCreatedAt], foreignColumns: [missions.id, missions.createdAt] }),
    index("events_position").on(t.position),
    index("events_type").on(t.type),
  ],
);
export type EventRow = typeof events.$inferSelect;

/**
 * FDR-N004: the readings behind each write of the worker's engine (lib/trace/record.ts: clock, ids,
 * ToolResults, model turns…), keyed by the first event the write produced (`count` events). Written in
 * the events' transaction; append-only like the events. Traces and replay read it.
 */
export const eventIo = pgTable(
  "event_io",
  {
    missionId: uuid("mission_id").notNull(),
    seq: integer("seq").notNull(),
    count: integer("count").notNull(),
    tape: jsonb("tape").$type<Tape>().notNull(),
  },
  (t) => [primaryKey({ columns: [t.missionId, t.seq] })],
);

/** Projection of a mission plus its dispatch lease. Written in the same transaction as its events. */
export const missions = pgTable(
  "missions",
  {
    id: uuid("id").primaryKey(),
    name: text("name").notNull(),
    definition: jsonb("definition").$type<MissionDefinition>().notNull(),
    phase: text("phase").notNull(),
    runState: text("run_state").notNull(),
    progress: real("progress").notNull().default(0),
    openGates: integer("open_gates").notNull().default(0),
    finalStatus: text("final_status"),
    lastSeq: integer("last_seq").notNull(),
    /**
     * The snapshot: reduce(events) as of snapshotSeq, without the definition (stored once, above). The state
     * now is the snapshot plus the events after it (db/queries/mission-state.ts); it is rewritten only when
     * the events after it outweigh it, so a step costs the same at step 10 and at step 10,000.
     */
    state: jsonb("state").$type<MissionState>().notNull(),
    snapshotSeq: integer("snapshot_seq").notNull().default(0),
    /** The snapshot's size in bytes (how many events may follow it before the next one). */
    snapshotBytes: integer("snapshot_bytes").notNull().default(0),
    /** A token written by every append: a process that wrote it knows its own state is the latest. */
    head: uuid("head"),
    /** Projections of the state that queries filter on: who owns the mission (its pauses) and its pause. */
    owner: text("owner"),
    paused: jsonb("paused").$type<MissionState["paused"]>(),
    createdBy: text("created_by")
      .notNull()
      .references(() => actors.id),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "string" }).notNull(),
    startedAt: timestamp("started_at", { withTimezone: true, mode: "string" }),
    endedAt: timestamp("ended_at", { withTimezone: true, mode: "string" }),
    updatedAt: timestamp("updated_at", { withTimezone: true, mode: "string" }).notNull(),
    leaseOwner: text("lease_owner"),
    leaseExpiresAt: timestamp("lease_expires_at", { withTimezone: true, mode: "string" }),
    /** Not before this time may a worker claim it (retry-after waits). */
    runnableAt: timestamp("runnable_at", { withTimezone: true, mode: "string" }),
    /** A run's external agent was last heard from (a call or a heartbeat; issue 15): its silence pauses the run. */
    agentSeenAt: timestamp("agent_seen_at", { withTimezone: true, mode: "string" }),
  },
  (t) => [
    index("missions_dispatch").on(t.runState, t.leaseExpiresAt),
    index("missions_created").on(t.createdAt),
    // Issue 19: what events' foreign key (mission_id, mission_created_at) refers to (migration 0028).
    uniqueIndex("missions_id_created_at").on(t.id, t.createdAt),
  ],
);
export type MissionRow = typeof missions.$inferSelect;

export const agents = pgTable(
  "agents",
  {
    missionId: uuid("mission_id")
      .notNull()
      .references(() => missions.id),
    name: text("name").notNull(),
    phase: text("phase").notNull(),
    priority: text("priority").notNull(),
    status: text("status").notNull(),
    attempt: integer("attempt").notNull(),
    position: integer("position").notNull(),
    error: jsonb("error").$type<AgentError>(),
  },
  (t) => [primaryKey({ columns: [t.missionId, t.name] })],
);
export type AgentRow = typeof agents.$inferSelect;

/** Gates and their decision records (who, what, when, note, how long the gate was open). */
export const gates = pgTable(
  "gates",
  {
    id: uuid("id").notNull(),
    missionId: uuid("mission_id")
      .notNull()
      .references(() => missions.id),
    kind: text("kind").notNull().default("agent"),
    agent: text("agent").notNull(),
    phase: text("phase").notNull(),
    step: integer("step"),
    diagnosis: jsonb("diagnosis").$type<DiagnosisSummary>(),
    recoveryPlan: jsonb("recovery_plan").$type<RecoveryPlan>(),
    recoveryNote: text("recovery_note"),
    status: text("status").notNull(),
    options: jsonb("options").$type<GateOption[]>().notNull(),
    error: jsonb("error").$type<UserFacingError>().notNull(),
    openedAt: timestamp("opened_at", { withTimezone: true, mode: "string" }).notNull(),
    openedSeq: integer("opened_seq").notNull(),
    decision: text("decision"),
    decidedBy: text("decided_by").references(() => actors.id),
    note: text("note"),
    decidedAt: timestamp("decided_at", { withTimezone: true, mode: "string" }),
    openMs: bigint("open_ms", { mode: "number" }),
    /** The gate policy in force when it opened (issue 6), its timeout's deadline, and the approvals so far. */
    policy: jsonb("policy").$type<GatePolicySnapshot>(),
    deadlineAt: timestamp("deadline_at", { withTimezone: true, mode: "string" }),
    approvals: jsonb("approvals").$type<GateApproval[]>().notNull().default(sql`'[]'::jsonb`),
  },
  (t) => [
    primaryKey({ name: "gates_pkey", columns: [t.missionId, t.id] }), index("gates_id").on(t.id),
    index("gates_open").on(t.status, t.openedAt),
    index("gates_mission").on(t.missionId),
    index("gates_deadline").on(t.deadlineAt).where(sql`${t.status} = 'open' AND ${t.deadlineAt} IS NOT NULL`),
  ],
);
export type GateRow = typeof gates.$inferSelect;

/** PostgreSQL full-text vector (read only through SQL). */
const tsvector = customType<{ data: string }>({ dataType: () => "tsvector" });

/**
 * FAILURE_MODEL FailureAuditEntry: every failure, written in the same transaction as its event. Range-partitioned
 * by month on `timestamp` (migration 0028), hence the key (mission_id, id, timestamp).
 */
export const failureAudit = pgTable(
  "failure_audit",
  {
    id: uuid("id").notNull().defaultRandom(),
    missionId: uuid("mission_id")
      .notNull()
      .references(() => missions.id),
    seq: integer("seq").notNull(),
    timestamp: timestamp("timestamp", { withTimezone: true, mode: "string" }).notNull(),
    level: text("level").notNull(),
    severity: text("severity").notNull(),
    what: text("what").notNull(),
    why: text("why"),
    context: jsonb("context").$type<Record<string, unknown>>().notNull(),
    agent: text("agent"),
    gateId: uuid("gate_id"),
    resolution: jsonb("resolution").$type<{ action: string; resolvedBy: string | null; resolvedAt: string }>(),
    resolvedAt: timestamp("resolved_at", { withTimezone: true, mode: "string" }),
    // Attribution (migration 0011, written by the projection): who, when, why, how resolved.
    /** The mission's name (its definition). */
    definition: text("definition"),
    phase: text("phase"),
    step: integer("step"),
    attempt: integer("attempt"),
    /** The tool's error code in lower case (rate_limited, timeout, exit_nonzero…) or the level's kind (phase_timeout, interrupted…). */
    errorType: text("error_type").notNull().default("unknown"),
    /** Who recorded the failure (worker, CLI, web). */
    actorId: text("actor_id"),
    /** Who created the mission. */
    startedBy: text("started_by"),
    /** The diagnosis's root cause, when one was recorded. */
    rootCause: text("root_cause"),
    /** The matched library entry: the confirmed one, else the top-ranked hypothesis. */
    failureMode: text("failure_mode"),
    failureModeConfirmed: boolean("failure_mode_confirmed").notNull().default(false),
    decidedBy: text("decided_by"),
    resolutionAction: text("resolution_action"),
    /** Gate opened → resolved when a gate decided it, else failure → resolved. */
    resolutionMs: bigint("resolution_ms", { mode: "number" }),
    /** Full text over what / why / root cause (generated by PostgreSQL). */
    search: tsvector("search").generatedAlwaysAs(sql`to_tsvector('english', coalesce("what", '') || ' ' || coalesce("why", '') || ' ' || coalesce("root_cause", ''))`),
  },
  (t) => [
    primaryKey({ name: "failure_audit_pkey", columns: [t.missionId, t.id, t.timestamp] }), index("failure_audit_id").on(t.id),
    index("failure_audit_mission").on(t.missionId, t.seq),
    index("failure_audit_open").on(t.resolvedAt),
    index("failure_audit_time").on(t.timestamp, t.id),
    index("failure_audit_open_time").on(t.timestamp, t.id).where(sql`${t.resolvedAt} IS NULL`),
    index("failure_audit_mission_time").on(t.missionId, t.timestamp, t.id),
    index("failure_audit_definition_time").on(t.definition, t.level, t.timestamp, t.id),
    index("failure_audit_error_type_time").on(t.errorType, t.timestamp, t.id),
    index("failure_audit_failure_mode_time").on(t.failureMode, t.timestamp, t.id),
    index("failure_audit_decided_by_time").on(t.decidedBy, t.timestamp, t.id),
    index("failure_audit_actor_time").on(t.actorId, t.timestamp, t.id),
    index("failure_audit_started_by_time").on(t.startedBy, t.timestamp, t.id),
    // Severity within a time span (migration 0030): counted from the index alone.
    index("failure_audit_severity_time").on(t.severity, t.timestamp, t.id),
    index("failure_audit_search").using("gin", t.search),
  ],
);
export type FailureAuditRow = typeof failureAudit.$inferSelect;

export const workers = pgTable("workers", {
  id: text("id").primaryKey(),
  startedAt: timestamp("started_at", { withTimezone: true, mode: "string" }).notNull().defaultNow(),
  heartbeatAt: timestamp("heartbeat_at", { withTimezone: true, mode: "string" }).notNull().defaultNow(),
  stoppedAt: timestamp("stopped_at", { withTimezone: true, mode: "string" }),
  active: boolean("active").notNull().default(true),
});

/**
 * Operator presence across web processes (issue 19): each web process keeps, per user, how many of their
 * sockets it holds, and refreshes `seen_at` while it runs. A user is connected when any live web process
 * (seen within the staleness window) holds a socket of theirs.
 */
export const operatorPresence = pgTable(
  "operator_presence",
  {
    webId: text("web_id").notNull(),
    userId: text("user_id").notNull(),
    sockets: integer("sockets").notNull(),
    seenAt: timestamp("seen_at", { withTimezone: true, mode: "string" }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.webId, t.userId] }), index("operator_presence_user").on(t.userId)],
);

/**
 * ADR-0003 learned patterns: "when <trigger> → then <strategy>", with the outcomes of every recovery
 * that applied the strategy to the trigger (failed ones too). Written in the transaction of the
 * `recovery.finished` event; an admin may disable (no fast path) or delete a pattern.
 */
export const learnedPatterns = pgTable(
  "learned_patterns",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    when: text("when").notNull(),
    then: text("then").notNull(),
    errorType: text("error_type").notNull(),
    tools: text("tools").array().notNull().default(sql`'{}'::text[]`),
    successes: integer("successes").notNull().default(0),
    failures: integer("failures").notNull().default(0),
    confidence: real("confidence").notNull(),
    /** The fast path applies the pattern only at or above this confidence. */
    threshold: real("threshold").notNull().default(0.8),
    enabled: boolean("enabled").notNull().default(true),
    lastOutcome: text("last_outcome"),
    lastMissionId: uuid("last_mission_id"),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "string" }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true, mode: "string" }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("learned_patterns_when_then").on(t.when, t.then)],
);
export type LearnedPatternRow = typeof learnedPatterns.$inferSelect;

/** ADR-0003 session memory (.session_memory.jsonl): one record per diagnosed failure of a mission, with its recovery attempts. */
export const sessionMemory = pgTable(
  "session_memory",
  {
    id: text("id").notNull(),
    missionId: uuid("mission_id")
      .notNull()
      .references(() => missions.id),
    agent: text("agent").notNull(),
    step: integer("step").notNull(),
    attempt: integer("attempt").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "string" }).notNull(),
    failureDiagnosis: jsonb("failure_diagnosis").$type<SessionFailureDiagnosis>().notNull(),
    learnedPattern: jsonb("learned_pattern").$type<{ when: string; then: string; confidence: number }>(),
    /** The whole diagnosis and its ContextLog record (AUTONOMOUS_STORE_FULL_DIAGNOSTICS). */
    fullDiagnostic: jsonb("full_diagnostic"),
  },
  (t) => [primaryKey({ name: "session_memory_pkey", columns: [t.missionId, t.id] }), index("session_memory_id").on(t.id), index("session_memory_mission").on(t.missionId, t.createdAt), index("session_memory_time").on(t.createdAt)],
);
export interface SessionFailureDiagnosis {
  immediate_cause: string;
  root_cause: string;
  why_chain: string[];
  recovery_attempted: Array<{ strategy: string; outcome: "success" | "failure" | "abandoned"; iterations_to_success: number | null }>;
}

/** ADR-0003 episodic memory (.episodic_memory.jsonl): one record per successful recovery, reusable across missions. */
export const episodicMemory = pgTable(
  "episodic_memory",
  {
    id: bigserial("id", { mode: "number" }),
    missionId: uuid("mission_id")
      .notNull()
      .references(() => missions.id),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "string" }).notNull(),
    errorEncountered: jsonb("error_encountered").$type<{ type: string; tool: string; diagnosis: string; root_cause: string }>().notNull(),
    successfulRecovery: jsonb("successful_recovery").$type<{ strategy: string; tools: string[]; iterations_to_success: number; confidence: number }>().notNull(),
    reusablePattern: jsonb("reusable_pattern").$type<{ trigger: string; action: string; success_rate: number }>().notNull(),
  },
  (t) => [primaryKey({ name: "episodic_memory_pkey", columns: [t.missionId, t.id] }), index("episodic_memory_id").on(t.id), index("episodic_memory_time").on(t.createdAt)],
);

/**
 * The Failure Mode Reference Library (000): the current revision of every entry. Entries are never
 * deleted, only deprecated; every change is a new row in `library_entry_versions` and belongs to a
 * numbered `library_versions` release. `search` (weighted tsvector) is kept by a trigger (migration 0006).
 */
export const libraryEntries = pgTable(
  "library_entries",
  {
    failureId: text("failure_id").primaryKey(),
    /** Revision of this entry (1, 2, …). */
    revision: integer("revision").notNull(),
    /** The library version that published this revision. */
    libraryVersion: integer("library_version").notNull(),
    title: text("title").notNull(),
    category: text("category").notNull(),
    surfaceSymptom: text("surface_symptom").notNull(),
    hiddenReality: text("hidden_reality").notNull(),
    diagnosticProbe: text("diagnostic_probe").notNull(),
    resolutionPath: text("resolution_path").notNull(),
    riskLevel: text("risk_level").notNull(),
    riskNotes: text("risk_notes"),
    contextTags: text("context_tags").array().notNull().default(sql`'{}'::text[]`),
    references: text("references").array().notNull().default(sql`'{}'::text[]`),
    source: text("source").notNull(),
    probeAction: jsonb("probe_action"),
    resolutionAction: jsonb("resolution_action"),
    deprecated: boolean("deprecated").notNull().default(false),
    updatedAt: timestamp("updated_at", { withTimezone: true, mode: "string" }).notNull().defaultNow(),
  },
  (t) => [index("library_entries_category").on(t.category), index("library_entries_risk").on(t.riskLevel)],
);
export type LibraryEntryRow = typeof libraryEntries.$inferSelect;

/** Every revision of every entry, append-only: who wrote it, who reviewed it, when, and the diff to the previous one. */
export const libraryEntryVersions = pgTable(
  "library_entry_versions",
  {
    failureId: text("failure_id").notNull(),
    revision: integer("revision").notNull(),
    libraryVersion: integer("library_version").notNull(),
    change: text("change", { enum: ["added", "edited", "deprecated", "restored"] }).notNull(),
    data: jsonb("data").notNull(),
    diff: jsonb("diff").$type<Array<{ field: string; before: unknown; after: unknown }>>().notNull(),
    authorId: text("author_id").notNull(),
    reviewerId: text("reviewer_id"),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "string" }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.failureId, t.revision] }), index("library_entry_versions_version").on(t.libraryVersion)],
);

/** Numbered releases of the library as a whole, with their changelog. A rollback is itself a new version. */
export const libraryVersions = pgTable("library_versions", {
  version: integer("version").primaryKey(),
  summary: text("summary").notNull(),
  changelog: jsonb("changelog").$type<Array<{ failureId: string; change: string; revision: number }>>().notNull(),
  authorId: text("author_id").notNull(),
  createdAt: timestamp("created_at", { withTimezone: true, mode: "string" }).notNull().defaultNow(),
});

/**
 * Library curation (issue 5): a proposed new entry or an edit to an existing one. `entry` is the full
 * proposed entry in the document's schema (for a new entry, `failure_id` is assigned when it is
 * approved). Drafts come from the orchestrator (a novel failure) or from a proven learned pattern.
 */
export const libraryContributions = pgTable(
  "library_contributions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    kind: text("kind", { enum: ["new", "edit"] }).notNull(),
    /** The entry an edit changes (kind = edit). */
    targetFailureId: text("target_failure_id"),
    /** The existing entry a new one is a variant of (the contributor's choice after seeing similar entries). */
    variantOf: text("variant_of"),
    entry: jsonb("entry").notNull(),
    /** For an edit: the target's revision the contributor started from (to show a stale edit). */
    baseRevision: integer("base_revision"),
    status: text("status", { enum: ["draft", "pending", "in_review", "changes_requested", "approved", "rejected"] }).notNull(),
    origin: text("origin", { enum: ["contributor", "novel_failure", "learned_pattern", "simulation"] }).notNull().default("contributor"),
    /** Evidence a draft was made from (a mission's failure event, or a learned pattern). */
    missionId: uuid("mission_id").references(() => missions.id),
    seq: bigint("seq", { mode: "number" }),
    patternId: text("pattern_id"),
    /** Actor id of the author (`user:<id>` for people, the worker for drafts). */
    authorId: text("author_id").notNull(),
    summary: text("summary").notNull().default(""),
    publishedVersion: integer("published_version"),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "string" }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true, mode: "string" }).notNull().defaultNow(),
  },
  (t) => [index("library_contributions_status").on(t.status, t.updatedAt), index("library_contributions_author").on(t.authorId), index("library_contributions_target").on(t.targetFailureId)],
);
export type LibraryContributionRow = typeof libraryContributions.$inferSelect;

/** Reviewers' verdicts (append-only): approve, request changes or reject, each with a reason. */
export const libraryContributionReviews = pgTable(
  "library_contribution_reviews",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    contributionId: uuid("contribution_id")
      .notNull()
      .references(() => libraryContributions.id),
    reviewerId: text("reviewer_id").notNull(),
    verdict: text("verdict", { enum: ["approve", "request_changes", "reject"] }).notNull(),
    reason: text("reason").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "string" }).notNull().defaultNow(),
  },
  (t) => [index("library_contribution_reviews_contribution").on(t.contributionId, t.id)],
);

/** Threaded discussion on a contribution (append-only; `parentId` makes the thread). */
export const libraryContributionComments = pgTable(
  "library_contribution_comments",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    contributionId: uuid("contribution_id")
      .notNull()
      .references(() => libraryContributions.id),
    parentId: bigint("parent_id", { mode: "number" }),
    authorId: text("author_id").notNull(),
    body: text("body").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "string" }).notNull().defaultNow(),
  },
  (t) => [index("library_contribution_comments_contribution").on(t.contributionId, t.id)],
);

/**
 * Which library entries a mission's failures matched (projection of the orchestrator's
 * `library.hypotheses` events, written in the same transaction): one row per ranked hypothesis.
 * `outcome` follows the probe: confirmed, rejected, resolved, unresolved, skipped.
 */
export const libraryMatches = pgTable(
  "library_matches",
  {
    missionId: uuid("mission_id")
      .notNull()
      .references(() => missions.id),
    /** seq of the `library.hypotheses` event. */
    seq: bigint("seq", { mode: "number" }).notNull(),
    failureId: text("failure_id").notNull(),
    rank: integer("rank").notNull(),
    matchScore: real("match_score").notNull(),
    outcome: text("outcome"),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "string" }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.missionId, t.seq, t.failureId] }), index("library_matches_entry").on(t.failureId, t.createdAt)],
);

/** Proposals (seed 002): the read model of `proposal.*` events, written in the same transaction. */
export const proposals = pgTable(
  "proposals",
  {
    id: uuid("id").notNull(),
    missionId: uuid("mission_id")
      .notNull()
      .references(() => missions.id),
    agent: text("agent").notNull(),
    attempt: integer("attempt").notNull(),
    actorId: text("actor_id")
      .notNull()
      .references(() => actors.id),
    tool: text("tool").notNull(),
    action: jsonb("action").$type<ProposedAction>().notNull(),
    argsDigest: text("args_digest").notNull(),
    level: integer("level").notNull(),
    callId: text("call_id"),
    status: text("status", { enum: ["pending", "approved", "rejected", "expired"] }).notNull(),
    decision: jsonb("decision").$type<DecisionRecord>(),
    decidedBy: text("decided_by"),
    failureReason: text("failure_reason"),
    pendingReason: text("pending_reason"),
    gateId: uuid("gate_id"),
    step: integer("step"),
    submittedSeq: integer("submitted_seq").notNull(),
    submittedAt: timestamp("submitted_at", { withTimezone: true, mode: "string" }).notNull(),
    decidedAt: timestamp("decided_at", { withTimezone: true, mode: "string" }),
  },
  (t) => [
    primaryKey({ name: "proposals_pkey", columns: [t.missionId, t.id] }), index("proposals_id").on(t.id),
    index("proposals_mission").on(t.missionId, t.submittedSeq),
    index("proposals_actor").on(t.actorId, t.submittedAt),
    index("proposals_decider").on(t.decidedBy, t.decidedAt),
    index("proposals_pending").on(t.submittedAt).where(sql`${t.status} = 'pending'`),
  ],
);
export type ProposalRow = typeof proposals.$inferSelect;

/** The admin's default authority policy, one row a version; the newest is in force (append-only). */
export const authorityPolicies = pgTable("authority_policies", {
  version: integer("version").primaryKey(),
  rules: jsonb("rules").$type<Rule[]>().notNull(),
  note: text("note"),
  createdBy: text("created_by")
    .notNull()
    .references(() => actors.id),
  createdAt: timestamp("created_at", { withTimezone: true, mode: "string" }).notNull().defaultNow(),
});
export type AuthorityPolicyRow = typeof authorityPolicies.$inferSelect;

/** Webhook subscriptions (issue 15): which events go to which URL, signed with the subscription's secret. */
export const webhookSubscriptions = pgTable("webhook_subscriptions", {
  id: uuid("id").primaryKey().defaultRandom(),
  url: text("url").notNull(),
  events: text("events").array().notNull(),
  /** HMAC-SHA256 key of the signature header; shown to the admin once, at creation. */
  secret: text("secret").notNull(),
  description: text("description"),
  active: boolean("active").notNull().default(true),
  createdBy: text("created_by")
    .notNull()
    .references(() => actors.id),
  createdAt: timestamp("created_at", { withTimezone: true, mode: "string" }).notNull().defaultNow(),
});
export type WebhookSubscriptionRow = typeof webhookSubscriptions.$inferSelect;

export interface WebhookAttempt {
  at: string;
  /** HTTP status, or null when no answer came (refused, timed out). */
  status: number | null;
  error: string | null;
  ms: number;
}

/** One event for one subscription, with every attempt to deliver it. */
export const webhookDeliveries = pgTable(
  "webhook_deliveries",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    subscriptionId: uuid("subscription_id")
      .notNull()
      .references(() => webhookSubscriptions.id, { onDelete: "cascade" }),
    /** The event log position it came from (`events.position`); unique per subscription: never queued twice. */
    eventPosition: bigint("event_position", { mode: "number" }).notNull(),
    eventType: text("event_type").notNull(),
    missionId: uuid("mission_id"),
    payload: jsonb("payload").$type<Record<string, unknown>>().notNull(),
    status: text("status", { enum: ["pending", "delivered", "gave_up"] }).notNull().default("pending"),
    attempts: jsonb("attempts").$type<WebhookAttempt[]>().notNull().default(sql`'[]'::jsonb`),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true, mode: "string" }).notNull().defaultNow(),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "string" }).notNull().defaultNow(),
    deliveredAt: timestamp("delivered_at", { withTimezone: true, mode: "string" }),
  },
  (t) => [uniqueIndex("webhook_deliveries_once").on(t.subscriptionId, t.eventPosition, t.eventType), index("webhook_deliveries_due").on(t.nextAttemptAt).where(sql`${t.status} = 'pending'`), index("webhook_deliveries_subscription").on(t.subscriptionId, t.createdAt)],
);
export type WebhookDeliveryRow = typeof webhookDeliveries.$inferSelect;

/** How far the dispatcher has read the event log (one row). */
export const webhookCursor = pgTable("webhook_cursor", {
  id: integer("id").primaryKey(),
  position: bigint("position", { mode: "number" }).notNull(),
});

/** An operator's verdict on a diagnosis' error type (issue 18), append-only; the latest per diagnosis counts. */
export const diagnosisFeedback = pgTable(
  "diagnosis_feedback",
  {
    id: uuid("id").notNull().defaultRandom(),
    diagnosisId: text("diagnosis_id").notNull(),
    missionId: uuid("mission_id")
      .notNull()
      .references(() => missions.id),
    /** The seq of the diagnostic_reflection event that stated the diagnosis. */
    seq: integer("seq").notNull(),
    statedType: text("stated_type").notNull(),
    statedConfidence: real("stated_confidence").notNull(),
    verdict: text("verdict", { enum: ["confirmed", "corrected"] }).notNull(),
    /** The type the operator says is right (the stated one when confirmed). */
    correctType: text("correct_type").notNull(),
    note: text("note"),
    actorId: text("actor_id")
      .notNull()
      .references(() => actors.id),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "string" }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ name: "diagnosis_feedback_pkey", columns: [t.missionId, t.id] }), index("diagnosis_feedback_id").on(t.id), index("diagnosis_feedback_diagnosis").on(t.diagnosisId, t.createdAt), index("diagnosis_feedback_created").on(t.createdAt)],
);
export type DiagnosisFeedbackRow = typeof diagnosisFeedback.$inferSelect;

/** A report a library walk confirmed as an entry (issue 18): later similar reports rank that entry higher. Written by db/queries/library-protocol.ts. */
export const libraryConfirmedReports = pgTable(
  "library_confirmed_reports",
  {
    missionId: uuid("mission_id")
      .notNull()
      .references(() => missions.id),
    seq: bigint("seq", { mode: "number" }).notNull(),
    failureId: text("failure_id").notNull(),
    symptom: text("symptom").notNull(),
    lexemes: text("lexemes").array().notNull(),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "string" }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ name: "library_confirmed_reports_pk", columns: [t.missionId, t.seq, t.failureId] }), index("library_confirmed_reports_lexemes").using("gin", t.lexemes)],
);

/**
 * The lab's suite runs (issue 17, docs/lab.md): one row per `faultline lab run` that was recorded, with
 * its progress while it runs and its report (lib/lab/report.ts, the `-o` JSON) once it finished.
 */
export const labSuiteRuns = pgTable(
  "lab_suite_runs",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    suiteName: text("suite_name").notNull(),
    suiteFile: text("suite_file"),
    suiteDigest: text("suite_digest").notNull(),
    seed: integer("seed").notNull(),
    repeat: integer("repeat").notNull(),
    status: text("status", { enum: ["running", "finished", "failed"] }).notNull().default("running"),
    /** Runs planned (scenarios × repeat) and done so far: the Lab page's progress. */
    total: integer("total").notNull(),
    done: integer("done").notNull().default(0),
    passed: integer("passed").notNull().default(0),
    /** The actor that ran it (`cli:<os user>`). */
    startedBy: text("started_by").notNull(),
    startedAt: timestamp("started_at", { withTimezone: true, mode: "string" }).notNull().defaultNow(),
    finishedAt: timestamp("finished_at", { withTimezone: true, mode: "string" }),
    /** The report (format faultline-lab-report), once finished. */
    report: jsonb("report"),
    /** Why the suite run stopped before its report (a failed run has no report). */
    error: text("error"),
  },
  (t) => [index("lab_suite_runs_started").on(t.startedAt)],
);
export type LabSuiteRunRow = typeof labSuiteRuns.$inferSelect;

/** Each run of a suite run (scenario × repeat) with its trace (JSON Lines, as `lab run` writes it), served by the Lab page. */
export const labRunTraces = pgTable(
  "lab_run_traces",
  {
    suiteRunId: uuid("suite_run_id")
      .notNull()
      .references(() => labSuiteRuns.id),
    scenario: text("scenario").notNull(),
    repeat: integer("repeat").notNull(),
    runId: text("run_id").notNull(),
    /** The world's mission id (a lab mission is never in `missions`). */
    missionId: text("mission_id").notNull(),
    finalStatus: text("final_status"),
    passed: boolean("passed").notNull(),
    /** The trace file's content, and its sha-256 (hex) and size, so a download can be checked. */
    trace: text("trace").notNull(),
    sha256: text("sha256").notNull(),
    bytes: integer("bytes").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "string" }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ name: "lab_run_traces_pk", columns: [t.suiteRunId, t.scenario, t.repeat] })],
);

/** Every diagnosed failure seen in a recorded lab run, with its signature (lib/lab/extract.ts): what simulation extraction counts. */
export const labFailures = pgTable(
  "lab_failures",
  {
    suiteRunId: uuid("suite_run_id")
      .notNull()
      .references(() => labSuiteRuns.id),
    scenario: text("scenario").notNull(),
    repeat: integer("repeat").notNull(),
    seq: integer("seq").notNull(),
    agent: text("agent").notNull(),
    step: integer("step").notNull(),
    signature: text("signature").notNull(),
    errorType: text("error_type").notNull(),
    injected: text("injected"),
    query: jsonb("query").notNull(),
    draft: jsonb("draft").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "string" }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ name: "lab_failures_pk", columns: [t.suiteRunId, t.scenario, t.repeat, t.seq] }), index("lab_failures_signature").on(t.signature)],
);

/**
 * Simulation extraction's record: one row per failure signature turned into a draft contribution, so a
 * signature is proposed once (whatever reviewers later do with the draft), however many runs see it.
 */
export const labExtractions = pgTable("lab_extractions", {
  signature: text("signature").primaryKey(),
  contributionId: uuid("contribution_id")
    .notNull()
    .references(() => libraryContributions.id),
  /** Runs that had seen it when the draft was made. */
  sightings: integer("sightings").notNull(),
  createdAt: timestamp("created_at", { withTimezone: true, mode: "string" }).notNull().defaultNow(),
});

/**
 * `faultline mission explain ID --verify` (seed 002 FDR-N015): each counterfactual of a mission's record
 * replayed from its trace and judged — held, did_not_hold or undetermined — with its evidence. Append-only
 * in use: the mission page shows the newest verdict per subject.
 */
export const counterfactualChecks = pgTable(
  "counterfactual_checks",
  {
    id: uuid("id").notNull().defaultRandom(),
    missionId: uuid("mission_id")
      .notNull()
      .references(() => missions.id, { onDelete: "cascade" }),
    /** `mission` (the explanation's counterfactual) or `proposal:<id>` (a rejected proposal's decision). */
    subject: text("subject").notNull(),
    counterfactual: jsonb("counterfactual").notNull(),
    verdict: text("verdict", { enum: ["held", "did_not_hold", "undetermined"] }).notNull(),
    summary: text("summary").notNull(),
    /** The change replayed (null: none a replay can make). */
    change: jsonb("change"),
    evidence: jsonb("evidence").notNull(),
    /** The mission's seq when it was verified. */
    missionSeq: integer("mission_seq").notNull(),
    verifiedBy: text("verified_by").notNull(),
    verifiedAt: timestamp("verified_at", { withTimezone: true, mode: "string" }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ name: "counterfactual_checks_pkey", columns: [t.missionId, t.id] }), index("counterfactual_checks_id").on(t.id), index("counterfactual_checks_mission").on(t.missionId, t.verifiedAt)],
);
export type CounterfactualCheckRow = typeof counterfactualChecks.$inferSelect;
