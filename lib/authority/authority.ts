import picomatch from "picomatch";
import { argsDigest } from "./digest";
import { actionFacts, actionSegments, describeMatchers, matchRule, ruleId, type ActionFacts, type Rule } from "./rules";
import {
  AUTHORITY_ACTOR_ID,
  VERIFICATION_METHODS,
  type Counterfactual,
  type DecisionRecord,
  type FailureReason,
  type NecessityLevel,
  type PendingReason,
  type ProposedAction,
} from "./types";

/**
 * The one authority (FDR-N003, N013, N014): every proposal, of an autonomous agent now and of an external
 * agent next, is decided here; a person's answer to a pending proposal goes through `decideByPerson`,
 * never around it. Pure and synchronous: the same input always gets the same decision, and a failure
 * inside the authority denies (fail closed), it never allows.
 *
 * Order of `decide`: malformed args → finish (the evidence decides; FP-5) → ask (a person answers) →
 * tool allowlist → binary allowlist → rules (mission rules, then the default policy; deny wins over hold,
 * hold over allow) → the level's verification (1: consistency with what was already decided;
 * 2: an action with effects that no allow rule vouches for waits; 3: everything waits for a person).
 */

export const DEFAULT_APPROVAL_TTL_MS = 15 * 60_000;

/** The two actions every autonomous agent has besides its tools. */
const FINISH = "finish";
const ASK = "ask";

export interface EvidenceObservation {
  check: string;
  passed: boolean;
  expected?: unknown;
  actual?: unknown;
  detail?: string;
}

export interface DecideInput {
  proposal: { id: string; actorId: string; agent: string; action: ProposedAction; argsDigest: string };
  level: NecessityLevel;
  /** The mission's rules. */
  rules: readonly Rule[];
  /** The admin's default policy in force. */
  defaultPolicy: readonly Rule[];
  /** The tools the agent may use (fail closed: anything else is denied); ["*"]: any tool (an external agent without a tool list). */
  allowedTools: readonly string[];
  /** The binaries the mission may run; ["*"]: any (an external run without an allowlist: the rules still apply). */
  allowedBinaries: readonly string[];
  /** The workspace's absolute path: absolute paths under it count as inside (external agents pass absolute paths). */
  workspace?: string;
  /** Recorded observations: the agent's evidence checked now (for finish). Absent = the agent has no evidence rules. */
  observations?: { evidence?: readonly EvidenceObservation[] };
  /** What was already decided in this attempt: digests of rejected proposals. */
  history?: { rejectedDigests: readonly string[] };
  now: number;
  approvalTtlMs: number;
  /** The args do not fit the tool's schema (or could not be parsed): the proposal cannot be decided on its merits. */
  argsProblem?: string | null;
}

type Verdict =
  | { decision: "approved"; authority: string; reason: string }
  | { decision: "rejected"; authority: string; reason: string; failureReason: FailureReason; counterfactual: Counterfactual | null }
  | { decision: "pending"; authority: string; reason: string; pendingReason: PendingReason };

/** Decides a proposal. Never throws: a failure inside the authority is a rejection that says so. */
export function decide(input: DecideInput): DecisionRecord {
  const started = performance.now();
  let verdict: Verdict;
  try {
    verdict = verdictOf(input);
  } catch (err) {
    verdict = {
      decision: "rejected",
      authority: "authority-error",
      reason: `The authority could not decide this proposal (${err instanceof Error ? err.message : String(err)}), so it is denied: a failure inside the authority never allows.`,
      failureReason: "AUTHORITY_REJECTION",
      counterfactual: null,
    };
  }
  return recordOf(verdict, input, performance.now() - started);
}

function recordOf(v: Verdict, input: DecideInput, ms: number): DecisionRecord {
  const approved = v.decision === "approved";
  return {
    decision: v.decision,
    authority: v.authority,
    level: input.level,
    verification: VERIFICATION_METHODS[input.level],
    decidedBy: AUTHORITY_ACTOR_ID,
    reason: v.reason,
    failureReason: v.decision === "rejected" ? v.failureReason : null,
    pendingReason: v.decision === "pending" ? v.pendingReason : null,
    counterfactual: v.decision === "rejected" ? v.counterfactual : null,
    decisionTimeMs: Math.round(ms * 1000) / 1000,
    note: null,
    decidedAt: new Date(input.now).toISOString(),
    argsDigest: approved ? input.proposal.argsDigest : null,
    expiresAt: approved ? new Date(input.now + input.approvalTtlMs).toISOString() : null,
  };
}

