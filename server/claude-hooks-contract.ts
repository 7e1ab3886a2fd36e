import { z } from "zod";

/** Claude Code's hook input (PreToolUse / PostToolUse), as its hooks reference documents it; unknown fields are kept. */
export const hookInputSchema = z.looseObject({
  session_id: z.string().trim().min(1).max(200),
  transcript_path: z.string().optional(),
  cwd: z.string().max(1000).optional(),
  hook_event_name: z.string().optional(),
  tool_name: z.string().trim().min(1).max(120),
  tool_input: z.record(z.string(), z.unknown()).default({}),
  tool_use_id: z.string().trim().min(1).max(200),
  tool_response: z.unknown().optional(),
});
export type HookInput = z.infer<typeof hookInputSchema>;

/** The PreToolUse answer Claude Code reads on exit 0 / HTTP 200. */
export const preToolUseOutputSchema = z.object({
  hookSpecificOutput: z.object({ hookEventName: z.literal("PreToolUse"), permissionDecision: z.enum(["allow", "deny", "ask"]), permissionDecisionReason: z.string() }),
});
/** The PostToolUse answer: `{}`, or a `systemMessage` when the result was a failure or was not recorded. */
export const postToolUseOutputSchema = z.object({ systemMessage: z.string().optional() });
