"use server";

import { z } from "zod";
import { getDb } from "@/db/client";
import { decideGateAs, decideGatesInBulk } from "@/server/gate-decision";
import { authedAction } from "@/server/safe-action";
import { GATE_DECISIONS } from "@/lib/mission/types";
import { decideProposal } from "@/db/queries/authority";
import { proposalDecisionInput } from "@/lib/authority/decision-input";
import { env } from "@/lib/env";
import { recordDiagnosisFeedback } from "@/db/queries/diagnosis-feedback";
import { bulkDecisionBody, diagnosisFeedbackBody } from "@/server/api-contract";

const decideGateInput = z.object({
  gateId: z.guid("must be a gate id"),
  decision: z.enum(GATE_DECISIONS, { error: `must be one of ${GATE_DECISIONS.join(", ")} (the gate's options say which apply)` }),
  note: z
    .string()
    .trim()
    .max(2000, "must be at most 2000 characters")
    .nullish()
    .transform((v) => (v ? v : null)),
});

/** An operator's decision on an open gate (permission gate.decide; the gate's policy is checked too). */
export const decideGateAction = authedAction({ name: "decideGate", permission: "gate.decide", input: decideGateInput }, async (input, { user, actor }) => {
  const r = await decideGateAs(getDb(), user, actor, { gateId: input.gateId, decision: input.decision, note: input.note });
  return { missionId: r.state.id, decision: input.decision, decidedAt: r.gate.decidedAt ?? new Date().toISOString(), runState: r.state.runState, resolved: r.resolved, approvals: r.approvals, required: r.required };
});

/**
 * One decision and one note for many selected gates or proposals (permission gate.decide). Each item is
 * decided on its own through its single-item path (its transaction, audit row and policy check); refused
 * items come back with the reason and do not stop the others.
 */
export const decideGatesBulkAction = authedAction({ name: "decideGatesBulk", permission: "gate.decide", input: bulkDecisionBody }, async (input, { user, actor }) => ({
  results: await decideGatesInBulk(getDb(), user, actor, { items: input.items, decision: input.decision, note: input.note || null }),
}));

const decideProposalInput = z.object({ proposalId: z.guid("must be a proposal id") }).and(proposalDecisionInput);

/**
 * A person's answer to a pending proposal of an autonomous agent (approve, reject, modify with other args),
 * through the one authority (permission gate.decide; the gate's policy, digest binding and audit in decideProposal).
 */
export const decideProposalAction = authedAction({ name: "decideProposal", permission: "gate.decide", input: decideProposalInput }, async (input, { user, actor }) => {
  const { proposal, state } = await decideProposal(getDb(), {
    proposalId: input.proposalId,
    answer: input.decision,
    args: input.args,
    scope: input.scope,
    note: input.note || null,
    actor: { ...actor, name: user.name, kind: "human" },
    approvalTtlMs: env().FAULTLINE_APPROVAL_TTL_MS,
  });
  return { missionId: state.id, status: proposal.status, argsDigest: proposal.decision?.argsDigest ?? null };
});

const diagnosisFeedbackInput = z.object({ diagnosisId: z.string().min(1, "must be a diagnosis id").max(100, "must be a diagnosis id") }).and(diagnosisFeedbackBody);

/** An operator confirms or corrects a diagnosis' error type at its gate (permission gate.decide; audited). */
export const diagnosisFeedbackAction = authedAction({ name: "diagnosisFeedback", permission: "gate.decide", input: diagnosisFeedbackInput }, async (input, { actor }) =>
  recordDiagnosisFeedback(getDb(), actor, { diagnosisId: input.diagnosisId, verdict: input.verdict, correctType: input.verdict === "corrected" ? input.type : null, note: input.note }),
);
