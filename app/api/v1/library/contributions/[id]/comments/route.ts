import { getDb } from "@/db/client";
import { addComment } from "@/db/queries/contributions";
import { commentInputSchema } from "@/lib/library/contribution";
import { userActorId } from "@/db/queries/users";
import { apiRoute, parseOr400, readJson } from "@/server/api";
import { api } from "@/server/api-contract";

export const dynamic = "force-dynamic";

/** A comment `{ body }` or a reply `{ body, parent_id }`: 201 with the comment; 400; 404. */
export const POST = apiRoute<{ id: string }>(api.commentContribution, async ({ req, user, actor, params }) => {
  const c = parseOr400(commentInputSchema, await readJson(req), "comment");
  const comment = await addComment(getDb(), { id: params.id, authorId: userActorId(user.id), body: c.body, parentId: c.parent_id, audit: actor });
  return Response.json({ comment }, { status: 201 });
});
