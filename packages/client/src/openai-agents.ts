import { run as runAgent, tool, type Agent, type RunState, type RunToolApprovalItem } from "@openai/agents";
import { ActionNotApproved, describeNotApproved, type GovernOptions, type RunHandle } from "./index";

/**
 * The OpenAI Agents SDK under Faultline: `needsApproval` asks Faultline (an interruption only when a
 * person must decide), and `governedTool` runs a tool only with Faultline's approval, reporting its
 * result. A call Faultline rejects does not run: the model receives the decision (why, and what would
 * change it) as the tool's output, so it can adapt.
 */

type ToolOptions = Parameters<typeof tool>[0];
const argsOf = (input: unknown): Record<string, unknown> => (input !== null && typeof input === "object" && !Array.isArray(input) ? (input as Record<string, unknown>) : { input });

/** For a tool's `needsApproval`: proposes the call; true (the SDK interrupts) only while a person must decide. */
export function faultlineNeedsApproval(run: RunHandle, toolName: string) {
  return async (_context: unknown, input: unknown, callId?: string): Promise<boolean> => {
    if (!callId) return true; // no call id to bind a decision to: ask (deny on doubt)
    return (await run.propose({ callId, tool: toolName, args: argsOf(input) })).status === "pending";
  };
}

/** `tool({...})` with Faultline in front: proposed, waited for, run with the approved args, reported. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyExecute = (input: any, context?: any, details?: any) => unknown;

export function governedTool(run: RunHandle, options: Omit<ToolOptions, "execute" | "needsApproval"> & { name: string; execute: AnyExecute }, o: GovernOptions = {}): ReturnType<typeof tool> {
  const execute = options.execute as (input: unknown, context?: unknown, details?: { toolCall?: { callId?: string } }) => unknown;
  return tool({
    ...options,
    needsApproval: faultlineNeedsApproval(run, options.name),
    execute: async (input: unknown, context?: unknown, details?: { toolCall?: { callId?: string } }) => {
      const callId = details?.toolCall?.callId ?? crypto.randomUUID();
      let args: Record<string, unknown>;
      try {
        args = (await run.approve({ callId, tool: options.name, args: argsOf(input) }, o)).args;
      } catch (e) {
        if (e instanceof ActionNotApproved) return describeNotApproved(e);
        throw e;
      }
      return run.execute(callId, async () => execute(args, context, details), o);
    },
  } as never);
}

/**
 * Settles a result's interruptions with Faultline's decisions: waits for each pending proposal (a person
 * decides in the console), then approves or rejects it in the SDK's run state (a rejection carries the
 * reason to the model). Returns the state to run again.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyAgent = Agent<any, any>;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function settleInterruptions<S extends RunState<any, AnyAgent>>(result: { interruptions?: RunToolApprovalItem[]; state: S }, run: RunHandle, o: GovernOptions = {}): Promise<S> {
  for (const item of result.interruptions ?? []) {
    const raw = item.rawItem as { callId?: string };
    const name = item.name ?? "unknown";
    try {
      if (!raw.callId) throw new ActionNotApproved({ id: "-", tool: name, status: "unknown" }, null, "the call has no id to bind a decision to");
      await run.approve({ callId: raw.callId, tool: name, args: argsOf(JSON.parse(item.arguments ?? "{}")) }, o);
      result.state.approve(item);
    } catch (e) {
      if (!(e instanceof ActionNotApproved)) throw e;
      result.state.reject(item, { message: describeNotApproved(e) });
    }
  }
  return result.state;
}

/** `run(agent, input)` until it ends, settling every interruption with Faultline's decisions. */
export async function runGoverned(agent: AnyAgent, input: string, run: RunHandle, o: GovernOptions & { maxTurns?: number } = {}) {
  let result = await runAgent(agent, input, { maxTurns: o.maxTurns });
  while (result.interruptions?.length) {
    const state = await settleInterruptions(result, run, o);
    result = await runAgent(agent, state, { maxTurns: o.maxTurns });
  }
  return result;
}
