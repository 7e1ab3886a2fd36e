import { z } from "zod";
import { PERMISSIONS, ROLES, type Role } from "../auth/roles";
import { groupsSchema } from "../auth/user-admin";

/** Every decision a gate can offer; which ones a gate offers depends on its kind. */
export const GATE_DECISIONS = ["retry", "skip", "abort", "retry_phase", "skip_phase", "resume", "restart_phase", "approve", "recover", "run_probe", "skip_hypothesis", "confirm", "reject", "done", "not_done", "allow_binary"] as const;
export type GateDecision = (typeof GATE_DECISIONS)[number];
/**
 * agent: an agent failed; phase: a phase failed; recovery: a worker died mid-step; approval: a high-risk
 * step waits; library: the failure-mode library's walk needs a person (Layer 4 before a probe, a probe or
 * a resolution to perform); proposal: the authority answered "pending" on an agent's proposal (a HITL
 * prompt waits for a person's decision, which goes through the authority).
 */
export type GateKind = "agent" | "phase" | "recovery" | "approval" | "library" | "proposal";

/**
 * Gate policies (issue 6, governance): per mission definition and gate kind, who may decide (roles,
 * named groups), how many distinct people must choose the same option (N of M), whether the
 * mission's starter may decide, and a timeout with the outcome the system applies. Pure rules; the
 * database layer snapshots the policy in force onto `gate.opened` so a later change never moves the
 * goalposts of an open gate.
 */

export const GATE_KINDS = ["agent", "phase", "recovery", "approval", "library"] as const satisfies readonly GateKind[];
export const POLICY_GATE_KINDS = [...GATE_KINDS, "*"] as const;
export type PolicyGateKind = (typeof POLICY_GATE_KINDS)[number];

/** The policy as snapshotted on a gate (and as listed): everything needed to apply it later. */
export interface GatePolicySnapshot {
  id: string;
  /** Mission definition name, or `*` for every definition. */
  definition: string;
  gateKind: PolicyGateKind;
  /** Empty: everyone whose role holds gate.decide. */
  roles: Role[];
  /** Empty: no group needed. Otherwise the person must be in at least one. */
  groups: string[];
  approvalsRequired: number;
  starterMayDecide: boolean;
  timeoutMs: number | null;
  timeoutOutcome: GateDecision | null;
  note: string;
}

/** One person's choice on a gate that needs several approvals. */
export interface GateApproval {
  actorId: string;
  decision: GateDecision;
  note: string | null;
  at: string;
}

/** The person who wants to decide. `roles: null` = not a console user (the CLI, acting with the database's authority). */
export interface Decider {
  actorId: string;
  roles: readonly string[] | null;
  groups: readonly string[];
}

/** The actor of decisions the system takes itself (a policy's timeout); lib/audit SYSTEM_ACTOR has the same id. */
export const SYSTEM_ACTOR_ID = "system";

export const MIN_TIMEOUT_MS = 60_000;
export const MAX_TIMEOUT_MS = 30 * 24 * 3600_000;
export const MAX_APPROVALS = 10;

/** The roles that may decide gates at all: a policy can only narrow them. */
export const DECIDING_ROLES: readonly Role[] = PERMISSIONS["gate.decide"];

/**
 * Outcomes every gate of a kind offers (lib/mission/failure.ts), so a timeout can always apply them.
 * Retry on agent gates is not offered when an important agent's error is not recoverable; the phase
 * skip only where the phase is skippable; the library's answers depend on the walk's stage.
 */
export const TIMEOUT_OUTCOMES: Record<PolicyGateKind, readonly GateDecision[]> = {
  agent: ["skip", "abort"],
  phase: ["retry_phase", "abort"],
  recovery: ["resume", "restart_phase", "abort"],
  approval: ["approve", "skip", "abort"],
  library: ["abort"],
  "*": ["abort"],
};

/** Precedence: definition + kind > definition + `*` > `*` + kind > `*` + `*` > none. */
export function effectivePolicy<P extends { definition: string; gateKind: string }>(policies: readonly P[], definitionName: string, gateKind: GateKind): P | null {
  const order: Array<[string, string]> = [
    [definitionName, gateKind],
    [definitionName, "*"],
    ["*", gateKind],
    ["*", "*"],
  ];
  for (const [d, k] of order) {
    const p = policies.find((x) => x.definition === d && x.gateKind === k);
    if (p) return p;
  }
  return null;
}

/** "definition 'Nightly deploy', agent gates" / "every definition, all gate kinds". */
export function policyScope(p: Pick<GatePolicySnapshot, "definition" | "gateKind">): string {
  return `${p.definition === "*" ? "every definition" : `definition '${p.definition}'`}, ${p.gateKind === "*" ? "all gate kinds" : `${p.gateKind} gates`}`;
}

