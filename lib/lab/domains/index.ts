import type { MissionDefinition } from "../../mission/definition";
import type { ProjectionComponents } from "../renderers";
import { GRID_LEGEND, gridBoard, gridWorldComponents } from "./gridworld";

/**
 * The domains whose renderers the projections know (seed 002 FDR-N016). A mission belongs to a domain
 * when `matches` says so from its definition; none matches: the default renderers draw it.
 */
export interface Domain {
  name: string;
  description: string;
  matches(def: MissionDefinition): boolean;
  components: ProjectionComponents;
  /** When the snapshot is a board of one-character cells (a header of column numbers, a row number then the cells): what each glyph means. The console draws such a snapshot as a table. */
  legend?: Readonly<Record<string, string>>;
}

export const DOMAINS: readonly Domain[] = [
  {
    name: "gridworld",
    description: "an agent on a grid with obstacles: a step writes grid/board.json, each move writes grid/position.json",
    matches: (def) => gridBoard(def) !== null,
    components: gridWorldComponents,
    legend: GRID_LEGEND,
  },
];

export function domainFor(def: MissionDefinition): Domain | null {
  return DOMAINS.find((d) => d.matches(def)) ?? null;
}
