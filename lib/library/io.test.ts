import { describe, expect, it } from "vitest";
import { starterLibrary } from "../../db/seed";
import { deriveTitle } from "./entry";
import { describeFileError, detectFormat, parseLibraryFile, serializeLibrary } from "./io";

const starter = starterLibrary();

describe("library files (JSON and YAML in the document's schema)", () => {
  it("round-trips the starter library through YAML and JSON unchanged", () => {
    for (const format of ["yaml", "json"] as const) {
      const text = serializeLibrary(starter, format, { version: 3 });
      const back = parseLibraryFile(text);
      expect(back.ok, format).toBe(true);
      if (!back.ok) continue;
      expect(back.format).toBe(format);
      const byId = new Map(starter.map((e) => [e.failure_id, e]));
      expect(back.entries).toHaveLength(starter.length);
      for (const e of back.entries) expect(e).toEqual(byId.get(e.failure_id));
    }
  });

  it("writes the document's field order and leaves absent optional fields out", () => {
    const yaml = serializeLibrary([starter.find((e) => e.failure_id === "FM-PHY-0003")!], "yaml", { version: 7 });
    expect(yaml).toMatch(/^# Faultline failure-mode library, version 7: 1 entry/);
    const keys = [...yaml.matchAll(/^[- ] (\w+):/gm)].map((m) => m[1]);
    expect(keys.slice(0, 8)).toEqual(["failure_id", "title", "category", "surface_symptom", "hidden_reality", "diagnostic_probe", "resolution_path", "risk_level"]);
    expect(yaml).not.toMatch(/risk_notes|probe_action/);
  });

  it("names the entry position, failure_id, field and line of every invalid field", () => {
    const text = [
      "- failure_id: FM-TST-0001",
      "  category: Physical",
      "  surface_symptom: Lid will not turn at 4 N·m",
      "  hidden_reality: Vacuum holds the lid on the jar",
      "  diagnostic_probe: Tap the lid",
      "  resolution_path: Break the seal",
      "  risk_level: Low",
      "- failure_id: FM-TST-0002",
      "  category: Cosmic",
      "  surface_symptom: short",
      "  hidden_reality: Something hidden happens here",
      "  diagnostic_probe: Look at it",
      "  resolution_path: Fix it now",
      "  risk_level: Low",
    ].join("\n");
    const r = parseLibraryFile(text);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.errors).toEqual([
      expect.objectContaining({ index: 1, failureId: "FM-TST-0002", path: "category", line: 9 }),
      expect.objectContaining({ index: 1, failureId: "FM-TST-0002", path: "surface_symptom", line: 10, message: "must be at least 10 characters" }),
    ]);
    expect(describeFileError(r.errors[1])).toBe("entry 2 (FM-TST-0002, line 10), surface_symptom: must be at least 10 characters");
  });

  it("refuses duplicate ids, non-lists, broken syntax and empty files with a reason", () => {
    const one = serializeLibrary([starter[0]], "json");
    const dup = `[${one.trim().slice(1, -1)},${one.trim().slice(1, -1)}]`;
    const d = parseLibraryFile(dup);
    expect(!d.ok && d.errors[0]).toMatchObject({ index: 1, path: "failure_id", message: expect.stringMatching(/appears twice/) });
    const obj = parseLibraryFile('{"failure_id": "FM-PHY-0001"}');
    expect(!obj.ok && obj.errors[0].message).toMatch(/must be a list of entries/);
    const broken = parseLibraryFile('[{"failure_id": "FM-PHY-0001",]', { fileName: "x.json" });
    expect(!broken.ok && broken.errors[0].message).toMatch(/^Not valid JSON at line 1/);
    const empty = parseLibraryFile("  \n");
    expect(!empty.ok && empty.errors[0].message).toMatch(/The file is empty/);
    const big = parseLibraryFile("x".repeat(5_000_001));
    expect(!big.ok && big.errors[0].message).toMatch(/at most 5,000,000/);
  });

  it("accepts { entries: [...] } and tells formats apart by name or first character", () => {
    const r = parseLibraryFile(JSON.stringify({ entries: [starter[0]] }));
    expect(r.ok && r.entries[0].failure_id).toBe(starter[0].failure_id);
    expect(detectFormat("[]")).toBe("json");
    expect(detectFormat("- failure_id: x")).toBe("yaml");
    expect(detectFormat("[]", "lib.yml")).toBe("yaml");
  });

  it("derives a title when an imported entry has none", () => {
    const r = parseLibraryFile(
      JSON.stringify([{ failure_id: "FM-TST-0009", category: "State", surface_symptom: "Jar lid will not turn", hidden_reality: "A vacuum seal holds the lid down. It releases when air gets in.", diagnostic_probe: "Tap the lid edge", resolution_path: "Break the seal with a spoon", risk_level: "Low" }]),
    );
    expect(r.ok && r.entries[0].title).toBe(deriveTitle("A vacuum seal holds the lid down. It releases when air gets in."));
    expect(r.ok && r.entries[0].title).toMatch(/^Vacuum seal/);
  });
});
