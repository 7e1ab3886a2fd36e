import { z } from "zod";

/** A person's answer to a pending proposal (REST, server action, CLI): one schema for all of them. */
export const proposalDecisionInput = z
  .strictObject({
    decision: z.enum(["approve", "reject", "modify"], { error: 'must be one of approve, reject, modify ("modify" approves with the args you send)' }),
    args: z.record(z.string(), z.unknown(), { error: "must be a JSON object of the tool's arguments" }).optional(),
    scope: z.strictObject({ allowedPaths: z.array(z.string().trim().min(1).max(500)).min(1).max(50) }).optional(),
    note: z.string().trim().max(2000, "must be at most 2000 characters").nullish(),
  })
  .superRefine((v, ctx) => {
    if (v.decision === "modify" && !v.args && !v.scope) ctx.addIssue({ code: "custom", path: ["args"], message: 'is required with "modify": send the args that will run instead (or a narrowed scope)' });
    if (v.decision !== "modify" && (v.args || v.scope)) ctx.addIssue({ code: "custom", path: ["args"], message: 'only goes with "modify" (approving with other args is a modification)' });
    if (v.decision === "reject" && !v.note) ctx.addIssue({ code: "custom", path: ["note"], message: "is required to reject: say why, the agent receives it" });
  });
export type ProposalDecisionInput = z.infer<typeof proposalDecisionInput>;
