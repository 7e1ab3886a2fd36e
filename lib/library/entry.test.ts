import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CATEGORIES, deriveTitle, parseEntries, RISK_LEVELS } from "./entry";

const starter = ["physical.yaml", "software.yaml"].map((f) => fs.readFileSync(path.join(__dirname, "../../db/seed/library", f), "utf8"));

describe("the starter library", () => {
  const parsed = starter.map(parseEntries);
  const entries = parsed.flatMap((p) => (p.ok ? p.entries : []));

  it("validates against the entry schema", () => {
    for (const p of parsed) expect(p.ok ? [] : p.errors).toEqual([]);
  });

  it("has at least 80 entries over all five categories and all four risk levels, half of them physical", () => {
    expect(entries.length).toBeGreaterThanOrEqual(80);
    for (const c of CATEGORIES) expect(entries.filter((e) => e.category === c).length, c).toBeGreaterThan(0);
    for (const r of RISK_LEVELS) expect(entries.filter((e) => e.risk_level === r).length, r).toBeGreaterThan(0);
    const physical = entries.filter((e) => e.failure_id.startsWith("FM-PHY-")).length;
    expect(physical / entries.length).toBeGreaterThanOrEqual(0.45);
    expect(new Set(entries.map((e) => e.failure_id)).size).toBe(entries.length);
  });

  it("gives every software entry a machine-executable probe", () => {
    for (const e of entries.filter((x) => x.failure_id.startsWith("FM-SW-"))) expect(e.probe_action, e.failure_id).toBeDefined();
  });
});

describe("entry validation", () => {
  it("reports field errors with the entry's position and id, and refuses a duplicate id", () => {
    const r = parseEntries(`
- failure_id: FM-PHY-0001
  category: Physical
  surface_symptom: "Drawer does not move when pulled"
  hidden_reality: "A latch inside catches the frame"
  diagnostic_probe: "Press and pull"
  resolution_path: "Release the latch"
  risk_level: Low
- failure_id: FM-PHY-0001
  category: Physical
  surface_symptom: "Drawer does not move when pulled"
  hidden_reality: "A latch inside catches the frame"
  diagnostic_probe: "Press and pull"
  resolution_path: "Release the latch"
  risk_level: Low
- failure_id: bad
  category: Liquid
  surface_symptom: x
  risk_level: Extreme
`);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.errors).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ index: 1, path: "failure_id", message: expect.stringMatching(/appears twice/) }),
        expect.objectContaining({ index: 2, path: "failure_id" }),
        expect.objectContaining({ index: 2, path: "category", message: expect.stringMatching(/Physical, Material/) }),
        expect.objectContaining({ index: 2, path: "risk_level" }),
        expect.objectContaining({ index: 2, path: "hidden_reality" }),
      ]),
    );
  });

  it("derives a title from the hidden reality when an import lacks one", () => {
    expect(deriveTitle("A child-safety latch inside the drawer front catches on the frame")).toBe("Child-safety latch inside the drawer front");
    expect(deriveTitle("The wood has swollen with humidity, binding the runners")).toBe("Wood has swollen with humidity");
    const r = parseEntries(`[{"failure_id":"FM-PHY-0009","category":"State","surface_symptom":"Lid will not turn at all","hidden_reality":"Vacuum seal from cooling holds the lid","diagnostic_probe":"Tap the lid rim","resolution_path":"Break the seal","risk_level":"Low"}]`);
    expect(r.ok && r.entries[0].title).toBe("Vacuum seal from cooling");
  });
});
