import type { z } from "zod";
import { TOOL_NAMES, type StepDefinition, type ToolName } from "../mission/definition";
import { fileTool } from "./file";
import { errorMessage } from "./util";
import { formatPath } from "../errors";
import { httpTool } from "./http";
import { llmTool } from "./llm";
import { assertToolResult, fail, type Tool, type ToolContext, type ToolResult } from "./result";
import { shellTool } from "./shell";

export * from "./result";
export { evaluateEvidence, evidencePassed, describeFailedEvidence, type EvidenceRecord } from "./evidence";
export { shellTool, createShellTool, type ShellArgs, type ShellData } from "./shell";
export { httpTool, type HttpArgs, type HttpData } from "./http";
export { fileTool, resolveInWorkspace, type FileArgs } from "./file";
export { llmTool, createLlmTool, llmArgsSchema, type LlmArgs, type LlmData } from "./llm";

export const tools: Record<ToolName, Tool> = { shell: shellTool, http: httpTool, file: fileTool, llm: llmTool };

export function getTool(name: string): Tool | undefined {
  return Object.hasOwn(tools, name) ? tools[name as ToolName] : undefined;
}

/**
 * Whether a step may be re-run with the same idempotency key after a crash: its own flag, else its tool's.
 * (Here, not in lib/mission: the tools' registry runs processes, and lib/mission is also bundled for the browser.)
 */
export function stepIdempotent(step: StepDefinition): boolean {
  return step.idempotent ?? getTool(step.tool)?.idempotent ?? false;
}


/** "command: expected string; args[0]: …" — every problem with its field path. */
export function formatArgIssues(issues: readonly z.core.$ZodIssue[]): string {
  return issues.map((i) => `${formatPath(i.path) || "(arguments)"}: ${i.message}`).join("; ");
}

async function runChecked(tool: Tool, args: unknown, ctx: ToolContext): Promise<ToolResult> {
  const parsed = tool.args.safeParse(args);
  if (!parsed.success) {
    return fail({
      code: "INVALID_ARGS",
      message: `Invalid arguments for the ${tool.name} tool: ${formatArgIssues(parsed.error.issues)}. Fix the step's args in the mission definition.`,
      details: { issues: parsed.error.issues.map((i) => ({ path: formatPath(i.path), message: i.message })) },
    });
  }
  let result: unknown;
  try {
    result = await tool.run(parsed.data, ctx);
  } catch (err) {
    return fail({ code: "INTERNAL_ERROR", message: `The ${tool.name} tool crashed: ${errorMessage(err)}. This is a bug in the tool, not in the mission definition.` });
  }
  try {
    assertToolResult(result);
    return result;
  } catch (err) {
    return fail({ code: "INTERNAL_ERROR", message: `The ${tool.name} tool returned a malformed result (${errorMessage(err)}). This is a bug in the tool, not in the mission definition.` });
  }
}

/**
 * Run a tool by name. Never throws: an unknown name, bad arguments, a throw inside the tool and a
 * result that breaks the ToolResult contract all come back as `{ ok: false }`.
 */
export async function runTool(name: string, args: unknown, ctx: ToolContext): Promise<ToolResult> {
  const tool = getTool(name);
  if (!tool) return fail({ code: "UNKNOWN_TOOL", message: `There is no tool named "${name}". Available tools: ${TOOL_NAMES.join(", ")}.` });
  try {
    return await runChecked(tool, args, ctx);
  } catch (err) {
    return fail({ code: "INTERNAL_ERROR", message: `Running the ${name} tool failed unexpectedly: ${errorMessage(err)}.` });
  }
}
