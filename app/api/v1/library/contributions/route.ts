import { z } from "zod";
import { getDb } from "@/db/client";
import { createContribution, listContributions, similarEntries } from "@/db/queries/contributions";
import { CONTRIBUTION_ORIGINS, CONTRIBUTION_STATUSES, type ContributionInput } from "@/lib/library/contribution";
import { userActorId } from "@/db/queries/users";
import { apiRoute, parseOr400, readJson } from "@/server/api";

export const dynamic = "force-dynamic";

const filter = z.strictObject({
  status: z.enum(CONTRIBUTION_STATUSES, { error: `must be one of ${CONTRIBUTION_STATUSES.join(", ")}` }).optional(),
  origin: z.enum(CONTRIBUTION_ORIGINS, { error: `must be one of ${CONTRIBUTION_ORIGINS.join(", ")}` }).optional(),
  mine: z.enum(["1", "0", "true", "false"], { error: "must be 1 or 0" }).optional(),
  limit: z.coerce.number({ error: "must be a number" }).int().min(1).max(500).optional(),
});

/** Library contributions, most recently changed first: `?status=&origin=&mine=1&limit=`. Others' drafts are not listed. */
export const GET = apiRoute({ name: "GET contributions", permission: "library.view" }, async ({ req, user }) => {
  const q = parseOr400(filter, Object.fromEntries(new URL(req.url).searchParams), "filter");
  const me = userActorId(user.id);
  const contributions = await listContributions(getDb(), { status: q.status, origin: q.origin, authorId: q.mine === "1" || q.mine === "true" ? me : undefined, viewerId: me, limit: q.limit });
  return Response.json({ contributions });
});

/**
 * Proposes a new entry or an edit (`target_failure_id`): 201 with the contribution and the most similar
 * existing entries (`similar: { results, abstained }`); `submit: false` keeps it as a draft. 400 with
 * `details.fieldErrors` (paths like `entry.surface_symptom`).
 */
export const POST = apiRoute({ name: "POST contribution", permission: "library.contribute" }, async ({ req, user, actor }) => {
  const db = getDb();
  const contribution = await createContribution(db, { actorId: userActorId(user.id), input: (await readJson(req)) as ContributionInput, audit: actor });
  return Response.json({ contribution, similar: await similarEntries(db, contribution.entry as Record<string, never>) }, { status: 201 });
});
