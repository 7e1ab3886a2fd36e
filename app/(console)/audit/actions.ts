"use server";

import { z } from "zod";
import { getDb } from "@/db/client";
import { createSavedQuery, deleteSavedQuery, savedQueryInputSchema } from "@/db/queries/saved-queries";
import { parseAuditFilters, serializeAuditFilters } from "@/lib/audit/filters";
import { AppError } from "@/lib/errors";
import { authedAction } from "@/server/safe-action";

/** Saves the current audit-log view (its filters, normalised) for the signed-in auditor. */
export const saveAuditQuery = authedAction({ name: "saveAuditQuery", permission: "audit.view", input: savedQueryInputSchema }, async (input, { user, actor }) => {
  const parsed = parseAuditFilters(new URLSearchParams(input.query));
  if (!parsed.ok) throw new AppError("bad_request", { userMessage: "This view's filters are not valid, so it cannot be saved; fix the filters first.", details: { fieldErrors: parsed.errors } });
  return createSavedQuery(getDb(), actor, { scope: "audit", userId: user.id, name: input.name, query: serializeAuditFilters(parsed.filters), shared: input.shared });
});

/** Deletes one of the user's own saved audit-log queries. */
export const deleteAuditQuery = authedAction({ name: "deleteAuditQuery", permission: "audit.view", input: z.object({ id: z.string().min(1).max(100) }) }, async ({ id }, { user, actor }) => {
  await deleteSavedQuery(getDb(), actor, { scope: "audit", userId: user.id, id });
  return null;
});
