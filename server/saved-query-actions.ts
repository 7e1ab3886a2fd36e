import { z } from "zod";
import { getDb } from "@/db/client";
import { createSavedQuery, deleteSavedQuery, savedQueryInputSchema, type SavedQueryScope } from "@/db/queries/saved-queries";
import type { Action } from "@/lib/auth/roles";
import { AppError } from "@/lib/errors";
import { authedAction } from "./safe-action";

type Parsed<F> = { ok: true; filters: F } | { ok: false; errors: Array<{ path: string; message: string }> };

/**
 * The save / delete server actions of a page's saved queries (failure history, audit log): the view's
 * filters are parsed and normalised before saving; only the owner deletes. One definition for both pages.
 */
export function savedQueryActions<F>(opts: { scope: SavedQueryScope; permission: Action; name: string; parse: (q: URLSearchParams) => Parsed<F>; serialize: (f: F) => string }) {
  const save = authedAction({ name: `save${opts.name}Query`, permission: opts.permission, input: savedQueryInputSchema }, async (input, { user, actor }) => {
    const parsed = opts.parse(new URLSearchParams(input.query));
    if (!parsed.ok) throw new AppError("bad_request", { userMessage: "This view's filters are not valid, so it cannot be saved; fix the filters first.", details: { fieldErrors: parsed.errors } });
    return createSavedQuery(getDb(), actor, { scope: opts.scope, userId: user.id, name: input.name, query: opts.serialize(parsed.filters), shared: input.shared });
  });
  const remove = authedAction({ name: `delete${opts.name}Query`, permission: opts.permission, input: z.object({ id: z.string().min(1).max(100) }) }, async ({ id }, { user, actor }) => {
    await deleteSavedQuery(getDb(), actor, { scope: opts.scope, userId: user.id, id });
    return null;
  });
  return { save, remove };
}
