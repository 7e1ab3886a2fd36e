import { sql } from "drizzle-orm";
import { CATEGORIES, RISK_LEVELS } from "../../lib/library/entry";
import { agentsInOrder, definitionVocabulary, type MissionDefinition } from "../../lib/mission/definition";
import { DECIDING_ROLES } from "../../lib/mission/gate-policy";
import type { Executor } from "../client";

/**
 * The governance page (RFC 001 §3.7, NIST AI RMF): what the system knows of its risks (Map), how it
 * performs (Measure), and what needs a decision now (Manage). Read-only aggregates over the library,
 * the missions, the failure history, the gates, the gate policies and the users.
 */

const rows = async <T>(db: Executor, q: ReturnType<typeof sql>): Promise<T[]> => (await db.execute(q)) as T[];

// ---------------------------------------------------------------- Map

export interface DefinitionRisk {
  definition: string;
  missions: number;
  lastRunAt: string | null;
  /** "agent / step n (tool)" of every high-risk step (an approval gate before it runs). */
  highRiskSteps: string[];
  /** Requires-Oversight entries that failures of this definition matched (observed). */
  oversightMatched: string[];
  /** Requires-Oversight entries whose context tags name a tool or binary this definition uses (could match). */
  oversightPossible: string[];
  libraryConsulted: boolean;
  /** Gate policies that apply (its own or '*'), as "definition / kind". */
  policies: string[];
}

export interface RiskMap {
  /** Published, non-deprecated library entries per category and risk level. */
  library: Array<{ category: string; risk: string; entries: number }>;
  categories: readonly string[];
  risks: readonly string[];
  definitions: DefinitionRisk[];
}

export async function riskMap(db: Executor): Promise<RiskMap> {
  const library = await rows<{ category: string; risk: string; entries: number }>(
    db,
    sql`SELECT category, risk_level AS risk, count(*)::int AS entries FROM library_entries WHERE NOT deprecated GROUP BY 1, 2`,
  );
  const oversight = await rows<{ failure_id: string; tags: string[] }>(db, sql`SELECT failure_id, context_tags AS tags FROM library_entries WHERE NOT deprecated AND risk_level = 'Requires-Oversight'`);
  const defs = await rows<{ name: string; definition: MissionDefinition; missions: number; last_run_at: string | null }>(
    db,
    sql`SELECT DISTINCT ON (name) name, definition, count(*) OVER (PARTITION BY name)::int AS missions, max(created_at) OVER (PARTITION BY name) AS last_run_at
        FROM missions ORDER BY name, created_at DESC`,
  );
  const matched = await rows<{ name: string; ids: string[] }>(
    db,
    sql`SELECT m.name, array_agg(DISTINCT lm.failure_id ORDER BY lm.failure_id) AS ids
        FROM library_matches lm JOIN missions m ON m.id = lm.mission_id JOIN library_entries e ON e.failure_id = lm.failure_id
        WHERE e.risk_level = 'Requires-Oversight' GROUP BY m.name`,
  );
  const policies = await rows<{ definition: string; gate_kind: string }>(db, sql`SELECT definition, gate_kind FROM gate_policies ORDER BY definition, gate_kind`);
  const matchedBy = new Map(matched.map((m) => [m.name, m.ids]));
  const definitions = defs.map((d): DefinitionRisk => {
    const vocabulary = definitionVocabulary(d.definition);
    return {
      definition: d.name,
      missions: d.missions,
      lastRunAt: d.last_run_at ? new Date(d.last_run_at).toISOString() : null,
      highRiskSteps: agentsInOrder(d.definition).flatMap((a) => a.steps.flatMap((st, i) => (st.highRisk ? [`${a.name} / step ${i + 1} (${st.tool})`] : []))),
      oversightMatched: matchedBy.get(d.name) ?? [],
      oversightPossible: oversight.filter((e) => e.tags.some((t) => vocabulary.has(t.toLowerCase()))).map((e) => e.failure_id),
      libraryConsulted: d.definition.library !== false,
      policies: policies.filter((p) => p.definition === d.name || p.definition === "*").map((p) => `${p.definition === "*" ? "every definition" : p.definition} / ${p.gate_kind === "*" ? "every gate" : `${p.gate_kind} gates`}`),
    };
  });
  // Riskiest first: observed oversight matches, then high-risk steps, then possible matches.
  definitions.sort((a, b) => b.oversightMatched.length - a.oversightMatched.length || b.highRiskSteps.length - a.highRiskSteps.length || b.oversightPossible.length - a.oversightPossible.length || a.definition.localeCompare(b.definition));
  return { library, categories: CATEGORIES, risks: RISK_LEVELS, definitions };
}

// ---------------------------------------------------------------- Measure

export interface Metric {
  key: string;
  label: string;
  /** This period's value (null when there is nothing to measure). */
  value: number | null;
  /** The previous period's value, for the trend. */
  previous: number | null;
  unit: "count" | "percent" | "ms";
  /** Whether a higher value is better (for the trend's colour). */
  higherIsBetter: boolean;
}

