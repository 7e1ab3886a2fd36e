import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * The migrator applies a migration only when its journal time is later than the last one applied: two
 * migrations with one number or one time means one of them never runs on a database that has the other.
 */
describe("the migrations journal", () => {
  const dir = path.join(import.meta.dirname, "migrations");
  const journal = JSON.parse(fs.readFileSync(path.join(dir, "meta", "_journal.json"), "utf8")) as { entries: Array<{ idx: number; when: number; tag: string }> };

  it("numbers the migrations 0, 1, 2 … with strictly increasing times, one file each", () => {
    const { entries } = journal;
    expect(entries.map((e) => e.idx)).toEqual(entries.map((_, i) => i));
    for (let i = 1; i < entries.length; i++) expect(entries[i].when, `${entries[i].tag} must come after ${entries[i - 1].tag}`).toBeGreaterThan(entries[i - 1].when);
    for (const e of entries) expect(e.tag.startsWith(String(e.idx).padStart(4, "0") + "_"), e.tag).toBe(true);
    const files = fs.readdirSync(dir).filter((f) => f.endsWith(".sql")).map((f) => f.replace(/\.sql$/, "")).sort();
    expect(files).toEqual(entries.map((e) => e.tag).sort());
  });
});
