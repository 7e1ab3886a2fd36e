import { getDb } from "@/db/client";
import { decideProposal } from "@/db/queries/authority";
import { apiRoute, parseIdOr404, parseOr400, readJson } from "@/server/api";
import { api } from "@/server/api-contract";
import { proposalDecisionInput } from "@/lib/authority/decision-input";
import { env } from "@/lib/env";

export const dynamic = "force-dynamic";

/**
 * A person's decision on a pending proposal, through the authority (FDR-N013): `approve`, `reject` (with a
 * note), or `modify` (approve with other args or a narrowed scope; re-checked against the rules, the
 * approval binds to their digest). 200 with the decided proposal; 400 naming the field; 403; 404; 409
 * when it was already decided or no longer waits. Audited (proposal.decide / proposal.modify).
 */
export const POST = apiRoute<{ id: string }>(api.decideProposal, async ({ req, actor, params }) => {
  const proposalId = parseIdOr404(params.id, "Proposal");
  const input = parseOr400(proposalDecisionInput, await readJson(req), "decision");
  const { proposal, state } = await decideProposal(getDb(), { proposalId, answer: input.decision, args: input.args, scope: input.scope, note: input.note || null, actor: { ...actor, kind: "human" }, approvalTtlMs: env().FAULTLINE_APPROVAL_TTL_MS });
  return Response.json({ proposal: { ...proposal, missionId: state.id }, decision: proposal.decision, mission: { id: state.id, runState: state.runState } });
});
