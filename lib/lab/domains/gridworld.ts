import type { MissionDefinition } from "../../mission/definition";
import type { MissionState } from "../../mission/types";
import type { ProjectionComponents } from "../renderers";

/**
 * The grid-world demo domain (seed 002 FDR-N016, the document's robot picture): an embodied agent on a
 * grid with obstacles. A mission is a grid-world mission when one of its steps writes the board,
 * `grid/board.json` ({ width, height, obstacles: [[x, y]…], goal: [x, y] }), with the file tool; each
 * step that writes `grid/position.json` ({ x, y }) moves the agent once it succeeded. Everything is read
 * from the definition and the state, so the renderers are pure: same state, same board. Type imports only:
 * lib/views/state-render.ts (loaded by the console's client components) draws it into HITL prompts.
 */

export const BOARD_PATH = "grid/board.json";
export const POSITION_PATH = "grid/position.json";

export interface GridBoard {
  width: number;
  height: number;
  obstacles: Array<[number, number]>;
  goal: [number, number] | null;
}

type Pos = { x: number; y: number };

function writes(def: MissionDefinition): Array<{ agent: string; step: number; path: string; content: string }> {
  return def.phases.flatMap((p) =>
    p.agents.flatMap((a) =>
      (a.steps ?? []).flatMap((s, i) => {
        const args = s.args as { op?: unknown; path?: unknown; content?: unknown } | undefined;
        return s.tool === "file" && args?.op === "write" && typeof args.path === "string" && typeof args.content === "string" ? [{ agent: a.name, step: i, path: args.path, content: args.content }] : [];
      }),
    ),
  );
}

function parse<T>(text: string): T | null {
  try {
    return JSON.parse(text) as T;
  } catch {
    return null;
  }
}

/** The board the mission declares, or null when it is not a grid-world mission (or the board is malformed). */
export function gridBoard(def: MissionDefinition): GridBoard | null {
  const w = writes(def).find((x) => x.path === BOARD_PATH);
  const b = w ? parse<Partial<GridBoard>>(w.content) : null;
  if (!b || !Number.isInteger(b.width) || !Number.isInteger(b.height) || b.width! < 1 || b.height! < 1 || b.width! > 60 || b.height! > 40) return null;
  return { width: b.width!, height: b.height!, obstacles: Array.isArray(b.obstacles) ? b.obstacles.filter((o) => Array.isArray(o) && o.length === 2) : [], goal: Array.isArray(b.goal) && b.goal.length === 2 ? b.goal : null };
}

/** Where the agent has been, in order: the positions written by the steps that succeeded. */
export function gridPath(s: MissionState): Pos[] {
  const moves = new Map(writes(s.definition).filter((x) => x.path === POSITION_PATH).map((x) => [`${x.agent}/${x.step}`, x.content]));
  return s.completedSteps.flatMap((c) => {
    const content = moves.get(`${c.agent}/${c.step}`);
    const p = content ? parse<Pos>(content) : null;
    return p && Number.isInteger(p.x) && Number.isInteger(p.y) ? [{ x: p.x, y: p.y }] : [];
  });
}

/** The board's glyphs and what each means: the renderer draws with them, a console board reads them back. */
export const GRID_GLYPHS = { agent: "A", obstacle: "#", goal: "G", visited: "*", blocked: "X", free: "." } as const;
export const GRID_LEGEND: Readonly<Record<string, string>> = {
  [GRID_GLYPHS.agent]: "agent",
  [GRID_GLYPHS.obstacle]: "obstacle",
  [GRID_GLYPHS.goal]: "goal",
  [GRID_GLYPHS.visited]: "visited",
  [GRID_GLYPHS.blocked]: "agent on an obstacle",
  [GRID_GLYPHS.free]: "free",
};

/** The board as text: A the agent, # an obstacle, G the goal, * where it has been, X the agent on an obstacle. */
export function renderGrid(s: MissionState): string {
  const board = gridBoard(s.definition);
  if (!board) return `(no grid: the mission writes no valid ${BOARD_PATH})`;
  const path = gridPath(s);
  const at = path.at(-1) ?? null;
  const blocked = new Set(board.obstacles.map(([x, y]) => `${x},${y}`));
  const seen = new Set(path.map((p) => `${p.x},${p.y}`));
  const rows: string[] = [`    ${Array.from({ length: board.width }, (_, x) => String(x % 10)).join(" ")}`];
  for (let y = 0; y < board.height; y++) {
    const cells = Array.from({ length: board.width }, (_, x) => {
      const k = `${x},${y}`;
      if (at && at.x === x && at.y === y) return blocked.has(k) ? GRID_GLYPHS.blocked : GRID_GLYPHS.agent;
      if (blocked.has(k)) return GRID_GLYPHS.obstacle;
      if (board.goal && board.goal[0] === x && board.goal[1] === y) return GRID_GLYPHS.goal;
      return seen.has(k) ? GRID_GLYPHS.visited : GRID_GLYPHS.free;
    });
    rows.push(`${String(y).padStart(3)} ${cells.join(" ")}`);
  }
  const where = at ? `agent at (${at.x},${at.y})${blocked.has(`${at.x},${at.y}`) ? " — on an obstacle" : ""}${board.goal && at.x === board.goal[0] && at.y === board.goal[1] ? " — at the goal" : ""}` : "agent not placed yet";
  rows.push(`    ${where}; ${path.length} move(s)`);
  return rows.join("\n");
}

/** The grid-world renderers: the board as the snapshot, a move as its action line; the rest is the default. */
export const gridWorldComponents: ProjectionComponents = {
  renderSnapshot: (s) => renderGrid(s),
  renderAction: (e, s) => {
    const base = `#${String(e.seq).padStart(3)} ${e.type.padEnd(22)} ${e.reason}`;
    if (e.type !== "tool.succeeded") return base;
    const step = s.definition.phases.flatMap((p) => p.agents).find((a) => a.name === e.payload.agent)?.steps?.[e.payload.step];
    const args = step?.args as { op?: string; path?: string; content?: string } | undefined;
    const p = step?.tool === "file" && args?.op === "write" && args.path === POSITION_PATH && args.content ? parse<Pos>(args.content) : null;
    return p ? `${base}\n      moves to (${p.x},${p.y})` : base;
  },
};
