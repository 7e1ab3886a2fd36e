"use server";

import { z } from "zod";
import { getDb } from "@/db/client";
import { createGatePolicy, deleteGatePolicy, updateGatePolicy } from "@/db/queries/gate-policies";
import { gatePolicyInput } from "@/lib/mission/gate-policy";
import { authedAction } from "@/server/safe-action";

/** Gate policies (policy.manage): create, replace, delete; each audited in its transaction (db/queries/gate-policies.ts). */

export const createPolicyAction = authedAction({ name: "createPolicy", permission: "policy.manage", input: gatePolicyInput }, async (input, { actor }) => {
  const row = await createGatePolicy(getDb(), { input, actor });
  return { id: row.id };
});

export const updatePolicyAction = authedAction({ name: "updatePolicy", permission: "policy.manage", input: z.object({ id: z.guid("must be a policy id"), policy: gatePolicyInput }) }, async (input, { actor }) => {
  const row = await updateGatePolicy(getDb(), { id: input.id, input: input.policy, actor });
  return { id: row.id };
});

export const deletePolicyAction = authedAction({ name: "deletePolicy", permission: "policy.manage", input: z.object({ id: z.guid("must be a policy id") }) }, async (input, { actor }) => {
  const row = await deleteGatePolicy(getDb(), { id: input.id, actor });
  return { id: row.id };
});
