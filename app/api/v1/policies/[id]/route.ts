import { getDb } from "@/db/client";
import { deleteGatePolicy, getGatePolicyById, toPolicyView, updateGatePolicy } from "@/db/queries/gate-policies";
import { AppError } from "@/lib/errors";
import { gatePolicyInput } from "@/lib/mission/gate-policy";
import { apiRoute, idSchema, parseOr400, readJson } from "@/server/api";
import { api } from "@/server/api-contract";


export const dynamic = "force-dynamic";

function policyId(id: string): string {
  if (!idSchema.safeParse(id).success) throw new AppError("not_found", { userMessage: `Gate policy ${id} does not exist.` });
  return id;
}

export const GET = apiRoute<{ id: string }>(api.getPolicy, async ({ params }) => {
  const row = await getGatePolicyById(getDb(), policyId(params.id));
  if (!row) throw new AppError("not_found", { userMessage: `Gate policy ${params.id} does not exist.` });
  return Response.json({ policy: toPolicyView(row) });
});

/** Replaces a policy (the whole policy, as POST): 200; 400 with field errors; 404; 409 duplicate scope. Open gates keep their snapshot. */
export const PUT = apiRoute<{ id: string }>(api.putPolicy, async ({ req, actor, params }) => {
  const id = policyId(params.id);
  const input = parseOr400(gatePolicyInput, await readJson(req), "gate policy");
  return Response.json({ policy: toPolicyView(await updateGatePolicy(getDb(), { id, input, actor })) });
});

/** Deletes a policy: 200 with what was deleted; 404. Open gates keep their snapshot. */
export const DELETE = apiRoute<{ id: string }>(api.deletePolicy, async ({ actor, params }) => {
  return Response.json({ deleted: toPolicyView(await deleteGatePolicy(getDb(), { id: policyId(params.id), actor })) });
});
