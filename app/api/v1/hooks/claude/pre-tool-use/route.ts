import { hookRoute, preToolUse } from "@/server/claude-hooks";
import { api } from "@/server/api-contract";

export const dynamic = "force-dynamic";

/** Claude Code's PreToolUse hook: the authority decides the call; any doubt is a deny (HTTP 200, the documented JSON). */
export const POST = hookRoute(api.claudePreToolUse, preToolUse);
