import type { ToolExecutionOptions, ToolSet } from "ai";
import { ActionNotApproved, describeNotApproved, type GovernOptions, type RunHandle } from "./index";

/**
 * The Vercel AI SDK under Faultline: `governTools(run, tools)` wraps each tool's `execute` so every call
 * is proposed (bound to the model's toolCallId), waited for while a person decides, run with the approved
 * args and reported. A call Faultline does not approve does not run: the model receives
 * `{ notApproved, decision }` as the tool's output (why, and what would change it) and can adapt.
 */
export function governTools<T extends ToolSet>(run: RunHandle, tools: T, o: GovernOptions = {}): T {
  const out: Record<string, unknown> = {};
  for (const [name, t] of Object.entries(tools)) {
    const execute = t.execute as ((input: unknown, options: ToolExecutionOptions) => unknown) | undefined;
    if (!execute) {
      out[name] = t; // a tool the client runs (no execute) is not called here
      continue;
    }
    out[name] = {
      ...t,
      execute: async (input: unknown, options: ToolExecutionOptions) => {
        const callId = options.toolCallId;
        let args: Record<string, unknown>;
        try {
          args = (await run.approve({ callId, tool: name, args: (input ?? {}) as Record<string, unknown> }, { ...o, signal: options.abortSignal ?? o.signal })).args;
        } catch (e) {
          if (e instanceof ActionNotApproved) return { notApproved: describeNotApproved(e), decision: e.decision };
          throw e;
        }
        return run.execute(callId, async () => execute(args, options), o);
      },
    };
  }
  return out as T;
}
