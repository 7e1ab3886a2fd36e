import type { MissionEvent } from "../mission/events";
import type { MissionState } from "../mission/types";
import { isProjectionMode, MODE_CAPABILITIES, unknownModeMessage, type ModeCapabilities, type ProjectionMode } from "./modes";
import { actionLine, describeProposal, renderMissionState } from "../views/state-render";
import type { ProjectionComponents, ProposalRenderer, ReasoningReading, RenderContext, RenderedParts } from "./renderers";
import type { Read } from "../trace/format";

/**
 * Projections (seed 002 FDR-N012 and FDR-N016): what a person watching a run sees, in four modes that add
 * to each other (silent ⊂ watch ⊂ interactive ⊂ debug), drawn by renderers a domain may inject. A
 * projection only reads: it gets each event with the state after it (and the engine's readings behind
 * it, when the trace holds them) and returns text. It never writes to a run — the lab's `withLab` and
 * `faultline mission watch` feed it; answering a gate in interactive mode goes through the same decision
 * path as `faultline gate decide`, never through the projection.
 */

export { isProjectionMode, MODE_CAPABILITIES, PROJECTION_MODES, unknownModeMessage, type ModeCapabilities, type ProjectionMode } from "./modes";

export type { ActionRenderer, FooterRenderer, HeaderRenderer, LayoutRenderer, ProjectionComponents, ProposalRenderer, ReasoningReading, ReasoningRenderer, RenderContext, RenderedParts, SnapshotRenderer } from "./renderers";

const PROPOSAL_EVENTS = new Set(["proposal.submitted", "proposal.decided", "proposal.expired"]);

export const defaultComponents: Required<ProjectionComponents> = {
  renderSnapshot: (s) => renderMissionState(s),
  renderAction: (e) => `#${String(e.seq).padStart(3)} ${e.type.padEnd(22)} ${e.reason}`,
  renderProposal: (e, s) => {
    const p = s.proposals.find((x) => x.id === e.payload.proposalId);
    if (e.type === "proposal.submitted") return `      proposal: ${e.payload.agent} asks ${actionLine(e.payload.action)}`;
    return p ? `      proposal: ${describeProposal(p)}` : null;
  },
  renderReasoning: (r, ctx) => {
    if (r.k === "reflect") return r.v ? `      reflection: ${ctx.capabilities.llmCalls === "full" ? JSON.stringify(r.v) : String((r.v as { rootCause?: { description?: string } }).rootCause?.description ?? "a proposal")}` : null;
    // A model turn as the engine read it (lib/mission/engine.ts ThinkResult): a tool call, text, or a failure.
    const v = r.v as { ok?: boolean; call?: { name?: string; args?: unknown } | null; text?: string; model?: { provider?: string; model?: string; latencyMs?: number }; error?: { code?: string; message?: string } };
    const who = v.model ? ` ${v.model.provider}/${v.model.model}, ${v.model.latencyMs} ms` : "";
    const what = v.ok === false ? `failed: ${v.error?.code ?? ""} ${v.error?.message ?? ""}`.trim() : v.call ? `call ${v.call.name}` : `text`;
    if (ctx.capabilities.llmCalls === "summary") return `      model (${r.agent}): ${what}`;
    if (ctx.capabilities.llmCalls === "detail") return `      model (${r.agent}${who}): ${what}${v.call?.args !== undefined ? ` ${clip(JSON.stringify(v.call.args), 240)}` : ""}${v.text ? ` “${clip(v.text, 240)}”` : ""}`;
    return `      model (${r.agent}) response: ${JSON.stringify(r.v)}`;
  },
  header: (s, ctx) => `── Mission "${s.name}" (${s.id}) — ${s.definition.objective}\n── mode: ${ctx.mode}`,
  footer: (s) => `── ${s.finalStatus ? `final status: ${s.finalStatus}` : `${s.runState} at ${s.phase}`} (last seq ${s.seq})`,
  layout: (parts) =>
    [parts.action, parts.proposal, ...parts.reasoning, parts.hitl, parts.changes, parts.snapshot].filter((x): x is string => !!x).join("\n"),
};

/** debug: the parts of the state an event changed, one `path: value` a line (two levels deep). */
export function stateChanges(before: MissionState | null, after: MissionState): string[] {
  const out: string[] = [];
  const b = (before ?? {}) as unknown as Record<string, unknown>;
  const a = after as unknown as Record<string, unknown>;
  for (const k of Object.keys(a)) {
    if (k === "definition" || k === "seq" || k === "version") continue;
    if (JSON.stringify(a[k]) === JSON.stringify(b[k])) continue;
    const av = a[k];
    const bv = b[k];
    if (av && typeof av === "object" && !Array.isArray(av) && bv && typeof bv === "object" && !Array.isArray(bv)) {
      for (const sub of Object.keys(av)) {
        const x = (av as Record<string, unknown>)[sub];
        if (JSON.stringify(x) !== JSON.stringify((bv as Record<string, unknown>)[sub])) out.push(`${k}.${sub}: ${clip(JSON.stringify(x))}`);
      }
    } else if (Array.isArray(av) && Array.isArray(bv) && av.length >= bv.length) {
      av.forEach((x, i) => {
        if (JSON.stringify(x) !== JSON.stringify(bv[i])) out.push(`${k}[${i}]: ${clip(JSON.stringify(x))}`);
      });
    } else out.push(`${k}: ${clip(JSON.stringify(av))}`);
  }
  return out;
}

function clip(s: string | undefined, n = 400): string {
  if (s === undefined) return "(removed)";
  return s.length > n ? `${s.slice(0, n)}… (${s.length} chars)` : s;
}

