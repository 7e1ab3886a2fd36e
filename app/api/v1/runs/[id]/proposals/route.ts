import { getDb } from "@/db/client";
import { proposeRunCall } from "@/db/queries/runs";
import { env } from "@/lib/env";
import { apiRoute, parseIdOr404, parseOr400, readJson } from "@/server/api";
import { api } from "@/server/api-contract";

export const dynamic = "force-dynamic";

/** An external agent asks before a call; the authority answers in this request (201 new, 200 the same callId again). */
export const POST = apiRoute<{ id: string }>(api.proposeRunCall, async ({ req, params }) => {
  const id = parseIdOr404(params.id, "Mission");
  const input = parseOr400(api.proposeRunCall.body, await readJson(req), "proposal");
  const { answer, created } = await proposeRunCall(getDb(), id, input, { approvalTtlMs: env().FAULTLINE_APPROVAL_TTL_MS });
  return Response.json({ proposal: answer }, { status: created ? 201 : 200, headers: { Location: `/api/v1/proposals/${answer.id}` } });
});