function verdictOf(input: DecideInput): Verdict {
  const { action } = input.proposal;
  if (input.argsProblem) {
    return {
      decision: "rejected",
      authority: "schema",
      reason: `The ${action.tool} args do not fit its schema: ${input.argsProblem}. Nothing ran.`,
      failureReason: "AUTHORITY_REJECTION",
      counterfactual: { change: { type: "resolve_ambiguity", resolution: `${action.tool} args that satisfy its schema (${input.argsProblem})` }, expectedOutcome: "different_failure", confidence: "high" },
    };
  }
  if (action.tool === FINISH) return finishVerdict(input);
  if (action.tool === ASK) return { decision: "pending", authority: "ask", reason: `The agent asks a person: ${String(action.args.question ?? "")}`, pendingReason: "AGENT_ASKED" };
  if (!toolAllowed(input.allowedTools, action.tool)) {
    return {
      decision: "rejected",
      authority: "allowlist",
      reason: `"${action.tool}" is not one of the tools this agent may use (${input.allowedTools.join(", ") || "none"}): denied, fail closed.`,
      failureReason: "AUTHORITY_REJECTION",
      counterfactual: { change: { type: "relax_constraint", constraint: `autonomous.tools: add "${action.tool}"` }, ...decidedAgain({ ...input, allowedTools: [...input.allowedTools, action.tool] }) },
    };
  }
  // Every command the action runs is checked (a command line's `a && b | c` is three); the worst decision wins.
  const segments = actionSegments(action, input.workspace);
  const facts = segments[0];
  const quote = segments.length > 1;
  let hold: Matched | undefined;
  let allowAll = true;
  for (const seg of segments) {
    const what = quote ? ` (in \`${seg.line}\`)` : "";
    if (seg.tool === "shell" && (seg.binary === null || !binaryAllowed(input.allowedBinaries, seg.binary))) {
      return {
        decision: "rejected",
        authority: "allowlist",
        reason: seg.binary === null ? "The shell proposal names no binary that can be read: denied." : `"${seg.binary}"${what} is not on this mission's allowedBinaries (${input.allowedBinaries.join(", ") || "none"}): denied, fail closed.`,
        failureReason: "AUTHORITY_REJECTION",
        counterfactual: seg.binary === null ? null : { change: { type: "relax_constraint", constraint: `allowedBinaries: add "${seg.binary}"` }, ...decidedAgain({ ...input, allowedBinaries: [...input.allowedBinaries, seg.binary] }) },
      };
    }
    const matched = matchRules(input, seg);
    const deny = matched.find((m) => m.rule.effect === "deny");
    if (deny) {
      return {
        decision: "rejected",
        authority: deny.name,
        reason: sentence(`Denied by ${deny.name}${what}: ${deny.rule.reason ?? describeRule(deny.rule)}`),
        failureReason: "AUTHORITY_REJECTION",
        counterfactual: { change: { type: "relax_constraint", constraint: deny.name }, ...decidedAgain({ ...input, rules: input.rules.filter((r) => r !== deny.rule), defaultPolicy: input.defaultPolicy.filter((r) => r !== deny.rule) }) },
      };
    }
    hold ??= matched.find((m) => m.rule.effect === "hold");
    if (!matched.some((m) => m.rule.effect === "allow")) allowAll = false;
  }
  if (hold) return { decision: "pending", authority: hold.name, reason: sentence(`Held by ${hold.name}: ${hold.rule.reason ?? describeRule(hold.rule)}`), pendingReason: "POLICY_HOLD" };
  const allow = allowAll ? matchRules(input, facts).find((m) => m.rule.effect === "allow") : undefined;
  if (input.level >= 1 && input.history?.rejectedDigests.includes(input.proposal.argsDigest)) {
    return {
      decision: "rejected",
      authority: "history",
      reason: "Exactly this action (same args digest) was already rejected in this attempt; the decision stays consistent with the record.",
      failureReason: "AUTHORITY_REJECTION",
      counterfactual: { change: { type: "add_observation", observation: "a different action, or new information that changes the earlier decision" }, expectedOutcome: "different_failure", confidence: "medium" },
    };
  }
  if (input.level === 3) return { decision: "pending", authority: "level", reason: "The mission is at necessity level 3 (its success is defined in natural language): every action needs a person's confirmation.", pendingReason: "LEVEL_REQUIRES_CONFIRMATION" };
  if (input.level === 2 && !allow && hasEffects(facts, action)) {
    return { decision: "pending", authority: "level", reason: "At necessity level 2 an action with effects needs a rule that allows it or a person's decision (semantic audit); no allow rule matched.", pendingReason: "LOW_CONFIDENCE" };
  }
  if (allow) return { decision: "approved", authority: allow.name, reason: sentence(`Allowed by ${allow.name}${allow.rule.reason ? `: ${allow.rule.reason}` : ""}`) };
  return { decision: "approved", authority: "default", reason: `Within the agent's allowlists, and no rule denies or holds it (${input.rules.length} mission rule(s), ${input.defaultPolicy.length} default-policy rule(s) checked).` };
}

