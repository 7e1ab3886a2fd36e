import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { GRID_LEGEND, renderGrid } from "@/lib/lab/domains/gridworld";
import { parseMissionDefinition } from "@/lib/mission";
import type { MissionState } from "@/lib/mission/types";
import { parseBoardText } from "./board-text";

describe("parseBoardText", () => {
  it("reads the grid-world renderer's board back: every cell, in place, and the caption", () => {
    const parsed = parseMissionDefinition(fs.readFileSync(path.resolve("examples/gridworld.yaml"), "utf8"));
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
    const def = parsed.definition;
    // The board laid out and two moves done: the rover at (0,0), then (0,3).
    const state = { definition: def, completedSteps: [{ agent: "mapper", step: 0 }, { agent: "rover", step: 0 }, { agent: "rover", step: 1 }] } as unknown as MissionState;
    const text = renderGrid(state);
    const board = parseBoardText(text)!;
    expect(board.columns).toEqual(["0", "1", "2", "3", "4", "5"]);
    expect(board.rows.map((r) => r.label)).toEqual(["0", "1", "2", "3"]);
    // Drawn again from the cells, the text is the renderer's own.
    const redrawn = [`    ${board.columns.join(" ")}`, ...board.rows.map((r) => `${r.label.padStart(3)} ${r.cells.join(" ")}`), ...board.caption.map((c) => `    ${c}`)].join("\n");
    expect(redrawn).toBe(text);
    expect(board.rows.flatMap((r) => r.cells).every((c) => c in GRID_LEGEND)).toBe(true);
    expect(board.rows[3].cells[0]).toBe("A");
    expect(board.rows[0].cells[0]).toBe("*");
    expect(board.caption).toEqual(["agent at (0,3); 2 move(s)"]);
  });

  it("is null for text in any other shape (the default renderer's state, a malformed row)", () => {
    expect(parseBoardText("phase: EXECUTION\nagents: writer running")).toBeNull();
    expect(parseBoardText("    0 1 2\n  0 . . .\n  1 . .")).toBeNull();
    expect(parseBoardText("    0 1 2\n  0 . .")).toBeNull();
    expect(parseBoardText("")).toBeNull();
  });
});
