import type { BuiltInQuery } from "../query-filters";
import { serializeAuditFilters } from "./filters";

/** Views an auditor asks for often, shipped as built-in saved queries of the audit log. */
export const AUDIT_BUILT_IN_QUERIES: readonly BuiltInQuery[] = [
  { id: "builtin:audit-mission", name: "Everything done on this mission", query: "", needs: "mission", description: "Every recorded action on the current mission." },
  { id: "builtin:audit-refused-signins", name: "Refused sign-ins in the last 24 hours", query: serializeAuditFilters({ action: "auth.sign_in_failed", from: "24h" }) },
  { id: "builtin:audit-library-7d", name: "Library changes in the last 7 days", query: serializeAuditFilters({ action: "library.*", from: "7d" }) },
  { id: "builtin:audit-admin", name: "User and role changes", query: serializeAuditFilters({ action: "user.*" }) },
];
