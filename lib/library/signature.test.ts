import { describe, expect, it } from "vitest";
import { contradictions, deniedWords, entrySignature, isSoftwareEntry, signature } from "./signature";

// Entries and reports below are worded for these tests (not the starter library's or the labelled sets' sentences).
const metalArcs = entrySignature({
  title: "Metal object in the oven cavity",
  surface_symptom: "Crackling and blue sparks a few seconds after the microwave starts, near a plate's decorated edge",
  hidden_reality: "Foil, a wire tie or a metal-trimmed plate concentrates the field and arcs.",
});
const latchedDrawer = entrySignature({
  title: "Hidden catch inside the drawer",
  surface_symptom: "Drawer pulled at 20 N: 0 mm displacement, hard stop, no visible obstruction",
  hidden_reality: "A safety catch behind the front hooks the frame until its lever is pressed.",
});
const partwayDrawer = entrySignature({
  title: "Item wedged behind drawer",
  surface_symptom: "Drawer slides out 50 mm, then stops hard at 25 N",
  hidden_reality: "Something fell behind the drawer and wedges against the back panel.",
});
const hotJoint = entrySignature({
  title: "Motor derated by heat",
  surface_symptom: "Arm slowed to half speed; joint 3 motor at 80 °C after a long heavy cycle",
  hidden_reality: "Sustained torque heated the windings; the controller limits speed and torque.",
});
const swollenWood = entrySignature({
  title: "Wood swollen by damp",
  surface_symptom: "Drawer force rises from 10 N to 40 N without a sudden release; room at 80 % RH",
  hidden_reality: "Humid air swelled the wooden sides so they bind in the carcass.",
});
const scaledValve = entrySignature({
  title: "Valve seized by scale",
  surface_symptom: "Stop valve handle 0° rotation at 8 N·m; white crust around the spindle",
  hidden_reality: "Hard-water limescale binds the spindle.",
});

describe("symptom signatures: a report that contradicts an entry", () => {
  it("denies the entry's cause: an arc with no metal in the dish is not the metal-in-microwave failure", () => {
    const denied = signature("reheat(ceramic bowl, no metal, no gold trim): arcs from the side wall at t=4s, burnt spot on the wall panel");
    expect(contradictions(denied, metalArcs)).toEqual([`denies the entry's "metal…"`]);
    const withFoil = signature("reheat: sparks at t=2s, foil lid left on the container");
    expect(contradictions(withFoil, metalArcs)).toEqual([]);
  });

  it("does not count a denial the entry shares as a contradiction", () => {
    expect(contradictions(signature("pull 30N disp=0.0mm rigid, obstruction=none"), latchedDrawer)).toEqual([]);
    expect(contradictions(signature("drawer 0 mm at 30 N; no obstruction visible from outside"), latchedDrawer)).toEqual([]);
  });

  it("denies a cause family the entry asserts: no scale and no rust is not a scaled valve", () => {
    expect(contradictions(signature("lever needs 14 N·m, moves 30deg then stiff; packing nut overtightened; no scale, no rust"), scaledValve)).toEqual([`denies the entry's "scale…"`, "denies the entry's cause (deposit)"]);
    const crusted = entrySignature({ title: "Seized stop valve", surface_symptom: "Handle 0° rotation at 8 N·m; white crust on the spindle", hidden_reality: "Hard-water deposits bind it." });
    expect(contradictions(signature("handle stiff at 12 N·m; no crust, packing nut overtightened"), crusted)).toEqual(["denies the entry's cause (deposit)"]);
  });

  it("reads motion one way: a drawer that travelled 30 mm is not one that does not move, but 0 mm does not rule out a partway stop", () => {
    expect(contradictions(signature("open_drawer: travel=30mm then hard stop at 35N"), latchedDrawer)).toEqual(["motion: report moved, entry still"]);
    expect(contradictions(signature("open_drawer: ERR_STALL at 0mm, pull 45N"), partwayDrawer)).toEqual([]);
    expect(contradictions(signature("open_drawer: ERR_STALL at 0mm, pull 45N"), latchedDrawer)).toEqual([]);
  });

  it("trusts a reading over a fault message: an overheating fault on a joint at room temperature is not a hot joint", () => {
    expect(contradictions(signature("MC: overheating, temperature limit exceeded, raw_temperature=-886; leg at room temperature, no motion before"), hotJoint)).toEqual(["temperature: report normal, entry hot"]);
    expect(contradictions(signature("joint 3 motor 76C after 3h loop, speed scaled down"), hotJoint)).toEqual([]);
    // An ambient reading says where the robot is, not how hot the joint is.
    expect(signature("ambient 22 °C, motor temp 78C").temperature).toBe("hot");
    expect(signature("amb 21C; joint warm").temperature).toBeUndefined();
  });

  it("reads humidity and force trends against the entry's", () => {
    expect(contradictions(signature("pull 12N->40N ramp, rh=20%"), swollenWood)).toEqual(["humidity: report dry, entry humid"]);
    expect(contradictions(signature("pull force 40N -> 5N sudden drop, rh=82%"), swollenWood)).toEqual(["trend: report drops, entry rises"]);
    expect(contradictions(signature("pull_drawer f=10N->38N ramp, ambient_rh=82%"), swollenWood)).toEqual([]);
  });

  it("reads denials only against physical entries when asked: in error output 'no X' is the failure itself", () => {
    const sw = entrySignature({ title: "Host key not known", surface_symptom: "ssh: No host key is known for the server", hidden_reality: "The known hosts file lacks the server's key." });
    const report = signature("No ECDSA host key is known for git.example and strict checking is on");
    expect(contradictions(report, sw, { denials: false })).toEqual([]);
    expect(isSoftwareEntry({ failure_id: "FM-SW-0038" })).toBe(true);
    expect(isSoftwareEntry({ failure_id: "PHYS-042" })).toBe(false);
    expect(isSoftwareEntry({ failure_id: "MAT-017", probe_action: { kind: "shell" } })).toBe(true);
  });
});

