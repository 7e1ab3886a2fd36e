"use server";

import { z } from "zod";
import { getDb } from "@/db/client";
import { publishDefaultPolicy } from "@/db/queries/authority";
import { authedAction } from "@/server/safe-action";

/** Publishes a new version of the default authority policy (admin: policy.manage); validated and audited in publishDefaultPolicy. */
export const publishAuthorityPolicyAction = authedAction(
  { name: "publishAuthorityPolicy", permission: "policy.manage", input: z.object({ rules: z.unknown(), note: z.string().trim().max(500, "must be at most 500 characters").nullish() }) },
  async (input, { user, actor }) => publishDefaultPolicy(getDb(), { ...actor, name: user.name }, { rules: input.rules, note: input.note || null }),
);
