import { getDb } from "@/db/client";
import { getUserOr404, resetUserPassword } from "@/db/queries/users";
import { resetModeSchema } from "@/lib/auth/user-admin";
import { apiRoute, parseOr400, readJson } from "@/server/api";
import { api } from "@/server/api-contract";
import { absoluteLink } from "../../link";

export const dynamic = "force-dynamic";

/**
 * Resets a user's password (permission user.manage): `{mode:"temporary"}` answers the temporary
 * password (they must change it at sign-in), `{mode:"link"}` a one-time link (24 hours). Shown only in
 * this response. Their sessions end at once.
 */
export const POST = apiRoute<{ id: string }>(api.resetPassword, async ({ req, actor, params }) => {
  const db = getDb();
  await getUserOr404(db, params.id);
  const { mode } = parseOr400(resetModeSchema, await readJson(req), "reset");
  const reset = await resetUserPassword(db, actor, params.id, mode);
  return Response.json(reset.mode === "link" ? { ...reset, url: absoluteLink(req, reset.path) } : reset);
});
