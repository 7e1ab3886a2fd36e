import { z } from "zod";
import { getTool } from "../tools";
import { VERIFICATION_METHODS, type DecisionRecord, type FailureReason, type HITLAction, type HITLPrompt, type LevelDetection, type NecessityLevel } from "../authority/types";
import type { ChatMessage, ChatRequest } from "../llm/client";
import { actionLine, renderMissionState } from "../views/state-render";
import { agentDefinition, agentsInOrder, type AutonomousDefinition, type MissionDefinition, type ToolName } from "./definition";
import { abortOption, option, type GateSpec } from "./failure";
import type { AgentError, AgentState, GateOption, MissionState, ProposalState } from "./types";

/**
 * Autonomous agents (issue 14, seed 002): a model chooses the next action, and every action it chooses
 * is a proposal the one authority decides. This module is the pure part of the loop: what the model is
 * offered and told, the proposal gate and its HITL prompt, and the structural stops.
 */

/** The two actions every autonomous agent has besides its tools. */
export const FINISH = "finish";
export const ASK = "ask";

/** The agent actor of a model-driven agent (FDR-N002: kind agent, like any other actor). */
export function agentActorId(agent: string, provider: string | null, model: string | null): string {
  return `agent:${agent}@${provider ?? "unconfigured"}/${model ?? "unknown"}`;
}


/** Tool descriptions the model is offered: one function per allowed tool, named as the tool, plus finish and ask. */
export function modelTools(auto: AutonomousDefinition): Array<{ name: string; description: string; parameters: Record<string, unknown> }> {
  const described: Record<ToolName, string> = {
    shell: "Run one program (no shell: command is the binary, args its arguments) in the mission's workspace. Only the mission's allowed binaries run.",
    file: "Read, write or list a file in the mission's workspace (paths are relative to the workspace).",
    http: "Make one HTTP request.",
    llm: "Ask a language model a question and get its text answer.",
  };
  const tools = auto.tools.map((name) => ({ name, description: `${described[name]} This is a proposal: an authority decides whether it runs.`, parameters: jsonSchemaOf(getTool(name)!.args) }));
  return [
    ...tools,
    { name: FINISH, description: "Say the goal is achieved. The mission's evidence rules are checked now; your summary is not evidence.", parameters: { type: "object", properties: { summary: { type: "string", description: "What you did." } }, required: ["summary"], additionalProperties: false } },
    { name: ASK, description: "Ask a person a question when something is ambiguous or you need information you cannot observe. Waits for the answer.", parameters: { type: "object", properties: { question: { type: "string" } }, required: ["question"], additionalProperties: false } },
  ];
}

function jsonSchemaOf(schema: z.ZodType): Record<string, unknown> {
  const json = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as Record<string, unknown>;
  delete json.$schema;
  return json;
}

/** The args of `finish` and `ask` (built once: a zod schema compiles its parser on first use). */
const FINISH_ARGS = z.strictObject({ summary: z.string() });
const ASK_ARGS = z.strictObject({ question: z.string().min(1) });

/** The args schema of an action a model may propose (finish, ask, or a tool's), for validation before the authority decides. */
export function actionArgsProblem(tool: string, args: unknown): string | null {
  const schema = tool === FINISH ? FINISH_ARGS : tool === ASK ? ASK_ARGS : getTool(tool)?.args;
  if (!schema) return null; // an unknown tool is the allowlist's to reject
  const parsed = schema.safeParse(args);
  return parsed.success ? null : parsed.error.issues.map((i) => `${i.path.join(".") || "(args)"}: ${i.message}`).join("; ");
}

/**
 * The request an autonomous agent's model turn sends, a pure function of the state the engine holds when it
 * asks (the worker's agentTurn sends exactly this; the console's debug view derives it again from the state
 * before the turn's write, since the flight recorder keeps the response, not the request).
 */
