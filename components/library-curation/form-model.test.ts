import { describe, expect, it } from "vitest";
import { entryFromForm, EMPTY_FORM, formFromEntry } from "./form-model";

describe("contribution form model", () => {
  it("splits tags and references, parses YAML actions, and round-trips a stored entry", () => {
    const { entry, errors } = entryFromForm({
      ...EMPTY_FORM,
      title: " Lockfile held ",
      category: "State",
      surface_symptom: "npm install fails: EEXIST lock",
      context_tags: "npm, Lockfile  node",
      references: "npm docs\n\n  RFC 000  ",
      probe_action: "tool: shell\nargs: { command: ls, args: [.npm/_locks] }\nconfirm_when: { exit_code: 0 }",
    });
    expect(errors).toEqual([]);
    expect(entry).toMatchObject({ title: "Lockfile held", context_tags: ["npm", "lockfile", "node"], references: ["npm docs", "RFC 000"], probe_action: { tool: "shell", args: { command: "ls", args: [".npm/_locks"] }, confirm_when: { exit_code: 0 } } });
    expect(entry).not.toHaveProperty("risk_level");
    expect(entryFromForm(formFromEntry(entry)).entry).toEqual(entry);
  });

  it("names the field of an action that is not JSON/YAML, not an object, or too large", () => {
    const bad = entryFromForm({ ...EMPTY_FORM, probe_action: "tool: [unclosed", resolution_action: "- a list" });
    expect(bad.errors.map((e) => e.path)).toEqual(["entry.probe_action", "entry.resolution_action"]);
    expect(bad.errors[0].message).toMatch(/not valid JSON or YAML/);
    expect(bad.errors[1].message).toMatch(/must be an object/);
    expect(entryFromForm({ ...EMPTY_FORM, probe_action: `x: "${"a".repeat(9000)}"` }).errors[0].message).toMatch(/at most 8 KB/);
  });
});
