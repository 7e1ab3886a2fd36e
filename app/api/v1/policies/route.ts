import { getDb } from "@/db/client";
import { createGatePolicy, listGatePolicies, toPolicyView } from "@/db/queries/gate-policies";
import { gatePolicyInput } from "@/lib/mission/gate-policy";
import { apiRoute, parseOr400, readJson } from "@/server/api";
import { api } from "@/server/api-contract";


export const dynamic = "force-dynamic";

/** Every gate policy, by definition then gate kind (gate.view: everyone who sees gates may see their rules). */
export const GET = apiRoute(api.listPolicies, async () => {
  return Response.json({ policies: (await listGatePolicies(getDb())).map(toPolicyView) });
});

/** Creates a policy: 201; 400 with field errors; 409 when its scope (definition + gate kind) already has one. */
export const POST = apiRoute(api.createPolicy, async ({ req, actor }) => {
  const input = parseOr400(gatePolicyInput, await readJson(req), "gate policy");
  const row = await createGatePolicy(getDb(), { input, actor });
  return Response.json({ policy: toPolicyView(row) }, { status: 201 });
});