function toolAllowed(allowed: readonly string[], tool: string): boolean {
  return allowed.includes("*") || allowed.includes(tool);
}

/** Shell builtins with no effect outside the shell itself: a command line's `cd dir && …` needs no allowlist entry (rules still apply). */
const SHELL_STATE_BUILTINS = new Set(["cd", "pwd", "true", "false", "test", "[", ":", "export", "set", "unset", "pushd", "popd"]);

function binaryAllowed(allowed: readonly string[], binary: string): boolean {
  return allowed.includes("*") || allowed.includes(binary) || SHELL_STATE_BUILTINS.has(binary);
}

/** A rule's reason as the end of a sentence: one final period, not two when the reason has its own. */
function sentence(s: string): string {
  const t = s.trim();
  return /[.!?]$/.test(t) ? t : `${t}.`;
}

function finishVerdict(input: DecideInput): Verdict {
  const evidence = input.observations?.evidence;
  if (input.level === 3 || !evidence) {
    return { decision: "pending", authority: "level", reason: "The agent says it is done, and no evidence rules can check it: a person confirms the goal was reached (its claim is not evidence).", pendingReason: "LEVEL_REQUIRES_CONFIRMATION" };
  }
  const failed = evidence.filter((e) => !e.passed);
  if (evidence.length > 0 && failed.length === 0) return { decision: "approved", authority: "evidence", reason: `Every evidence check holds (${evidence.map((e) => e.check).join(", ")}).` };
  return {
    decision: "rejected",
    authority: "evidence",
    reason: `The agent says it is done, but the evidence does not hold: ${failed.map((e) => `${e.check} ${e.detail ?? "failed"}`).join("; ") || "no evidence was recorded"}. A claim of success is not evidence.`,
    failureReason: "AUTHORITY_REJECTION",
    counterfactual: { change: { type: "add_observation", observation: failed.map((e) => ({ check: e.check, expected: e.expected ?? null })) }, expectedOutcome: "success", confidence: "high" },
  };
}

interface Matched {
  rule: Rule;
  name: string;
}

function matchRules(input: Pick<DecideInput, "rules" | "defaultPolicy">, facts: ActionFacts): Matched[] {
  const out: Matched[] = [];
  input.rules.forEach((rule, i) => {
    const name = `rule:${ruleId(rule, i)}`;
    if (matchRule(rule, facts)) out.push({ rule, name });
  });
  input.defaultPolicy.forEach((rule, i) => {
    const name = `default-policy:${ruleId(rule, i)}`;
    if (matchRule(rule, facts)) out.push({ rule, name });
  });
  return out;
}

/**
 * FE-R4: what relaxing one constraint would lead to, found by deciding the whole action again without it
 * (deterministic): every command of the line, every rule, the necessity level and the attempt's history
 * count, as they did. Approved: success, with high confidence. Refused by something else: a different
 * failure. Held for a person (a hold rule, the level's confirmation): success only if they approve, so
 * low confidence — a replay cannot know their answer (counterfactual-verify says "undetermined").
 */
function decidedAgain(relaxed: DecideInput): Pick<Counterfactual, "expectedOutcome" | "confidence"> {
  const v = verdictOf(relaxed);
  if (v.decision === "approved") return { expectedOutcome: "success", confidence: "high" };
  if (v.decision === "rejected") return { expectedOutcome: "different_failure", confidence: "high" };
  return { expectedOutcome: "success", confidence: "low" };
}

function hasEffects(facts: ActionFacts, action: ProposedAction): boolean {
  // An external tool read as a file call is one of its writing tools (write, edit, delete, …).
  if (facts.tool === "file") return facts.name !== undefined && facts.name !== "file" ? true : action.args.op === "write";
  if (facts.tool === "http") return !/^(GET|HEAD) /.test(facts.line);
  return facts.tool === "shell";
}

function describeRule(rule: Rule): string {
  return `${rule.effect} ${describeMatchers(rule)}`;
}

