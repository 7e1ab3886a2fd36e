import { describe, expect, it } from "vitest";
import { libraryGrowth } from "./growth";

describe("library growth", () => {
  it("counts the entries in force after each version: added and restored count up, deprecated down, edits not at all", () => {
    const v = (version: number, changes: string[]) => ({ version, createdAt: `2026-11-0${version}T10:00:00.000Z`, changelog: changes.map((change) => ({ change })) });
    expect(libraryGrowth([v(3, ["deprecated", "edited"]), v(1, ["added", "added", "added"]), v(2, ["added", "edited"]), v(4, ["restored"])])).toEqual([
      { version: 1, date: "2026-11-01", active: 3, added: 3, deprecated: 0 },
      { version: 2, date: "2026-11-02", active: 4, added: 1, deprecated: 0 },
      { version: 3, date: "2026-11-03", active: 3, added: 0, deprecated: 1 },
      { version: 4, date: "2026-11-04", active: 4, added: 1, deprecated: 0 },
    ]);
  });
});
