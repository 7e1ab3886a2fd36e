import { getDb } from "@/db/client";
import { finishRun } from "@/db/queries/runs";
import { apiRoute, parseIdOr404, parseOr400, readJson } from "@/server/api";
import { api } from "@/server/api-contract";

export const dynamic = "force-dynamic";

/** The agent says it is done; the evidence decides (an empty body finishes every agent of the run). */
export const POST = apiRoute<{ id: string }>(api.finishRun, async ({ req, params }) => {
  const id = parseIdOr404(params.id, "Mission");
  const text = await req.clone().text();
  const input = parseOr400(api.finishRun.body, text.trim() ? await readJson(req) : {}, "finish");
  return Response.json(await finishRun(getDb(), id, input));
});
