import { describe, expect, it } from "vitest";
import { causeFamilies, contextTokens, normalizeQuery, normalizeText, tokenize } from "./normalize";

describe("library query normalisation", () => {
  it("maps negated and synonymous movement reports onto one canonical set", () => {
    for (const s of ["the lid won't open", "cover doesn't open", "hatch does not open", "panel will not open", "it is stuck", "slider jammed", "crate refuses to budge", "no movement at all", "0 mm displacement", "zero displacement", "the bin doesn't move"]) {
      const terms = normalizeQuery({ observed_symptom: s }).terms;
      expect(terms, s).toEqual(expect.arrayContaining(["stuck", "immobile", "displacement"]));
    }
  });

  it("names the quantity behind a number with a unit and keeps the number", () => {
    expect(normalizeText("pulled at 30N")).toMatch(/30 n force/);
    expect(normalizeText("30 N pull")).toMatch(/30 n force/);
    expect(normalizeText("12 Nm on the bolt")).toMatch(/12 nm n m torque/);
    expect(normalizeText("4 N·m")).toMatch(/torque/);
    expect(normalizeText("moved 5 mm")).toMatch(/5 mm displacement/);
    expect(normalizeText("surface at 85°C")).toMatch(/85 °c temperature/);
    expect(normalizeText("ambient 80 %RH")).toMatch(/80 % humidity/);
    expect(normalizeText("rotated 90°")).toMatch(/90 ° rotation/);
    // A torque is not also read as a force; a bare "in" is not a length.
    expect(normalizeText("12 Nm")).not.toMatch(/force/);
    expect(normalizeText("step 5 in the plan")).not.toMatch(/displacement/);
  });

  it("maps common error output onto the words entries use", () => {
    expect(normalizeQuery({ observed_symptom: "bash: yq: command not found" }).terms).toEqual(expect.arrayContaining(["command", "found", "127", "missing"]));
    expect(normalizeQuery({ observed_symptom: "exit code 127" }).terms).toEqual(expect.arrayContaining(["command", "found"]));
    expect(normalizeQuery({ observed_symptom: "ENOENT: open config.json" }).terms).toEqual(expect.arrayContaining(["enoent", "file", "directory"]));
    expect(normalizeQuery({ observed_symptom: "listen EADDRINUSE :::8080" }).terms).toEqual(expect.arrayContaining(["eaddrinuse", "address", "port"]));
    expect(normalizeQuery({ observed_symptom: "curl: (6) Could not resolve host: example.org" }).terms).toEqual(expect.arrayContaining(["resolve", "host", "dns", "getaddrinfo"]));
    expect(normalizeQuery({ observed_symptom: "got a 429 from the API" }).terms).toEqual(expect.arrayContaining(["rate", "limit", "requests"]));
  });

  it("gives domain hints, drops stop words and de-duplicates", () => {
    expect(normalizeQuery({ observed_symptom: "drawer pulled at 20 N does not move" }).hints).toEqual({ physical: true, software: false });
    expect(normalizeQuery({ observed_symptom: "npm install fails with EACCES" }).hints).toEqual({ physical: false, software: true });
    expect(tokenize("the drawer and the drawer")).toEqual(["drawer"]);
    const n = normalizeQuery({ observed_symptom: "  Drawer STUCK  " });
    expect(n.symptom).toBe(n.symptom.toLowerCase());
    expect(n.terms.every((t) => /^[a-z0-9]+$/.test(t))).toBe(true);
  });

  it("splits context into tag-like tokens", () => {
    expect(contextTokens("kitchen_drawer", ["indoor", "wood-frame"])).toEqual(expect.arrayContaining(["kitchen_drawer", "kitchen", "drawer", "indoor", "wood-frame", "wood", "frame"]));
    expect(contextTokens(undefined, "ci, linux")).toEqual(expect.arrayContaining(["ci", "linux"]));
  });

  it("groups a reported word with the canonical words a rule added for it into one concept", () => {
    const n = normalizeQuery({ observed_symptom: "The lid won't budge at 30N; ENOENT: no such file or directory" });
    const concept = (w: string) => n.concepts.find((c) => c.includes(w)) ?? [];
    expect(concept("budge")).toEqual(expect.arrayContaining(["stuck", "immobile", "movement", "displacement"]));
    expect(concept("enoent")).toEqual(expect.arrayContaining(["file", "directory", "missing"]));
    expect(concept("lid")).toEqual(["lid"]);
    // Numbers stand alone: a measurement is its own evidence.
    expect(n.concepts).toContainEqual(["30"]);
    expect(n.concepts).toContainEqual(["0"]);
    // Every term is in exactly one concept.
    expect(n.concepts.flat().sort()).toEqual([...n.terms].sort());
  });

  it("spells out contractions and drops discourse words, so they neither match nor count as unexplained", () => {
    for (const s of ["drawer won't open", "drawer wont open", "drawer doesn't open", "drawer doesnt open", "drawer can't open"]) {
      const t = normalizeQuery({ observed_symptom: s }).terms;
      expect(t, s).toEqual(expect.arrayContaining(["drawer", "stuck"]));
      expect(t.some((w) => ["won", "wont", "doesn", "doesnt", "can", "t"].includes(w)), s).toBe(false);
    }
    expect(normalizeQuery({ observed_symptom: "although it keeps coming back, someone tried the latch again" }).terms).toEqual(["back", "latch"]);
  });

  it("keeps the reported symptom unexpanded for trigram similarity", () => {
    expect(normalizeQuery({ observed_symptom: "Drawer  STUCK at 30N" }).symptom).toBe("drawer stuck at 30n");
  });

  it("reads URLs, host names, IP addresses, versions and memory sizes as what they are, not as symptom words", () => {
    expect(normalizeText("certificate has expired calling https://legacy.partner.example/api?x=1")).not.toMatch(/legacy|partner/);
    expect(normalizeText("certificate has expired calling https://legacy.partner.example/api?x=1")).toMatch(/\burl\b/);
    expect(normalizeText("Failed to resolve 'api.stagging.example.com'")).toMatch(/\bhost\b/);
    expect(normalizeText("Failed to resolve 'api.stagging.example.com'")).not.toMatch(/stagging/);
    expect(normalizeText("connect ECONNREFUSED 127.0.0.1:5432")).toMatch(/ip address/);
    expect(normalizeText("lock file's typescript@5.3.3 does not satisfy typescript@5.6.2")).toBe("lock file's typescript version does not satisfy typescript version");
    expect(normalizeText("Tried to allocate 2.00 GiB in a 4 GB container")).toMatch(/2\.00 memory size .* 4 memory size/);
    // Forces, lengths and plain decimals are not versions.
    expect(normalizeText("pulled at 30.0N, moved 2.5 mm")).toMatch(/30\.0 n force .* 2\.5 mm displacement/);
  });
  it("reads a qualitative force grade as no evidence, keeping the force's direction", () => {
    for (const force of ["within Class B parameters", "moderate", "high", "very gentle"]) {
      const n = normalizeQuery({ observed_symptom: "drawer stuck", force_applied: `${force} pull` });
      expect(n.terms, force).toContain("pull");
      expect(n.terms.some((t) => ["class", "parameters", "moderate", "high", "gentle", "within"].includes(t)), force).toBe(false);
    }
    // Numbers with units still name the quantity.
    expect(normalizeQuery({ observed_symptom: "drawer stuck", force_applied: "30 N pull" }).terms).toEqual(expect.arrayContaining(["30", "force", "pull"]));
  });

  it("groups the wordings of one outcome into one concept and marks outcome concepts", () => {
    const n = normalizeQuery({ observed_symptom: "The vase toppled over and the tank leaks; kettle overheats; lamp flickers; red drawer" });
    const concept = (w: string) => n.concepts.findIndex((c) => c.includes(w));
    expect(n.concepts[concept("toppled")]).toEqual(expect.arrayContaining(["fall", "drop"]));
    expect(n.concepts[concept("leaks")]).toEqual(expect.arrayContaining(["leak", "drip", "spill"]));
    expect(n.concepts[concept("overheats")]).toEqual(expect.arrayContaining(["hot", "heat"]));
    for (const w of ["toppled", "leaks", "overheats", "flickers"]) expect(n.outcome[concept(w)], w).toBe(true);
    for (const w of ["vase", "drawer", "red"]) expect(n.outcome[concept(w)], w).toBe(false);
    expect(normalizeQuery({ observed_symptom: "lid won't open" }).outcome.some(Boolean)).toBe(true);
    expect(n.outcome).toHaveLength(n.concepts.length);
  });
});


