import { z } from "zod";
import { decisionRecordSchema } from "@/lib/authority/schemas";
import type { ProposalListRow } from "@/db/queries/authority";

/** What the REST API, the CLI and the console show of one proposal (seed 002). */
export const proposalViewSchema = z
  .object({
    id: z.string(),
    missionId: z.string(),
    actorId: z.string(),
    actorName: z.string().nullable(),
    agent: z.string(),
    attempt: z.number().int(),
    action: z.object({ tool: z.string(), args: z.record(z.string(), z.unknown()) }),
    argsDigest: z.string(),
    level: z.number().int(),
    status: z.enum(["approved", "rejected", "pending", "expired"]),
    decision: decisionRecordSchema.nullable(),
    decidedBy: z.string().nullable(),
    decidedByName: z.string().nullable(),
    gateId: z.string().nullable(),
    step: z.number().int().nullable(),
    submittedAt: z.string(),
  })
  .meta({ id: "Proposal" });
export type ProposalView = z.infer<typeof proposalViewSchema>;

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
