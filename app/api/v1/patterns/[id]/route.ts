import { z } from "zod";
import { getDb } from "@/db/client";
import { deletePattern, PATTERN_THRESHOLD_MAX, PATTERN_THRESHOLD_MIN, updatePattern } from "@/db/queries/learning";
import { apiRoute, parseIdOr404, parseOr400, readJson } from "@/server/api";

export const dynamic = "force-dynamic";

const body = z
  .strictObject(
    {
      enabled: z.boolean({ error: "must be true or false" }).optional(),
      threshold: z
        .number({ error: "must be a number" })
        .min(PATTERN_THRESHOLD_MIN, `must be at least ${PATTERN_THRESHOLD_MIN}`)
        .max(PATTERN_THRESHOLD_MAX, `must be at most ${PATTERN_THRESHOLD_MAX}`)
        .optional(),
    },
    { error: (i) => (i.code === "unrecognized_keys" ? `only enabled and threshold can be changed (got ${i.keys.join(", ")})` : "must be a JSON object") },
  )
  .refine((b) => b.enabled !== undefined || b.threshold !== undefined, "give enabled (true or false) and/or threshold (0.5 to 1)");

/** Enables/disables a pattern and/or sets its fast-path threshold: 200 with the pattern; 400, 404. */
export const PATCH = apiRoute<{ id: string }>({ name: "PATCH pattern", permission: "pattern.manage" }, async ({ req, actor, params }) => {
  const id = parseIdOr404(params.id, "Pattern");
  const change = parseOr400(body, await readJson(req), "change");
  return Response.json({ pattern: await updatePattern(getDb(), id, change, actor) });
});

/** Deletes a pattern and its record (later recoveries start a new one): 204; 404. */
export const DELETE = apiRoute<{ id: string }>({ name: "DELETE pattern", permission: "pattern.manage" }, async ({ actor, params }) => {
  const id = parseIdOr404(params.id, "Pattern");
  await deletePattern(getDb(), id, actor);
  return new Response(null, { status: 204 });
});
