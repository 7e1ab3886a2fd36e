import { getDb } from "@/db/client";
import { reportRunResult } from "@/db/queries/runs";
import { apiRoute, parseIdOr404, parseOr400, readJson } from "@/server/api";
import { api } from "@/server/api-contract";

export const dynamic = "force-dynamic";

/** An approved call's ToolResult, under the strict contract (400 names the broken rule; 409 for a call not approved). */
export const POST = apiRoute<{ id: string }>(api.reportRunResult, async ({ req, params }) => {
  const id = parseIdOr404(params.id, "Mission");
  const input = parseOr400(api.reportRunResult.body, await readJson(req), "result");
  return Response.json({ result: await reportRunResult(getDb(), id, input) });
});
