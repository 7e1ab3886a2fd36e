import { describe, expect, it } from "vitest";
import { ACTIONS, can, describeMissingPermission, ROLES, type Principal, type Role } from "./roles";

const user = (...roles: Role[]): Principal => ({ id: "u", name: "U", email: "u@x", roles });

describe("the permission matrix", () => {
  it("lets every role view missions and gates", () => {
    for (const r of ROLES) {
      expect(can(user(r), "mission.view")).toBe(true);
      expect(can(user(r), "gate.view")).toBe(true);
    }
  });

  it("lets only operators and admins resolve gates, start, pause and resume missions", () => {
    const expected: Record<Role, boolean> = { admin: true, operator: true, reviewer: false, contributor: false, auditor: false };
    for (const r of ROLES) {
      expect(can(user(r), "gate.decide"), r).toBe(expected[r]);
      expect(can(user(r), "mission.create"), r).toBe(expected[r]);
      expect(can(user(r), "mission.control"), r).toBe(expected[r]);
    }
  });

  it("lets only admins manage users", () => {
    expect(ROLES.filter((r) => can(user(r), "user.manage"))).toEqual(["admin"]);
  });

  it("lets only admins manage learned patterns; admins, operators and auditors export memory", () => {
    expect(ROLES.filter((r) => can(user(r), "pattern.manage"))).toEqual(["admin"]);
    expect(ROLES.filter((r) => can(user(r), "memory.export"))).toEqual(["admin", "operator", "auditor"]);
    expect(describeMissingPermission(user("operator"), "pattern.manage")).toMatch(/operator.*pattern manage.*admin/);
  });

  it("lets everyone read the library, most roles contribute, reviewers review, admins manage it", () => {
    expect(ROLES.filter((r) => can(user(r), "library.view"))).toEqual([...ROLES]);
    expect(ROLES.filter((r) => can(user(r), "library.contribute"))).toEqual(["admin", "operator", "reviewer", "contributor"]);
    expect(ROLES.filter((r) => can(user(r), "library.review"))).toEqual(["admin", "reviewer"]);
    expect(ROLES.filter((r) => can(user(r), "library.manage"))).toEqual(["admin"]);
  });

  it("grants a user with several roles the union of their permissions", () => {
    expect(can(user("auditor", "operator"), "gate.decide")).toBe(true);
  });

  it("refuses everything to nobody and to a user without roles", () => {
    for (const a of ACTIONS) {
      expect(can(null, a)).toBe(false);
      expect(can(user(), a)).toBe(false);
    }
  });

  it("explains a refusal in words: the user's roles and the roles needed", () => {
    expect(describeMissingPermission(user("auditor"), "gate.decide")).toMatch(/auditor.*gate decide.*admin or operator/);
    expect(describeMissingPermission(null, "gate.decide")).toMatch(/not signed in/);
  });
});
