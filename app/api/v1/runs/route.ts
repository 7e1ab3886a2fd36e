import { getDb } from "@/db/client";
import { createRun, runView } from "@/db/queries/runs";
import { apiRoute, parseOr400, readJson } from "@/server/api";
import { api } from "@/server/api-contract";

export const dynamic = "force-dynamic";

/** Starts a run (issue 15): a mission whose agents run elsewhere and ask before every call. */
export const POST = apiRoute(api.createRun, async ({ req, actor }) => {
  const input = parseOr400(api.createRun.body, await readJson(req), "run");
  const state = await createRun(getDb(), actor, input);
  return Response.json({ run: runView(state) }, { status: 201, headers: { Location: `/api/v1/runs/${state.id}` } });
});
