/**
 * The projection modes of the lab and their capability table (seed 002 FDR-N012), as data. A leaf module
 * with no imports: the trace format's schema, the lab's projections, the CLI and the HITL prompt's
 * renderer (which the console's client components load) all read the modes from here.
 */

/** From least to most shown. */
export const PROJECTION_MODES = ["silent", "watch", "interactive", "debug"] as const;

export type ProjectionMode = (typeof PROJECTION_MODES)[number];

/** One row of the document's capability table (FDR-N012). */
export interface ModeCapabilities {
  /** Progress: phase, agents, each event as one action line. */
  progress: boolean;
  /** Proposals and how the authority decided them. */
  proposals: boolean;
  /** HITL: nothing, open gates shown (view only), or answerable from the projection (interact). */
  hitl: "none" | "view" | "interact";
  /** Snapshots: none, when a domain renderer draws one (optional), or the state at each seq (full). */
  snapshots: "none" | "optional" | "full";
  /** LLM calls: none, one line a turn (summary), the turn's answer (detail), every reading in full. */
  llmCalls: "none" | "summary" | "detail" | "full";
}

/** The capability table of seed 002 FDR-N012, as data: the CLI, the lab and the docs read it from here. */
export const MODE_CAPABILITIES: Readonly<Record<ProjectionMode, Readonly<ModeCapabilities>>> = Object.freeze({
  silent: { progress: false, proposals: false, hitl: "none", snapshots: "none", llmCalls: "none" },
  watch: { progress: true, proposals: true, hitl: "view", snapshots: "none", llmCalls: "summary" },
  interactive: { progress: true, proposals: true, hitl: "interact", snapshots: "optional", llmCalls: "detail" },
  debug: { progress: true, proposals: true, hitl: "interact", snapshots: "full", llmCalls: "full" },
});

export function isProjectionMode(v: unknown): v is ProjectionMode {
  return typeof v === "string" && (PROJECTION_MODES as readonly string[]).includes(v);
}

/** The error for a mode that is not one of the four (CLI, lab). */
export function unknownModeMessage(v: string): string {
  return `Unknown projection mode "${v}": use one of ${PROJECTION_MODES.join(", ")} (seed 002 FDR-N012; docs/lab.md "Projections").`;
}