/** The policy evaluation of an action alone (deny/hold/allow by rule), for callers that re-check modified args. */
export function ruleVerdict(input: Pick<DecideInput, "rules" | "defaultPolicy" | "allowedBinaries" | "allowedTools">, action: ProposedAction): { effect: "deny" | "hold" | "allow" | "none"; name: string | null; reason: string } {
  if (!toolAllowed(input.allowedTools, action.tool) && action.tool !== FINISH && action.tool !== ASK) return { effect: "deny", name: "allowlist", reason: `"${action.tool}" is not one of this agent's tools` };
  const segments = actionSegments(action);
  for (const facts of segments) if (facts.tool === "shell" && (facts.binary === null || !binaryAllowed(input.allowedBinaries, facts.binary))) return { effect: "deny", name: "allowlist", reason: `"${facts.binary ?? "(none)"}" is not on the mission's allowedBinaries` };
  const matched = segments.flatMap((facts) => matchRules(input, facts));
  const first = matched.find((m) => m.rule.effect === "deny") ?? matched.find((m) => m.rule.effect === "hold") ?? matched.find((m) => m.rule.effect === "allow");
  return first ? { effect: first.rule.effect, name: first.name, reason: first.rule.reason ?? describeRule(first.rule) } : { effect: "none", name: null, reason: "no rule matches" };
}

// ---------- a person's (or reviewer agent's) answer ----------

export interface PersonDecisionInput {
  proposal: { id: string; actorId: string; agent: string; action: ProposedAction; argsDigest: string };
  /** The authority's pending record the answer resolves. */
  pendingRecord: DecisionRecord;
  decider: { actorId: string; kind: "human" | "agent" | "system" };
  proposerActorId: string;
  answer: "approve" | "reject" | "modify";
  /** For modify: the args that will run instead. */
  args?: Record<string, unknown>;
  /** For modify: narrowed allowed paths (globs); the args' paths must lie within them. */
  scope?: { allowedPaths?: string[] };
  note: string | null;
  now: number;
  approvalTtlMs: number;
  rules: readonly Rule[];
  defaultPolicy: readonly Rule[];
  allowedTools: readonly string[];
  allowedBinaries: readonly string[];
  /** A reviewer agent may answer only where a rule names it. */
  reviewerAllowed: boolean;
  /** Checks modified args against the tool's schema; null when they fit. */
  argsProblem?: (args: Record<string, unknown>) => string | null;
}

export type PersonDecision = { ok: true; record: DecisionRecord } | { ok: false; code: "conflict" | "forbidden" | "invalid"; message: string; field?: string };

/**
 * A decider's answer, through the authority: nobody decides their own proposal; a reviewer agent only
 * where a rule names it; a modification is validated against the tool's schema and the rules again (deny
 * still wins; the person's decision satisfies a hold); the approval binds to the digest of the args that
 * will run and expires.
 */
export function decideByPerson(input: PersonDecisionInput): PersonDecision {
  const started = performance.now();
  if (input.pendingRecord.decision !== "pending") return { ok: false, code: "conflict", message: `This proposal was already ${input.pendingRecord.decision}; nothing was changed.` };
  if (input.decider.actorId === input.proposerActorId) return { ok: false, code: "forbidden", message: "Nobody decides their own proposal: another actor must decide it." };
  if (input.decider.kind === "system") return { ok: false, code: "forbidden", message: "A pending proposal waits for a person (or a reviewer agent a rule names); a system actor cannot answer it." };
  if (input.decider.kind === "agent" && !input.reviewerAllowed) return { ok: false, code: "forbidden", message: `Agent ${input.decider.actorId} is not a reviewer of this mission's hold rules: only a rule's \`reviewers\` may answer for an agent.` };
  const { action } = input.proposal;
  let args = action.args;
  let modified: DecisionRecord["modified"] = null;
  if (input.answer === "modify") {
    // A modification changes the args, or only narrows the scope of the args as proposed.
    const next = input.args ?? (input.scope ? action.args : undefined);
    if (!next || typeof next !== "object" || Array.isArray(next)) return { ok: false, code: "invalid", field: "args", message: "modify needs `args`: a JSON object with the args that will run instead (or a narrowed scope)." };
    if (action.tool === FINISH || action.tool === ASK) return { ok: false, code: "invalid", field: "decision", message: `A ${action.tool} proposal has no args to modify: approve or reject it.` };
    const problem = input.argsProblem?.(next) ?? null;
    if (problem) return { ok: false, code: "invalid", field: "args", message: `The modified args do not fit the ${action.tool} tool's schema: ${problem}. Nothing was changed.` };
    const verdict = ruleVerdict(input, { tool: action.tool, args: next });
    if (verdict.effect === "deny") return { ok: false, code: "invalid", field: "args", message: `The modified args are denied by ${verdict.name} (${verdict.reason}): deny wins, even over a person. Nothing was changed.` };
    const allowed = input.scope?.allowedPaths;
    if (allowed) {
      if (!Array.isArray(allowed) || allowed.some((p) => typeof p !== "string" || !p)) return { ok: false, code: "invalid", field: "scope.allowedPaths", message: "scope.allowedPaths must be a list of path globs, e.g. [\"reports/**\"]." };
      const outside = actionFacts({ tool: action.tool, args: next }).paths.filter((p) => !allowed.some((g) => picomatch(g, { dot: true })(p)));
      if (outside.length) return { ok: false, code: "invalid", field: "scope.allowedPaths", message: `The args touch ${outside.join(", ")}, outside the narrowed scope (${allowed.join(", ")}). Change the args or widen the scope.` };
    }
    args = next;
    modified = { args, ...(allowed ? { scope: { allowedPaths: allowed } } : {}) };
  }
  const approved = input.answer !== "reject";
  const ms = performance.now() - started;
  const who = input.decider.kind === "agent" ? "a reviewer agent" : "a person";
  return {
    ok: true,
    record: {
      decision: approved ? "approved" : "rejected",
      authority: "hitl",
      level: input.pendingRecord.level,
      verification: input.pendingRecord.verification,
      decidedBy: input.decider.actorId,
      reason: approved
        ? modified
          ? `Approved with modified args by ${who} (was pending: ${input.pendingRecord.reason})`
          : `Approved by ${who} (was pending: ${input.pendingRecord.reason})`
        : `Rejected by ${who}${input.note ? `: ${input.note}` : ""}`,
      failureReason: approved ? null : "AUTHORITY_REJECTION",
      pendingReason: null,
      counterfactual: approved ? null : { change: { type: "obtain_confirmation", from: "a decider of this mission's gates" }, expectedOutcome: "success", confidence: "low" },
      decisionTimeMs: Math.round(ms * 1000) / 1000,
      note: input.note,
      decidedAt: new Date(input.now).toISOString(),
      modified,
      argsDigest: approved ? argsDigest(args) : null,
      expiresAt: approved ? new Date(input.now + input.approvalTtlMs).toISOString() : null,
    },
  };
}

