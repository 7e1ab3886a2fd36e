import { getDb } from "@/db/client";
import { decideGateAs } from "@/server/gate-decision";
import { apiRoute, parseIdOr404, parseOr400, readJson } from "@/server/api";
import { api } from "@/server/api-contract";

export const dynamic = "force-dynamic";

/**
 * Records a decision on an open gate: 200 with the gate, the mission state and, under an N-of-M policy,
 * `resolved` false until N people chose the same option; 403 (the gate's policy refuses you), 404,
 * 409 (already resolved, or you already chose), 422 (not an option).
 */
export const POST = apiRoute<{ id: string }>(api.decideGate, async ({ req, user, actor, params }) => {
  const gateId = parseIdOr404(params.id, "Gate");
  const input = parseOr400(api.decideGate.body, await readJson(req), "decision");
  const r = await decideGateAs(getDb(), user, actor, { gateId, decision: input.decision, note: input.note || null });
  return Response.json({ gate: r.gate, mission: r.state, resolved: r.resolved, approvals: r.approvals, required: r.required });
});
