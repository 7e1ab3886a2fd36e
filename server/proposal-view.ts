import type { ProposalListRow } from "@/db/queries/authority";

/** What the REST API, the CLI and the console show of one proposal (seed 002). */
export interface ProposalView {
  id: string;
  missionId: string;
  actorId: string;
  actorName: string | null;
  agent: string;
  attempt: number;
  action: { tool: string; args: Record<string, unknown> };
  argsDigest: string;
  level: number;
  status: "approved" | "rejected" | "pending" | "expired";
  decision: ProposalListRow["decision"];
  decidedBy: string | null;
  decidedByName: string | null;
  gateId: string | null;
  step: number | null;
  submittedAt: string;
}

export function toProposalView(r: ProposalListRow): ProposalView {
  return {
    id: r.id,
    missionId: r.missionId,
    actorId: r.actorId,
    actorName: r.actorName,
    agent: r.agent,
    attempt: r.attempt,
    action: r.action,
    argsDigest: r.argsDigest,
    level: r.level,
    status: r.status,
    decision: r.decision,
    decidedBy: r.decidedBy,
    decidedByName: r.deciderName,
    gateId: r.gateId,
    step: r.step,
    submittedAt: r.submittedAt,
  };
}