/**
 * Nobody answered a pending proposal before its gate policy's deadline: the system decides, and it never
 * approves on silence (deny on doubt). The proposal is rejected as HUMAN_REQUIRED; the agent is told.
 */
export function timeoutRecord(pending: DecisionRecord, decidedBy: string, reason: string, now: number): DecisionRecord {
  return closedUnapproved(pending, { authority: "timeout", decidedBy, reason: `${reason}: nobody decided in time, and silence never approves (was pending: ${pending.reason})`, confirmFrom: "a decider of this mission's gates, before the deadline", now });
}

/**
 * A proposal closed without anyone's approval (its deadline passed; the gate it waited on ended its
 * agent's work): rejected, HUMAN_REQUIRED; only a person's confirmation would have changed it.
 */
export function closedUnapproved(
  was: Pick<DecisionRecord, "level" | "verification">,
  c: { authority: string; decidedBy: string; reason: string; confirmFrom: string; now: number },
): DecisionRecord {
  return {
    decision: "rejected",
    authority: c.authority,
    level: was.level,
    verification: was.verification,
    decidedBy: c.decidedBy,
    reason: c.reason,
    failureReason: "HUMAN_REQUIRED",
    pendingReason: null,
    counterfactual: { change: { type: "obtain_confirmation", from: c.confirmFrom }, expectedOutcome: "success", confidence: "medium" },
    decisionTimeMs: 0,
    note: null,
    decidedAt: new Date(c.now).toISOString(),
    argsDigest: null,
    expiresAt: null,
  };
}

// ---------- the worker's check before running ----------

export type ApprovalCheck = { ok: true } | { ok: false; why: "not_approved" | "expired" | "digest_mismatch"; message: string };

/** Before running: the approval must be an approval, unexpired, and bound to exactly these args. */
export function isApprovalValid(record: DecisionRecord, args: Record<string, unknown>, now: number): ApprovalCheck {
  if (record.decision !== "approved") return { ok: false, why: "not_approved", message: `The proposal is ${record.decision}, not approved: nothing runs.` };
  if (record.expiresAt && now > Date.parse(record.expiresAt)) return { ok: false, why: "expired", message: `The approval expired at ${record.expiresAt} before it ran: it is refused, never applied. The agent proposes again.` };
  const digest = argsDigest(args);
  if (!record.argsDigest || record.argsDigest !== digest) return { ok: false, why: "digest_mismatch", message: `The args about to run (${digest}) are not the approved args (${record.argsDigest ?? "none"}): refused, never applied.` };
  return { ok: true };
}
