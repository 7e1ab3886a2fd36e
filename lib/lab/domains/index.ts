import type { MissionDefinition } from "../../mission/definition";
import type { ProjectionComponents } from "../renderers";
import { gridBoard, gridWorldComponents } from "./gridworld";

/**
 * The domains whose renderers the projections know (seed 002 FDR-N016). A mission belongs to a domain
 * when `matches` says so from its definition; none matches: the default renderers draw it.
 */
export interface Domain {
  name: string;
  description: string;
  matches(def: MissionDefinition): boolean;
  components: ProjectionComponents;
}

export const DOMAINS: readonly Domain[] = [
  {
    name: "gridworld",
    description: "an agent on a grid with obstacles: a step writes grid/board.json, each move writes grid/position.json",
    matches: (def) => gridBoard(def) !== null,
    components: gridWorldComponents,
  },
];

export function domainFor(def: MissionDefinition): Domain | null {
  return DOMAINS.find((d) => d.matches(def)) ?? null;
}