describe("denied words", () => {
  it("takes each denied phrase's head, ending at conjunctions and the next denial", () => {
    expect(deniedWords("no give and no visible obstruction")).toEqual(["give", "obstruction"]);
    expect(deniedWords("no access permission; keyhole=none; corrosion_detected=false; rust not visible")).toEqual(["permission", "keyhole", "corrosion", "rust"]);
    expect(deniedWords("no metal, no trim")).toEqual(["metal", "trim"]);
  });
});

describe("part states", () => {
  // Worded for this test: an appliance entry whose parts are off, and two reports about the same appliance.
  const deadOven = entrySignature({
    title: "Oven door switch open",
    surface_symptom: "Timer counts down but the fan is silent and the lamp off",
    hidden_reality: "A door switch stays open, so nothing but the timer runs.",
  });
  it("a report whose part is on contradicts an entry whose part is off, and agrees when it is off too", () => {
    expect(contradictions(signature("cook START: lamp is on, fan running, food cold after 3 min"), deadOven)).toEqual(["state: report lamp… on, entry off"]);
    expect(contradictions(signature("cook START: timer counting, lamp=off, no fan noise"), deadOven)).toEqual([]);
  });
  it("does not take a verb's particle for a part ('switched off', 'turn on')", () => {
    expect(signature("operator switched off the breaker, then turned on the lamp").states.size).toBe(0);
    expect(contradictions(signature("lamp switched off, timer counting"), deadOven)).toEqual([]);
  });
});

describe("the title's failure said the other way", () => {
  // Worded for this test: entries whose titles negate a state or use an un-word, and reports about the same objects.
  const unlatchedLid = entrySignature({ title: "Lid not latched", surface_symptom: "Blender START: display on, motor silent", hidden_reality: "The lid's interlock tab is not engaged, so the motor circuit stays open." });
  const unemptiedTank = entrySignature({ title: "Tank unemptied, pump locked", surface_symptom: "Dehumidifier stops; tank icon lit", hidden_reality: "The tank is full and the float switch stops the compressor." });
  it("a report asserting what the title negates contradicts it; one that negates it too agrees", () => {
    expect(contradictions(signature("blender START: motor silent, lid latched (tab engaged)"), unlatchedLid)).toEqual([`asserts what the entry's title negates ("latch…")`]);
    expect(contradictions(signature("blender START: motor silent, lid not latched"), unlatchedLid)).toEqual([]);
    expect(contradictions(signature("blender START: motor silent; latch_closed=false"), unlatchedLid)).toEqual([]);
  });
  it("the plain form of the title's un-word, or the un-word of its plain word, contradicts it", () => {
    expect(contradictions(signature("dehumidifier stopped; tank emptied 5 min ago, float down"), unemptiedTank)).toEqual([`says "empti…" where the entry's title says "unempti…"`]);
    expect(contradictions(signature("dehumidifier stopped; tank icon lit, pump unlocks after reset"), unemptiedTank)).toEqual([`says "unlock…" where the entry's title says "lock…"`]);
    expect(contradictions(signature("dehumidifier stopped; tank icon lit, pump locked"), unemptiedTank)).toEqual([]);
  });
  it("reads a state that persists: a fan that keeps running is on", () => {
    expect([...signature("door opened: fan and lamp keep running").states]).toEqual([["fan", "on"], ["lamp", "on"]]);
    expect([...signature("fan stays off after START").states]).toEqual([["fan", "off"]]);
  });
});

describe("a title that names what is missing", () => {
  it("a report denying the missing thing agrees: 'no depth' is the symptom of depth holes", () => {
    const holes = entrySignature({ title: "Glossy object depth holes", surface_symptom: "Point cloud empty over a polished bowl", hidden_reality: "Specular surfaces return no structured-light pattern." });
    expect(contradictions(signature("cam: no depth over the bowl, table fine"), holes)).toEqual([]);
    const metal = entrySignature({ title: "Metal object in the oven cavity", surface_symptom: "Sparks", hidden_reality: "Foil arcs." });
    expect(contradictions(signature("arcs, no metal in the cavity"), metal)).toEqual([`denies the entry's "metal…"`]);
  });
});