export function modelRequest(s: MissionState, agentName: string): ChatRequest {
  const auto = agentDefinition(s.definition, agentName).autonomous!;
  return { messages: transcript(s, agentName), tools: modelTools(auto), toolChoice: "auto", temperature: auto.temperature, maxTokens: MODEL_TURN_MAX_TOKENS };
}

/** The answer length an agent's model turn asks for. */
export const MODEL_TURN_MAX_TOKENS = 1024;

/** The conversation the model sees: the goal, then every proposal of this agent with what came of it. */
export function transcript(s: MissionState, agentName: string): ChatMessage[] {
  const def = agentDefinition(s.definition, agentName);
  const auto = def.autonomous!;
  const evidence = auto.evidence.length ? auto.evidence.map((e) => JSON.stringify(e)).join(", ") : "none: a person confirms";
  const messages: ChatMessage[] = [
    {
      role: "system",
      content: [
        `You are "${agentName}", an agent of the mission "${s.definition.name}" (${s.definition.objective}).`,
        "Every tool call you make is a proposal. An authority decides each one under the mission's rules before anything runs; you receive the result of what ran, or the decision (with the reason and what would change it) of what did not.",
        `Call ${FINISH} when the goal is achieved: the evidence rules (${evidence}) are checked then, not your words. Call ${ASK} to ask a person.`,
        `You may propose at most ${auto.maxActions} actions in this attempt. Work only inside the workspace.`,
      ].join("\n"),
    },
    { role: "user", content: `Goal: ${auto.goal}` },
  ];
  let attempt = 0;
  for (const p of s.proposals) {
    if (p.agent !== agentName || p.status === "pending") continue;
    if (p.attempt !== attempt) {
      if (attempt !== 0) messages.push({ role: "user", content: `Attempt ${p.attempt}: an operator decided that you continue after the failure above. Your action budget starts again.` });
      attempt = p.attempt;
    }
    const id = p.callId ?? p.id;
    messages.push({ role: "assistant", content: null, toolCalls: [{ id, name: p.action.tool, arguments: JSON.stringify(p.action.args) }] });
    messages.push({ role: "tool", toolCallId: id, content: p.outcome ?? JSON.stringify({ decision: p.status, note: p.step === null ? "It did not run." : "It ran; its result was not recorded (the run was interrupted)." }) });
  }
  const a = s.agents[agentName];
  if (attempt !== 0 && a.attempt !== attempt) messages.push({ role: "user", content: `Attempt ${a.attempt}: an operator decided that you continue after the failure above. Your action budget starts again.` });
  return messages;
}

/** The allowed modifications of a proposal: its args' top-level fields (a decider may change any of them). */
function modifiable(p: ProposalState): string[] {
  // Sorted: the order of a JSON object's keys is not kept by the log (jsonb) nor by a trace, so it must not matter.
  return Object.keys(p.action.args).sort();
}

/** FDR-N017: the structured prompt for whoever decides a pending proposal, person or reviewer agent. */
export function buildPrompt(s: MissionState, p: ProposalState, record: DecisionRecord): HITLPrompt {
  const call = describeAction(p);
  const ask = p.action.tool === ASK;
  const options: HITLAction[] = ask
    ? [
        { type: "retry", description: "Answer the question (approve with your answer as the note); the agent continues with it." },
        { type: "request_info", description: "Reject with what the agent should find out first.", suggestedQuestions: [] },
        { type: "abort", description: "Abort the mission." },
      ]
    : [
        { type: "retry", description: "Approve: the proposal runs exactly as proposed (the approval binds to its args digest and expires)." },
        { type: "modify", description: "Approve with modification: change the args (or narrow the allowed paths) before it runs; the modified args are what run.", allowedModifications: modifiable(p) },
        { type: "request_info", description: "Reject with a question or reason; the agent receives it and may propose something else.", suggestedQuestions: suggestedQuestions(p) },
        { type: "abort", description: "Abort the mission: open gates close, compensations run, it ends FAILED." },
      ];
  return {
    situation: ask ? `Agent "${p.agent}" asks: ${String(p.action.args.question ?? "")}` : `Agent "${p.agent}" proposes ${call} in mission "${s.name}" (${s.phase}). The authority did not decide it alone: ${record.reason}`,
    currentState: renderMissionState(s),
    yourProposal: { proposalId: p.id, agent: p.agent, actorId: p.actorId, action: p.action, argsDigest: p.argsDigest, level: p.level, verification: VERIFICATION_METHODS[p.level] },
    whyPending: { reason: record.pendingReason ?? "POLICY_HOLD", details: { authority: record.authority, reason: record.reason, level: record.level } },
    options,
    responseFormat: {
      type: "object",
      properties: {
        decision: { enum: ["approve", "reject", "modify"] },
        args: { type: "object", description: "modify only: the args that will run instead (validated against the tool's schema and the rules)" },
        note: { type: "string", description: ask ? "your answer to the question" : "why (recorded in the decision record)" },
      },
      required: ["decision"],
      additionalProperties: false,
    },
  };
}

