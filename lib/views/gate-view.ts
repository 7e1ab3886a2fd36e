import type { UserFacingError } from "../errors";
import type { DiagnosisSummary, GateDecision, GateError, GateKind, GateOption, GateState, MissionState } from "../mission/types";
import type { RecoveryPlan } from "../mission/recovery";
import type { HITLPrompt } from "../authority/types";
import { gatePrompt } from "./state-render";
import { checkDecider, describePolicy, policyScope, type Decider, type GateApproval, type GatePolicySnapshot } from "../mission/gate-policy";

/** The gate policy a gate opened under, as the console shows it (issue 6). */
export interface GatePolicyView {
  policy: GatePolicySnapshot;
  /** "definition 'Nightly deploy', agent gates" */
  scope: string;
  /** "Operators and admins in group night-shift · 2 approvals needed (1 so far: Ana Operator (abort)) · …" */
  summary: string;
  approvals: Array<GateApproval & { name: string }>;
  /** Who started the mission (the starter rule). */
  startedBy: string | null;
}

/** Names of actors (approvers) and who started the mission, for the policy's words. */
export interface GateViewContext {
  names?: Record<string, string>;
  startedBy?: string | null;
}

function policyView(g: { policy?: GatePolicySnapshot | null; approvals?: GateApproval[] | null }, ctx: GateViewContext): GatePolicyView | null {
  if (!g.policy) return null;
  const names = ctx.names ?? {};
  const approvals = (g.approvals ?? []).map((a) => ({ ...a, name: names[a.actorId] ?? a.actorId }));
  return { policy: g.policy, scope: policyScope(g.policy), summary: describePolicy(g.policy, approvals, names), approvals, startedBy: ctx.startedBy ?? null };
}

/**
 * May this person decide the gate under its policy? Computed in the browser for the buttons (the
 * server checks again on its own). `viewer` null: a person without gate.decide.
 */
export function gateDecisionFor(gate: Pick<GateView, "policy">, viewer: Decider | null): { canDecide: boolean; reason: string | null } {
  if (!viewer) return { canDecide: false, reason: null };
  const r = checkDecider(gate.policy?.policy ?? null, viewer, { starterActorId: gate.policy?.startedBy ?? null, approvals: gate.policy?.approvals ?? [] });
  return r.ok ? { canDecide: true, reason: null } : { canDecide: false, reason: r.reason };
}

/** A gate as the console shows it: the gate plus the mission it belongs to. */
export interface GateView {
  id: string;
  missionId: string;
  missionName: string;
  kind: GateKind;
  agent: string;
  phase: string;
  step: number | null;
  diagnosis: DiagnosisSummary | null;
  /** The recovery plan offered as "Apply recovery plan", and why none was applied automatically. */
  recoveryPlan: RecoveryPlan | null;
  recoveryNote: string | null;
  status: "open" | "resolved";
  options: GateOption[];
  error: UserFacingError;
  openedAt: string;
  decision: GateDecision | null;
  decidedBy: string | null;
  decidedAt: string | null;
  note: string | null;
  /** The gate policy it opened under (null: anyone with gate.decide, one decision, no timeout). */
  policy: GatePolicyView | null;
  /** When the policy's timeout decides as the system, and what it chooses then. */
  deadlineAt: string | null;
  /** A proposal gate (seed 002): the pending proposal and its HITL prompt. */
  proposalId: string | null;
  prompt: HITLPrompt | null;
}

/** The fields a gate view shows as the gate records them, whether it is read from the mission's state or from a gates row. */
type RecordedField = "id" | "agent" | "phase" | "step" | "diagnosis" | "recoveryPlan" | "recoveryNote" | "options" | "error" | "decidedBy" | "note";

function recordedFields(g: Pick<GateRowLike, RecordedField>): Pick<GateView, RecordedField> {
  return { id: g.id, agent: g.agent, phase: g.phase, step: g.step, diagnosis: g.diagnosis ?? null, recoveryPlan: g.recoveryPlan ?? null, recoveryNote: g.recoveryNote ?? null, options: g.options, error: g.error, decidedBy: g.decidedBy, note: g.note };
}

export function gateViewFromState(g: GateState, mission: MissionState | { id: string; name: string; startedBy?: string }, names: Record<string, string> = {}): GateView {
  return {
    ...recordedFields(g),
    missionId: mission.id,
    missionName: mission.name,
    kind: g.kind,
    status: g.status,
    openedAt: g.openedAt,
    decision: g.decision,
    decidedAt: g.decidedAt,
    policy: policyView(g, { names, startedBy: mission.startedBy ?? null }),
    deadlineAt: g.deadlineAt ?? null,
    proposalId: g.proposalId ?? null,
    // Every gate's HITL prompt (a proposal's as recorded; a failure gate's from the same renderer) when the state is at hand.
    prompt: "agents" in mission ? gatePrompt(mission, g) : (g.prompt ?? null),
  };
}

/**
 * Row shape of `listOpenGates` (db/queries/gates.ts), kept structural so lib stays free of db: the
 * view's recorded fields, and the others as the database keeps them (text, timestamps).
 */
export interface GateRowLike extends Pick<GateView, RecordedField | "missionId"> {
  kind: string;
  status: string;
  openedAt: string;
  decision: string | null;
  decidedAt: string | null;
  policy?: GatePolicySnapshot | null;
  deadlineAt?: string | null;
  approvals?: GateApproval[] | null;
}

export function gateViewFromRow(row: { gate: GateRowLike; missionName: string; startedBy?: string | null; prompt?: HITLPrompt | null }, names: Record<string, string> = {}): GateView {
  const g = row.gate;
  return {
    ...recordedFields(g),
    missionId: g.missionId,
    missionName: row.missionName,
    kind: (g.kind as GateKind) ?? "agent",
    status: g.status === "resolved" ? "resolved" : "open",
    openedAt: new Date(g.openedAt).toISOString(),
    decision: (g.decision as GateDecision | null) ?? null,
    decidedAt: g.decidedAt ? new Date(g.decidedAt).toISOString() : null,
    policy: policyView(g, { names, startedBy: row.startedBy ?? null }),
    deadlineAt: g.deadlineAt ? new Date(g.deadlineAt).toISOString() : null,
    proposalId: typeof g.error.technical?.proposalId === "string" ? g.error.technical.proposalId : null,
    prompt: row.prompt ?? null,
  };
}

/** The gate's heading: what needs deciding. */
export function gateTitle(g: Pick<GateView, "kind" | "agent" | "phase" | "step"> & { error?: GateError }): string {
  const library = g.error?.library;
  if (library) {
    // The failure-mode library asks about one hypothesis (000 Output Protocol), or escalates.
    switch (library.stage) {
      case "oversight":
        return `Allow the probe of “${library.title}” (requires oversight)`;
      case "probe":
        return `Perform the probe of “${library.title}” and confirm or reject it`;
      case "resolution":
        return `Carry out the resolution of “${library.title}”`;
      default:
        return `Agent “${g.agent}”: the library's hypotheses are exhausted`;
    }
  }
  switch (g.kind) {
    case "phase":
      return `Phase ${g.phase} failed`;
    case "recovery":
      return `Agent “${g.agent}” was interrupted by a worker crash`;
    case "approval":
      return `High-risk step ${(g.step ?? 0) + 1} of agent “${g.agent}” needs approval`;
    default:
      return `Agent “${g.agent}” needs a decision`;
  }
}
