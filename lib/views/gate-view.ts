import type { UserFacingError } from "../errors";
import type { DiagnosisSummary, GateDecision, GateError, GateKind, GateOption, GateState } from "../mission/types";
import type { RecoveryPlan } from "../mission/recovery";

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
}

export function gateViewFromState(g: GateState, mission: { id: string; name: string }): GateView {
  return {
    id: g.id,
    missionId: mission.id,
    missionName: mission.name,
    kind: g.kind,
    agent: g.agent,
    phase: g.phase,
    step: g.step,
    diagnosis: g.diagnosis ?? null,
    recoveryPlan: g.recoveryPlan ?? null,
    recoveryNote: g.recoveryNote ?? null,
    status: g.status,
    options: g.options,
    error: g.error,
    openedAt: g.openedAt,
    decision: g.decision,
    decidedBy: g.decidedBy,
    decidedAt: g.decidedAt,
    note: g.note,
  };
}

/** Row shape of `listOpenGates` (db/queries/gates.ts), kept structural so lib stays free of db. */
export interface GateRowLike {
  id: string;
  missionId: string;
  kind: string;
  agent: string;
  phase: string;
  step: number | null;
  diagnosis: DiagnosisSummary | null;
  recoveryPlan: RecoveryPlan | null;
  recoveryNote: string | null;
  status: string;
  options: GateOption[];
  error: UserFacingError;
  openedAt: string;
  decision: string | null;
  decidedBy: string | null;
  decidedAt: string | null;
  note: string | null;
}

export function gateViewFromRow(row: { gate: GateRowLike; missionName: string }): GateView {
  const g = row.gate;
  return {
    id: g.id,
    missionId: g.missionId,
    missionName: row.missionName,
    kind: (g.kind as GateKind) ?? "agent",
    agent: g.agent,
    phase: g.phase,
    step: g.step,
    diagnosis: g.diagnosis ?? null,
    recoveryPlan: g.recoveryPlan ?? null,
    recoveryNote: g.recoveryNote ?? null,
    status: g.status === "resolved" ? "resolved" : "open",
    options: g.options,
    error: g.error,
    openedAt: new Date(g.openedAt).toISOString(),
    decision: (g.decision as GateDecision | null) ?? null,
    decidedBy: g.decidedBy,
    decidedAt: g.decidedAt ? new Date(g.decidedAt).toISOString() : null,
    note: g.note,
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
