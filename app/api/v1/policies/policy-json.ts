import type { GatePolicyRow } from "@/db/schema";
import { policySnapshot } from "@/db/queries/gate-policies";
import { policyScope, whoMayDecide } from "@/lib/mission/gate-policy";

/** A policy as the REST API returns it: the snapshot fields, who changed it when, and its scope and rule in words. */
export function policyJson(r: GatePolicyRow) {
  const s = policySnapshot(r);
  return { ...s, scope: policyScope(s), who: whoMayDecide(s), createdBy: r.createdBy, createdAt: new Date(r.createdAt).toISOString(), updatedBy: r.updatedBy, updatedAt: new Date(r.updatedAt).toISOString() };
}