/** Short name of a policy for reasons: "Nightly deploy / agent". */
export function policyName(p: Pick<GatePolicySnapshot, "definition" | "gateKind">): string {
  return `${p.definition === "*" ? "any definition" : p.definition} / ${p.gateKind === "*" ? "any gate" : p.gateKind}`;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
const roleWord = (r: string) => `${r}s`;

function list(words: readonly string[], last = "and"): string {
  if (words.length <= 1) return words.join("");
  return `${words.slice(0, -1).join(", ")} ${last} ${words.at(-1)}`;
}

/** "Operators and admins in group night-shift" — who the policy lets decide. */
export function whoMayDecide(p: Pick<GatePolicySnapshot, "roles" | "groups"> | null): string {
  const roles = p?.roles.length ? p.roles : DECIDING_ROLES;
  const who = list(roles.map(roleWord));
  const sentence = who.charAt(0).toUpperCase() + who.slice(1);
  if (!p?.groups.length) return sentence;
  return `${sentence} in ${p.groups.length === 1 ? "group" : "one of the groups"} ${list(p.groups, "or")}`;
}

/** A human duration: "4 h", "3 h 12 min", "45 min", "2 d 3 h", "30 s". */
export function formatDuration(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  const d = Math.floor(s / 86400);
  const h = Math.floor((s % 86400) / 3600);
  const m = Math.floor((s % 3600) / 60);
  if (d) return h ? `${d} d ${h} h` : `${d} d`;
  if (h) return m ? `${h} h ${m} min` : `${h} h`;
  if (m) return `${m} min`;
  return `${s} s`;
}

/**
 * The policy in words for the console: "Operators and admins in group night-shift · 2 of 3 approvals
 * needed (1 so far: Ana Operator) · the mission's starter may not decide". `eligible` = M, when known.
 */
export function describePolicy(p: GatePolicySnapshot | null, approvals: readonly GateApproval[], names: Record<string, string>, eligible?: number): string {
  const parts = [whoMayDecide(p)];
  if (p && p.approvalsRequired > 1) {
    const so = approvals.length ? `${approvals.length} so far: ${approvals.map((a) => `${names[a.actorId] ?? a.actorId} (${a.decision})`).join(", ")}` : "none so far";
    parts.push(`${p.approvalsRequired}${eligible !== undefined ? ` of ${eligible}` : ""} approvals needed (${so})`);
  }
  if (p && !p.starterMayDecide) parts.push("the mission's starter may not decide");
  return parts.join(" · ");
}

/** The system's reason when a timeout decides: "Policy 'Nightly deploy / agent': no decision within 4 h → abort". */
export function timeoutReason(p: GatePolicySnapshot): string {
  return `Policy '${policyName(p)}': no decision within ${formatDuration(p.timeoutMs ?? 0)} → ${p.timeoutOutcome}`;
}

export type DeciderCheck = { ok: true } | { ok: false; code: "forbidden" | "conflict"; reason: string };

/**
 * May this person decide (or add an approval to) this gate? No policy: today's rule (anyone with
 * gate.decide, checked by the caller). The reason names the policy and what the person lacks.
 */
export function checkDecider(p: GatePolicySnapshot | null, person: Decider, ctx: { starterActorId: string | null; approvals: readonly GateApproval[] }): DeciderCheck {
  if (!p) return { ok: true };
  const head = `This gate's policy (${policyScope(p)})`;
  if (person.roles === null) {
    // The CLI has no roles or groups: it can satisfy a policy only when the policy names none.
    if (p.roles.length || p.groups.length) return { ok: false, code: "forbidden", reason: `${head} needs ${whoMayDecide(p).toLowerCase()}; the command line acts as ${person.actorId}, which has no roles or groups. Decide it in the console or through the REST API as a person who qualifies.` };
  } else {
    const allowed = p.roles.length ? p.roles : DECIDING_ROLES;
    if (!person.roles.some((r) => (allowed as readonly string[]).includes(r))) {
      return { ok: false, code: "forbidden", reason: `${head} needs the role ${list(allowed, "or")}; your roles: ${person.roles.join(", ") || "none"}.` };
    }
    if (p.groups.length && !person.groups.some((g) => p.groups.includes(g))) {
      return { ok: false, code: "forbidden", reason: `${head} needs someone in ${p.groups.length === 1 ? "group" : "one of the groups"} ${list(p.groups, "or")}; you are in: ${person.groups.join(", ") || "none"}. An admin can add you to a group.` };
    }
  }
  if (!p.starterMayDecide && ctx.starterActorId && person.actorId === ctx.starterActorId) {
    return { ok: false, code: "forbidden", reason: `${head} does not let the person who started the mission decide its gates, and you started it. Ask someone else who may decide.` };
  }
  const mine = ctx.approvals.find((a) => a.actorId === person.actorId);
  if (mine) {
    return { ok: false, code: "conflict", reason: `You already chose ${mine.decision} on this gate; it needs ${p.approvalsRequired} different people (${ctx.approvals.length} so far). Nothing was changed.` };
  }
  return { ok: true };
}

/** The decision that has reached N distinct approvals, if any. */
export function approvedDecision(p: GatePolicySnapshot, approvals: readonly GateApproval[]): GateDecision | null {
  const counts = new Map<GateDecision, number>();
  for (const a of approvals) counts.set(a.decision, (counts.get(a.decision) ?? 0) + 1);
  for (const [d, n] of counts) if (n >= p.approvalsRequired) return d;
  return null;
}

/** A policy as created or replaced (console form, REST). Field errors say why. */
export const gatePolicyInput = z
  .object({
    definition: z.string().trim().min(1, "must name a mission definition, or * for every definition").max(200, "must be at most 200 characters"),
    gateKind: z.enum(POLICY_GATE_KINDS, { error: `must be one of ${POLICY_GATE_KINDS.join(", ")}` }),
    roles: z
      .array(z.string(), { error: "must be a list of roles" })
      .default([])
      .superRefine((roles, ctx) => {
        for (const r of roles) {
          if (!(ROLES as readonly string[]).includes(r)) ctx.addIssue({ code: "custom", message: `"${r}" is not a role (roles: ${ROLES.join(", ")})` });
          else if (!DECIDING_ROLES.includes(r as Role)) ctx.addIssue({ code: "custom", message: `${r} cannot decide gates at all (gate.decide is held by ${DECIDING_ROLES.join(" and ")}): a policy can only narrow who decides` });
        }
      })
      .transform((roles) => [...new Set(roles)] as Role[]),
    // The same group names as users' groups (lib/auth/user-admin.ts).
    groups: groupsSchema.default([]),
    approvalsRequired: z.number({ error: "must be a number" }).int("must be a whole number").min(1, "must be at least 1").max(MAX_APPROVALS, `must be at most ${MAX_APPROVALS}`).default(1),
    starterMayDecide: z.boolean({ error: "must be true or false" }).default(true),
    timeoutMs: z
      .number({ error: "must be a number of milliseconds" })
      .int("must be a whole number of milliseconds")
      .min(MIN_TIMEOUT_MS, "must be at least 1 minute")
      .max(MAX_TIMEOUT_MS, "must be at most 30 days")
      .nullable()
      .default(null),
    timeoutOutcome: z.enum(GATE_DECISIONS, { error: `must be one of ${GATE_DECISIONS.join(", ")}` }).nullable().default(null),
    note: z.string().trim().max(500, "must be at most 500 characters").default(""),
  })
  .superRefine((p, ctx) => {
    if (p.timeoutMs !== null && p.timeoutOutcome === null) ctx.addIssue({ code: "custom", path: ["timeoutOutcome"], message: "a timeout needs the outcome the system applies when it passes" });
    if (p.timeoutMs === null && p.timeoutOutcome !== null) ctx.addIssue({ code: "custom", path: ["timeoutMs"], message: "an outcome needs the timeout after which it is applied" });
    if (p.timeoutOutcome !== null) {
      const valid = TIMEOUT_OUTCOMES[p.gateKind];
      if (!valid.includes(p.timeoutOutcome)) {
        ctx.addIssue({
          code: "custom",
          path: ["timeoutOutcome"],
          message: `${p.timeoutOutcome} is not offered by every ${p.gateKind === "*" ? "gate" : `${p.gateKind} gate`}; a timeout must apply an outcome the gate always offers: ${list(valid, "or")}`,
        });
      }
    }
  });
export type GatePolicyInput = z.output<typeof gatePolicyInput>;

/**
 * A gate.opened event with the policy in force snapshotted into it (issue 6): who may decide, the deadline,
 * said in its impact and evidence. The database layer reads the policy at append time; replay (lib/trace)
 * takes the recorded snapshot.
 */
export function withPolicySnapshot<E extends { payload: object; impact: string; evidence: Record<string, unknown> | null }>(e: E, policy: GatePolicySnapshot | null, at: string): E {
  const deadlineAt = policy?.timeoutMs ? new Date(Date.parse(at) + policy.timeoutMs).toISOString() : null;
  return {
    ...e,
    payload: { ...e.payload, policy, deadlineAt },
    impact: policy ? `${e.impact} Policy '${policyName(policy)}': ${whoMayDecide(policy)}${policy.approvalsRequired > 1 ? `, ${policy.approvalsRequired} approvals` : ""}${deadlineAt ? `; after ${formatDuration(policy.timeoutMs!)} the system chooses ${policy.timeoutOutcome}` : ""}.` : e.impact,
    evidence: policy ? { ...(e.evidence ?? {}), policyId: policy.id, deadlineAt } : e.evidence,
  };
}
