"use server";

import { z } from "zod";
import { getDb } from "@/db/client";
import { createSavedQuery, deleteSavedQuery, savedQueryInputSchema } from "@/db/queries/saved-queries";
import { AppError } from "@/lib/errors";
import { parseHistoryFilters, serializeHistoryFilters } from "@/lib/history/filters";
import { authedAction } from "@/server/safe-action";

/** Saves the current failure-history view (its filters, normalised) for the signed-in user. */
export const saveHistoryQuery = authedAction({ name: "saveHistoryQuery", permission: "history.view", input: savedQueryInputSchema }, async (input, { user, actor }) => {
  const parsed = parseHistoryFilters(new URLSearchParams(input.query));
  if (!parsed.ok) throw new AppError("bad_request", { userMessage: "This view's filters are not valid, so it cannot be saved; fix the filters first.", details: { fieldErrors: parsed.errors } });
  return createSavedQuery(getDb(), actor, { scope: "failures", userId: user.id, name: input.name, query: serializeHistoryFilters(parsed.filters), shared: input.shared });
});

/** Deletes one of the user's own saved failure-history queries. */
export const deleteHistoryQuery = authedAction({ name: "deleteHistoryQuery", permission: "history.view", input: z.object({ id: z.string().min(1).max(100) }) }, async ({ id }, { user, actor }) => {
  await deleteSavedQuery(getDb(), actor, { scope: "failures", userId: user.id, id });
  return null;
});
