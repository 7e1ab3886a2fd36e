import { createHash } from "node:crypto";
import { canonicalJson } from "../authority/digest";
import { DEFAULT_APPROVAL_TTL_MS } from "../authority/authority";
import { ruleId, type Rule } from "../authority/rules";
import { modelTools, transcript } from "../mission/autonomous";
import { agentDefinition } from "../mission/definition";
import { advance, type EngineIO, type ThinkResult } from "../mission/engine";
import type { MissionEvent, NewMissionEvent } from "../mission/events";
import { withPolicySnapshot, type GatePolicySnapshot } from "../mission/gate-policy";
import { applyEvent, IllegalTransitionError } from "../mission/reducer";
import { allowedBinariesOf } from "../mission/steps";
import type { MissionDefinition } from "../mission/definition";
import type { MissionState } from "../mission/types";
import type { LibraryConsultation } from "../mission/library";
import { stepIdempotent } from "../tools";
import { evaluateEvidence, evaluateResultCheck } from "../tools/evidence";
import { fail, type ToolError, type ToolResult } from "../tools/result";
import { notAllowedError } from "../tools/shell";
import type { EvidenceRecord } from "../mission/types";
import type { Read, Tape, TapeConfig, Trace } from "./format";
import { applyFlags, applySets, type CounterfactualChange } from "./counterfactual-input";
import { comparable, firstDifference, shown, writeParting, type EventParting } from "./replay";
import { redactor } from "./redact";

/**
 * Counterfactual replay (seed 002 FDR-N015): the mission's trace replayed through the real engine with a
 * change — the definition (`--set`), the default policy (`--rules`), the worker's flags (`--flag`), rules
 * left out. The changed run starts from the same `mission.created` (with the change) and runs `advance`
 * transition after transition, as a worker would. What the world answered is played back from the trace
 * for as long as the changed run asks what the original asked:
 *
 * - a tool call gets the ToolResult recorded for the same idempotency key and call;
 * - a model turn gets the output recorded for the same agent and the same request (the conversation the
 *   model would see, the tools offered, the temperature); a changed request is one the trace does not hold;
 * - evidence checks and the workspace listing get what was read after the same tool runs;
 * - clock readings and ids are taken in the original's order while the run follows the original path,
 *   then the clock goes on through the original's later readings and ids are new;
 * - people's decisions, pauses and other recorded input are applied where they were, while the run
 *   follows the original; once it has parted from it they answered another situation and are not applied.
 *
 * Where the changed run needs something the trace does not hold, it stops there and says exactly what
 * (which agent, step and request), unless `live` answers model turns (the provider through the LLM client).
 */

export interface CounterfactualStop {
  /** What the changed run needed: a model output, a ToolResult, another reading, a person's decision; or the engine failed, or the transition limit. */
  kind: "model_output" | "tool_result" | "reading" | "person" | "engine" | "limit";
  /** The seq the changed run would have written next. */
  seq: number;
  agent: string | null;
  /** The step index (0-based) of a tool call, or the agent's proposal number of a model turn. */
  step: number | null;
  /** The request the trace holds no answer for (a tool call with its key; a model turn's last message and size). */
  request: Record<string, unknown> | null;
  why: string;
}

/** Where the changed run parts from the original: the original's event and the changed run's, as shown (null: that run wrote nothing there). */
export type CounterfactualDifference = EventParting<"original", "changed">;

export interface CounterfactualReport {
  missionId: string;
  /** The change, as applied. */
  change: { sets: Array<{ path: string; value: unknown }>; rules: { source: string; count: number } | null; flags: Array<{ name: string; value: boolean | number }>; withoutRules: string[] };
  original: { events: number; finalStatus: string | null };
  changed: {
    events: number;
    /** The final status the real derivation gives the changed run (null: it did not end). */
    finalStatus: string | null;
    ended: boolean;
    /** Why the changed run stopped before ending (null when it ended, or waits where the original waits too). */
    stop: CounterfactualStop | null;
    /** Engine transitions the changed run ran. */
    transitions: number;
    /** Model turns asked of a live provider (`--live`). */
    liveModelTurns: number;
  };
  /** The first event where the changed run parts from the original, with both versions; null when they never part. */
  firstDifference: CounterfactualDifference | null;
  /** Both ended with the same final status (false when they differ or the changed run did not end). */
  sameOutcome: boolean;
  /** The changed run's events from the first difference on (at most 200). */
  changedEvents: Array<Record<string, unknown>>;
}

