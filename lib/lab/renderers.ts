import type { MissionEvent } from "../mission/events";
import type { MissionState } from "../mission/types";
import type { Read } from "../trace/format";
import type { ModeCapabilities, ProjectionMode } from "./modes";

/**
 * The renderer interface of projections (seed 002 FDR-N016), types only: a domain's renderers
 * (lib/lab/domains) and the projections that draw with them (projection.ts) both read it from here.
 */

/** What a renderer knows besides its input: immutable. */
export interface RenderContext {
  readonly mode: ProjectionMode;
  readonly capabilities: Readonly<ModeCapabilities>;
  readonly missionId: string;
  /** The seq of the event being drawn (0 before the first). */
  readonly seq: number;
}

/** A model turn or reflection the engine read (a trace's `think` / `reflect` readings). */
export type ReasoningReading = Extract<Read, { k: "think" } | { k: "reflect" }>;

export type SnapshotRenderer = (state: MissionState, ctx: RenderContext) => string;
export type ActionRenderer = (event: MissionEvent, state: MissionState, ctx: RenderContext) => string | null;
export type ProposalRenderer = (event: Extract<MissionEvent, { type: "proposal.submitted" | "proposal.decided" | "proposal.expired" }>, state: MissionState, ctx: RenderContext) => string | null;
export type ReasoningRenderer = (reading: ReasoningReading, ctx: RenderContext) => string | null;
export type HeaderRenderer = (state: MissionState, ctx: RenderContext) => string;
export type FooterRenderer = (state: MissionState, ctx: RenderContext) => string;
/** Puts one event's parts together (default: the parts that exist, one after the other). */
export type LayoutRenderer = (parts: RenderedParts, ctx: RenderContext) => string;

export interface RenderedParts {
  action: string | null;
  proposal: string | null;
  reasoning: string[];
  /** HITL: an open gate's question and options (interact) or the gate in one line (view). */
  hitl: string | null;
  snapshot: string | null;
  /** debug: the parts of the state this event changed. */
  changes: string | null;
}

/** FDR-N016: every component optional; the default draws any mission with none. Renderers are pure. */
export interface ProjectionComponents {
  renderSnapshot?: SnapshotRenderer;
  renderAction?: ActionRenderer;
  renderProposal?: ProposalRenderer;
  renderReasoning?: ReasoningRenderer;
  header?: HeaderRenderer;
  footer?: FooterRenderer;
  layout?: LayoutRenderer;
}
