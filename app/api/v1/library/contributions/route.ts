import { getDb } from "@/db/client";
import { createContribution, listContributions, similarEntries } from "@/db/queries/contributions";
import type { ContributionInput } from "@/lib/library/contribution";
import { userActorId } from "@/db/queries/users";
import { apiRoute, parseOr400, readJson } from "@/server/api";
import { api } from "@/server/api-contract";

export const dynamic = "force-dynamic";

/** Library contributions, most recently changed first: `?status=&origin=&mine=1&limit=`. Others' drafts are not listed. */
export const GET = apiRoute(api.listContributions, async ({ req, user }) => {
  const q = parseOr400(api.listContributions.query, Object.fromEntries(new URL(req.url).searchParams), "filter");
  const me = userActorId(user.id);
  const contributions = await listContributions(getDb(), { status: q.status, origin: q.origin, authorId: q.mine === "1" || q.mine === "true" ? me : undefined, viewerId: me, limit: q.limit });
  return Response.json({ contributions });
});

/**
 * Proposes a new entry or an edit (`target_failure_id`): 201 with the contribution and the most similar
 * existing entries (`similar: { results, abstained }`); `submit: false` keeps it as a draft. 400 with
 * `details.fieldErrors` (paths like `entry.surface_symptom`).
 */
export const POST = apiRoute(api.createContribution, async ({ req, user, actor }) => {
  const db = getDb();
  const contribution = await createContribution(db, { actorId: userActorId(user.id), input: (await readJson(req)) as ContributionInput, audit: actor });
  return Response.json({ contribution, similar: await similarEntries(db, contribution.entry as Record<string, never>) }, { status: 201 });
});