export interface Measures {
  periodDays: number;
  metrics: Metric[];
  /** Per day over the last 4 periods: missions started, failures recorded, missions ended FAILED, median gate decision time (ms; null: no gate decided by a person). */
  daily: Array<{ day: string; missions: number; failures: number; failed: number; decisionP50Ms: number | null }>;
}

/** Failure and recovery metrics of the last `periodDays` against the period before. */
export async function measures(db: Executor, periodDays = 7, now = new Date()): Promise<Measures> {
  const end = now.toISOString();
  const p = `${periodDays} days`;
  const [m] = await rows<Record<string, number | null>>(
    db,
    sql`WITH bounds AS (SELECT ${end}::timestamptz AS t1, ${end}::timestamptz - ${p}::interval AS t0, ${end}::timestamptz - 2 * ${p}::interval AS tp),
      f AS (SELECT f.*, (f.timestamp >= b.t0) AS cur FROM failure_audit f, bounds b WHERE f.timestamp >= b.tp AND f.timestamp < b.t1),
      ms AS (SELECT m.*, (m.created_at >= b.t0) AS cur FROM missions m, bounds b WHERE m.created_at >= b.tp AND m.created_at < b.t1),
      g AS (SELECT g.*, (g.decided_at >= b.t0) AS cur FROM gates g, bounds b WHERE g.decided_at >= b.tp AND g.decided_at < b.t1 AND g.open_ms IS NOT NULL)
    SELECT
      (SELECT count(*) FROM f WHERE cur)::int AS failures, (SELECT count(*) FROM f WHERE NOT cur)::int AS failures_prev,
      (SELECT count(*) FROM ms WHERE cur)::int AS missions, (SELECT count(*) FROM ms WHERE NOT cur)::int AS missions_prev,
      (SELECT 100.0 * count(*) FILTER (WHERE final_status = 'SUCCESS') / nullif(count(*) FILTER (WHERE final_status IS NOT NULL), 0) FROM ms WHERE cur)::float AS success_rate,
      (SELECT 100.0 * count(*) FILTER (WHERE final_status = 'SUCCESS') / nullif(count(*) FILTER (WHERE final_status IS NOT NULL), 0) FROM ms WHERE NOT cur)::float AS success_rate_prev,
      (SELECT 100.0 * count(*) FILTER (WHERE resolved_at IS NOT NULL AND decided_by IS NULL) / nullif(count(*), 0) FROM f WHERE cur)::float AS auto_rate,
      (SELECT 100.0 * count(*) FILTER (WHERE resolved_at IS NOT NULL AND decided_by IS NULL) / nullif(count(*), 0) FROM f WHERE NOT cur)::float AS auto_rate_prev,
      (SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY resolution_ms) FROM f WHERE cur AND resolution_ms IS NOT NULL)::float AS ttr_p50,
      (SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY resolution_ms) FROM f WHERE NOT cur AND resolution_ms IS NOT NULL)::float AS ttr_p50_prev,
      (SELECT percentile_cont(0.9) WITHIN GROUP (ORDER BY resolution_ms) FROM f WHERE cur AND resolution_ms IS NOT NULL)::float AS ttr_p90,
      (SELECT percentile_cont(0.9) WITHIN GROUP (ORDER BY resolution_ms) FROM f WHERE NOT cur AND resolution_ms IS NOT NULL)::float AS ttr_p90_prev,
      (SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY open_ms) FROM g WHERE cur)::float AS decision_p50,
      (SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY open_ms) FROM g WHERE NOT cur)::float AS decision_p50_prev,
      (SELECT count(*) FROM f WHERE cur AND resolved_at IS NULL)::int AS unresolved, (SELECT count(*) FROM f WHERE NOT cur AND resolved_at IS NULL)::int AS unresolved_prev`,
  );
  const metric = (key: string, label: string, unit: Metric["unit"], higherIsBetter: boolean): Metric => ({ key, label, unit, higherIsBetter, value: round(m[key]), previous: round(m[`${key}_prev`]) });
  const daily = await rows<{ day: string; missions: number; failures: number; failed: number; decisionP50Ms: number | null }>(
    db,
    sql`WITH days AS (SELECT generate_series(date_trunc('day', ${end}::timestamptz) - (4 * ${periodDays} - 1) * interval '1 day', date_trunc('day', ${end}::timestamptz), interval '1 day') AS day)
    SELECT to_char(d.day, 'YYYY-MM-DD') AS day,
      (SELECT count(*) FROM missions m WHERE m.created_at >= d.day AND m.created_at < d.day + interval '1 day')::int AS missions,
      (SELECT count(*) FROM failure_audit f WHERE f.timestamp >= d.day AND f.timestamp < d.day + interval '1 day')::int AS failures,
      (SELECT count(*) FROM missions m WHERE m.ended_at >= d.day AND m.ended_at < d.day + interval '1 day' AND m.final_status = 'FAILED')::int AS failed,
      (SELECT round(percentile_cont(0.5) WITHIN GROUP (ORDER BY g.open_ms))::float FROM gates g WHERE g.decided_at >= d.day AND g.decided_at < d.day + interval '1 day' AND g.open_ms IS NOT NULL) AS "decisionP50Ms"
    FROM days d ORDER BY d.day`,
  );
  return {
    periodDays,
    metrics: [
      metric("failures", "Failures recorded", "count", false),
      metric("missions", "Missions started", "count", true),
      metric("success_rate", "Missions ending SUCCESS", "percent", true),
      metric("auto_rate", "Failures resolved without a person", "percent", true),
      metric("ttr_p50", "Time to resolution (median)", "ms", false),
      metric("ttr_p90", "Time to resolution (p90)", "ms", false),
      metric("decision_p50", "Gate decision time (median)", "ms", false),
      metric("unresolved", "Still unresolved from the period", "count", false),
    ],
    daily,
  };
}

