import type { BuiltInQuery } from "../query-filters";
import { serializeHistoryFilters } from "./filters";

/**
 * FAILURE_MODEL's three audit queries, shipped with Faultline as built-in saved queries of the failure
 * history. The tool code for HTTP 429 is RATE_LIMITED (lib/tools/result.ts), stored as `rate_limited`.
 */
export const HISTORY_BUILT_IN_QUERIES: readonly BuiltInQuery[] = [
  { id: "builtin:mission", name: "All failures for this mission", query: "sort=time&dir=asc", needs: "mission", description: "Every failure of the current mission, oldest first." },
  { id: "builtin:unresolved", name: "All unresolved failures", query: serializeHistoryFilters({ status: "unresolved" }) },
  { id: "builtin:rate-limited-1h", name: "Rate-limit failures in the last hour", query: serializeHistoryFilters({ type: "rate_limited", from: "1h" }) },
];
