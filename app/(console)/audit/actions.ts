"use server";

import { parseAuditFilters, serializeAuditFilters } from "@/lib/audit/filters";
import { savedQueryActions } from "@/server/saved-query-actions";

const actions = savedQueryActions({ scope: "audit", permission: "audit.view", name: "Audit", parse: parseAuditFilters, serialize: serializeAuditFilters });

/** Saves the current audit-log view (its filters, normalised) for the signed-in auditor. */
export const saveAuditQuery = actions.save;

/** Deletes one of the user's own saved audit-log queries. */
export const deleteAuditQuery = actions.remove;