/** One event as the projection sees it: the event, the state before and after it, the readings behind its write. */
export interface ProjectionStep {
  event: MissionEvent;
  before: MissionState | null;
  after: MissionState;
  /** The engine's readings behind the write this event starts (its first event only); none when not recorded. */
  reads?: readonly Read[];
}

export interface Projection {
  readonly mode: ProjectionMode;
  readonly capabilities: Readonly<ModeCapabilities>;
  /** FDR-N012: switch at run time; what is drawn from then on follows the new mode. */
  setMode(mode: ProjectionMode): void;
  header(state: MissionState): string | null;
  /** The text for one event, or null when this mode shows nothing of it. */
  event(step: ProjectionStep): string | null;
  footer(state: MissionState): string | null;
}

export function createProjection(opts: { mode: ProjectionMode; missionId: string; components?: ProjectionComponents }): Projection {
  if (!isProjectionMode(opts.mode)) throw new Error(unknownModeMessage(String(opts.mode)));
  let mode = opts.mode;
  const c: Required<ProjectionComponents> = { ...defaultComponents, ...stripUndefined(opts.components ?? {}) };
  const custom = opts.components?.renderSnapshot !== undefined;
  const ctx = (seq: number): RenderContext => Object.freeze({ mode, capabilities: MODE_CAPABILITIES[mode], missionId: opts.missionId, seq });
  return {
    get mode() {
      return mode;
    },
    get capabilities() {
      return MODE_CAPABILITIES[mode];
    },
    setMode(next) {
      if (!isProjectionMode(next)) throw new Error(unknownModeMessage(String(next)));
      mode = next;
    },
    header(s) {
      return MODE_CAPABILITIES[mode].progress ? c.header(s, ctx(s.seq)) : null;
    },
    footer(s) {
      return MODE_CAPABILITIES[mode].progress ? c.footer(s, ctx(s.seq)) : null;
    },
    event({ event: e, before, after, reads }) {
      const cx = ctx(e.seq);
      const cap = cx.capabilities;
      if (!cap.progress) return null;
      const proposal = cap.proposals && PROPOSAL_EVENTS.has(e.type) ? c.renderProposal(e as Parameters<ProposalRenderer>[0], after, cx) : null;
      const reasoning = cap.llmCalls === "none" ? [] : (reads ?? []).filter((r): r is ReasoningReading => r.k === "think" || r.k === "reflect").flatMap((r) => c.renderReasoning(r, cx) ?? []);
      let hitl: string | null = null;
      if (e.type === "gate.opened") {
        const g = after.gates.find((x) => x.id === e.payload.gateId);
        if (g && cap.hitl === "view") hitl = `      OPEN GATE ${g.id}: ${g.error.what} (view only; answer it with: faultline gate decide ${g.id} DECISION, or watch --mode interactive)`;
        if (g && cap.hitl === "interact")
          hitl = [`      OPEN GATE ${g.id}: ${g.error.what}`, `      why: ${g.error.why ?? "unknown"}`, ...g.options.map((o, i) => `      [${i + 1}] ${o.action}${o.recommended ? " (recommended)" : ""}: ${o.description}`)].join("\n");
      }
      // Snapshots at each step's end: always in debug (which also lists what every seq changed), in
      // interactive when a domain renderer draws one (the table's "optional").
      const stepEnd = e.type === "tool.succeeded" || e.type === "tool.failed" || e.type === "gate.opened" || e.type === "mission.finished";
      const snapshot = stepEnd && (cap.snapshots === "full" || (cap.snapshots === "optional" && custom)) ? indent(c.renderSnapshot(after, cx)) : null;
      const changes = cap.snapshots === "full" ? stateChanges(before, after).map((l) => `      ~ ${l}`).join("\n") || null : null;
      const text = c.layout({ action: c.renderAction(e, after, cx), proposal, reasoning, hitl, snapshot, changes }, cx);
      return text || null;
    },
  };
}

function indent(s: string): string {
  return s
    .split("\n")
    .map((l) => `      | ${l}`)
    .join("\n");
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** One model turn or reflection as a mode shows it (the console's mission page). */
export interface ReasoningLine {
  /** The first seq of the write that read it. */
  seq: number;
  kind: "think" | "reflect";
  agent: string | null;
  text: string;
}

/**
 * The model turns and reflections of a mission's writes (its event_io tapes), each drawn by the renderers'
 * `renderReasoning` as this mode shows it: none in silent, one line a turn in watch, provider, model,
 * latency and args in interactive, the response as recorded in debug (the table's LLM-calls column).
 */
export function reasoningLines(tapes: ReadonlyArray<{ seq: number; tape: { reads: readonly Read[] } }>, opts: { mode: ProjectionMode; missionId: string; components?: ProjectionComponents }): ReasoningLine[] {
  if (!isProjectionMode(opts.mode)) throw new Error(unknownModeMessage(String(opts.mode)));
  const capabilities = MODE_CAPABILITIES[opts.mode];
  if (capabilities.llmCalls === "none") return [];
  const render = opts.components?.renderReasoning ?? defaultComponents.renderReasoning;
  return tapes.flatMap((t) =>
    t.tape.reads.flatMap((r) => {
      if (r.k !== "think" && r.k !== "reflect") return [];
      const text = render(r, Object.freeze({ mode: opts.mode, capabilities, missionId: opts.missionId, seq: t.seq }));
      return text ? [{ seq: t.seq, kind: r.k, agent: r.k === "think" ? r.agent : null, text: text.trim() }] : [];
    }),
  );
}
