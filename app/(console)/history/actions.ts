"use server";

import { parseHistoryFilters, serializeHistoryFilters } from "@/lib/history/filters";
import { savedQueryActions } from "@/server/saved-query-actions";

const actions = savedQueryActions({ scope: "failures", permission: "history.view", name: "History", parse: parseHistoryFilters, serialize: serializeHistoryFilters });

/** Saves the current failure-history view (its filters, normalised) for the signed-in user. */
export const saveHistoryQuery = actions.save;

/** Deletes one of the user's own saved failure-history queries. */
export const deleteHistoryQuery = actions.remove;
