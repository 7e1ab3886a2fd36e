import { tool, type StructuredToolInterface } from "@langchain/core/tools";
import type { RunnableConfig } from "@langchain/core/runnables";
import { Command, interrupt } from "@langchain/langgraph";
import { ActionNotApproved, describeNotApproved, type Faultline, type GovernOptions, type RunHandle } from "./index";

/**
 * LangGraph JS under Faultline. `governedTool(run, t)` wraps a LangChain tool: each call is proposed
 * (bound to the model's tool call id); while a person must decide, the graph pauses with `interrupt()`
 * (a checkpointer keeps it) carrying the Faultline proposal and its HITL prompt; resumed, the tool asks
 * again (the same call id is the same proposal) and runs only with the approved args, reporting its
 * result. A call Faultline does not approve does not run: the model reads why as the tool's output.
 */

/** What a governed tool's interrupt carries (`__interrupt__[i].value` / the state's task interrupts). */
export interface FaultlineInterrupt {
  faultline: { runId: string; proposalId: string; callId: string; tool: string; prompt: unknown };
}

export function governedTool(run: RunHandle, t: StructuredToolInterface, o: GovernOptions = {}) {
  return tool(
    async (input: unknown, config?: RunnableConfig & { toolCall?: { id?: string } }) => {
      const callId = config?.toolCall?.id ?? crypto.randomUUID();
      const args = (input ?? {}) as Record<string, unknown>;
      const asked = await run.propose({ callId, tool: t.name, args });
      if (asked.status === "pending") {
        // Pauses the graph the first time; when resumed, interrupt() returns and the decision is read below.
        interrupt<FaultlineInterrupt>({ faultline: { runId: run.id, proposalId: asked.id, callId, tool: t.name, prompt: asked.prompt } });
      }
      let approved: Record<string, unknown>;
      try {
        approved = (await run.approve({ callId, tool: t.name, args }, o)).args;
      } catch (e) {
        if (e instanceof ActionNotApproved) return describeNotApproved(e);
        throw e;
      }
      const { toolCall: _drop, ...rest } = config ?? {};
      void _drop;
      return run.execute(callId, async () => t.invoke(approved, rest), o);
    },
    { name: t.name, description: t.description, schema: t.schema as never },
  );
}

/**
 * Waits until Faultline has decided the proposals a graph paused on, then gives the Command that resumes
 * it (`graph.invoke(await resumeWhenDecided(...), config)`). Deny on doubt: a proposal still pending after
 * `waitMs` resumes too, and the tool then reads that it was not approved.
 */
export async function resumeWhenDecided(faultline: Faultline, interrupts: Array<{ value?: unknown }>, waitMs = 300_000): Promise<Command> {
  const decided: Record<string, string> = {};
  for (const i of interrupts) {
    const f = (i.value as FaultlineInterrupt | undefined)?.faultline;
    if (!f) continue;
    decided[f.proposalId] = (await faultline.proposals.decided(f.proposalId, waitMs)).proposal.status;
  }
  return new Command({ resume: decided });
}