function suggestedQuestions(p: ProposalState): string[] {
  const call = describeAction(p);
  const qs = [`What should ${call} change, and what is it for?`];
  if (p.action.tool === "shell") qs.push("Can the same be done inside the workspace only?");
  if (p.action.tool === "http") qs.push("Which host and which data does this request touch?");
  if (p.action.tool === "file") qs.push(`Is ${String(p.action.args.path ?? "this path")} the file the goal means?`);
  return qs;
}

export function describeAction(p: Pick<ProposalState, "action">): string {
  return actionLine(p.action);
}

/** A pending proposal holds the mission at a gate whose options go through the authority (approve, reject) or abort. */
export function proposalGate(s: MissionState, p: ProposalState, record: DecisionRecord, prompt: HITLPrompt, at: string): GateSpec {
  const a = s.agents[p.agent];
  const ask = p.action.tool === ASK;
  const options: GateOption[] = [
    { ...option("approve", "y", ask ? "Answer" : "Approve", ask ? "Answer the question (your note is the answer); the agent continues." : "Run it as proposed, or with the args you modify. The approval binds to the args' digest and expires."), recommended: false },
    option("reject", "r", "Reject", "Do not run it; the agent receives your reason and may propose something else."),
    abortOption(s),
  ];
  return {
    kind: "proposal",
    agent: p.agent,
    phase: a.phase,
    step: null,
    options,
    proposalId: p.id,
    prompt,
    error: {
      what: ask ? `Agent "${p.agent}" asks a question and waits for an answer.` : `Agent "${p.agent}" proposes ${describeAction(p)} and waits for a decision.`,
      why: record.reason,
      options,
      technical: { code: record.pendingReason ?? "POLICY_HOLD", timestamp: at, missionId: s.id, agentId: p.agent, proposalId: p.id, argsDigest: p.argsDigest, level: record.level, authority: record.authority },
    },
  };
}

/** A structural stop of an autonomous agent (seed 002 FailureReason): budget, time, no executable action, or its model unavailable. */
export function structuralError(a: AgentState, reason: FailureReason | null, message: string, toolError?: AgentError["context"]["toolError"], code?: AgentError["code"]): AgentError {
  const codes: Partial<Record<FailureReason, AgentError["code"]>> = { TIMEOUT: "TIMEOUT", RESOURCE_EXHAUSTED: "VALIDATION_FAILED", NO_EXECUTABLE_ACTION: "INVALID_OUTPUT" };
  return {
    code: code ?? (reason ? (codes[reason] ?? "VALIDATION_FAILED") : "PROVIDER_ERROR"),
    message,
    // A new attempt starts with a fresh budget and time, and the model sees what happened: a retry can help.
    recoverable: reason !== "NO_EXECUTABLE_ACTION",
    context: { step: a.steps.length, stepName: "choosing its next action", tool: "model", toolError: toolError ?? { code: reason === "TIMEOUT" ? "TIMEOUT" : "NOT_ALLOWED", message } },
    failureReason: reason,
  };
}
