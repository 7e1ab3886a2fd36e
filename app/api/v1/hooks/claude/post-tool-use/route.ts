import { hookRoute, postToolUse } from "@/server/claude-hooks";
import { api } from "@/server/api-contract";

export const dynamic = "force-dynamic";

/** Claude Code's PostToolUse hook: records the approved call's result (a failure is diagnosed and told to the model). */
export const POST = hookRoute(api.claudePostToolUse, postToolUse);
