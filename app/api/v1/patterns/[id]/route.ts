import { getDb } from "@/db/client";
import { deletePattern, updatePattern } from "@/db/queries/learning";
import { apiRoute, parseIdOr404, parseOr400, readJson } from "@/server/api";
import { api } from "@/server/api-contract";

export const dynamic = "force-dynamic";

/** Enables/disables a pattern and/or sets its fast-path threshold: 200 with the pattern; 400, 404. */
export const PATCH = apiRoute<{ id: string }>(api.patchPattern, async ({ req, actor, params }) => {
  const id = parseIdOr404(params.id, "Pattern");
  const change = parseOr400(api.patchPattern.body, await readJson(req), "change");
  return Response.json({ pattern: await updatePattern(getDb(), id, change, actor) });
});

/** Deletes a pattern and its record (later recoveries start a new one): 204; 404. */
export const DELETE = apiRoute<{ id: string }>(api.deletePattern, async ({ actor, params }) => {
  const id = parseIdOr404(params.id, "Pattern");
  await deletePattern(getDb(), id, actor);
  return new Response(null, { status: 204 });
});