export interface CounterfactualOptions {
  /** The failure-mode library consulted for real (else its recorded answers, while on the original path). */
  library?: EngineIO["library"];
  /** Answers a model turn the trace does not hold (`--live`): the provider, through the LLM client. */
  live?: (state: MissionState, agent: string, opts: { timeoutMs: number }) => Promise<ThinkResult>;
  /** Engine transitions at most (default: twice the trace's events plus 1,000). */
  maxTransitions?: number;
}

export interface CounterfactualResult {
  report: CounterfactualReport;
  /** The changed run's last state. */
  state: MissionState | null;
  /** The original's last state (every recorded event applied). */
  originalState: MissionState | null;
}

class Missing extends Error {
  constructor(readonly stop: Omit<CounterfactualStop, "seq">) {
    super(stop.why);
  }
}

const redact = redactor();
const sha = (s: string) => createHash("sha256").update(s).digest("hex");

/** A deterministic id for the changed run's new gates and proposals (uuid-shaped, never one of the original's). */
function newIdOf(missionId: string, n: number): string {
  const h = sha(`${missionId}/counterfactual/${n}`);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/**
 * A conversation's identity: the messages with the JSON they carry in canonical form. A trace stores its
 * events canonically (keys sorted), so the transcript built from them orders a decision's members
 * otherwise than the worker's; the model was asked the same thing.
 */
function conversationKey(s: MissionState, agent: string): string {
  const messages = transcript(s, agent);
  const auto = agentDefinition(s.definition, agent).autonomous;
  const norm = (t: unknown) => {
    if (typeof t !== "string") return t;
    try {
      return canonicalJson(JSON.parse(t));
    } catch {
      return t;
    }
  };
  // The request is the conversation, the tools offered and the temperature (runner's agentTurn).
  return canonicalJson({
    messages: messages.map((m) => ({ ...m, content: norm(m.content), ...("toolCalls" in m && m.toolCalls ? { toolCalls: m.toolCalls.map((c) => ({ ...c, arguments: norm(c.arguments) })) } : {}) })),
    tools: auto ? modelTools(auto) : null,
    temperature: auto?.temperature ?? null,
  });
}

/** Where two events first differ, what they say first: type, payload, reason, impact, evidence, actor. */
function differenceOf(a: MissionEvent, b: MissionEvent): string {
  const x = JSON.parse(comparable(a)) as Record<string, unknown>;
  const y = JSON.parse(comparable(b)) as Record<string, unknown>;
  for (const k of ["type", "payload", "reason", "impact", "evidence", "actorId"]) {
    const d = firstDifference(x[k], y[k], k);
    if (d) return d;
  }
  return "(value)";
}

/** The definition the changed run starts from: the edits applied, the named mission rules left out. */
export function changedDefinition(def: MissionDefinition, change: CounterfactualChange): MissionDefinition {
  let d = change.sets?.length ? applySets(def, change.sets) : def;
  const without = new Set(change.withoutRules ?? []);
  if ([...without].some((n) => n.startsWith("rule:"))) d = { ...d, rules: d.rules.filter((r, i) => !without.has(`rule:${ruleId(r, i)}`)) };
  return d;
}

function policyWithout(rules: readonly Rule[], without: readonly string[]): Rule[] {
  const set = new Set(without);
  return rules.filter((r, i) => !set.has(`default-policy:${ruleId(r, i)}`));
}

/** Replays a trace with a change through the real engine. Never throws for what the trace lacks: it stops and says so. */
export async function counterfactualReplay(trace: Trace, change: CounterfactualChange, opts: CounterfactualOptions = {}): Promise<CounterfactualResult> {
  const events = trace.events;
  const missionId = trace.header.missionId;
  const without = change.withoutRules ?? [];
  const flags = change.flags ?? [];

  // ---- what the original asked and got, by request ----
  const tools = new Map<string, Array<{ result: Record<string, unknown>; evidence: Array<Record<string, unknown>> }>>();
  const thinks = new Map<string, Array<Record<string, unknown>>>();
  const afterRuns = new Map<string, Array<{ k: string; v: unknown }>>();
  const patterns = new Map<string, unknown[][]>();
  const clocks: number[] = [];
  const clockIndex = new Map<Read, number>();
  let firstPolicy: Rule[] | null = null;
  let workspace: string | null = null;
  let workerActor: string | null = null;
  const gatePolicies: Array<GatePolicySnapshot | null> = [];
  let original: MissionState | null = null;
  {
    const byFrom = new Map<number, Array<Tape & { count: number }>>();
    // Only the states a model turn started from are kept (their transcripts identify the turns).
    for (const t of trace.tapes.values()) if (t.reads.some((r) => r.k === "think")) byFrom.set(t.from, [...(byFrom.get(t.from) ?? []), t]);
    let runs = "";
    const runKey = (key: string, call: unknown) => `${key}\n${canonicalJson(call)}`;
    const noteTapes = (s: MissionState | null, list: Array<Tape & { count: number }>) => {
      for (const t of list) {
        const agent = (t.reads.find((r) => r.k === "think") as { agent?: string } | undefined)?.agent ?? null;
        for (const r of t.reads) {
          if (r.k === "now") {
            clockIndex.set(r, clocks.length);
            clocks.push(r.v);
          } else if (r.k === "run") {
            const k = runKey(r.key, r.call);
            tools.set(k, [...(tools.get(k) ?? []), { result: r.result, evidence: r.evidence }]);
            runs = sha(`${runs}\n${k}`);
          } else if (r.k === "think" && s) {
            const k = `${r.agent}\n${conversationKey(s, r.agent)}`;
            thinks.set(k, [...(thinks.get(k) ?? []), r.v]);
          } else if (r.k === "evidence" || r.k === "workspaceState") {
            const k = `${r.k}\n${r.k === "evidence" ? (agent ?? "") : ""}\n${runs}`;
            afterRuns.set(k, [...(afterRuns.get(k) ?? []), { k: r.k, v: r.v }]);
          } else if (r.k === "patterns") patterns.set(r.when, [...(patterns.get(r.when) ?? []), r.v]);
          else if (r.k === "policy") firstPolicy ??= r.v as Rule[];
          else if (r.k === "workspace") workspace ??= r.v;
        }
      }
    };
    // Tapes are noted in trace order; a think's transcript is that of the state its transition started from.
    const states = new Map<number, MissionState>();
    const pending = [...trace.tapes.entries()].sort((a, b) => a[0] - b[0]);
    let next = 0;
    for (const e of events) {
      while (next < pending.length && pending[next][0] <= e.seq) {
        const t = pending[next][1];
        noteTapes(t.from === original?.seq ? original : (states.get(t.from) ?? null), [t]);
        next++;
      }
      try {
        original = applyEvent(original, e);
      } catch (err) {
        if (!(err instanceof IllegalTransitionError)) throw err;
        break;
      }
      if (byFrom.has(original.seq)) states.set(original.seq, original);
      if (trace.tapes.has(e.seq)) workerActor ??= e.actorId;
      if (e.type === "gate.opened") gatePolicies.push(((e.payload as { policy?: GatePolicySnapshot | null }).policy ?? null) as GatePolicySnapshot | null);
    }
  }

  // ---- the changed run ----
  const report: CounterfactualReport = {
    missionId,
    change: { sets: (change.sets ?? []).map((s) => ({ path: s.path, value: s.value })), rules: change.policy ? { source: change.policy.source, count: change.policy.rules.length } : null, flags: flags.map((f) => ({ name: f.name, value: f.value })), withoutRules: [...without] },
    original: { events: original?.seq ?? 0, finalStatus: original?.finalStatus ?? null },
    changed: { events: 0, finalStatus: null, ended: false, stop: null, transitions: 0, liveModelTurns: 0 },
    firstDifference: null,
    sameOutcome: false,
    changedEvents: [],
  };
  if (!events.length || events[0].type !== "mission.created") {
    report.changed.stop = { kind: "engine", seq: 1, agent: null, step: null, request: null, why: "The trace holds no mission.created event: there is nothing to replay." };
    return { report, state: null, originalState: original };
  }
  const created = events[0] as Extract<MissionEvent, { type: "mission.created" }>;
  const definition = changedDefinition(created.payload.definition, change);
  let state: MissionState = applyEvent(null, { ...created, payload: { ...created.payload, definition } } as MissionEvent);
  let ptr = 1;
  let onPath = true;
  let cp = 0;
  let fresh = 0;
  let runs = "";
  let lastAt = created.at;
  let cfg: TapeConfig | null = null;
  let policyNow: Rule[] | null = null;
  let gateOpened = 0;
  const changedEvents: MissionEvent[] = [];
  const max = opts.maxTransitions ?? events.length * 2 + 1000;

  const part = (d: Omit<CounterfactualDifference, "original" | "changed"> & { original: MissionEvent | null; changed: MissionEvent | null }) => {
    if (!report.firstDifference) report.firstDifference = { seq: d.seq, type: d.type, why: d.why, original: d.original ? shown(d.original) : null, changed: d.changed ? shown(d.changed) : null };
    onPath = false;
  };
  const tapeAt = (i: number) => (i < events.length ? trace.tapes.get(events[i].seq) : undefined);
  /** On the original path: the recorded input before the next engine write, applied where it was. */
  const applyInputs = () => {
    while (onPath && ptr < events.length && !trace.tapes.has(events[ptr].seq)) {
      const e = events[ptr];
      try {
        state = applyEvent(state, e);
        ptr++;
        lastAt = e.at;
        if (e.type === "gate.opened") gateOpened++;
      } catch (err) {
        if (!(err instanceof IllegalTransitionError)) throw err;
        part({ seq: e.seq, type: e.type, why: `The recorded ${e.type} (${e.actorId}) no longer applies to the changed run: ${err.message}.`, original: e, changed: null });
      }
    }
  };

  while (true) {
    applyInputs();
    if (report.changed.transitions >= max) {
      report.changed.stop = { kind: "limit", seq: state.seq + 1, agent: null, step: null, request: null, why: `The changed run took ${max} engine transitions without ending; it stops here.` };
      break;
    }
    const start = state;
    const first = onPath ? tapeAt(ptr) : undefined;
    if (first?.config) cfg = applyFlags(first.config, flags);
    if (!cfg) {
      const any = [...trace.tapes.values()].find((t) => t.config)?.config;
      if (!any) {
        report.changed.stop = { kind: "engine", seq: state.seq + 1, agent: null, step: null, request: null, why: "The trace holds no engine readings (no worker configuration): nothing can be re-derived, so no change can be replayed." };
        break;
      }
      cfg = applyFlags(any, flags);
    }
    let turn = 0;
    let pos = 0;
    const from = start.seq;
    /** The original's tape of this transition's next write, while the run follows the original. */
    const current = (): (Tape & { count: number }) | null => {
      if (!onPath) return null;
      let j = ptr;
      while (j < events.length && !trace.tapes.has(events[j].seq)) j++;
      const t = tapeAt(j);
      return t && t.from === from && t.turn === turn ? t : null;
    };
    const aligned = <K extends Read["k"]>(k: K): Extract<Read, { k: K }> | undefined => {
      const t = current();
      if (!t) return undefined;
      const i = t.reads.findIndex((r, j) => j >= pos && r.k === k);
      if (i < 0) return undefined;
      pos = i + 1;
      return t.reads[i] as Extract<Read, { k: K }>;
    };
    const stepOf = (key: string): { agent: string | null; step: number | null } => {
      for (const name of state.agentOrder) {
        const st = state.agents[name].steps.find((x) => key === x.idempotencyKey || key.startsWith(`${x.idempotencyKey}/`));
        if (st) return { agent: name, step: st.index };
      }
      return { agent: null, step: null };
    };
    const c = cfg;
    const has = (x: string) => c.capabilities.includes(x);
    const io: EngineIO = {
      now: () => {
        const r = aligned("now");
        if (r) {
          cp = (clockIndex.get(r) ?? cp) + 1;
          return r.v;
        }
        return clocks[cp] !== undefined ? clocks[cp++] : (clocks.at(-1) ?? Date.parse(lastAt));
      },
      newId: () => aligned("id")?.v ?? newIdOf(missionId, ++fresh),
      stopped: () => false,
      idempotent: stepIdempotent,
      diagnosis: c.diagnosis ?? undefined,
      run: async (call, ctx) => {
        const wanted = JSON.parse(canonicalJson(redact({ tool: call.tool, args: call.args })));
        const k = `${ctx.idempotencyKey}\n${canonicalJson(wanted)}`;
        let got = tools.get(k)?.shift();
        // The runner refuses a shell binary off the allowlist before running anything (lib/tools/shell.ts): with a
        // changed allowlist that refusal is derived again; a call the original was refused, now allowed, never ran.
        const refusal = shellRefusal(call, ctx, c);
        const wasRefused = got && (got.result as { error?: { code?: string } | null }).error?.code === "NOT_ALLOWED";
        if (refusal && !wasRefused) got = { result: fail(refusal) as unknown as Record<string, unknown>, evidence: [] };
        if (!refusal && wasRefused) {
          const where = stepOf(ctx.idempotencyKey);
          throw new Missing({ kind: "tool_result", ...where, request: { tool: call.tool, args: wanted.args, idempotencyKey: ctx.idempotencyKey }, why: `The changed run may run ${call.tool} ${canonicalJson(wanted.args)}${where.agent ? ` as step ${(where.step ?? 0) + 1} of "${where.agent}"` : ""} (${ctx.idempotencyKey}), which the original's allowlist refused: it never ran, so the trace holds no ToolResult for it. A replay never runs a tool.` });
        }
        if (!got) {
          const where = stepOf(ctx.idempotencyKey);
          throw new Missing({ kind: "tool_result", ...where, request: { tool: call.tool, args: wanted.args, idempotencyKey: ctx.idempotencyKey }, why: `The changed run runs ${call.tool} ${canonicalJson(wanted.args)}${where.agent ? ` as step ${(where.step ?? 0) + 1} of "${where.agent}"` : ""} (${ctx.idempotencyKey}), and the trace holds no ToolResult for that call: the original never ran it. A replay never runs a tool.` });
        }
        runs = sha(`${runs}\n${k}`);
        aligned("run");
        // The evidence is checked again, with the changed run's checks, on the recorded result; a file_exists
        // check reads the workspace, so it takes what the original found for the same path, if it checked it.
        const result = got.result as unknown as ToolResult;
        const evidence: EvidenceRecord[] = [];
        if (!call.evidence?.length) evidence.push(...(await evaluateEvidence({ tool: call.tool, evidence: [] }, result, { workspace: "" })));
        for (const check of call.evidence ?? []) {
          if (!("file_exists" in check)) {
            evidence.push(evaluateResultCheck(check, call.tool, result));
            continue;
          }
          const seen = (got.evidence as unknown as EvidenceRecord[]).find((r) => r.check === "file_exists" && r.expected === check.file_exists);
          if (!seen) {
            const where = stepOf(ctx.idempotencyKey);
            throw new Missing({ kind: "reading", ...where, request: { evidence: check }, why: `The changed run checks file_exists "${check.file_exists}" after ${call.tool} (${ctx.idempotencyKey}); the original never checked that file there, and a replay has no workspace to look in.` });
          }
          evidence.push(seen);
        }
        return { result, evidence };
      },
      append: async (list) => write(list),
      ensureActor: async () => {},
    };
    /** The runner's allowlist refusal of a shell call, with the changed run's allowlists (runner.ts `run`), or null. */
    function shellRefusal(call: Parameters<EngineIO["run"]>[0], ctx: Parameters<EngineIO["run"]>[1], cf: TapeConfig): ToolError | null {
      const command = (call.args as { command?: unknown }).command;
      if (call.tool !== "shell" || typeof command !== "string") return null;
      const binary = command.split("/").pop() ?? command;
      const base = [...new Set([...allowedBinariesOf(ctx.state), ...cf.allowedBinaries])];
      const recovery = [...new Set([...base, ...cf.recoveryBinaries])];
      const allowed = ctx.library ? [...recovery, "sh"] : ctx.recovery ? recovery : base;
      return allowed.includes(binary) ? null : notAllowedError(binary, allowed);
    }
    const afterRun = <T>(k: "evidence" | "workspaceState", agent: string | null, what: string): T => {
      aligned(k);
      const got = afterRuns.get(`${k}\n${agent ?? ""}\n${runs}`)?.shift();
      if (!got) throw new Missing({ kind: "reading", agent, step: null, request: { reading: k }, why: `The changed run reads ${what} after tool runs the original never had in that order: the trace holds no such reading.` });
      return got.v as T;
    };
    if (has("workspaceState")) io.workspaceState = async () => afterRun("workspaceState", null, "the workspace's listing");
    if (has("allowedBinaries")) io.allowedBinaries = (s) => (aligned("binaries"), [...new Set([...allowedBinariesOf(s), ...c.allowedBinaries, ...c.recoveryBinaries])]);
    if (has("findPatterns"))
      io.findPatterns = async (when) => {
        aligned("patterns");
        const got = patterns.get(when)?.shift();
        if (!got) throw new Missing({ kind: "reading", agent: null, step: null, request: { reading: "patterns", when }, why: `The changed run looks up learned patterns for "${when}", which the original never did: the trace holds no answer.` });
        return got as Awaited<ReturnType<NonNullable<EngineIO["findPatterns"]>>>;
      };
    if (has("library") || opts.library)
      io.library = async (query, limit) => {
        const r = aligned("library");
        if (opts.library) return opts.library(query, limit);
        if (!r) throw new Missing({ kind: "reading", agent: null, step: null, request: { reading: "library", query }, why: "The changed run consults the failure-mode library where the original did not; replay with a library (the CLI consults its database's) to answer it." });
        return r.v as unknown as LibraryConsultation;
      };
    if (has("reflect"))
      io.reflect = async () => {
        const r = aligned("reflect");
        if (!r) throw new Missing({ kind: "model_output", agent: null, step: null, request: { reading: "reflect" }, why: "The changed run asks the LLM reflection for a diagnosis the original did not ask for: the trace holds no output for it." });
        return r.v as Awaited<ReturnType<NonNullable<EngineIO["reflect"]>>>;
      };
    if (has("think") || opts.live)
      io.think = async (s, agent, o) => {
        aligned("think");
        const messages = transcript(s, agent);
        const got = thinks.get(`${agent}\n${conversationKey(s, agent)}`)?.shift();
        if (got) return got as unknown as ThinkResult;
        const n = s.agents[agent]?.autonomous?.actions ?? 0;
        if (opts.live) {
          report.changed.liveModelTurns++;
          return opts.live(s, agent, o);
        }
        const last = messages.at(-1);
        throw new Missing({
          kind: "model_output",
          agent,
          step: n,
          request: { attempt: s.agents[agent]?.attempt ?? null, proposal: n + 1, messages: messages.length, lastMessage: last ? { role: last.role, content: last.content } : null },
          why: `The changed run asks the model of "${agent}" for its proposal ${n + 1} (attempt ${s.agents[agent]?.attempt ?? "?"}) with a conversation the original never sent (${messages.length} messages; the last: ${last?.role} ${JSON.stringify(last?.content ?? null).slice(0, 200)}): the trace holds no output for it. Replay with --live and a provider to ask one.`,
        });
      };
    if (has("authority")) {
      io.authority = {
        approvalTtlMs: c.approvalTtlMs ?? DEFAULT_APPROVAL_TTL_MS,
        defaultPolicy: async () => {
          const r = aligned("policy");
          if (r) policyNow = r.v as Rule[];
          return policyWithout(change.policy?.rules ?? policyNow ?? firstPolicy ?? [], without);
        },
        ...(has("authority.workspace") ? { workspace: () => aligned("workspace")?.v ?? workspace ?? "" } : {}),
      };
    }
    if (has("checkEvidence")) io.checkEvidence = async (_s, agent) => afterRun("evidence", agent, `the evidence of "${agent}"`);
    if (has("externalResults"))
      io.externalResults = async (_s, agent) => {
        const r = aligned("external");
        if (!r) throw new Missing({ kind: "reading", agent, step: null, request: { reading: "external" }, why: `The changed run reads the results of external agent "${agent}" where the original did not: the trace holds none.` });
        return r.v as Awaited<ReturnType<NonNullable<EngineIO["externalResults"]>>>;
      };

    /** One write of the changed run: derived by the reducer; compared with the original's while on its path. */
    async function write(list: Parameters<EngineIO["append"]>[0]): Promise<MissionState> {
      applyInputs();
      const t = current();
      const recorded = t ? events.slice(ptr, ptr + t.count) : [];
      let s = state;
      const out: MissionEvent[] = [];
      for (const item of list) {
        let built: NewMissionEvent | null = typeof item === "function" ? item(s) : item;
        if (!built) continue;
        const rec = recorded[out.length];
        const at = rec?.at ?? new Date(clocks[Math.max(0, cp - 1)] ?? Date.parse(lastAt)).toISOString();
        if (built.type === "gate.opened" && built.payload.policy === undefined && !(rec?.type === "gate.opened" && !("policy" in rec.payload))) {
          // The gate policy in force is read by the database at append time: the original's snapshot for this gate, in order.
          const policy = rec?.type === "gate.opened" ? ((rec.payload.policy ?? null) as GatePolicySnapshot | null) : (gatePolicies[gateOpened] ?? gatePolicies.at(-1) ?? null);
          built = withPolicySnapshot(built, policy, at);
        }
        if (built.type === "gate.opened") gateOpened++;
        const ev = { ...built, missionId, seq: s.seq + 1, actorId: built.actorId ?? rec?.actorId ?? workerActor ?? "replay", at } as MissionEvent;
        try {
          s = applyEvent(s, ev);
        } catch (err) {
          if (!(err instanceof IllegalTransitionError)) throw err;
          throw new Missing({ kind: "engine", agent: null, step: null, request: null, why: `The reducer refuses the changed run's ${ev.type}: ${err.message}.` });
        }
        out.push(ev);
      }
      if (onPath) {
        if (!t) part({ seq: out[0]?.seq ?? state.seq + 1, type: out[0]?.type ?? null, why: `The changed run writes ${out.map((e) => e.type).join(", ")} where the original ${ptr < events.length ? `recorded ${events[ptr].type}` : "ended"}.`, original: events[ptr] ?? null, changed: out[0] ?? null });
        else {
          const parting = writeParting(out, recorded, { derived: "changed run", recorded: "original", derivedEvent: "changed", recordedEvent: "original" }, differenceOf);
          if (parting) {
            const a = out[parting.at];
            const b = recorded[parting.at];
            part({ seq: (a ?? b)!.seq, type: (a ?? b)!.type, why: parting.why, original: b ?? null, changed: a ?? null });
          }
          if (onPath) ptr += t.count;
        }
      }
      state = s;
      lastAt = out.at(-1)?.at ?? lastAt;
      if (!onPath) changedEvents.push(...out.filter((e) => !report.firstDifference || e.seq >= report.firstDifference.seq));
      turn++;
      pos = 0;
      return s;
    }

    report.changed.transitions++;
    let outcome: string;
    let waitingFor = "";
    try {
      const r = await advance(start, io);
      outcome = r.outcome;
      if (r.action.kind === "wait") waitingFor = r.action.reason === "gate" ? `at gate ${r.action.gateId ?? ""}` : r.action.reason === "paused" ? "paused" : "for an external agent";
    } catch (err) {
      const stop: CounterfactualStop = err instanceof Missing ? { ...err.stop, seq: state.seq + 1 } : { kind: "engine", seq: state.seq + 1, agent: null, step: null, request: null, why: `The changed run's engine failed: ${err instanceof Error ? err.message : String(err)}` };
      report.changed.stop = stop;
      if (onPath) part({ seq: ptr < events.length ? events[ptr].seq : state.seq + 1, type: ptr < events.length ? events[ptr].type : null, why: stop.why, original: events[ptr] ?? null, changed: null });
      break;
    }
    if (outcome === "progress") continue;
    if (onPath && ptr < events.length) {
      if (!trace.tapes.has(events[ptr].seq)) continue; // a person's (or an agent's) recorded input comes next: applied at the top
      part({ seq: events[ptr].seq, type: events[ptr].type, why: `The original's engine wrote ${events[ptr].type} here; the changed run's engine ${outcome === "terminal" ? "has nothing more to do" : `waits${waitingFor ? ` (${waitingFor})` : ""}`}.`, original: events[ptr], changed: null });
    }
    if (outcome === "waiting" && (!onPath || ptr >= events.length)) {
      const gate = state.gates.find((g) => g.status === "open");
      if (!onPath) report.changed.stop = { kind: "person", seq: state.seq + 1, agent: gate?.agent ?? null, step: gate?.step ?? null, request: gate ? { gate: gate.id, kind: gate.kind, options: gate.options.map((o) => o.action) } : null, why: `The changed run waits for a person${gate ? ` at the ${gate.kind} gate of "${gate.agent}" (${gate.error.what})` : waitingFor ? ` (${waitingFor})` : ""}; the trace holds no decision for it (the original's decisions answered another situation).` };
    }
    break;
  }

  report.changed.events = state.seq;
  report.changed.finalStatus = state.finalStatus ?? null;
  report.changed.ended = state.finalStatus !== null && state.finalStatus !== undefined;
  if (!report.changed.ended && onPath && ptr >= events.length && !report.firstDifference) report.changed.stop = null;
  report.sameOutcome = report.changed.ended && report.changed.finalStatus === report.original.finalStatus;
  report.changedEvents = changedEvents.slice(0, 200).map(shown);
  return { report, state, originalState: original };
}