const round = (v: number | null | undefined): number | null => (v === null || v === undefined ? null : Math.round(Number(v) * 10) / 10);

// ---------------------------------------------------------------- Manage

export interface OpenGateItem {
  id: string;
  missionId: string;
  missionName: string;
  kind: string;
  agent: string;
  what: string;
  openedAt: string;
  ageMs: number;
  deadlineAt: string | null;
  overdue: boolean;
}

export interface OnDutyPerson {
  id: string;
  name: string;
  roles: string[];
  groups: string[];
  lastActiveAt: string | null;
  onDuty: boolean;
}

export interface ManageView {
  slaMs: number;
  openGates: OpenGateItem[];
  overdue: number;
  unresolved: { total: number; critical: number; oldestAt: string | null; byLevel: Array<{ level: string; n: number }> };
  /** Everyone who may decide gates, on duty first (active in the last `onDutyMs`). */
  deciders: OnDutyPerson[];
  onDutyMs: number;
}

/**
 * What needs a decision now. A gate is overdue when its policy's deadline has passed (no worker has
 * applied the timeout yet) or, without a deadline, when it has been open longer than `slaMs`.
 */
export async function manageView(db: Executor, opts: { slaMs: number; onDutyMs: number; now?: Date }): Promise<ManageView> {
  const now = opts.now ?? new Date();
  const gates = await rows<{ id: string; mission_id: string; mission_name: string; kind: string; agent: string; what: string; opened_at: string; deadline_at: string | null }>(
    db,
    sql`SELECT g.id, g.mission_id, m.name AS mission_name, g.kind, g.agent, g.error->>'what' AS what, g.opened_at, g.deadline_at
        FROM gates g JOIN missions m ON m.id = g.mission_id WHERE g.status = 'open' ORDER BY g.opened_at`,
  );
  const openGates = gates.map((g): OpenGateItem => {
    const ageMs = Math.max(0, now.getTime() - new Date(g.opened_at).getTime());
    const deadlineAt = g.deadline_at ? new Date(g.deadline_at).toISOString() : null;
    return { id: g.id, missionId: g.mission_id, missionName: g.mission_name, kind: g.kind, agent: g.agent, what: g.what, openedAt: new Date(g.opened_at).toISOString(), ageMs, deadlineAt, overdue: deadlineAt ? Date.parse(deadlineAt) <= now.getTime() : ageMs > opts.slaMs };
  });
  const [u] = await rows<{ total: number; critical: number; oldest_at: string | null }>(db, sql`SELECT count(*)::int AS total, count(*) FILTER (WHERE severity = 'critical')::int AS critical, min(timestamp) AS oldest_at FROM failure_audit WHERE resolved_at IS NULL`);
  const byLevel = await rows<{ level: string; n: number }>(db, sql`SELECT level, count(*)::int AS n FROM failure_audit WHERE resolved_at IS NULL GROUP BY level ORDER BY n DESC`);
  const people = await rows<{ id: string; name: string; roles: string[]; groups: string[]; last_active_at: string | null }>(
    db,
    sql`SELECT id, name, roles, groups, last_active_at FROM users WHERE active AND roles && ARRAY[${sql.join(DECIDING_ROLES.map((r) => sql`${r}`), sql`, `)}]::text[] ORDER BY last_active_at DESC NULLS LAST, name`,
  );
  const deciders = people.map((p): OnDutyPerson => {
    const last = p.last_active_at ? new Date(p.last_active_at).toISOString() : null;
    return { id: p.id, name: p.name, roles: p.roles, groups: p.groups, lastActiveAt: last, onDuty: last !== null && now.getTime() - Date.parse(last) <= opts.onDutyMs };
  });
  return {
    slaMs: opts.slaMs,
    openGates,
    overdue: openGates.filter((g) => g.overdue).length,
    unresolved: { total: u.total, critical: u.critical, oldestAt: u.oldest_at ? new Date(u.oldest_at).toISOString() : null, byLevel },
    deciders,
    onDutyMs: opts.onDutyMs,
  };
}