describe("cause families", () => {
  it("marks the concepts that name a cause (deposit, corrosion, damage, misalignment, wet, electrical), not the object or the outcome", () => {
    const n = normalizeQuery({ observed_symptom: "hinge pin loose; gasket torn at the corner; grate caked with grease; floor damp; faint buzzing at the switch; bracket rusty", object_class: "oven" });
    const families = (w: string) => n.causes[n.concepts.findIndex((c) => c.includes(w))];
    expect(families("loose")).toEqual(["misalignment"]);
    expect(families("torn")).toContain("damage");
    expect(families("caked")).toEqual(["deposit"]);
    expect(families("grease")).toEqual(["deposit"]);
    expect(families("damp")).toEqual(["wet"]);
    expect(families("buzzing")).toEqual(["electrical"]);
    expect(families("rusty")).toEqual(["corrosion"]);
    for (const w of ["hinge", "oven", "switch", "corner"]) expect(families(w), w).toEqual([]);
    expect(n.causes).toHaveLength(n.concepts.length);
    expect(causeFamilies("Rust has filled the thread clearance")).toEqual(["corrosion"]);
    expect(causeFamilies("drawer opens 120 mm")).toEqual([]);
  });
});

describe("telemetry normalisation (issue 18)", () => {
  const terms = (s: string) => normalizeQuery({ observed_symptom: s }).terms;
  it("splits camelCase, snake_case and dotted identifiers and key=value pairs", () => {
    expect(terms("gripperForceZ=12N")).toEqual(expect.arrayContaining(["gripper", "force"]));
    expect(terms("arm.wrist_temp=81C")).toEqual(expect.arrayContaining(["wrist", "temperature", "hot"]));
    // URLs and versions are still read as what they are.
    expect(normalizeText("fetch https://legacy.partner.example/api failed")).not.toMatch(/legacy|partner/);
  });
  it("buckets readings into the words entries use", () => {
    expect(terms("lid lift travel=0.0mm at 15N")).toEqual(expect.arrayContaining(["stuck", "immobile"]));
    expect(terms("slider_pos 0.002 m")).toEqual(expect.arrayContaining(["2", "mm"]));
    expect(terms("hinge effort 5N -> 25N")).toEqual(expect.arrayContaining(["resistance", "rises"]));
    expect(terms("hold force 18, 17, 4 N")).toEqual(expect.arrayContaining(["sudden", "drop", "slip"]));
    expect(terms("spindle current 1.1A -> 4.0A")).toEqual(expect.arrayContaining(["stall", "overload"]));
    expect(terms("cellar rh: 91%")).toEqual(expect.arrayContaining(["humid", "moisture"]));
    expect(terms("latch plate at -3 °C")).toEqual(expect.arrayContaining(["frost", "ice"]));
    expect(terms("pump current 0.0 A")).toEqual(expect.arrayContaining(["power", "unpowered"]));
    expect(terms("response 1500 ms")).toEqual(expect.arrayContaining(["1500", "ms", "2"]));
    expect(terms("pressure 2 bar vs 6 bar setpoint")).toEqual(expect.arrayContaining(["expected", "usual"]));
  });
  it("keeps a reading and its bucket words one concept, numbers apart", () => {
    const c = normalizeQuery({ observed_symptom: "room humidity 88 %" }).concepts;
    expect(c.find((x) => x.includes("humid"))).toEqual(expect.arrayContaining(["humidity", "moisture"]));
    expect(c).toContainEqual(["88"]);
  });
});
